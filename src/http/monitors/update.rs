//! `PUT /monitors/{id}`: rename, change signal types, pause or resume, and replace or detach the
//! webhook. A rejected URL is refused before anything changes, so the monitor keeps its endpoint.

use axum::extract::State;
use axum::response::Response;

use super::input::{
    UpdateMonitorBody, check_webhook_url, event_types, parse_active, parse_name,
    parse_signal_types_value, requested_url, signal_types_json,
};
use super::views::{monitor_view, read_counts};
use super::webhook::{attach_new_webhook, ensure_webhook_capacity};
use crate::domain::signal_type::SignalType;
use crate::domain::webhook_url::{WebhookUrl, parse_webhook_url};
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::store::monitors::{MonitorRow, find_monitor, find_monitor_tx, update_monitor};
use crate::store::webhooks::{retire_webhook, set_endpoint_url, set_event_types};

/// What the update does to the webhook.
enum WebhookChange {
    Keep,
    /// The same endpoint written another way: the subscription and its secret stay, and the URL
    /// is shown as now sent.
    Respell(WebhookUrl),
    Detach,
    Replace(WebhookUrl),
}

/// Updates a monitor. A new webhook's secret is returned once, in this response.
#[utoipa::path(put, path = "/api/v2/monitors/{id}", operation_id = "updateMonitor", tag = "Monitors",
    params(("id" = String, Path, description = "Monitor id")),
    request_body = UpdateMonitorBody,
    responses(
        (status = 200, description = "The updated Monitor", body = super::views::MonitorView),
        (status = 400, description = "A rejected value or webhook URL, or the active webhook limit", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn update_monitor_handler(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    let team = principal.team_id.as_str();
    // The monitor first: an unknown one is 404 whatever the body says.
    let current = find_monitor(&state.db, team, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    let body: UpdateMonitorBody = body.parse()?;
    let name = body.name.map(parse_name).transpose()?;
    let types = body
        .signal_types
        .map(parse_signal_types_value)
        .transpose()?;
    let active = body.active.map(parse_active).transpose()?;
    let change = webhook_change(&state, &current, body.webhook_url).await?;

    let mut tx = state.db.begin().await?;
    tx.lock_team(team).await?;
    let mut monitor = find_monitor_tx(&mut tx, team, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    let counted_before = monitor.active && monitor.webhook_id.is_some();
    if let Some(name) = name {
        monitor.name = name;
    }
    if let Some(types) = &types {
        monitor.signal_types = signal_types_json(types);
    }
    if let Some(active) = active {
        monitor.active = active;
    }
    let current_types = stored_types(&monitor);
    let counted_after = monitor.active
        && match change {
            WebhookChange::Keep | WebhookChange::Respell(_) => monitor.webhook_id.is_some(),
            WebhookChange::Detach => false,
            WebhookChange::Replace(_) => true,
        };
    if counted_after && !counted_before {
        ensure_webhook_capacity(&mut tx, team, &monitor.id).await?;
    }
    let secret =
        apply_webhook_change(&mut tx, &mut monitor, change, &current_types, &principal).await?;
    if let (Some(types), Some(webhook_id)) = (&types, &monitor.webhook_id) {
        set_event_types(&mut tx, webhook_id, &event_types(types)).await?;
    }
    update_monitor(&mut tx, &monitor).await?;
    tx.commit().await?;

    let fresh = find_monitor(&state.db, team, &id).await.ok().flatten();
    let row = fresh.as_ref().unwrap_or(&monitor);
    let counts = read_counts(&state.db, team)
        .await
        .map(|all| all.get(&id).copied().unwrap_or_default());
    Ok(ok("monitors.update", monitor_view(row, secret, counts)))
}

async fn apply_webhook_change(
    tx: &mut crate::store::Tx,
    monitor: &mut MonitorRow,
    change: WebhookChange,
    types: &[SignalType],
    principal: &Principal,
) -> Result<Option<String>, ApiError> {
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
            let secret = attach_new_webhook(tx, monitor, &url, types, &principal.user_id).await?;
            Ok(Some(secret))
        }
    }
}

/// What a `webhook_url` sent (`None` when absent) does to the monitor's webhook. The URL is
/// checked in full, DNS included, before anything changes.
async fn webhook_change(
    state: &AppState,
    current: &MonitorRow,
    sent: Option<Option<String>>,
) -> Result<WebhookChange, ApiError> {
    let change = match sent.map(requested_url) {
        None => WebhookChange::Keep,
        Some(None) => WebhookChange::Detach,
        Some(Some(url)) if current.webhook_url.as_deref() == Some(url.trim()) => {
            WebhookChange::Keep
        }
        Some(Some(url)) => {
            let parsed = check_webhook_url(state, &url).await?;
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

fn stored_types(monitor: &MonitorRow) -> Vec<SignalType> {
    let names: Vec<String> = serde_json::from_str(&monitor.signal_types).unwrap_or_default();
    names.iter().filter_map(|n| SignalType::parse(n)).collect()
}
