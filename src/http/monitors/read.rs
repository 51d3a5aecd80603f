//! `GET /monitors`, `GET /monitors/{id}` and `DELETE /monitors/{id}`.

use axum::extract::State;
use axum::response::Response;
use serde_json::json;

use super::views::{MonitorView, monitor_view};
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::service::monitors;

/// Lists the team's monitors, newest first, paused ones included.
#[utoipa::path(get, path = "/api/v2/monitors", operation_id = "listMonitors", tag = "Monitors",
    responses(
        (status = 200, description = "Every monitor of the team (without webhook secrets)", body = Vec<MonitorView>),
        (status = 400, description = "A query parameter was given", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list_monitors(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let list = monitors::list(&state, &principal.context()).await?;
    let views: Vec<MonitorView> = list.iter().map(monitor_view).collect();
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
pub async fn get_monitor(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    let monitor = monitors::get(&state, &principal.context(), &id).await?;
    Ok(ok("monitors.get", monitor_view(&monitor)))
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
pub async fn delete_monitor(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    monitors::delete(&state, &principal.context(), &id).await?;
    Ok(ok("monitors.delete", json!({ "id": id, "deleted": true })))
}
