//! The Monitor resource as clients see it.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::time::{DAY_MS, format_ms, now_ms};
use crate::store::Db;
use crate::store::monitors::MonitorRow;
use crate::store::stats::{MonitorCounts, monitor_counts};

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

/// Builds the client view of a monitor. `secret` is given only when this request created the
/// webhook; `counts` is `None` when statistics could not be read.
pub fn monitor_view(
    row: &MonitorRow,
    secret: Option<String>,
    counts: Option<MonitorCounts>,
) -> MonitorView {
    let signal_types: Vec<String> = serde_json::from_str(&row.signal_types).unwrap_or_default();
    MonitorView {
        id: row.id.clone(),
        name: row.name.clone(),
        signal_types,
        active: row.active,
        webhook: row
            .webhook_id
            .clone()
            .zip(row.webhook_url.clone())
            .map(|(id, endpoint_url)| MonitorWebhook {
                id,
                endpoint_url,
                secret,
            }),
        stats: counts.map(|c| MonitorStats {
            targets: c.targets,
            resolved_targets: c.resolved_targets,
            signals_30d: c.signals_since,
            last_delivery_at: row.last_delivery_at.map(format_ms),
        }),
        created_at: format_ms(row.created_at),
        updated_at: format_ms(row.updated_at),
    }
}

/// Reads the statistics of the team's monitors; `None` when they cannot be read.
pub async fn read_counts(
    db: &Db,
    team_id: &str,
) -> Option<std::collections::HashMap<String, MonitorCounts>> {
    match monitor_counts(db, team_id, now_ms() - 30 * DAY_MS).await {
        Ok(counts) => Some(counts),
        Err(err) => {
            tracing::warn!(error = %err, "monitor statistics could not be read");
            None
        }
    }
}
