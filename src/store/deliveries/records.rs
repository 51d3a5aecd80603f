//! Recording attempts: a batch of outcomes in one short transaction, with as few statements as
//! the batch allows (the deliveries' updates and the attempt rows in multi-row statements; one
//! balance update per team).

use std::collections::{BTreeMap, HashSet};

use crate::domain::delivery_status::DeliveryStatus;
use crate::on_tx;
use crate::store::bulk::{RowStatement, Val, execute_rows, fetch_rows};
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
    let updated = update_deliveries(&mut tx, records).await?;
    let applied: Vec<&AttemptRecord> = records
        .iter()
        .filter(|r| updated.contains(&r.delivery_id))
        .collect();
    let logged: Vec<&AttemptRecord> = applied
        .iter()
        .copied()
        .filter(|r| !kept_on_delivery(r))
        .collect();
    insert_attempts(&mut tx, &logged).await?;
    let done: Vec<&AttemptRecord> = applied
        .into_iter()
        .filter(|r| r.status == DeliveryStatus::Done)
        .collect();
    touch_monitors(&mut tx, &done).await?;
    let charged = charge(&mut tx, &done).await?;
    tx.commit().await?;
    Ok(charged)
}

/// What an outcome writes onto its delivery, column by column after the id and the lease
/// owner it is matched on; `delivered_at` or `failed_at` follow from the status. One more
/// column is one more name here and one more value in [`outcome_values`].
const OUTCOME_COLUMNS: [&str; 7] = [
    "status",
    "attempt_count",
    "response_status",
    "response_body",
    "next_attempt_at",
    "updated_at",
    "duration_ms",
];

/// The values of [`OUTCOME_COLUMNS`] for one record, after its delivery id and owner.
fn outcome_values(r: &AttemptRecord) -> [Val<'_>; 9] {
    [
        Val::text(&r.delivery_id),
        Val::text(&r.owner),
        Val::text(r.status.as_str()),
        Val::Int(Some(r.attempt)),
        Val::Int(Some(r.response_status.unwrap_or(0))),
        Val::text(&r.response_body),
        Val::Int(Some(r.next_attempt_at)),
        Val::Int(Some(r.attempted_at)),
        Val::Int(Some(r.duration_ms)),
    ]
}

/// True when the attempt stays on its delivery's row alone: a success at the first attempt,
/// whose answer, time and duration the row holds (`delivery_history` reads it from there).
fn kept_on_delivery(r: &AttemptRecord) -> bool {
    r.status == DeliveryStatus::Done && r.attempt == 1
}

/// Applies the outcomes, in one statement, to the deliveries whose lease is still the
/// recorder's (in id order, as every batch locks rows); returns the ids updated.
async fn update_deliveries(
    tx: &mut Tx,
    records: &[AttemptRecord],
) -> Result<HashSet<String>, StoreError> {
    if records.is_empty() {
        return Ok(HashSet::new());
    }
    let mut sorted: Vec<&AttemptRecord> = records.iter().collect();
    sorted.sort_unstable_by(|a, b| a.delivery_id.cmp(&b.delivery_id));
    let mut values = Vec::with_capacity(sorted.len() * (OUTCOME_COLUMNS.len() + 2));
    for r in sorted {
        values.extend(outcome_values(r));
    }
    let column = |name: &str| {
        let at = OUTCOME_COLUMNS.iter().position(|c| *c == name).unwrap_or(0);
        format!("v.column{}", at + 3)
    };
    let mut set: Vec<String> = OUTCOME_COLUMNS
        .iter()
        .map(|name| format!("{name} = {}", column(name)))
        .collect();
    let (status, at) = (column("status"), column("updated_at"));
    set.push("lease_until = NULL, lease_owner = NULL".into());
    set.push(format!(
        "delivered_at = CASE WHEN {status} = 'done' THEN {at} ELSE deliveries.delivered_at END"
    ));
    set.push(format!(
        "failed_at = CASE WHEN {status} = 'failed' THEN {at} ELSE deliveries.failed_at END"
    ));
    let head = format!("UPDATE deliveries SET {} FROM (VALUES ", set.join(", "));
    let template = format!("({})", vec!["?"; OUTCOME_COLUMNS.len() + 2].join(", "));
    let stmt = RowStatement {
        head: &head,
        template: &template,
        tail: ") AS v WHERE deliveries.id = v.column1 AND deliveries.lease_owner = v.column2 \
               AND deliveries.status = 'pending' RETURNING id",
    };
    let updated: Vec<(String,)> = fetch_rows(tx, &stmt, &values).await?;
    Ok(updated.into_iter().map(|(id,)| id).collect())
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

/// The credit of each successful, charged delivery, debited per team in one statement, never
/// below 0. Exactly once without a record of its own: a delivery reaches `done` once (the state
/// ends there, and replays are new deliveries), and only the batch whose update moved it there
/// from `pending` under its own lease ([`update_deliveries`]) lists it in `done`.
async fn charge(tx: &mut Tx, done: &[&AttemptRecord]) -> Result<u64, StoreError> {
    let mut by_team: BTreeMap<&str, HashSet<&str>> = BTreeMap::new();
    for r in done.iter().filter(|r| !r.free) {
        by_team
            .entry(&r.team_id)
            .or_default()
            .insert(&r.delivery_id);
    }
    let mut charged = 0u64;
    for (team_id, deliveries) in by_team {
        let count = deliveries.len() as i64;
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE teams SET credits = CASE WHEN credits > $2 THEN credits - $2 ELSE 0 END \
             WHERE id = $1 AND credits > 0"
        )
        .bind(team_id)
        .bind(count)
        .execute(conn)
        .await
        .map(|_| ()))?;
        charged += count as u64;
    }
    Ok(charged)
}
