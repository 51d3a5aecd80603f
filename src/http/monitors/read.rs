//! `GET /monitors`, `GET /monitors/{id}` and `DELETE /monitors/{id}`.

use axum::extract::State;
use axum::response::Response;
use serde_json::json;

use super::views::{MonitorView, monitor_view, read_counts};
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::store::monitors::{delete_monitor, find_monitor, find_monitor_tx, list_monitors};
use crate::store::webhooks::retire_webhook;

/// Lists the team's monitors, newest first, paused ones included.
#[utoipa::path(get, path = "/api/v2/monitors", operation_id = "listMonitors", tag = "Monitors",
    responses(
        (status = 200, description = "Every monitor of the team (without webhook secrets)", body = Vec<MonitorView>),
        (status = 400, description = "A query parameter was given", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list_monitors_handler(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let rows = list_monitors(&state.db, &principal.team_id).await?;
    let counts = read_counts(&state.db, &principal.team_id)
        .await
        .ok_or_else(|| ApiError::internal("monitor statistics unavailable"))?;
    let views: Vec<MonitorView> = rows
        .iter()
        .map(|row| {
            monitor_view(
                row,
                None,
                Some(counts.get(&row.id).copied().unwrap_or_default()),
            )
        })
        .collect();
    Ok(ok("monitors.list", views))
}

/// Retrieves one monitor with its statistics.
#[utoipa::path(get, path = "/api/v2/monitors/{id}", operation_id = "getMonitor", tag = "Monitors",
    params(("id" = String, Path, description = "Monitor id")),
    responses(
        (status = 200, description = "The Monitor", body = MonitorView),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn get_monitor_handler(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    let row = find_monitor(&state.db, &principal.team_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    let counts = read_counts(&state.db, &principal.team_id)
        .await
        .ok_or_else(|| ApiError::internal("monitor statistics unavailable"))?;
    let view = monitor_view(
        &row,
        None,
        Some(counts.get(&id).copied().unwrap_or_default()),
    );
    Ok(ok("monitors.get", view))
}

/// Deletes a monitor and all its targets; its webhook is retired and delivery stops at once.
#[utoipa::path(delete, path = "/api/v2/monitors/{id}", operation_id = "deleteMonitor", tag = "Monitors",
    params(("id" = String, Path, description = "Monitor id")),
    responses(
        (status = 200, description = "`data` is `{id, deleted: true}`", body = crate::http::openapi::DeletedBody),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn delete_monitor_handler(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    let team = principal.team_id.as_str();
    let mut tx = state.db.begin().await?;
    tx.lock_team(team).await?;
    let monitor = find_monitor_tx(&mut tx, team, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    if let Some(webhook_id) = &monitor.webhook_id {
        retire_webhook(&mut tx, webhook_id).await?;
    }
    delete_monitor(&mut tx, team, &id).await?;
    tx.commit().await?;
    Ok(ok("monitors.delete", json!({ "id": id, "deleted": true })))
}
