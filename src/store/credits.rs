//! Team API credits: read the balance, and charge one credit without ever going below zero.

use super::{Db, StoreError};
use crate::on_db;

static SQLITE_CHARGES: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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
/// (nothing charged) when it does not. Safe under concurrency: one atomic conditional update.
pub async fn charge(db: &Db, team_id: &str, amount: i64) -> Result<Option<i64>, StoreError> {
    // SQLite has one writer at a time; queueing charges here instead of in SQLite's busy handler
    // (which sleeps and retries) keeps list latency flat under concurrent requests.
    let _turn = match db {
        Db::Sqlite(_) => Some(SQLITE_CHARGES.lock().await),
        Db::Postgres(_) => None,
    };
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits >= $2 RETURNING credits"
    )
    .bind(team_id)
    .bind(amount)
    .fetch_optional(pool)
    .await)?)
}
