//! `PUT /monitors/{id}`: rename, change signal types, pause or resume, and replace or detach the
//! webhook. A rejected URL is refused before anything changes, so the monitor keeps its endpoint.

use axum::extract::State;
use axum::response::Response;

use super::input::{UpdateMonitorBody, parse_active, parse_name, parse_signal_types_value};
use super::views::monitor_view;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::monitors::{self, MonitorChanges};

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
pub async fn update_monitor(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Monitor")?;
    let ctx = principal.context();
    // The monitor first: an unknown one is 404 whatever the body says.
    monitors::check_exists(&state, &ctx, &id).await?;
    let body: UpdateMonitorBody = body.parse()?;
    let changes = MonitorChanges {
        name: body.name.map(parse_name).transpose()?,
        signal_types: body
            .signal_types
            .map(parse_signal_types_value)
            .transpose()?,
        active: body.active.map(parse_active).transpose()?,
        webhook_url: body.webhook_url,
    };
    let monitor = monitors::update(&state, &ctx, &id, changes).await?;
    Ok(ok("monitors.update", monitor_view(&monitor)))
}
