//! `POST /webhooks`: create a standalone webhook subscription.

use axum::extract::State;
use axum::response::Response;

use super::input::{CreateWebhookBody, check_endpoint_url, parse_event_types, parse_filters};
use super::views::{WebhookView, webhook_view};
use crate::http::auth::Principal;
use crate::http::envelope::created;
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::state::AppState;
use crate::service::webhooks::{self, NewWebhook};

/// Creates a webhook for the caller's team. The response carries the signing secret, once.
#[utoipa::path(post, path = "/api/v2/webhooks", operation_id = "createWebhook", tag = "Webhooks",
    request_body = CreateWebhookBody,
    responses(
        (status = 201, description = "Webhook created; `data` is the Webhook with its full `secret` (shown only here)", body = WebhookView),
        (status = 400, description = "Invalid JSON or value, unsupported event type, non-public endpoint URL, or the limit of 10 active webhooks reached", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn create_webhook(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
    JsonBody(body): JsonBody<CreateWebhookBody>,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let event_types = parse_event_types(
        body.event_types
            .ok_or_else(|| ApiError::bad_request("event_types is required"))?,
    )?;
    let filters = body.filters.map(parse_filters).transpose()?;
    let endpoint_url = check_endpoint_url(
        &state,
        body.endpoint_url
            .ok_or_else(|| ApiError::bad_request("endpoint_url is required"))?,
    )
    .await?;
    let input = NewWebhook {
        endpoint_url,
        event_types,
        filters: filters.unwrap_or_default(),
    };
    let webhook = webhooks::create(&state, &principal.context(), input).await?;
    Ok(created("webhooks.create", webhook_view(&webhook)))
}
