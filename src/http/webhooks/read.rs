//! `GET /webhooks`, `GET /webhooks/{id}` and `DELETE /webhooks/{id}`.

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use super::views::{WebhookView, webhook_view};
use crate::http::auth::Principal;
use crate::http::envelope::{ok, paginated};
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::service::webhooks;

const DEFAULT_LIMIT: i64 = 100;
const MAX_LIMIT: i64 = 100;

/// Offset pagination of the webhook list.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookPagination {
    pub limit: i64,
    pub offset: i64,
    /// Items on this page.
    pub count: usize,
}

/// The `data` of a delete: `{success: true, id, active: false}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookDeleted {
    pub success: bool,
    pub id: String,
    pub active: bool,
}

/// Lists the team's active webhooks, newest first: standalone ones and those of active monitors
/// (with `monitor_id`). Secrets are never shown here.
#[utoipa::path(get, path = "/api/v2/webhooks", operation_id = "listWebhooks", tag = "Webhooks",
    params(("limit" = Option<i64>, Query, description = "Page size, 1-100, default 100"),
           ("offset" = Option<i64>, Query, description = "Items to skip, default 0")),
    responses(
        (status = 200, description = "A page of webhooks (with `secret_preview` only) and `pagination` {limit, offset, count}", body = Vec<WebhookView>),
        (status = 400, description = "An invalid or unknown query parameter", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list_webhooks(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&["limit", "offset"])?;
    let limit = query
        .int_in_range("limit", 1, MAX_LIMIT)?
        .unwrap_or(DEFAULT_LIMIT);
    let offset = query.int_in_range("offset", 0, i64::MAX)?.unwrap_or(0);
    let list = webhooks::list(&state, &principal.context(), limit, offset).await?;
    let views: Vec<WebhookView> = list.iter().map(webhook_view).collect();
    let pagination = WebhookPagination {
        limit,
        offset,
        count: views.len(),
    };
    Ok(paginated("webhooks.list", views, pagination))
}

/// Retrieves one active webhook with its statistics; a soft-deleted one is not found.
#[utoipa::path(get, path = "/api/v2/webhooks/{id}", operation_id = "getWebhook", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    responses(
        (status = 200, description = "The Webhook (with `secret_preview` only)", body = WebhookView),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn get_webhook(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let webhook = webhooks::get(&state, &principal.context(), &id).await?;
    Ok(ok("webhooks.get", webhook_view(&webhook)))
}

/// Soft-deletes a standalone webhook: it stops receiving events and disappears from list and
/// retrieve, keeping its history; `PUT {active: true}` brings it back.
#[utoipa::path(delete, path = "/api/v2/webhooks/{id}", operation_id = "deleteWebhook", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    responses(
        (status = 200, description = "`data` is `{success: true, id, active: false}`", body = WebhookDeleted),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        (status = 409, description = "The webhook belongs to a monitor; the message names it", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn delete_webhook(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    webhooks::delete(&state, &principal.context(), &id).await?;
    let deleted = WebhookDeleted {
        success: true,
        id,
        active: false,
    };
    Ok(ok("webhooks.delete", deleted))
}
