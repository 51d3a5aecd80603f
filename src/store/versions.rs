//! The list data version: bumped in every transaction that changes companies, people or
//! signals, read before answering from a cache.
//!
//! It is the sum of [`SHARDS`] counters (migration 0034), and each bump picks one at random:
//! transactions of the processes writing one PostgreSQL database no longer queue on one row,
//! each holding it from its bump to its commit (a stalled commit held them all). The sum moves
//! with every committed bump, in the transaction of the data it covers, so a cached answer is
//! kept only while nothing changed.

use super::bulk::for_backend;
use super::{Db, StoreError, Tx};
use crate::{on_db, on_tx};

/// Counters the version is the sum of (rows 1 to `SHARDS` of `data_version`).
const SHARDS: usize = 16;

/// A statement that marks the list data as changed, the counter its one parameter (`?`), and a
/// counter picked at random: one statement text for every counter.
pub(super) fn bump_one_shard() -> (&'static str, i64) {
    (
        "UPDATE data_version SET version = version + 1 WHERE id = ?",
        rand::random_range(1..=SHARDS as i64),
    )
}

/// Marks the list data as changed; commits with the transaction that changed it.
pub async fn bump_data_version(tx: &mut Tx) -> Result<(), StoreError> {
    let (bump, shard) = bump_one_shard();
    let bump = for_backend(tx, bump);
    on_tx!(tx, |conn| sqlx::query(sqlx::AssertSqlSafe(bump))
        .bind(shard)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The current list data version.
pub async fn data_version(db: &Db) -> Result<i64, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "SELECT CAST(SUM(version) AS BIGINT) FROM data_version"
    )
    .fetch_one(pool)
    .await)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_committed_bump_moves_the_version_by_one_whichever_counter_it_takes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("versions.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");
        let start = data_version(&db).await.expect("version");

        for _ in 0..40 {
            db.write(async |tx| bump_data_version(tx).await)
                .await
                .expect("bump");
        }
        let mut dropped = db.begin_write().await.expect("begin");
        bump_data_version(&mut dropped).await.expect("bump");
        drop(dropped);

        assert_eq!(data_version(&db).await.expect("version"), start + 40);
    }
}
