//! The query planner's statistics.

use sqlx::SqlitePool;

use super::{Db, StoreError};

impl Db {
    /// Refreshes the query planner's statistics, after a bulk load.
    pub async fn analyze(&self) -> Result<(), StoreError> {
        match self {
            Db::Sqlite(sqlite) => {
                let pool = sqlite.pool();
                sqlx::query("ANALYZE").execute(pool).await?;
                mend_statistics(pool).await?;
            }
            Db::Postgres(pool) => {
                sqlx::query("ANALYZE").execute(pool).await?;
            }
        }
        Ok(())
    }
}

/// Mends what `ANALYZE` wrote that misleads the planner later: the statistics of tables that
/// were empty ([`forget_empty_tables`]) and the samples of the search indexes
/// ([`forget_search_index_samples`]). Runs after each `ANALYZE` and at every start, after the
/// migrations, so databases analyzed before are mended too; it costs a look-up or two when there
/// is nothing to drop.
pub(super) async fn mend_statistics(pool: &SqlitePool) -> Result<(), StoreError> {
    if !exists(pool, "sqlite_stat1").await? {
        return Ok(());
    }
    let sampled = exists(pool, "sqlite_stat4").await?;
    let mut dropped = forget_empty_tables(pool, sampled).await?;
    if sampled {
        dropped += forget_search_index_samples(pool).await?;
    }
    if dropped > 0 {
        reload_statistics(pool).await?;
    }
    Ok(())
}

/// Makes every open connection read the statistics again, not only this one.
///
/// A connection reads them with the schema, once, and keeps them while the schema stays the
/// same: the pool's other connections, opened before the mending (the writer among them), would
/// plan with the old figures for as long as they live. A change of the schema (a table created
/// and dropped) makes each of them read the schema, and the statistics with it, before its next
/// statement.
async fn reload_statistics(pool: &SqlitePool) -> Result<(), StoreError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS statistics_reload (x)")
        .execute(pool)
        .await?;
    sqlx::query("DROP TABLE statistics_reload")
        .execute(pool)
        .await?;
    Ok(())
}

/// Whether the schema has a table of that name (the statistics tables exist once `ANALYZE` ran).
pub(super) async fn exists(pool: &SqlitePool, table: &str) -> Result<bool, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)")
            .bind(table)
            .fetch_one(pool)
            .await?,
    )
}

/// Drops the statistics of tables that held no rows when they were analyzed.
///
/// `ANALYZE` records an empty table as holding 0 rows, and the planner believes it for good: a
/// bulk load analyzes a database whose deliveries, events and collector tables are still empty,
/// and once they fill, a join that should look rows up by key walks the whole table instead
/// (the batched outcome update of deliveries scanned every delivery for each batch: 130
/// deliveries/s, one CPU busy, 150,000 pending). Without statistics the planner assumes a large
/// table and keeps the index plans.
async fn forget_empty_tables(pool: &SqlitePool, sampled: bool) -> Result<u64, StoreError> {
    let empty = "SELECT tbl FROM sqlite_stat1 WHERE stat = '0' OR stat LIKE '0 %'";
    let mut dropped = 0;
    if sampled {
        let sql = format!("DELETE FROM sqlite_stat4 WHERE tbl IN ({empty})");
        dropped += sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(pool)
            .await?
            .rows_affected();
    }
    let sql = format!("DELETE FROM sqlite_stat1 WHERE tbl IN ({empty})");
    dropped += sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(pool)
        .await?
        .rows_affected();
    Ok(dropped)
}

/// Drops the STAT4 samples `ANALYZE` took of the full-text indexes' term tables (`<table>_idx`).
///
/// FTS5 finds each searched term in that table with a range query on the term. With samples of the
/// table, SQLite prepares that statement anew every time it runs, since a bound value could change
/// the plan; the plan is a primary-key search whatever the samples say. On a scale-`l` database the
/// preparing was a fifth of the CPU time of typo-tolerant name searches (perf).
async fn forget_search_index_samples(pool: &SqlitePool) -> Result<u64, StoreError> {
    Ok(sqlx::query(
        "DELETE FROM sqlite_stat4 WHERE tbl IN (SELECT name || '_idx' FROM sqlite_schema \
         WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5%')",
    )
    .execute(pool)
    .await?
    .rows_affected())
}
