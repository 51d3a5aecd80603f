//! `GET /webhooks/{id}/deliveries` (newest first, keyset cursor pages, `status` filter) and
//! `GET /webhooks/{id}/deliveries/{deliveryId}` (one delivery with its attempts).

use axum::extract::State;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::time::format_ms;
use crate::http::auth::Principal;
use crate::http::envelope::{ok, paginated};
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::service::deliveries::{self, DeliveryDetail};
use crate::service::deliveries::{AttemptRow, DeliveryKey, DeliveryQuery, DeliveryRow};

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 100;
/// The reference service keeps the first 1000 characters of an endpoint's answer.
const MAX_RESPONSE_BODY_CHARS: usize = 1000;

/// One delivery of an event to a webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    pub id: String,
    pub event_type: String,
    /// Stable across the original delivery and its retries: receivers dedupe on it.
    pub event_id: String,
    /// `pending`, `done` or `failed`.
    pub status: String,
    /// HTTP status of the last answer, 0 on a network error, null before any attempt.
    pub response_status: Option<i64>,
    /// First 1000 characters of the last answer's body.
    pub response_body: Option<String>,
    pub attempt_count: i64,
    pub delivered_at: Option<String>,
    pub failed_at: Option<String>,
    pub created_at: String,
    /// Every attempt, first first; only when one delivery is retrieved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Vec<AttemptView>>,
}

/// One attempt of a delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptView {
    pub attempted_at: String,
    /// HTTP status of the answer; null when there was none.
    pub response_status: Option<i64>,
    pub duration_ms: i64,
    /// Why there was no HTTP answer (time-out, refused connection…); null on an answer.
    pub error: Option<String>,
}

/// Cursor pagination of the delivery list.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryPagination {
    /// Pass back as `cursor` for the next page; null when there are no more rows.
    pub next_cursor: Option<String>,
    pub limit: i64,
}

/// Lists a webhook's deliveries, newest first.
#[utoipa::path(get, path = "/api/v2/webhooks/{id}/deliveries", operation_id = "listWebhookDeliveries", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id"),
           ("limit" = Option<i64>, Query, description = "Page size, 1-100, default 50"),
           ("status" = Option<String>, Query, description = "`done`, `failed` or `pending`"),
           ("cursor" = Option<String>, Query, description = "`pagination.next_cursor` of the previous page")),
    responses(
        (status = 200, description = "A page of deliveries with `pagination` {next_cursor, limit}", body = Vec<DeliveryView>),
        (status = 400, description = "An invalid or unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list_deliveries(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&["limit", "status", "cursor"])?;
    let limit = query
        .int_in_range("limit", 1, MAX_LIMIT)?
        .unwrap_or(DEFAULT_LIMIT);
    let status = query
        .get("status")
        .map(deliveries::parse_status)
        .transpose()?;
    // An empty cursor (a client passing back a null next_cursor) asks for the first page.
    let after = query
        .get("cursor")
        .filter(|cursor| !cursor.is_empty())
        .map(decode_cursor)
        .transpose()?;
    let webhook_id = parse_path_id(&raw_id, "Webhook")?;
    let delivery_query = DeliveryQuery {
        status,
        after,
        limit,
    };
    let page = deliveries::list(&state, &principal.context(), &webhook_id, &delivery_query).await?;
    let views: Vec<DeliveryView> = page
        .rows
        .iter()
        .map(|row| delivery_view(row, None))
        .collect();
    let pagination = DeliveryPagination {
        next_cursor: page.next.as_ref().map(encode_cursor),
        limit,
    };
    Ok(paginated("webhooks.deliveries.list", views, pagination))
}

/// Retrieves one delivery with its attempts.
#[utoipa::path(get, path = "/api/v2/webhooks/{id}/deliveries/{deliveryId}", operation_id = "getWebhookDelivery", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id"),
           ("deliveryId" = String, Path, description = "Delivery id")),
    responses(
        (status = 200, description = "The Delivery with `attempts`", body = DeliveryView),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook or delivery not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn get_delivery(
    State(state): State<AppState>,
    principal: Principal,
    PathParams((raw_id, raw_delivery_id)): PathParams<(String, String)>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let webhook_id = parse_path_id(&raw_id, "Webhook")?;
    let ctx = principal.context();
    let DeliveryDetail { delivery, attempts } =
        deliveries::get(&state, &ctx, &webhook_id, &raw_delivery_id).await?;
    let attempts = attempts.iter().map(attempt_view).collect();
    Ok(ok(
        "webhooks.deliveries.get",
        delivery_view(&delivery, Some(attempts)),
    ))
}

fn delivery_view(row: &DeliveryRow, attempts: Option<Vec<AttemptView>>) -> DeliveryView {
    DeliveryView {
        id: row.id.clone(),
        event_type: row.event_type.clone(),
        event_id: row.event_id.clone(),
        status: row.status.as_str().to_string(),
        // No HTTP answer after an attempt is shown as 0; null only before the first attempt.
        response_status: row.response_status.or((row.attempt_count > 0).then_some(0)),
        response_body: row
            .response_body
            .as_ref()
            .map(|body| body.chars().take(MAX_RESPONSE_BODY_CHARS).collect()),
        attempt_count: row.attempt_count,
        delivered_at: row.delivered_at.map(format_ms),
        failed_at: row.failed_at.map(format_ms),
        created_at: format_ms(row.created_at),
        attempts,
    }
}

fn attempt_view(row: &AttemptRow) -> AttemptView {
    AttemptView {
        attempted_at: format_ms(row.attempted_at),
        response_status: row.response_status,
        duration_ms: row.duration_ms,
        error: row.error.clone(),
    }
}

/// The form of a cursor: base64url (no padding) of 24 bytes, the created_at milliseconds
/// (big-endian) and the delivery id. Every string of this form is a position in the keyset, so
/// the document can say exactly which cursors are accepted.
pub const CURSOR_PATTERN: &str = "^[A-Za-z0-9_-]{32}$";

/// The cursor is opaque to clients.
fn encode_cursor(key: &DeliveryKey) -> String {
    let id = uuid::Uuid::parse_str(&key.id).unwrap_or_default();
    let mut bytes = Vec::with_capacity(24);
    bytes.extend_from_slice(&key.created_at.to_be_bytes());
    bytes.extend_from_slice(id.as_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

fn decode_cursor(raw: &str) -> Result<DeliveryKey, ApiError> {
    let invalid = || ApiError::bad_request("cursor is invalid; pass pagination.next_cursor back");
    if raw.len() != 32 {
        return Err(invalid());
    }
    let bytes = URL_SAFE_NO_PAD.decode(raw).map_err(|_| invalid())?;
    let (at, id) = bytes.split_at_checked(8).ok_or_else(invalid)?;
    let created_at = i64::from_be_bytes(at.try_into().map_err(|_| invalid())?);
    let id = uuid::Uuid::from_slice(id).map_err(|_| invalid())?;
    Ok(DeliveryKey {
        created_at,
        id: id.to_string(),
    })
}
