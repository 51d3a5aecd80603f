//! `GET /webhooks`, `GET /webhooks/{id}` and `DELETE /webhooks/{id}`.

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use super::views::{Secret, WebhookView, one_webhook_view, webhook_views};
use super::{VIA_API, find_active_webhook, owned_by_monitor, webhook_not_found};
use crate::http::auth::Principal;
use crate::http::envelope::{ok, paginated};
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::store::webhooks::{find_webhook_tx, list_active_webhooks, soft_delete_webhook};

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
    let team = principal.team_id.as_str();
    let rows = list_active_webhooks(&state.db, team, limit, offset).await?;
    let views = webhook_views(&state.db, team, &rows).await?;
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
    let row = find_active_webhook(&state.db, &principal.team_id, &raw_id).await?;
    let view = one_webhook_view(&state.db, &row, Secret::Preview).await?;
    Ok(ok("webhooks.get", view))
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
    let team = principal.team_id.as_str();
    let mut tx = state.db.begin().await?;
    let row = find_webhook_tx(&mut tx, team, &id)
        .await?
        .filter(|row| row.active)
        .ok_or_else(webhook_not_found)?;
    if let Some(monitor_id) = &row.monitor_id {
        return Err(owned_by_monitor(monitor_id));
    }
    if !soft_delete_webhook(&mut tx, team, &id, &principal.user_id, VIA_API).await? {
        return Err(webhook_not_found());
    }
    tx.commit().await?;
    let deleted = WebhookDeleted {
        success: true,
        id,
        active: false,
    };
    Ok(ok("webhooks.delete", deleted))
}
