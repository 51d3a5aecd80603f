//! `POST /monitors`: create a monitor, with its webhook subscription when a URL is given.

use axum::extract::State;
use axum::response::Response;

use super::input::{
    CreateMonitorBody, MAX_MONITORS, check_webhook_url, parse_name, parse_signal_types_value,
    requested_url, signal_types_json,
};
use super::views::monitor_view;
use super::webhook::{attach_new_webhook, ensure_webhook_capacity};
use crate::domain::time::now_ms;
use crate::http::auth::Principal;
use crate::http::envelope::created;
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::state::AppState;
use crate::store::monitors::{MonitorRow, count_monitors, insert_monitor};
use crate::store::new_id;
use crate::store::stats::MonitorCounts;

/// Creates a monitor for the caller's team. The response carries the webhook secret, once.
#[utoipa::path(post, path = "/api/v2/monitors", operation_id = "createMonitor", tag = "Monitors",
    request_body = CreateMonitorBody,
    responses(
        (status = 201, description = "Monitor created; `data` is the Monitor with `webhook.secret`", body = super::views::MonitorView),
        (status = 400, description = "Invalid JSON or value, unknown signal type, non-public webhook URL, or a team limit reached", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn create_monitor(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
    JsonBody(body): JsonBody<CreateMonitorBody>,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let name = parse_name(
        body.name
            .ok_or_else(|| ApiError::bad_request("name is required"))?,
    )?;
    let types = parse_signal_types_value(
        body.signal_types
            .ok_or_else(|| ApiError::bad_request("signal_types is required"))?,
    )?;
    let url = match requested_url(body.webhook_url.flatten()) {
        Some(url) => Some(check_webhook_url(&state, &url).await?),
        None => None,
    };
    let now = now_ms();
    let mut monitor = MonitorRow {
        id: new_id(),
        team_id: principal.team_id.clone(),
        created_by: principal.user_id.clone(),
        name,
        signal_types: signal_types_json(&types),
        active: true,
        webhook_id: None,
        webhook_url: None,
        last_delivery_at: None,
        created_at: now,
        updated_at: now,
    };
    let mut tx = state.db.begin().await?;
    tx.lock_team(&principal.team_id).await?;
    if count_monitors(&mut tx, &principal.team_id).await? >= MAX_MONITORS {
        return Err(ApiError::bad_request(format!(
            "Monitor limit reached: a team can have at most {MAX_MONITORS} monitors"
        )));
    }
    let mut secret = None;
    if let Some(url) = &url {
        ensure_webhook_capacity(&mut tx, &principal.team_id, &monitor.id).await?;
        secret =
            Some(attach_new_webhook(&mut tx, &mut monitor, url, &types, &principal.user_id).await?);
    }
    insert_monitor(&mut tx, &monitor).await?;
    tx.commit().await?;
    let view = monitor_view(&monitor, secret, Some(MonitorCounts::default()));
    Ok(created("monitors.create", view))
}
