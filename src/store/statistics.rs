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
                forget_search_index_samples(pool).await?;
            }
            Db::Postgres(pool) => {
                sqlx::query("ANALYZE").execute(pool).await?;
            }
        }
        Ok(())
    }
}

/// Drops the STAT4 samples `ANALYZE` took of the full-text indexes' term tables (`<table>_idx`).
///
/// FTS5 finds each searched term in that table with a range query on the term. With samples of the
/// table, SQLite prepares that statement anew every time it runs, since a bound value could change
/// the plan; the plan is a primary-key search whatever the samples say. On a scale-`l` database the
/// preparing was a fifth of the CPU time of typo-tolerant name searches (perf). Databases analyzed
/// before are mended at start, so this runs after the migrations too; it costs one look-up when
/// there is nothing to drop.
pub(super) async fn forget_search_index_samples(pool: &SqlitePool) -> Result<(), StoreError> {
    let analyzed: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat4')",
    )
    .fetch_one(pool)
    .await?;
    if !analyzed {
        return Ok(());
    }
    let dropped = sqlx::query(
        "DELETE FROM sqlite_stat4 WHERE tbl IN (SELECT name || '_idx' FROM sqlite_schema \
         WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5%')",
    )
    .execute(pool)
    .await?
    .rows_affected();
    if dropped > 0 {
        // Makes this connection's planner read the statistics again.
        sqlx::query("ANALYZE sqlite_schema").execute(pool).await?;
    }
    Ok(())
}
