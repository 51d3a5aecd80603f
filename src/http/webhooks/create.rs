//! `POST /webhooks`: create a standalone webhook subscription.

use axum::extract::State;
use axum::response::Response;

use super::input::{
    CreateWebhookBody, check_endpoint_url, parse_event_types, parse_filters, to_json_text,
};
use super::views::{Secret, WebhookView, webhook_view};
use super::{VIA_API, ensure_webhook_capacity};
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::http::auth::Principal;
use crate::http::envelope::created;
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::state::AppState;
use crate::store::delivery_history::WebhookStats;
use crate::store::new_id;
use crate::store::webhooks::{NewWebhook, find_webhook_tx, insert_webhook_with_filters};

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
    let url = check_endpoint_url(
        &state,
        body.endpoint_url
            .ok_or_else(|| ApiError::bad_request("endpoint_url is required"))?,
    )
    .await?;
    let webhook = NewWebhook {
        id: new_id(),
        team_id: principal.team_id.clone(),
        monitor_id: None,
        endpoint_url: url.into_string(),
        secret: generate_webhook_secret(),
        event_types,
        modified_by: principal.user_id.clone(),
        modified_via: VIA_API,
    };
    let mut tx = state.db.begin().await?;
    tx.lock_team(&principal.team_id).await?;
    ensure_webhook_capacity(&mut tx, &principal.team_id).await?;
    let filters = to_json_text(&filters.unwrap_or_default());
    insert_webhook_with_filters(&mut tx, &webhook, &filters).await?;
    // Read back inside the transaction so the answer shows exactly what was stored.
    let row = find_webhook_tx(&mut tx, &principal.team_id, &webhook.id)
        .await?
        .ok_or_else(|| ApiError::internal("a created webhook could not be read back"))?;
    tx.commit().await?;
    let view = webhook_view(&row, Secret::Shown, WebhookStats::default());
    Ok(created("webhooks.create", view))
}
