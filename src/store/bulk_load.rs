//! The bulk load of a database that holds no data yet: rows first, list and search indexes after.
//!
//! Loading into indexed tables costs a descent of every index per row, at keys (random text ids,
//! tags, dates) that land all over each index; building an index once the rows are in sorts its
//! keys instead. [`start`] reads the statements that create the secondary indexes of the loaded
//! tables from the database itself (what the migrations made, so the rebuilt schema is the
//! migrated one by construction), saves them in the `bulk_loads` row and drops the indexes, in
//! one transaction. [`finish`] moves the company and tag rows the load staged into their tables
//! (SQLite, see `bulk_links`), runs the saved statements and deletes the row, again in one
//! transaction; when the load's stage copies its search tables in afterwards (SQLite, see
//! `bulk_stage`), that copy's transaction deletes the row instead. Until the row is deleted the
//! database is half-loaded and says so ([`interrupted_since`]).
//!
//! The indexes the load itself reads stay: companies by domain, registrable domain and LinkedIn
//! page (how records find their company). Primary keys and unique constraints stay too.

use serde::{Deserialize, Serialize};

use super::bulk_links::{STAGING_TABLES, move_staged};
use super::bulk_search::{SEARCH_TABLES, merge_rarely};
use super::{Db, StoreError, Tx};
use crate::{on_db, on_tx};

/// The tables a load writes, whose secondary indexes are built after the rows.
const LOADED_TABLES: [&str; 5] = [
    "companies",
    "people",
    "signals",
    "signal_companies",
    "signal_tags",
];

/// Indexes the load reads: records find their company by these.
const KEPT_INDEXES: [&str; 3] = [
    "companies_domain",
    "companies_registrable_domain",
    "companies_linkedin_key",
];

/// The tables emptied when an interrupted load starts over, children before parents.
const CLEARED_TABLES: [&str; 6] = [
    "signal_tags",
    "signal_companies",
    "signals",
    "people",
    "job_boards",
    "companies",
];

/// The page cache of the loading connection (SQLite, KiB): the random-key primary keys of the
/// loaded tables stay in memory (the signals' 83 MB at scale `l`, the companies' 9 MB) without
/// taking the process past its memory budget, which the allocator's kept memory shares
/// (`cli::import`: a load keeps what it frees; with 224 MiB and the memory handed back the peak
/// was the same, and the load slower).
const LOAD_CACHE_KIB: i64 = 131_072;

/// The page cache of the loading connection while the indexes are built (SQLite, KiB). SQLite's
/// sorter keeps runs of up to the page cache's size in memory before it writes them out; runs
/// this small are sorted by the sorter's threads while the next one fills, where runs of the
/// load's cache were sorted one at a time: each build takes about half the time, and a tenth
/// of the memory.
const BUILD_CACHE_KIB: i64 = 8_192;

/// One index the load dropped, and the statement that creates it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedIndex {
    pub name: String,
    pub create: String,
}

/// True when the database holds no companies, people or signals, and nothing (a monitor or a
/// webhook) would hear of new ones: a load then needs no look-up of what is stored and fans
/// nothing out.
pub async fn holds_no_data(db: &Db) -> Result<bool, StoreError> {
    let sql = "SELECT NOT EXISTS (SELECT 1 FROM companies) AND NOT EXISTS (SELECT 1 FROM people) \
               AND NOT EXISTS (SELECT 1 FROM signals) AND NOT EXISTS (SELECT 1 FROM monitors) \
               AND NOT EXISTS (SELECT 1 FROM webhooks)";
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, bool>(sql)
        .fetch_one(pool)
        .await)?)
}

/// When the bulk load under way (or stopped half-way) started, epoch milliseconds.
pub async fn interrupted_since(db: &Db) -> Result<Option<i64>, StoreError> {
    let sql = "SELECT started_at FROM bulk_loads WHERE id = 1";
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(sql)
        .fetch_optional(pool)
        .await)?)
}

/// Starts a bulk load: saves and drops the secondary indexes of the loaded tables. Returns
/// the indexes dropped.
pub async fn start(db: &Db, now: i64) -> Result<Vec<SavedIndex>, StoreError> {
    let mut tx = db.begin_write().await?;
    let saved = secondary_indexes(&mut tx).await?;
    let json = serde_json::to_string(&saved).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    on_tx!(&mut tx, |conn| sqlx::query(
        "INSERT INTO bulk_loads (id, started_at, indexes) VALUES (1, $1, $2)"
    )
    .bind(now)
    .bind(&json)
    .execute(conn)
    .await
    .map(|_| ()))?;
    for index in &saved {
        let drop = format!("DROP INDEX {}", index.name);
        on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(drop))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    merge_rarely(&mut tx).await?;
    tx.commit().await?;
    Ok(saved)
}

/// Creates the index that exists only while a load writes signals ([`COUNTRY_INDEX`]; SQLite),
/// before the load's first file of signals: on the companies already loaded, one sorted build
/// instead of an index kept up to date through the companies file. [`finish`] drops it in the
/// transaction that ends the load, so [`start`] never finds it to save.
pub async fn add_country_index(writer: &Db) -> Result<(), StoreError> {
    if let Db::Sqlite(sqlite) = writer {
        let create = format!(
            "CREATE INDEX IF NOT EXISTS {COUNTRY_INDEX} ON companies (id, headquarters_country)"
        );
        sqlx::query(sqlx::AssertSqlSafe(create))
            .execute(sqlite.pool())
            .await?;
    }
    Ok(())
}

/// The index of companies from which a bulk load's signals copy their company's country
/// (SQLite, named by `INDEXED BY` in `signals::upsert_rows`: the planner prefers the primary
/// key). The primary key led to the company's row, a kilobyte read from anywhere in the
/// companies table, which the load's page cache, filled with the signals' own new pages, no
/// longer held.
pub const COUNTRY_INDEX: &str = "bulk_companies_country";

/// Empties the loaded tables of an interrupted load (they were empty when it started), so that
/// it can start over; its saved indexes stay saved, and those it had built again already (it
/// stopped after [`finish`], while its stage's tables were copied in) are dropped again.
pub async fn clear_loaded_rows(db: &Db) -> Result<(), StoreError> {
    let mut tx = db.begin_write().await?;
    let mut statements: Vec<String> = saved_indexes(&mut tx)
        .await?
        .unwrap_or_default()
        .iter()
        .map(|index| format!("DROP INDEX IF EXISTS {}", index.name))
        .collect();
    if let Tx::Sqlite(_) = tx {
        statements.extend(
            SEARCH_TABLES
                .iter()
                .map(|t| format!("INSERT INTO {t} ({t}) VALUES ('delete-all')")),
        );
        statements.extend(STAGING_TABLES.iter().map(|t| format!("DELETE FROM {t}")));
    }
    statements.extend(CLEARED_TABLES.iter().map(|t| format!("DELETE FROM {t}")));
    for sql in statements {
        on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    // The full-text tables were emptied, and may have been merged and set back to FTS5's
    // defaults when the load stopped.
    merge_rarely(&mut tx).await?;
    super::versions::bump_data_version(&mut tx).await?;
    tx.commit().await
}

/// Builds a bulk load's indexes again (after `bulk_search::merge_completely`): creates the saved
/// indexes and, when `ends_load`, forgets the load, in one transaction. A load whose stage still
/// copies its search tables in afterwards passes false: the copy's transaction forgets it
/// (`bulk_stage`), so a load stopped before the copy is still half-loaded, not a database
/// without its search documents. Returns the indexes built; none when no load is under way.
pub async fn finish(db: &Db, ends_load: bool) -> Result<Vec<SavedIndex>, StoreError> {
    if let Db::Sqlite(sqlite) = db {
        // The index builds' sorts spill to temporary files (in the operating system's cache),
        // not to the process's memory, in runs sized by a small page cache.
        let cache = format!("PRAGMA cache_size = -{BUILD_CACHE_KIB}");
        for pragma in ["PRAGMA temp_store = FILE", cache.as_str()] {
            sqlx::query(sqlx::AssertSqlSafe(pragma.to_string()))
                .execute(sqlite.pool())
                .await?;
        }
    }
    let mut tx = db.begin_write().await?;
    let Some(saved) = saved_indexes(&mut tx).await? else {
        return Ok(Vec::new());
    };
    match &mut tx {
        // Index builds sort in memory up to this much, instead of in many small runs on disk.
        Tx::Postgres(t) => {
            sqlx::query("SET LOCAL maintenance_work_mem = '256MB'")
                .execute(&mut **t)
                .await?;
        }
        // The staged company and tag rows, into their tables before their indexes are built.
        Tx::Sqlite(_) => {
            move_staged(&mut tx).await?;
            let drop = format!("DROP INDEX IF EXISTS {COUNTRY_INDEX}");
            on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(drop))
                .execute(conn)
                .await
                .map(|_| ()))?;
        }
    }
    for index in &saved {
        let create = index.create.clone();
        on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(create))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    if ends_load {
        let forget = forget_load(None);
        on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(forget))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    super::versions::bump_data_version(&mut tx).await?;
    tx.commit().await?;
    Ok(saved)
}

/// The statement that forgets a load once its last write is in: the database is no longer
/// half-loaded. `attached` names the loaded database where it is attached to another one
/// (SQLite); `None` is the connection's own.
pub fn forget_load(attached: Option<&str>) -> String {
    let table = match attached {
        Some(name) => format!("{name}.bulk_loads"),
        None => "bulk_loads".to_string(),
    };
    format!("DELETE FROM {table} WHERE id = 1")
}

/// The indexes the load under way saved; none when no load is under way.
async fn saved_indexes(tx: &mut Tx) -> Result<Option<Vec<SavedIndex>>, StoreError> {
    let saved: Option<String> = on_tx!(tx, |conn| sqlx::query_scalar(
        "SELECT indexes FROM bulk_loads WHERE id = 1"
    )
    .fetch_optional(conn)
    .await)?;
    saved
        .map(|saved| {
            serde_json::from_str(&saved)
                .map_err(|e| StoreError::Corrupt(format!("saved indexes of the bulk load: {e}")))
        })
        .transpose()
}

/// The secondary indexes of the loaded tables, less the ones the load reads, by name.
async fn secondary_indexes(tx: &mut Tx) -> Result<Vec<SavedIndex>, StoreError> {
    let tables = LOADED_TABLES.map(|t| format!("'{t}'")).join(", ");
    let kept = KEPT_INDEXES.map(|t| format!("'{t}'")).join(", ");
    let sql = match &*tx {
        // Indexes of constraints (`sqlite_autoindex_…`) have no statement.
        Tx::Sqlite(_) => format!(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL \
             AND tbl_name IN ({tables}) AND name NOT IN ({kept}) ORDER BY name"
        ),
        Tx::Postgres(_) => format!(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i \
             WHERE i.schemaname = current_schema() AND i.tablename IN ({tables}) \
             AND i.indexname NOT IN ({kept}) \
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname) \
             ORDER BY i.indexname"
        ),
    };
    let rows: Vec<(String, String)> = on_tx!(tx, |conn| sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .fetch_all(conn)
        .await)?;
    Ok(rows
        .into_iter()
        .map(|(name, create)| SavedIndex { name, create })
        .collect())
}

/// Sets up the loading connection for the load (SQLite; nothing on PostgreSQL): commits are not
/// synced (a crash of the process loses nothing committed, and a crash of the machine during
/// a load leaves a half-loaded database, which is started over anyway), no foreign-key checks,
/// a page cache that holds the loaded tables' primary keys, no memory map (its pages would
/// count against the process), and index builds sorted on two threads. `writer` must be a pool
/// of one connection ([`Db::own_writer`]), which keeps these settings for its life.
///
/// Every row a load writes names a company its batch found stored or created first (the same
/// batch functions as the ordinary path, whose connections check foreign keys), so the checks
/// only looked each signal's company up once more in the companies' primary key: pages the
/// load's cache, full of the transaction's new pages, kept losing (while the postings loaded,
/// about 11,000 page reads a second from the operating system's cache, all of that index).
pub async fn tune_loading_connection(writer: &Db) -> Result<(), StoreError> {
    if let Db::Sqlite(sqlite) = writer {
        let cache = format!("PRAGMA cache_size = -{LOAD_CACHE_KIB}");
        for pragma in [
            "PRAGMA synchronous = OFF",
            "PRAGMA foreign_keys = OFF",
            cache.as_str(),
            "PRAGMA mmap_size = 0",
            "PRAGMA temp_store = MEMORY",
            "PRAGMA threads = 2",
        ] {
            sqlx::query(sqlx::AssertSqlSafe(pragma.to_string()))
                .execute(sqlite.pool())
                .await?;
        }
    }
    Ok(())
}

/// Puts a finished load on disk (SQLite): the write-ahead log copied into the database and
/// emptied, and the database file synced. The load's commits were not synced, so until now the
/// loaded pages the operating system had not written yet could be lost to a crash of the
/// machine after the import said it was done, and the server's first checkpoint would sync them
/// while it answered its first requests. Nothing on PostgreSQL, whose commits are durable.
pub async fn sync_to_disk(writer: &Db) -> Result<(), StoreError> {
    let Db::Sqlite(sqlite) = writer else {
        return Ok(());
    };
    let pool = sqlite.pool();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(pool)
        .await?;
    let files: Vec<String> =
        sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'")
            .fetch_all(pool)
            .await?;
    for file in files.into_iter().filter(|f| !f.is_empty()) {
        tokio::task::spawn_blocking(move || std::fs::File::open(&file)?.sync_all())
            .await
            .map_err(std::io::Error::other)
            .and_then(|synced| synced)
            .map_err(sqlx::Error::Io)?;
    }
    Ok(())
}
