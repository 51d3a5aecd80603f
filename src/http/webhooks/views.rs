//! The Webhook resource as clients see it: the full secret only in the response that minted it,
//! `secret_preview` everywhere else, and delivery statistics on every read.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::time::format_ms;
use crate::domain::webhook_secret::secret_preview;
use crate::http::error::ApiError;
use crate::store::Db;
use crate::store::delivery_history::{WebhookStats, webhook_stats};
use crate::store::webhooks::WebhookRow;

/// A webhook subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookView {
    pub id: String,
    pub endpoint_url: String,
    pub event_types: Vec<String>,
    pub filters: BTreeMap<String, String>,
    /// `false` is the soft-deleted (paused) state; a monitor's webhook is active while its
    /// monitor is.
    pub active: bool,
    /// The owning monitor; only on a monitor's webhook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monitor_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// User id of the key that made the last change.
    pub last_modified_by: Option<String>,
    /// `api` or `dashboard`.
    pub last_modified_via: Option<String>,
    /// Full signing secret; only on create and on rotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// `…` and the secret's last four characters; on every other read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_preview: Option<String>,
    pub stats: WebhookStatsView,
}

/// Delivery statistics of a webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookStatsView {
    pub total_deliveries: i64,
    pub successful_deliveries: i64,
    pub failed_deliveries: i64,
    pub last_success_at: Option<String>,
    pub last_failure_at: Option<String>,
    /// Failed attempts since the last successful one.
    pub consecutive_failures: i64,
}

/// Whether a response shows the full secret (it was just minted) or only its preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secret {
    Shown,
    Preview,
}

/// Builds the client view of a stored webhook.
pub fn webhook_view(row: &WebhookRow, secret: Secret, stats: WebhookStats) -> WebhookView {
    let (full, preview) = match secret {
        Secret::Shown => (Some(row.secret.clone()), None),
        Secret::Preview => (None, Some(secret_preview(&row.secret))),
    };
    WebhookView {
        id: row.id.clone(),
        endpoint_url: row.endpoint_url.clone(),
        event_types: serde_json::from_str(&row.event_types).unwrap_or_default(),
        filters: serde_json::from_str(&row.filters).unwrap_or_default(),
        active: row.active && row.monitor_active != Some(false),
        monitor_id: row.monitor_id.clone(),
        created_at: format_ms(row.created_at),
        updated_at: format_ms(row.updated_at),
        last_modified_by: row.last_modified_by.clone(),
        last_modified_via: row.last_modified_via.clone(),
        secret: full,
        secret_preview: preview,
        stats: WebhookStatsView {
            total_deliveries: stats.total_deliveries,
            successful_deliveries: stats.successful_deliveries,
            failed_deliveries: stats.failed_deliveries,
            last_success_at: stats.last_success_at.map(format_ms),
            last_failure_at: stats.last_failure_at.map(format_ms),
            consecutive_failures: stats.consecutive_failures,
        },
    }
}

/// Views of several webhooks with their statistics, read in one round trip.
pub async fn webhook_views(
    db: &Db,
    team_id: &str,
    rows: &[WebhookRow],
) -> Result<Vec<WebhookView>, ApiError> {
    let ids: Vec<String> = rows.iter().map(|row| row.id.clone()).collect();
    let mut stats: HashMap<String, WebhookStats> = webhook_stats(db, team_id, &ids).await?;
    Ok(rows
        .iter()
        .map(|row| {
            let row_stats = stats.remove(&row.id).unwrap_or_default();
            webhook_view(row, Secret::Preview, row_stats)
        })
        .collect())
}

/// The view of one webhook with its statistics.
pub async fn one_webhook_view(
    db: &Db,
    row: &WebhookRow,
    secret: Secret,
) -> Result<WebhookView, ApiError> {
    let stats = webhook_stats(db, &row.team_id, std::slice::from_ref(&row.id))
        .await?
        .remove(&row.id)
        .unwrap_or_default();
    Ok(webhook_view(row, secret, stats))
}
