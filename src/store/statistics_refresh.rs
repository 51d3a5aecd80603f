//! The planner's statistics after an import into a database that holds data: only the tables
//! the import grew noticeably are analyzed again.
//!
//! A full `ANALYZE` of SQLite reads every index of every table (8–14 s on the benchmark's
//! scale `l`, with the write lock held throughout, so a server writing to the same file waits),
//! however few records the import brought. Statistics describe proportions, which a few
//! records more do not move: a table is analyzed again when it grew by at least a tenth of the
//! rows its statistics record, or has none. PostgreSQL's `ANALYZE` samples each table and
//! blocks no writer; it runs whole, as before.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::statistics::{exists, mend_statistics};
use super::{Db, StoreError};

/// A table is analyzed again once it grew by this fraction of its recorded rows.
const GROWTH_DIVISOR: i64 = 10;

/// Tables without a rowid whose rows follow another table's (a signal's tags and companies are
/// written with the signal): analyzed with it, never counted.
const FOLLOWERS: [(&str, &str); 2] = [("signal_tags", "signals"), ("signal_companies", "signals")];

/// How large each table was before an import: its largest rowid (rows are only added by an
/// import, so the growth of the largest rowid is the rows it added), or its row count for a
/// table without rowid. Empty on PostgreSQL.
#[derive(Debug, Clone, Default)]
pub struct TableSizes(HashMap<String, i64>);

/// Which tables a refresh analyzed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// The tables analyzed again, in name order; empty when none grew enough.
    pub tables: Vec<String>,
    /// Whether the whole database was analyzed (PostgreSQL).
    pub everything: bool,
}

impl Db {
    /// The sizes of the tables an import may grow, to compare with after it.
    pub async fn table_sizes(&self) -> Result<TableSizes, StoreError> {
        match self {
            Db::Sqlite(sqlite) => sizes(sqlite.pool()).await,
            Db::Postgres(_) => Ok(TableSizes::default()),
        }
    }

    /// Refreshes the statistics of the tables that grew since `before` by at least a tenth of
    /// the rows their statistics record (or that have none); on PostgreSQL, of every table.
    pub async fn refresh_statistics(&self, before: &TableSizes) -> Result<Refreshed, StoreError> {
        match self {
            Db::Sqlite(sqlite) => {
                let pool = sqlite.pool();
                let tables = grown_tables(pool, before).await?;
                for table in &tables {
                    let sql = format!("ANALYZE \"{table}\"");
                    sqlx::query(sqlx::AssertSqlSafe(sql)).execute(pool).await?;
                }
                if !tables.is_empty() {
                    mend_statistics(pool).await?;
                }
                Ok(Refreshed {
                    tables,
                    everything: false,
                })
            }
            Db::Postgres(_) => {
                self.analyze().await?;
                Ok(Refreshed {
                    tables: Vec::new(),
                    everything: true,
                })
            }
        }
    }
}

/// The ordinary tables of the database (not SQLite's own, not the search indexes' shadow
/// tables, whose look-ups are by key whatever the statistics say), with whether each has a
/// rowid.
async fn tables(pool: &SqlitePool) -> Result<Vec<(String, bool)>, StoreError> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' \
         AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(name, without_rowid)| (name, without_rowid == 0))
        .collect())
}

async fn sizes(pool: &SqlitePool) -> Result<TableSizes, StoreError> {
    let mut sizes = HashMap::new();
    for (table, has_rowid) in tables(pool).await? {
        if FOLLOWERS.iter().any(|(follower, _)| *follower == table) {
            continue;
        }
        let sql = if has_rowid {
            format!("SELECT COALESCE(MAX(rowid), 0) FROM \"{table}\"")
        } else {
            format!("SELECT COUNT(*) FROM \"{table}\"")
        };
        let size: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(pool)
            .await?;
        sizes.insert(table, size);
    }
    Ok(TableSizes(sizes))
}

/// The tables to analyze again, with the tables that follow them.
async fn grown_tables(pool: &SqlitePool, before: &TableSizes) -> Result<Vec<String>, StoreError> {
    let after = sizes(pool).await?;
    let recorded = recorded_rows(pool).await?;
    let mut grown: Vec<String> = after
        .0
        .iter()
        .filter(|(table, size)| {
            let added = **size - before.0.get(*table).copied().unwrap_or(0);
            added > 0
                && recorded
                    .get(*table)
                    .is_none_or(|rows| added * GROWTH_DIVISOR >= *rows)
        })
        .map(|(table, _)| table.clone())
        .collect();
    let followers: Vec<String> = FOLLOWERS
        .iter()
        .filter(|(_, leader)| grown.iter().any(|t| t == leader))
        .map(|(follower, _)| follower.to_string())
        .collect();
    grown.extend(followers);
    grown.sort();
    Ok(grown)
}

/// The rows each table's statistics record (the first figure of its `sqlite_stat1` rows);
/// none before the database was ever analyzed.
async fn recorded_rows(pool: &SqlitePool) -> Result<HashMap<String, i64>, StoreError> {
    if !exists(pool, "sqlite_stat1").await? {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT tbl, stat FROM sqlite_stat1")
        .fetch_all(pool)
        .await?;
    let mut recorded: HashMap<String, i64> = HashMap::new();
    for (table, stat) in rows {
        let count = stat
            .split(' ')
            .next()
            .and_then(|n| n.parse::<i64>().ok())
            .unwrap_or(0);
        let entry = recorded.entry(table).or_insert(0);
        *entry = (*entry).max(count);
    }
    Ok(recorded)
}
