//! Webhook subscriptions: standalone ones and those owned by a monitor.
//!
//! A subscription is *retired* (`retired_at` set) when its monitor replaces, detaches or deletes
//! it; it is *soft-deleted* (`active` false, `retired_at` NULL) when a standalone webhook is
//! deleted or paused through the Webhooks API. Retired rows only keep delivery history: every
//! read here leaves them out. Reads and writes take the team id, so a foreign id is "not found".

use sqlx::FromRow;

use super::{Db, StoreError, Tx};
use crate::domain::time::now_ms;
use crate::{on_db, on_tx};

/// A subscription as stored.
#[derive(Debug, Clone, FromRow)]
pub struct WebhookRow {
    pub id: String,
    pub team_id: String,
    /// The owning monitor; `None` for a standalone webhook.
    pub monitor_id: Option<String>,
    pub endpoint_url: String,
    pub secret: String,
    /// JSON array of event type names.
    pub event_types: String,
    /// JSON object of filter names to string values.
    pub filters: String,
    pub active: bool,
    /// Whether the owning monitor is active; `None` for a standalone webhook. A paused
    /// monitor's webhook receives nothing, whatever its own `active` says.
    pub monitor_active: Option<bool>,
    pub last_modified_by: Option<String>,
    pub last_modified_via: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The columns of a [`WebhookRow`]; needs `webhooks w` and `monitors m` left-joined on
/// `m.id = w.monitor_id`.
const WEBHOOK_COLUMNS: &str = "w.id, w.team_id, w.monitor_id, w.endpoint_url, w.secret, \
     w.event_types, w.filters, w.active, m.active AS monitor_active, w.last_modified_by, \
     w.last_modified_via, w.created_at, w.updated_at";

/// The subscriptions that receive events and count toward the active-webhook limit: active
/// standalone ones and the current subscription of each active monitor. Needs `webhooks w` and
/// `monitors m` left-joined on `m.id = w.monitor_id`.
const COUNTED_ACTIVE: &str = "w.active AND w.retired_at IS NULL \
     AND (w.monitor_id IS NULL OR (m.active AND m.webhook_id = w.id))";

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

/// Stores a new, active subscription without filters (a monitor's).
pub async fn insert_webhook(tx: &mut Tx, w: &NewWebhook) -> Result<(), StoreError> {
    insert_webhook_with_filters(tx, w, "{}").await
}

/// Stores a new, active subscription with its filters (a JSON object of strings).
pub async fn insert_webhook_with_filters(
    tx: &mut Tx,
    w: &NewWebhook,
    filters: &str,
) -> Result<(), StoreError> {
    let now = now_ms();
    let event_types = serde_json::to_string(&w.event_types).unwrap_or_else(|_| "[]".into());
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO webhooks (id, team_id, monitor_id, endpoint_url, secret, event_types, \
         filters, active, last_modified_by, last_modified_via, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, TRUE, $8, $9, $10, $10)"
    )
    .bind(&w.id)
    .bind(&w.team_id)
    .bind(&w.monitor_id)
    .bind(&w.endpoint_url)
    .bind(&w.secret)
    .bind(&event_types)
    .bind(filters)
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

/// Changes how a subscription's endpoint is written, for the same endpoint sent another way.
pub async fn set_endpoint_url(tx: &mut Tx, id: &str, endpoint_url: &str) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE webhooks SET endpoint_url = $2, updated_at = $3 WHERE id = $1"
    )
    .bind(id)
    .bind(endpoint_url)
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
    let sql = format!(
        "SELECT COUNT(*) FROM webhooks w LEFT JOIN monitors m ON m.id = w.monitor_id \
         WHERE w.team_id = $1 AND {COUNTED_ACTIVE} \
         AND (w.monitor_id IS NULL OR $2 IS NULL OR w.monitor_id <> $2)"
    );
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(team_id)
    .bind(except_monitor)
    .fetch_one(conn)
    .await)?)
}

/// One of the team's subscriptions that is not retired, active or soft-deleted.
pub async fn find_webhook(
    db: &Db,
    team_id: &str,
    id: &str,
) -> Result<Option<WebhookRow>, StoreError> {
    let sql = find_sql();
    Ok(on_db!(db, |pool| sqlx::query_as::<_, WebhookRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(id)
    .bind(team_id)
    .fetch_optional(pool)
    .await)?)
}

/// [`find_webhook`] inside a transaction, for a read-then-write.
pub async fn find_webhook_tx(
    tx: &mut Tx,
    team_id: &str,
    id: &str,
) -> Result<Option<WebhookRow>, StoreError> {
    let sql = find_sql();
    Ok(on_tx!(tx, |conn| sqlx::query_as::<_, WebhookRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(id)
    .bind(team_id)
    .fetch_optional(conn)
    .await)?)
}

fn find_sql() -> String {
    format!(
        "SELECT {WEBHOOK_COLUMNS} FROM webhooks w LEFT JOIN monitors m ON m.id = w.monitor_id \
         WHERE w.id = $1 AND w.team_id = $2 AND w.retired_at IS NULL"
    )
}

/// One page of the subscriptions that receive events (standalone and of active monitors),
/// newest first.
pub async fn list_active_webhooks(
    db: &Db,
    team_id: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<WebhookRow>, StoreError> {
    let sql = format!(
        "SELECT {WEBHOOK_COLUMNS} FROM webhooks w LEFT JOIN monitors m ON m.id = w.monitor_id \
         WHERE w.team_id = $1 AND {COUNTED_ACTIVE} \
         ORDER BY w.created_at DESC, w.id DESC LIMIT $2 OFFSET $3"
    );
    Ok(on_db!(db, |pool| sqlx::query_as::<_, WebhookRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(team_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await)?)
}

/// Writes a subscription's editable fields back: endpoint, secret (rotation), event types,
/// filters, `active` (soft delete and re-enabling), the audit columns and `updated_at`.
pub async fn update_webhook(tx: &mut Tx, w: &WebhookRow) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE webhooks SET endpoint_url = $3, secret = $4, event_types = $5, filters = $6, \
         active = $7, last_modified_by = $8, last_modified_via = $9, updated_at = $10 \
         WHERE id = $1 AND team_id = $2 AND retired_at IS NULL"
    )
    .bind(&w.id)
    .bind(&w.team_id)
    .bind(&w.endpoint_url)
    .bind(&w.secret)
    .bind(&w.event_types)
    .bind(&w.filters)
    .bind(w.active)
    .bind(&w.last_modified_by)
    .bind(&w.last_modified_via)
    .bind(w.updated_at)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Soft-deletes an active standalone subscription of the team: it stops receiving events and
/// keeps its history. Returns false when there was no such subscription.
pub async fn soft_delete_webhook(
    tx: &mut Tx,
    team_id: &str,
    id: &str,
    modified_by: &str,
    modified_via: &str,
) -> Result<bool, StoreError> {
    let changed = on_tx!(tx, |conn| sqlx::query(
        "UPDATE webhooks SET active = FALSE, last_modified_by = $3, last_modified_via = $4, \
         updated_at = $5 WHERE id = $1 AND team_id = $2 AND monitor_id IS NULL \
         AND retired_at IS NULL AND active"
    )
    .bind(id)
    .bind(team_id)
    .bind(modified_by)
    .bind(modified_via)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(changed == 1)
}
