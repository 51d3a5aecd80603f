//! Webhook subscriptions: standalone ones and those owned by a monitor.

use super::{StoreError, Tx};
use crate::domain::time::now_ms;
use crate::on_tx;

/// A subscription about to be stored.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    pub id: String,
    pub team_id: String,
    pub monitor_id: Option<String>,
    pub endpoint_url: String,
    pub secret: String,
    pub event_types: Vec<String>,
    pub modified_by: String,
    pub modified_via: &'static str,
}

/// Stores a new, active subscription.
pub async fn insert_webhook(tx: &mut Tx, w: &NewWebhook) -> Result<(), StoreError> {
    let now = now_ms();
    let event_types = serde_json::to_string(&w.event_types).unwrap_or_else(|_| "[]".into());
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO webhooks (id, team_id, monitor_id, endpoint_url, secret, event_types, \
         filters, active, last_modified_by, last_modified_via, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, '{}', TRUE, $7, $8, $9, $9)"
    )
    .bind(&w.id)
    .bind(&w.team_id)
    .bind(&w.monitor_id)
    .bind(&w.endpoint_url)
    .bind(&w.secret)
    .bind(&event_types)
    .bind(&w.modified_by)
    .bind(w.modified_via)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Retires a monitor's subscription: it stops receiving and keeps its delivery history.
pub async fn retire_webhook(tx: &mut Tx, id: &str) -> Result<(), StoreError> {
    let now = now_ms();
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE webhooks SET active = FALSE, retired_at = $2, updated_at = $2 WHERE id = $1"
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Keeps a monitor subscription's event types in step with the monitor's signal types.
pub async fn set_event_types(
    tx: &mut Tx,
    id: &str,
    event_types: &[String],
) -> Result<(), StoreError> {
    let event_types = serde_json::to_string(event_types).unwrap_or_else(|_| "[]".into());
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE webhooks SET event_types = $2, updated_at = $3 WHERE id = $1"
    )
    .bind(id)
    .bind(&event_types)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Active webhooks of a team, counted against the limit of 10: active standalone subscriptions
/// and the subscriptions of active monitors. `except_monitor` leaves one monitor out, for
/// checking a change to that monitor.
pub async fn count_active_webhooks(
    tx: &mut Tx,
    team_id: &str,
    except_monitor: Option<&str>,
) -> Result<i64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM webhooks w LEFT JOIN monitors m ON m.id = w.monitor_id \
         WHERE w.team_id = $1 AND w.active AND w.retired_at IS NULL \
         AND (w.monitor_id IS NULL OR (m.active AND m.webhook_id = w.id)) \
         AND (w.monitor_id IS NULL OR $2 IS NULL OR w.monitor_id <> $2)"
    )
    .bind(team_id)
    .bind(except_monitor)
    .fetch_one(conn)
    .await)?)
}
