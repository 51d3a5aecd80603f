//! The Monitor resource as clients see it.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::time::format_ms;
use crate::service::monitors::Monitor;

/// A monitor: a named group of targets with its signal types and optional webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct MonitorView {
    pub id: String,
    pub name: String,
    pub signal_types: Vec<String>,
    /// `false` means paused: targets are kept, nothing is delivered.
    pub active: bool,
    /// `null` for an e-mail-only monitor.
    pub webhook: Option<MonitorWebhook>,
    /// `null` only when an update succeeded but statistics could not be read back.
    pub stats: Option<MonitorStats>,
    pub created_at: String,
    pub updated_at: String,
}

/// The monitor's webhook subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct MonitorWebhook {
    pub id: String,
    pub endpoint_url: String,
    /// Signing secret; only in the response to the request that created the endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// Statistics of a monitor.
#[derive(Debug, Serialize, ToSchema)]
pub struct MonitorStats {
    pub targets: i64,
    pub resolved_targets: i64,
    /// Signals of any type in the last 30 days for the monitor's resolved companies.
    pub signals_30d: i64,
    /// Most recent successful delivery, webhook or e-mail.
    pub last_delivery_at: Option<String>,
}

/// Builds the client view of a monitor: the webhook's secret only when this request created the
/// webhook, and no statistics when they could not be read.
pub fn monitor_view(monitor: &Monitor) -> MonitorView {
    let row = &monitor.row;
    MonitorView {
        id: row.id.clone(),
        name: row.name.clone(),
        signal_types: monitor
            .signal_types
            .iter()
            .map(|t| t.as_str().to_string())
            .collect(),
        active: row.active,
        webhook: row
            .webhook_id
            .clone()
            .zip(row.webhook_url.clone())
            .map(|(id, endpoint_url)| MonitorWebhook {
                id,
                endpoint_url,
                secret: monitor.secret.clone(),
            }),
        stats: monitor.counts.map(|c| MonitorStats {
            targets: c.targets,
            resolved_targets: c.resolved_targets,
            signals_30d: c.signals_since,
            last_delivery_at: row.last_delivery_at.map(format_ms),
        }),
        created_at: format_ms(row.created_at),
        updated_at: format_ms(row.updated_at),
    }
}
