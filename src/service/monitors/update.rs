//! Changing a monitor: rename, change signal types, pause or resume, and replace or detach its
//! webhook. A rejected URL is refused before anything changes, so the monitor keeps its endpoint.

use super::webhook::{attach_new_webhook, event_types};
use super::{Monitor, find, monitor_not_found, requested_url, signal_types_json, stored_types};
use crate::domain::signal_type::SignalType;
use crate::domain::webhook_url::{WebhookUrl, parse_webhook_url};
use crate::service::webhooks::{check_webhook_url, ensure_webhook_capacity};
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::Tx;
use crate::store::monitors::{self as store, MonitorRow};
use crate::store::webhooks::{retire_webhook, set_endpoint_url, set_event_types};

/// The checked changes of one update; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct MonitorChanges {
    pub name: Option<String>,
    pub signal_types: Option<Vec<SignalType>>,
    /// `false` pauses the monitor, `true` resumes it.
    pub active: Option<bool>,
    /// The webhook URL as sent: a different URL replaces the webhook (checked in full here), an
    /// empty one or `Some(None)` detaches it, the same URL keeps it.
    pub webhook_url: Option<Option<String>>,
}

/// What the update does to the webhook.
enum WebhookChange {
    Keep,
    /// The same endpoint written another way: the subscription and its secret stay, and the URL
    /// is shown as now sent.
    Respell(WebhookUrl),
    Detach,
    Replace(WebhookUrl),
}

/// Updates the team's monitor `id`. A new webhook's secret is in the result, once; statistics
/// that cannot be read back leave `counts` empty rather than fail the update.
pub async fn update(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
    changes: MonitorChanges,
) -> Result<Monitor, ServiceError> {
    let current = find(&services.db, ctx, id).await?;
    let change = webhook_change(services, &current, changes.webhook_url).await?;

    let mut tx = services.db.begin_write().await?;
    tx.lock_team(ctx.team()).await?;
    let mut monitor = store::find_monitor_tx(&mut tx, ctx.team(), id)
        .await?
        .ok_or_else(monitor_not_found)?;
    let counted_before = monitor.active && monitor.webhook_id.is_some();
    if let Some(name) = changes.name {
        monitor.name = name;
    }
    if let Some(types) = &changes.signal_types {
        monitor.signal_types = signal_types_json(types);
    }
    if let Some(active) = changes.active {
        monitor.active = active;
    }
    let current_types = stored_types(&monitor)?;
    let counted_after = monitor.active
        && match change {
            WebhookChange::Keep | WebhookChange::Respell(_) => monitor.webhook_id.is_some(),
            WebhookChange::Detach => false,
            WebhookChange::Replace(_) => true,
        };
    if counted_after && !counted_before {
        ensure_webhook_capacity(&mut tx, ctx.team(), Some(&monitor.id)).await?;
    }
    let secret = apply_webhook_change(&mut tx, &mut monitor, change, &current_types, ctx).await?;
    if let (Some(types), Some(webhook_id)) = (&changes.signal_types, &monitor.webhook_id) {
        set_event_types(&mut tx, webhook_id, &event_types(types)).await?;
    }
    store::update_monitor(&mut tx, &monitor).await?;
    tx.commit().await?;
    read_back(services, ctx, monitor, secret).await
}

/// The monitor as stored after the update (the written row if it cannot be read), with its
/// statistics when they can be read.
async fn read_back(
    services: &Services,
    ctx: &TeamContext,
    written: MonitorRow,
    secret: Option<String>,
) -> Result<Monitor, ServiceError> {
    let fresh = store::find_monitor(&services.db, ctx.team(), &written.id)
        .await
        .ok()
        .flatten();
    let row = fresh.unwrap_or(written);
    let counts = match super::team_counts(&services.db, ctx.team()).await {
        Ok(mut all) => Some(all.remove(&row.id).unwrap_or_default()),
        Err(err) => {
            tracing::warn!(error = %err, "monitor statistics could not be read");
            None
        }
    };
    Ok(Monitor {
        signal_types: stored_types(&row)?,
        row,
        counts,
        secret,
    })
}

async fn apply_webhook_change(
    tx: &mut Tx,
    monitor: &mut MonitorRow,
    change: WebhookChange,
    types: &[SignalType],
    ctx: &TeamContext,
) -> Result<Option<String>, ServiceError> {
    match change {
        WebhookChange::Keep => Ok(None),
        WebhookChange::Respell(url) => {
            if let Some(id) = &monitor.webhook_id {
                set_endpoint_url(tx, id, url.as_str()).await?;
                monitor.webhook_url = Some(url.into_string());
            }
            Ok(None)
        }
        WebhookChange::Detach => {
            if let Some(old) = monitor.webhook_id.take() {
                retire_webhook(tx, &old).await?;
            }
            monitor.webhook_url = None;
            Ok(None)
        }
        WebhookChange::Replace(url) => {
            if let Some(old) = monitor.webhook_id.take() {
                retire_webhook(tx, &old).await?;
            }
            let secret = attach_new_webhook(tx, monitor, &url, types, ctx).await?;
            Ok(Some(secret))
        }
    }
}

/// What a `webhook_url` sent (`None` when absent) does to the monitor's webhook. The URL is
/// checked in full, DNS included, before anything changes.
async fn webhook_change(
    services: &Services,
    current: &MonitorRow,
    sent: Option<Option<String>>,
) -> Result<WebhookChange, ServiceError> {
    let change = match sent.map(requested_url) {
        None => WebhookChange::Keep,
        Some(None) => WebhookChange::Detach,
        Some(Some(url)) if current.webhook_url.as_deref() == Some(url.trim()) => {
            WebhookChange::Keep
        }
        Some(Some(url)) => {
            let parsed = check_webhook_url(services, &url, "webhook_url").await?;
            if is_current_endpoint(current, &parsed) {
                WebhookChange::Respell(parsed)
            } else {
                WebhookChange::Replace(parsed)
            }
        }
    };
    Ok(change)
}

/// True when `url` names the endpoint the monitor's webhook already posts to, however either
/// was written.
fn is_current_endpoint(monitor: &MonitorRow, url: &WebhookUrl) -> bool {
    monitor
        .webhook_url
        .as_deref()
        .and_then(|stored| parse_webhook_url(stored, true).ok())
        .is_some_and(|stored| stored.same_endpoint(url))
}
