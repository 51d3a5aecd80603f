//! Team API credits: read the balance, and charge one credit without ever going below zero.

use super::{Db, StoreError, Tx};
use crate::domain::time::{DAY_MS, now_ms};
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
/// A successful charge is also added to the team's usage of the day, in the same transaction.
pub async fn charge(db: &Db, team_id: &str, amount: i64) -> Result<Option<i64>, StoreError> {
    let day = day_of(now_ms());
    db.write(async |tx| {
        let left = on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
            "UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits >= $2 \
             RETURNING credits"
        )
        .bind(team_id)
        .bind(amount)
        .fetch_optional(conn)
        .await)?;
        if left.is_some() {
            record_usage(tx, team_id, amount, day).await?;
        }
        Ok(left)
    })
    .await
}

/// Adds `amount` charged credits to the team's usage of `day` (epoch ms of a UTC midnight), for
/// the usage charts; call it in the transaction that charges them.
pub async fn record_usage(
    tx: &mut Tx,
    team_id: &str,
    amount: i64,
    day: i64,
) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO credit_usage_daily (team_id, day, credits) VALUES ($1, $2, $3) \
         ON CONFLICT (team_id, day) DO UPDATE \
         SET credits = credit_usage_daily.credits + excluded.credits"
    )
    .bind(team_id)
    .bind(day)
    .bind(amount)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The UTC midnight of `ms`.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS) * DAY_MS
}
