//! Recording attempts: a batch of outcomes in one short transaction, with as few statements as
//! the batch allows (one update per delivery; the attempt rows, charges and balances in
//! multi-row statements).

use std::collections::BTreeMap;

use crate::domain::delivery_status::DeliveryStatus;
use crate::on_tx;
use crate::store::bulk::{RowStatement, Val, execute_rows};
use crate::store::{Db, StoreError, Tx};

/// The outcome of one attempt, to record.
#[derive(Debug, Clone)]
pub struct AttemptRecord {
    pub delivery_id: String,
    pub owner: String,
    pub team_id: String,
    pub monitor_id: Option<String>,
    pub free: bool,
    /// This attempt's number (the delivery's attempt count after it).
    pub attempt: i64,
    pub attempted_at: i64,
    /// HTTP status; `None` when no answer came.
    pub response_status: Option<i64>,
    pub response_body: String,
    /// What the attempt keeps of the answer (the first bytes of the body); `None` when no answer
    /// came.
    pub response_excerpt: Option<String>,
    pub duration_ms: i64,
    pub error: Option<String>,
    /// `Pending` (retry at `next_attempt_at`), `Done` or `Failed`.
    pub status: DeliveryStatus,
    pub next_attempt_at: i64,
}

/// Records attempts in one transaction. An attempt whose lease was lost meanwhile changes
/// nothing. A success is charged once per delivery (never below a balance of 0). Returns the
/// credits charged.
pub async fn record_attempts(db: &Db, records: &[AttemptRecord]) -> Result<u64, StoreError> {
    let mut tx = db.begin_write().await?;
    let mut applied = Vec::with_capacity(records.len());
    for r in records {
        if update_delivery(&mut tx, r).await? {
            applied.push(r);
        }
    }
    insert_attempts(&mut tx, &applied).await?;
    let done: Vec<&AttemptRecord> = applied
        .into_iter()
        .filter(|r| r.status == DeliveryStatus::Done)
        .collect();
    touch_monitors(&mut tx, &done).await?;
    let charged = charge(&mut tx, &done).await?;
    tx.commit().await?;
    Ok(charged)
}

/// Applies the outcome to the delivery while the lease is still ours; false when it was not.
async fn update_delivery(tx: &mut Tx, r: &AttemptRecord) -> Result<bool, StoreError> {
    let done = r.status == DeliveryStatus::Done;
    let failed = r.status == DeliveryStatus::Failed;
    let updated = on_tx!(tx, |conn| sqlx::query(
        "UPDATE deliveries SET status = $3, attempt_count = $4, response_status = $5, \
         response_body = $6, next_attempt_at = $7, lease_until = NULL, lease_owner = NULL, \
         delivered_at = CASE WHEN $8 THEN $9 ELSE delivered_at END, \
         failed_at = CASE WHEN $10 THEN $9 ELSE failed_at END, updated_at = $9 \
         WHERE id = $1 AND lease_owner = $2 AND status = 'pending'"
    )
    .bind(&r.delivery_id)
    .bind(&r.owner)
    .bind(r.status.as_str())
    .bind(r.attempt)
    .bind(r.response_status.unwrap_or(0))
    .bind(&r.response_body)
    .bind(r.next_attempt_at)
    .bind(done)
    .bind(r.attempted_at)
    .bind(failed)
    .execute(conn)
    .await
    .map(|res| res.rows_affected()))?;
    Ok(updated == 1)
}

async fn insert_attempts(tx: &mut Tx, applied: &[&AttemptRecord]) -> Result<(), StoreError> {
    if applied.is_empty() {
        return Ok(());
    }
    let mut values = Vec::with_capacity(applied.len() * 7);
    for r in applied {
        values.extend([
            Val::text(&r.delivery_id),
            Val::Int(Some(r.attempt)),
            Val::Int(Some(r.attempted_at)),
            Val::Int(r.response_status),
            Val::Int(Some(r.duration_ms)),
            Val::opt(&r.error),
            Val::opt(&r.response_excerpt),
        ]);
    }
    let stmt = RowStatement {
        head: "INSERT INTO delivery_attempts (delivery_id, attempt, attempted_at, \
               response_status, duration_ms, error, response_excerpt) VALUES ",
        template: "(?, ?, ?, ?, ?, ?, ?)",
        tail: " ON CONFLICT DO NOTHING",
    };
    execute_rows(tx, &stmt, &values).await?;
    Ok(())
}

/// Each delivering monitor's last delivery time, once per monitor (in id order, as every
/// batch locks rows, so two workers never wait on each other in a circle).
async fn touch_monitors(tx: &mut Tx, done: &[&AttemptRecord]) -> Result<(), StoreError> {
    let mut latest: BTreeMap<&str, i64> = BTreeMap::new();
    for r in done {
        if let Some(monitor_id) = &r.monitor_id {
            let at = latest.entry(monitor_id).or_insert(r.attempted_at);
            *at = (*at).max(r.attempted_at);
        }
    }
    for (monitor_id, at) in latest {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE monitors SET last_delivery_at = $2 WHERE id = $1 \
             AND (last_delivery_at IS NULL OR last_delivery_at < $2)"
        )
        .bind(monitor_id)
        .bind(at)
        .execute(conn)
        .await
        .map(|_| ()))?;
    }
    Ok(())
}

/// The credit of each successful, charged delivery exactly once (a unique charge row per
/// delivery), debited per team in one statement, never below 0.
async fn charge(tx: &mut Tx, done: &[&AttemptRecord]) -> Result<u64, StoreError> {
    let mut charged = 0u64;
    let mut by_team: BTreeMap<&str, Vec<&AttemptRecord>> = BTreeMap::new();
    for r in done.iter().filter(|r| !r.free) {
        by_team.entry(&r.team_id).or_default().push(r);
    }
    for (team_id, records) in by_team {
        let mut values = Vec::with_capacity(records.len() * 3);
        for r in &records {
            values.extend([
                Val::text(&r.delivery_id),
                Val::text(team_id),
                Val::Int(Some(r.attempted_at)),
            ]);
        }
        let stmt = RowStatement {
            head: "INSERT INTO delivery_charges (delivery_id, team_id, charged_at) VALUES ",
            template: "(?, ?, ?)",
            tail: " ON CONFLICT DO NOTHING",
        };
        let first = execute_rows(tx, &stmt, &values).await? as i64;
        charged += first as u64;
        if first > 0 {
            on_tx!(tx, |conn| sqlx::query(
                "UPDATE teams SET credits = CASE WHEN credits > $2 THEN credits - $2 ELSE 0 END \
                 WHERE id = $1 AND credits > 0"
            )
            .bind(team_id)
            .bind(first)
            .execute(conn)
            .await
            .map(|_| ()))?;
        }
    }
    Ok(charged)
}
