//! Sending on demand: `POST /webhooks/{id}/test`, `POST /webhooks/{id}/deliveries/{deliveryId}/retry`
//! and `POST /webhooks/{id}/deliveries/retry-failed`. The HTTP work is the dispatcher's; these
//! handlers check ownership and state first and shape the answers.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::deliveries::{self, Retried};
use crate::service::webhooks;

/// The `data` of a test send.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestSent {
    /// Whether the endpoint answered 2xx.
    pub success: bool,
    pub delivery_id: String,
    pub event_id: String,
    pub event_type: String,
    /// HTTP status of the answer; 0 when there was none (network error, time-out).
    pub response_status: u16,
    pub response_body: String,
}

/// The `data` of a manual retry.
#[derive(Debug, Serialize, ToSchema)]
pub struct RetrySent {
    /// The new delivery row created by this retry.
    pub delivery_id: String,
    /// The delivery that was retried.
    pub previous_delivery_id: String,
    pub status: String,
    /// HTTP status of the answer; 0 when there was none.
    pub response_status: u16,
    pub attempt_count: i64,
    pub success: bool,
}

/// Body of `POST /webhooks/{id}/deliveries/retry-failed`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetryFailedBody {
    /// RFC 3339 time, at most 14 days ago: failed deliveries created since then are replayed.
    #[schema(value_type = String, format = DateTime)]
    pub since: Option<Value>,
}

/// Sends a signed `system.test` event to the webhook now and records it as a delivery. Any
/// request body is ignored.
#[utoipa::path(post, path = "/api/v2/webhooks/{id}/test", operation_id = "testWebhook", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    responses(
        (status = 200, description = "The test event was sent and recorded; `success` tells whether the endpoint answered 2xx", body = TestSent),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn test_webhook(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let sent = webhooks::send_test(&state, &principal.context(), &id).await?;
    let data = TestSent {
        success: sent.success,
        delivery_id: sent.delivery_id,
        event_id: sent.event_id,
        event_type: sent.event_type,
        response_status: sent.response_status.unwrap_or(0),
        response_body: sent.response_body,
    };
    Ok(ok("webhooks.test", data))
}

/// Replays a delivery that has not succeeded, inline, as a new delivery row with the same event
/// and the webhook's current secret. A successful replay costs 1 credit (test events are free).
#[utoipa::path(post, path = "/api/v2/webhooks/{id}/deliveries/{deliveryId}/retry", operation_id = "retryWebhookDelivery", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id"),
           ("deliveryId" = String, Path, description = "Id of the delivery to retry")),
    responses(
        (status = 200, description = "The retry was attempted; `success` tells whether the endpoint answered 2xx", body = RetrySent),
        (status = 402, description = "The team's credit balance is 0 (a test event's retry is free)", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook or delivery not found", body = crate::http::openapi::ErrorBody),
        (status = 409, description = "The delivery already succeeded, or an attempt of it is under way", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn retry_delivery(
    State(state): State<AppState>,
    principal: Principal,
    PathParams((raw_id, raw_delivery_id)): PathParams<(String, String)>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let retried = deliveries::retry(&state, &principal.context(), &id, &raw_delivery_id).await?;
    let credits_used = retried.credits_used;
    let data = retry_data(retried);
    let body = json!({
        "success": true,
        "data": data,
        "meta": { "endpoint": "webhooks.deliveries.retry", "creditsUsed": credits_used },
    });
    Ok((StatusCode::OK, Json(body)).into_response())
}

fn retry_data(retried: Retried) -> RetrySent {
    let Retried {
        sent, retried_id, ..
    } = retried;
    RetrySent {
        delivery_id: sent.delivery_id,
        previous_delivery_id: sent.previous_delivery_id.unwrap_or(retried_id),
        status: sent.status.as_str().to_string(),
        response_status: sent.response_status.unwrap_or(0),
        attempt_count: sent.attempt_count,
        success: sent.success,
    }
}

/// Queues a new delivery, sent in the background, for every failed delivery of the webhook
/// created at or after `since` (at most 14 days ago). `data` is `{queued}`.
#[utoipa::path(post, path = "/api/v2/webhooks/{id}/deliveries/retry-failed", operation_id = "retryFailedWebhookDeliveries", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    request_body = RetryFailedBody,
    responses(
        (status = 200, description = "`data` is `{queued}`: how many deliveries were queued", body = Value),
        (status = 400, description = "`since` missing, not RFC 3339, or over 14 days ago", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn retry_failed(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let ctx = principal.context();
    // The webhook first: an unknown one is 404 whatever the body says.
    webhooks::find_active(&state, &ctx, &id).await?;
    let body: RetryFailedBody = body.parse()?;
    let since = body.since.as_ref().and_then(Value::as_str);
    let queued = deliveries::retry_failed(&state, &ctx, &id, since).await?;
    Ok(ok(
        "webhooks.deliveries.retry_failed",
        json!({ "queued": queued }),
    ))
}
