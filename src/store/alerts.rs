//! Alert items: signals waiting for a monitor's next e-mail digest.
//!
//! A digest is sent by at most one worker at a time: the worker first claims the monitor by moving
//! its `last_email_at` into the future (the claim's expiry), which makes the monitor look not due
//! to every other worker, even with a zero-length window. A successful send then records the send
//! time; a failed one moves the value back so that the next tick tries again. A worker that dies
//! mid-send leaves the claim to expire, and the items, still unsent, go out after it.

use sqlx::FromRow;

use super::{Db, StoreError, placeholders};
use crate::{on_db, on_tx};

/// One signal of a digest, as the fan-out recorded it.
#[derive(Debug, Clone, FromRow)]
pub struct PendingAlert {
    pub id: String,
    /// The webhook event type, e.g. `funding.created`.
    pub event_type: String,
    /// The webhook event's `data` object, as JSON text.
    pub data: String,
    pub created_at: i64,
}

/// Everything needed to render and address one monitor's digest.
#[derive(Debug, Clone)]
pub struct PendingDigest {
    pub monitor_id: String,
    pub team_id: String,
    pub monitor_name: String,
    /// E-mail address of the user who created the monitor.
    pub recipient: String,
    /// Unsent items, oldest first.
    pub items: Vec<PendingAlert>,
}

#[derive(FromRow)]
struct DigestHead {
    team_id: String,
    name: String,
    email: String,
}

/// The SQL condition "this active monitor's window has passed and it has unsent items", with the
/// window's cutoff as `$1`. Paused monitors keep their items until they resume.
/// It names the table rather than an alias so that the same text also serves in an UPDATE.
const DUE: &str = "monitors.active \
     AND (monitors.last_email_at IS NULL OR monitors.last_email_at <= $1) \
     AND EXISTS (SELECT 1 FROM alert_items a \
     WHERE a.monitor_id = monitors.id AND a.sent_at IS NULL)";

/// Item ids per `IN (…)` list, well under both backends' parameter limits.
const ID_CHUNK: usize = 500;

/// Ids of the monitors whose digest is due: active, with unsent items, and no digest since
/// `cutoff`. The longest-waiting come first, so digests that keep failing (their window start is
/// moved to the cutoff) cannot crowd the others out of a round.
pub async fn due_monitors(db: &Db, cutoff: i64, limit: i64) -> Result<Vec<String>, StoreError> {
    let sql = format!(
        "SELECT id FROM monitors WHERE {DUE} ORDER BY COALESCE(last_email_at, 0), id LIMIT $2"
    );
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, String>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(cutoff)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// Claims a due monitor's digest until `claim_until`. False when it is no longer due, e.g.
/// because another worker claimed it first.
pub async fn claim_digest(
    db: &Db,
    monitor_id: &str,
    cutoff: i64,
    claim_until: i64,
) -> Result<bool, StoreError> {
    let sql = format!("UPDATE monitors SET last_email_at = $2 WHERE id = $3 AND {DUE}");
    let claimed = db
        .write(async |tx| {
            Ok(on_tx!(tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(cutoff)
                .bind(claim_until)
                .bind(monitor_id)
                .execute(conn)
                .await
                .map(|r| r.rows_affected()))?)
        })
        .await?;
    Ok(claimed == 1)
}

/// Gives a claim back after a failed send by setting the window's start to `cutoff`, the latest
/// value that leaves the digest due, so the next tick tries again. Does nothing when the claim
/// has already been replaced.
pub async fn release_digest(
    db: &Db,
    monitor_id: &str,
    claim_until: i64,
    cutoff: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query(
            "UPDATE monitors SET last_email_at = $1 WHERE id = $2 AND last_email_at = $3"
        )
        .bind(cutoff)
        .bind(monitor_id)
        .bind(claim_until)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?)
    })
    .await?;
    Ok(())
}

/// A monitor's unsent items (at most `max_items`, oldest first) with its name and the creator's
/// address. `None` when the monitor is gone or has nothing to send.
pub async fn pending_digest(
    db: &Db,
    monitor_id: &str,
    max_items: i64,
) -> Result<Option<PendingDigest>, StoreError> {
    let head = on_db!(db, |pool| sqlx::query_as::<_, DigestHead>(
        "SELECT m.team_id, m.name, u.email FROM monitors m JOIN users u ON u.id = m.created_by \
         WHERE m.id = $1"
    )
    .bind(monitor_id)
    .fetch_optional(pool)
    .await)?;
    let Some(head) = head else {
        return Ok(None);
    };
    let items = on_db!(db, |pool| sqlx::query_as::<_, PendingAlert>(
        "SELECT a.id, e.event_type, e.data, a.created_at FROM alert_items a \
         JOIN events e ON e.id = a.event_id \
         WHERE a.monitor_id = $1 AND a.sent_at IS NULL ORDER BY a.created_at, a.id LIMIT $2"
    )
    .bind(monitor_id)
    .bind(max_items)
    .fetch_all(pool)
    .await)?;
    if items.is_empty() {
        return Ok(None);
    }
    Ok(Some(PendingDigest {
        monitor_id: monitor_id.to_string(),
        team_id: head.team_id,
        monitor_name: head.name,
        recipient: head.email,
        items,
    }))
}

/// Records a sent digest in one transaction: its items are sent, the monitor's window starts at
/// `sent_at`, and the monitor's last delivery is `sent_at` unless a later one is already recorded.
pub async fn mark_digest_sent(
    db: &Db,
    monitor_id: &str,
    item_ids: &[String],
    sent_at: i64,
) -> Result<(), StoreError> {
    let mut tx = db.begin_write().await?;
    for chunk in item_ids.chunks(ID_CHUNK) {
        let sql = format!(
            "UPDATE alert_items SET sent_at = $1 WHERE sent_at IS NULL AND id IN ({})",
            placeholders(2, chunk.len())
        );
        on_tx!(&mut tx, |conn| {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(sent_at);
            for id in chunk {
                query = query.bind(id);
            }
            query.execute(conn).await.map(|r| r.rows_affected())
        })?;
    }
    on_tx!(&mut tx, |conn| sqlx::query(
        "UPDATE monitors SET last_email_at = $1, last_delivery_at = CASE \
         WHEN last_delivery_at IS NULL OR last_delivery_at < $1 THEN $1 \
         ELSE last_delivery_at END WHERE id = $2"
    )
    .bind(sent_at)
    .bind(monitor_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    tx.commit().await
}
