//! Team API credits: read the balance, and charge one credit without ever going below zero.

use super::{Db, StoreError};
use crate::{on_db, on_tx};

/// The team's current balance.
pub async fn balance(db: &Db, team_id: &str) -> Result<i64, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "SELECT credits FROM teams WHERE id = $1"
    )
    .bind(team_id)
    .fetch_one(pool)
    .await)?)
}

/// Charges `amount` credits when the balance covers them; returns the new balance, or `None`
/// (nothing charged) when it does not. Safe under concurrency: one atomic conditional update,
/// written in the writers' turn like every write.
pub async fn charge(db: &Db, team_id: &str, amount: i64) -> Result<Option<i64>, StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
            "UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits >= $2 \
             RETURNING credits"
        )
        .bind(team_id)
        .bind(amount)
        .fetch_optional(conn)
        .await)?)
    })
    .await
}
