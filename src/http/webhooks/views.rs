//! The Webhook resource as clients see it: the full secret only in the response that minted it,
//! `secret_preview` everywhere else, and delivery statistics on every read.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::time::format_ms;
use crate::domain::webhook_secret::secret_preview;
use crate::service::webhooks::Webhook;

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

/// Builds the client view of a webhook: the full secret when the call minted it, else only its
/// preview.
pub fn webhook_view(webhook: &Webhook) -> WebhookView {
    let row = &webhook.row;
    let (full, preview) = if webhook.secret_minted {
        (Some(row.secret.clone()), None)
    } else {
        (None, Some(secret_preview(&row.secret)))
    };
    let stats = &webhook.stats;
    WebhookView {
        id: row.id.clone(),
        endpoint_url: row.endpoint_url.clone(),
        event_types: webhook.event_types.clone(),
        filters: webhook.filters.clone(),
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
