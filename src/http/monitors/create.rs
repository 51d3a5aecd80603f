//! `POST /monitors`: create a monitor, with its webhook subscription when a URL is given.

use axum::extract::State;
use axum::response::Response;

use super::input::{CreateMonitorBody, parse_name, parse_signal_types_value};
use super::views::monitor_view;
use crate::http::auth::Principal;
use crate::http::envelope::created;
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::state::AppState;
use crate::service::monitors::{self, NewMonitor, requested_url};
use crate::service::webhooks::check_webhook_url;

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
    let signal_types = parse_signal_types_value(
        body.signal_types
            .ok_or_else(|| ApiError::bad_request("signal_types is required"))?,
    )?;
    let webhook_url = match requested_url(body.webhook_url.flatten()) {
        Some(url) => Some(check_webhook_url(&state, &url, "webhook_url").await?),
        None => None,
    };
    let input = NewMonitor {
        name,
        signal_types,
        webhook_url,
    };
    let monitor = monitors::create(&state, &principal.context(), input).await?;
    Ok(created("monitors.create", monitor_view(&monitor)))
}
