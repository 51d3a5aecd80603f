//! The list data version: bumped in every transaction that changes companies, people or
//! signals, read before answering from a cache.

use super::{Db, StoreError, Tx};
use crate::{on_db, on_tx};

/// The statement that marks the list data as changed.
pub(super) const BUMP: &str = "UPDATE data_version SET version = version + 1 WHERE id = 1";

/// Marks the list data as changed; commits with the transaction that changed it.
pub async fn bump_data_version(tx: &mut Tx) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(BUMP)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The current list data version.
pub async fn data_version(db: &Db) -> Result<i64, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "SELECT version FROM data_version WHERE id = 1"
    )
    .fetch_one(pool)
    .await)?)
}
