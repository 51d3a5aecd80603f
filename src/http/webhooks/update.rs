//! `PUT /webhooks/{id}`: change the endpoint, event types or filters, pause or re-enable, and
//! rotate the signing secret. A monitor's webhook accepts only the rotation.

use axum::extract::State;
use axum::response::Response;

use super::input::{
    UpdateWebhookBody, check_endpoint_url, parse_event_types, parse_filters, parse_flag,
};
use super::views::{WebhookView, webhook_view};
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::webhooks::{self, WebhookChanges};

/// Updates any subset of a webhook's fields. With `rotate_secret: true` the response carries
/// the new secret, once; the old one stops being used at once.
#[utoipa::path(put, path = "/api/v2/webhooks/{id}", operation_id = "updateWebhook", tag = "Webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    request_body = UpdateWebhookBody,
    responses(
        (status = 200, description = "The updated Webhook: the full `secret` after a rotation, else `secret_preview`", body = WebhookView),
        (status = 400, description = "A rejected value or endpoint URL, or re-enabling beyond 10 active webhooks", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Webhook not found", body = crate::http::openapi::ErrorBody),
        (status = 409, description = "Anything but `rotate_secret` on a monitor's webhook; the message names the monitor", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn update_webhook(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let ctx = principal.context();
    // The webhook first: an unknown one is 404 whatever the body says. A soft-deleted webhook
    // is still found here: this is how it is re-enabled.
    let current = webhooks::find(&state, &ctx, &id).await?;
    let body: UpdateWebhookBody = body.parse()?;
    let changes_more_than_the_secret = body.changes_more_than_the_secret();
    let event_types = body.event_types.map(parse_event_types).transpose()?;
    let filters = body.filters.map(parse_filters).transpose()?;
    let active = body.active.map(|v| parse_flag(v, "active")).transpose()?;
    let rotate_secret = body
        .rotate_secret
        .map(|v| parse_flag(v, "rotate_secret"))
        .transpose()?
        .unwrap_or(false);
    webhooks::refuse_monitor_change(&current, changes_more_than_the_secret)?;
    // The URL check may resolve DNS, so it runs before the update takes the write lock.
    let endpoint_url = match body.endpoint_url {
        Some(value) => Some(check_endpoint_url(&state, value).await?),
        None => None,
    };
    let changes = WebhookChanges {
        endpoint_url,
        event_types,
        filters,
        active,
        rotate_secret,
    };
    let webhook = webhooks::update(&state, &ctx, &id, changes).await?;
    Ok(ok("webhooks.update", webhook_view(&webhook)))
}
