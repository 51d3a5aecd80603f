//! Team API credits: read the balance, and charge one credit without ever going below zero.
//! The charges of concurrent list requests are committed together ([`ChargeGroups`]).

use std::collections::HashMap;

use tokio::sync::oneshot;

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
        let left = charge_in(tx, team_id, amount).await?;
        if left.is_some() {
            record_usage(tx, team_id, amount, day).await?;
        }
        Ok(left)
    })
    .await
}

/// Charges of concurrent requests, committed in one transaction: each charge is its own
/// conditional update (so each sees the balance the ones before it left, and none goes below
/// zero), and each team's usage of the day is added once for the whole group. A request waits
/// for the transaction that holds its charge to commit; when it fails, none of its charges hold.
#[derive(Debug, Default)]
pub struct ChargeGroups {
    /// Charges waiting for the next transaction.
    pending: std::sync::Mutex<Vec<PendingCharge>>,
    /// Held by the request committing a group; the charges that arrive meanwhile wait for it.
    committing: tokio::sync::Mutex<()>,
}

#[derive(Debug)]
struct PendingCharge {
    team_id: String,
    amount: i64,
    answer: oneshot::Sender<Result<Option<i64>, String>>,
}

impl ChargeGroups {
    /// Charges `amount` credits to `team_id` as [`charge`] does, in a transaction shared with the
    /// charges of other requests under way.
    pub async fn charge(
        &self,
        db: &Db,
        team_id: &str,
        amount: i64,
    ) -> Result<Option<i64>, StoreError> {
        let (answer, answered) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(PendingCharge {
                team_id: team_id.to_string(),
                amount,
                answer,
            });
        {
            // The committer before us may have taken our charge with its group: then there is
            // nothing (or only later charges) left to commit.
            let _turn = self.committing.lock().await;
            let group =
                std::mem::take(&mut *self.pending.lock().unwrap_or_else(|p| p.into_inner()));
            if !group.is_empty() {
                commit_group(db, group).await;
            }
        }
        answered
            .await
            .map_err(|_| StoreError::Corrupt("a charge was dropped unanswered".into()))?
            .map_err(|err| StoreError::Database(sqlx::Error::Protocol(err)))
    }
}

/// Commits `group` in one write transaction and answers each charge.
async fn commit_group(db: &Db, group: Vec<PendingCharge>) {
    let day = day_of(now_ms());
    let charges: Vec<(&str, i64)> = group
        .iter()
        .map(|c| (c.team_id.as_str(), c.amount))
        .collect();
    let outcome = db
        .write(async |tx| {
            let mut balances = Vec::with_capacity(charges.len());
            let mut used: HashMap<&str, i64> = HashMap::new();
            for (team_id, amount) in &charges {
                let left = charge_in(tx, team_id, *amount).await?;
                if left.is_some() {
                    *used.entry(team_id).or_default() += amount;
                }
                balances.push(left);
            }
            for (team_id, amount) in used {
                record_usage(tx, team_id, amount, day).await?;
            }
            Ok(balances)
        })
        .await;
    match outcome {
        Ok(balances) => {
            for (charge, left) in group.into_iter().zip(balances) {
                let _ = charge.answer.send(Ok(left));
            }
        }
        Err(err) => {
            let err = err.to_string();
            for charge in group {
                let _ = charge.answer.send(Err(err.clone()));
            }
        }
    }
}

/// The conditional update of one charge; the new balance, or `None` when it does not cover it.
async fn charge_in(tx: &mut Tx, team_id: &str, amount: i64) -> Result<Option<i64>, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "UPDATE teams SET credits = credits - $2 WHERE id = $1 AND credits >= $2 \
         RETURNING credits"
    )
    .bind(team_id)
    .bind(amount)
    .fetch_optional(conn)
    .await)?)
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::on_db;

    async fn team_with(credits: i64) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("credits.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");
        on_db!(&db, |pool| sqlx::query(
            "INSERT INTO teams (id, name, credits, subscription_status, created_at, updated_at) \
             VALUES ('t', 'team', $1, 'active', 0, 0)"
        )
        .bind(credits)
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))
        .expect("team");
        (dir, db)
    }

    #[tokio::test]
    async fn concurrent_grouped_charges_spend_exactly_the_balance_and_record_it_as_usage() {
        let (_dir, db) = team_with(5).await;
        let groups = Arc::new(ChargeGroups::default());
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let (db, groups) = (db.clone(), groups.clone());
            tasks.push(tokio::spawn(
                async move { groups.charge(&db, "t", 1).await },
            ));
        }
        let mut charged = Vec::new();
        for task in tasks {
            if let Some(left) = task.await.expect("join").expect("charge") {
                charged.push(left);
            }
        }
        charged.sort_unstable();
        assert_eq!(charged, [0, 1, 2, 3, 4]);
        assert_eq!(balance(&db, "t").await.expect("balance"), 0);
        let used = on_db!(&db, |pool| sqlx::query_scalar::<_, i64>(
            "SELECT SUM(credits) FROM credit_usage_daily WHERE team_id = 't'"
        )
        .fetch_one(pool)
        .await)
        .expect("usage");
        assert_eq!(used, 5);
    }
}
