//! `PUT /webhooks/{id}`: change the endpoint, event types or filters, pause or re-enable, and
//! rotate the signing secret. A monitor's webhook accepts only the rotation.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::Response;

use super::input::{
    UpdateWebhookBody, check_endpoint_url, parse_event_types, parse_filters, parse_flag,
    to_json_text,
};
use super::views::{Secret, WebhookView, one_webhook_view};
use super::{VIA_API, ensure_webhook_capacity, owned_by_monitor, webhook_not_found};
use crate::domain::time::now_ms;
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::domain::webhook_url::WebhookUrl;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::store::webhooks::{WebhookRow, find_webhook, find_webhook_tx, update_webhook};

/// The checked changes of one update; `None` leaves a field as it is.
struct Changes {
    endpoint_url: Option<WebhookUrl>,
    event_types: Option<Vec<String>>,
    filters: Option<BTreeMap<String, String>>,
    active: Option<bool>,
    rotate_secret: bool,
}

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
pub async fn update_webhook_handler(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let id = parse_path_id(&raw_id, "Webhook")?;
    let team = principal.team_id.as_str();
    // The webhook first: an unknown one is 404 whatever the body says. A soft-deleted webhook
    // is still found here: this is how it is re-enabled.
    let current = find_webhook(&state.db, team, &id)
        .await?
        .ok_or_else(webhook_not_found)?;
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
    if let Some(monitor_id) = &current.monitor_id
        && changes_more_than_the_secret
    {
        return Err(owned_by_monitor(monitor_id));
    }
    // The URL check may resolve DNS, so it runs before the transaction takes the write lock.
    let endpoint_url = match body.endpoint_url {
        Some(value) => Some(check_endpoint_url(&state, value).await?),
        None => None,
    };
    let changes = Changes {
        endpoint_url,
        event_types,
        filters,
        active,
        rotate_secret,
    };

    let mut tx = state.db.begin().await?;
    tx.lock_team(team).await?;
    let mut row = find_webhook_tx(&mut tx, team, &id)
        .await?
        .ok_or_else(webhook_not_found)?;
    if changes.active == Some(true) && !row.active {
        ensure_webhook_capacity(&mut tx, team).await?;
    }
    apply(&mut row, changes, &principal.user_id);
    update_webhook(&mut tx, &row).await?;
    tx.commit().await?;

    let secret = if rotate_secret {
        Secret::Shown
    } else {
        Secret::Preview
    };
    let view = one_webhook_view(&state.db, &row, secret).await?;
    Ok(ok("webhooks.update", view))
}

fn apply(row: &mut WebhookRow, changes: Changes, user_id: &str) {
    if let Some(url) = changes.endpoint_url {
        row.endpoint_url = url.into_string();
    }
    if let Some(types) = &changes.event_types {
        row.event_types = to_json_text(types);
    }
    if let Some(filters) = &changes.filters {
        row.filters = to_json_text(filters);
    }
    if let Some(active) = changes.active {
        row.active = active;
    }
    if changes.rotate_secret {
        row.secret = generate_webhook_secret();
    }
    row.last_modified_by = Some(user_id.to_string());
    row.last_modified_via = Some(VIA_API.to_string());
    row.updated_at = now_ms();
}
