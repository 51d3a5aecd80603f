//! The worker side of the delivery outbox: claiming due deliveries under a lease, recording
//! attempts and their outcome (and the one credit a success costs), replays and expiry.
//!
//! A claim is one short statement; the HTTP request happens outside any transaction; the outcome
//! is recorded by a second short transaction that only applies while the lease is still ours.
//!
//! Statements name a status as a literal (`status = 'pending'`) rather than a parameter: the
//! partial indexes on `deliveries` only serve predicates that match theirs literally.

use std::collections::HashMap;

use sqlx::FromRow;

mod claim_postgres;
mod claim_sqlite;
mod floors;
mod records;

pub use floors::earliest_pending;
pub use records::{AttemptRecord, record_attempts};

use super::bulk::{Val, execute_in};
use super::outbox::{NewDelivery, insert_deliveries};
use super::{Db, StoreError, Tx, new_id};
use crate::domain::delivery_status::DeliveryStatus;
use crate::on_tx;

/// Deliveries still pending this long after they were queued (held for credits, or for a
/// paused monitor) fail.
pub const HOLD_LIMIT_MS: i64 = 7 * 24 * 3600 * 1000;

/// A delivery a worker owns until `lease_until`, with what it needs to send it.
#[derive(Debug, Clone, FromRow)]
pub struct ClaimedDelivery {
    pub id: String,
    pub webhook_id: String,
    pub team_id: String,
    pub monitor_id: Option<String>,
    pub event_id: String,
    pub event_type: String,
    pub free: bool,
    pub max_attempts: i64,
    pub attempt_count: i64,
    pub endpoint_url: String,
    pub secret: String,
    /// JSON text of the event's `data`.
    pub data: String,
    pub event_created_at: i64,
}

/// The columns of a [`ClaimedDelivery`], of a delivery `d`, its webhook `w` and its event `e`
/// (a literal, for `concat!`: the PostgreSQL claim returns them from its own statement).
macro_rules! claimed_columns {
    () => {
        "d.id, d.webhook_id, d.team_id, d.monitor_id, d.event_id, d.event_type, d.free, \
         d.max_attempts, d.attempt_count, w.endpoint_url, w.secret, e.data, \
         e.created_at AS event_created_at"
    };
}
use claimed_columns;

const CLAIMED: &str = concat!(
    "SELECT ",
    claimed_columns!(),
    " FROM deliveries d \
     JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id"
);

/// How one claim asks for work.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    pub owner: &'a str,
    pub now: i64,
    pub lease_ms: i64,
    pub limit: i64,
    /// Most requests open per webhook.
    pub per_webhook: i64,
    /// Requests open now, per webhook (a webhook at `per_webhook` gets nothing).
    pub busy: &'a HashMap<String, usize>,
    /// Per webhook, the earliest `next_attempt_at` the claim seeks from (see `floors`); a
    /// webhook without one is sought from the start. A pending row below its webhook's floor is
    /// passed over until the worker reads the floors again.
    pub floors: &'a HashMap<String, i64>,
}

impl Claim<'_> {
    /// Webhooks with no room for more work right now.
    fn full(&self) -> Vec<&str> {
        self.busy
            .iter()
            .filter(|(_, n)| **n as i64 >= self.per_webhook)
            .map(|(id, _)| id.as_str())
            .collect()
    }
}

/// Leases up to `limit` due deliveries that may go out now: pending, due, not leased, webhook
/// active, and either free or of a live team with credits whose monitor (if any) is active.
pub async fn claim_due(db: &Db, claim: &Claim<'_>) -> Result<Vec<ClaimedDelivery>, StoreError> {
    match db {
        Db::Sqlite(_) => claim_sqlite::claim_due_sqlite(db, claim).await,
        Db::Postgres(_) => claim_postgres::claim_due_postgres(db, claim).await,
    }
}

async fn claimed_rows(tx: &mut Tx, ids: &[String]) -> Result<Vec<ClaimedDelivery>, StoreError> {
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let sql = format!("{CLAIMED} WHERE d.id {{in}}");
    super::bulk::select_in(tx, &sql, &[], &ids).await
}

/// Leases one delivery to `owner` now, whatever its state (an inline test or manual retry).
pub async fn lease_one(
    tx: &mut Tx,
    id: &str,
    owner: &str,
    until: i64,
) -> Result<Option<ClaimedDelivery>, StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE deliveries SET lease_until = $2, lease_owner = $3 WHERE id = $1"
    )
    .bind(id)
    .bind(until)
    .bind(owner)
    .execute(conn)
    .await
    .map(|_| ()))?;
    Ok(claimed_rows(tx, &[id.to_string()])
        .await?
        .into_iter()
        .next())
}

/// The monitor owning webhook `webhook_id`, if any.
pub async fn webhook_monitor_id(
    tx: &mut Tx,
    webhook_id: &str,
) -> Result<Option<String>, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, Option<String>>(
        "SELECT monitor_id FROM webhooks WHERE id = $1"
    )
    .bind(webhook_id)
    .fetch_optional(conn)
    .await)?
    .flatten())
}

/// Gives leased deliveries back untouched (a claim took more than there was room for, or the
/// process is shutting down with attempts it could not finish); returns how many.
pub async fn release(db: &Db, ids: &[&str], owner: &str) -> Result<u64, StoreError> {
    if ids.is_empty() {
        return Ok(0);
    }
    db.write(async |tx| {
        execute_in(
            tx,
            "UPDATE deliveries SET lease_until = NULL, lease_owner = NULL WHERE lease_owner = ? \
             AND id {in}",
            &[Val::text(owner)],
            ids,
        )
        .await
    })
    .await
}

/// Extends to `until` the leases of deliveries `ids` that `owner` holds and that have not run
/// out by `now`; returns how many. Found by id: a worker knows what it has in flight, and no
/// index leads to a lease (a search by owner read every pending delivery on PostgreSQL and
/// every delivery on SQLite).
pub async fn extend_leases(
    db: &Db,
    ids: &[&str],
    owner: &str,
    now: i64,
    until: i64,
) -> Result<u64, StoreError> {
    if ids.is_empty() {
        return Ok(0);
    }
    db.write(async |tx| {
        execute_in(
            tx,
            "UPDATE deliveries SET lease_until = ? WHERE lease_owner = ? AND status = 'pending' \
             AND lease_until >= ? AND id {in}",
            &[Val::Int(Some(until)), Val::text(owner), Val::Int(Some(now))],
            ids,
        )
        .await
    })
    .await
}

/// Fails deliveries still pending [`HOLD_LIMIT_MS`] after they were queued; returns how many.
pub async fn expire_held(db: &Db, now: i64) -> Result<u64, StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query(
            "UPDATE deliveries SET status = 'failed', failed_at = $1, updated_at = $1 \
         WHERE status = 'pending' AND created_at < $2 AND (lease_until IS NULL OR lease_until < $1)"
        )
        .bind(now)
        .bind(now - HOLD_LIMIT_MS)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?)
    })
    .await
}

/// A delivery as a replay needs it.
#[derive(Debug, Clone, FromRow)]
struct Replayed {
    id: String,
    webhook_id: String,
    team_id: String,
    monitor_id: Option<String>,
    event_id: String,
    event_type: String,
    free: bool,
    #[sqlx(try_from = "String")]
    status: DeliveryStatus,
    lease_until: Option<i64>,
    attempt_count: i64,
    max_attempts: i64,
}

fn replay_of(d: Replayed, now: i64) -> NewDelivery {
    NewDelivery {
        id: new_id(),
        webhook_id: d.webhook_id,
        team_id: d.team_id,
        monitor_id: d.monitor_id,
        event_id: d.event_id,
        event_type: d.event_type,
        free: d.free,
        // A replay is one more attempt of the same event, not a new schedule.
        max_attempts: d.attempt_count + 1,
        attempt_count: d.attempt_count,
        retry_of: Some(d.id),
        created_at: now,
    }
}

const REPLAYED: &str = "SELECT id, webhook_id, team_id, monitor_id, event_id, event_type, free, \
     status, lease_until, attempt_count, max_attempts FROM deliveries";

/// Queues a replay (a new delivery row of the same event) of delivery `id`; returns the new id.
/// A delivery whose attempt is under way right now (pending, leased) is not replayed: both
/// would go out and be charged; [`StoreError::InFlight`].
pub async fn queue_replay(tx: &mut Tx, id: &str, now: i64) -> Result<Option<String>, StoreError> {
    let sql = format!("{REPLAYED} WHERE id = $1");
    let found: Option<Replayed> = on_tx!(tx, |conn| sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(conn)
        .await)?;
    let Some(found) = found else {
        return Ok(None);
    };
    if found.status == DeliveryStatus::Pending
        && found.lease_until.is_some_and(|until| until >= now)
    {
        return Err(StoreError::InFlight);
    }
    // A replay of a delivery still on its automatic schedule takes that schedule over, so the
    // event is not sent (and charged) once by the replay and again by the original's next try.
    let superseded = on_tx!(tx, |conn| sqlx::query(
        "UPDATE deliveries SET status = 'failed', failed_at = $2, updated_at = $2 \
         WHERE id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until < $2)"
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    let remaining_schedule = found.max_attempts;
    let mut replay = replay_of(found, now);
    if superseded > 0 {
        replay.max_attempts = replay.max_attempts.max(remaining_schedule);
    }
    let new_id = replay.id.clone();
    insert_deliveries(tx, &[replay]).await?;
    Ok(Some(new_id))
}

/// Queues a new delivery row (same event, sent asynchronously) for every `failed` delivery of
/// the webhook created at or after `since_ms`; returns how many.
pub async fn requeue_failed_since(
    tx: &mut Tx,
    webhook_id: &str,
    since_ms: i64,
    now: i64,
) -> Result<u64, StoreError> {
    let sql = format!(
        "{REPLAYED} WHERE webhook_id = $1 AND status = 'failed' AND created_at >= $2 \
         ORDER BY created_at"
    );
    let failed: Vec<Replayed> = on_tx!(tx, |conn| sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(webhook_id)
        .bind(since_ms)
        .fetch_all(conn)
        .await)?;
    let replays: Vec<NewDelivery> = failed.into_iter().map(|d| replay_of(d, now)).collect();
    insert_deliveries(tx, &replays).await?;
    Ok(replays.len() as u64)
}

/// The delivery queue at a glance: pending deliveries, those among them that failed at least
/// once (waiting for a retry), and when the oldest pending one was created.
#[derive(Debug, Clone, Copy, Default, sqlx::FromRow)]
pub struct QueueStats {
    pub pending: i64,
    pub retrying: i64,
    pub oldest_created_at: Option<i64>,
}

/// Measures the delivery queue (one pass over the pending deliveries' index).
pub async fn queue_stats(db: &Db) -> Result<QueueStats, StoreError> {
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<_, QueueStats>(
        "SELECT CAST(COUNT(*) AS BIGINT) AS pending, \
         CAST(COALESCE(SUM(CASE WHEN attempt_count > 0 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         AS retrying, MIN(created_at) AS oldest_created_at \
         FROM deliveries WHERE status = 'pending'"
    )
    .fetch_one(pool)
    .await)?)
}
