//! The Webhooks pages: the list with `New webhook`, a webhook's page with its edit form,
//! `Send test event`, `Rotate secret` (the new secret shown once), `Delete`, `Retry failed
//! since` and its deliveries table filtered by status.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::page::{Layout, PageError, render_with, see_other, when};
use super::webhook_form::{EventChoice, FilterField, WebhookErrors, WebhookForm};
use crate::http::state::AppState;
use crate::service::ServiceError;
use crate::service::deliveries::{self, DeliveryKey, DeliveryQuery};
use crate::service::sessions::Session;
use crate::service::webhooks::{self, NewWebhook, Webhook, WebhookChanges};

/// Deliveries one page of the table shows.
const DELIVERIES_PER_PAGE: i64 = 50;
/// Webhooks the list shows (a team has at most 10 active ones).
const WEBHOOKS_SHOWN: i64 = 100;

/// One row of the webhooks table.
pub struct WebhookItem {
    pub id: String,
    pub url: String,
    pub monitor_id: String,
    pub event_types: String,
    pub delivered: i64,
    pub failed: i64,
    pub last_success: String,
}

#[derive(Template)]
#[template(path = "dashboard/webhooks.html")]
struct WebhooksPage {
    layout: Layout,
    webhooks: Vec<WebhookItem>,
    form: WebhookForm,
    events: Vec<EventChoice>,
    filters: Vec<FilterField>,
    errors: WebhookErrors,
}

/// One row of the deliveries table.
pub struct DeliveryItem {
    pub id: String,
    pub event_type: String,
    pub status: &'static str,
    pub response: String,
    pub attempts: i64,
    pub created: String,
}

#[derive(Template)]
#[template(path = "dashboard/webhook.html")]
struct WebhookPage {
    layout: Layout,
    id: String,
    url: String,
    monitor_id: String,
    event_types: String,
    filters_text: String,
    modified: String,
    delivered: i64,
    failed: i64,
    secret: Option<String>,
    notice: Option<String>,
    form: WebhookForm,
    events: Vec<EventChoice>,
    filters: Vec<FilterField>,
    errors: WebhookErrors,
    status: String,
    deliveries: Vec<DeliveryItem>,
    older: Option<String>,
    since_error: Option<String>,
}

/// The deliveries table's query: `status` and where the page starts.
#[derive(Debug, Default, Deserialize)]
pub struct DeliveriesQuery {
    #[serde(default)]
    status: String,
    #[serde(default)]
    after: String,
}

/// `GET /app/webhooks`.
pub async fn list(State(state): State<AppState>, session: Session) -> Result<Response, PageError> {
    let form = WebhookForm::default();
    list_page(&state, &session, form, WebhookErrors::default()).await
}

async fn list_page(
    state: &AppState,
    session: &Session,
    form: WebhookForm,
    errors: WebhookErrors,
) -> Result<Response, PageError> {
    let found = webhooks::list(state, &session.context(), WEBHOOKS_SHOWN, 0).await?;
    let status = if errors.any() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let page = WebhooksPage {
        layout: Layout::new(session, "webhooks", "Webhooks"),
        webhooks: found.into_iter().map(item).collect(),
        events: form.event_choices(),
        filters: form.filter_fields(),
        form,
        errors,
    };
    Ok(render_with(status, &page))
}

fn item(w: Webhook) -> WebhookItem {
    WebhookItem {
        id: w.row.id,
        url: w.row.endpoint_url,
        monitor_id: w.row.monitor_id.unwrap_or_default(),
        event_types: w.event_types.join(", "),
        delivered: w.stats.successful_deliveries,
        failed: w.stats.failed_deliveries,
        last_success: when(w.stats.last_success_at),
    }
}

/// `POST /app/webhooks`: creates a standalone webhook and shows its secret once.
pub async fn create(
    State(state): State<AppState>,
    session: Session,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let form = WebhookForm::read(pairs);
    let checked = match form.check(&state).await {
        Ok(checked) => checked,
        Err(errors) => return list_page(&state, &session, form, errors).await,
    };
    let input = NewWebhook {
        endpoint_url: checked.endpoint_url,
        event_types: checked.event_types,
        filters: checked.filters,
    };
    match webhooks::create(&state, &session.context(), input).await {
        Ok(created) => {
            let secret = Some(created.row.secret.clone());
            let view = View {
                secret,
                notice: Some("Webhook created.".into()),
                ..View::default()
            };
            webhook_page(&state, &session, created, view).await
        }
        Err(ServiceError::Invalid(message)) => {
            let errors = WebhookErrors {
                form: Some(message),
                ..WebhookErrors::default()
            };
            list_page(&state, &session, form, errors).await
        }
        Err(err) => Err(err.into()),
    }
}

/// What a webhook page shows beyond the webhook itself.
#[derive(Default)]
struct View {
    secret: Option<String>,
    notice: Option<String>,
    form: Option<WebhookForm>,
    errors: WebhookErrors,
    query: DeliveriesQuery,
    since_error: Option<String>,
}

/// `GET /app/webhooks/{id}`.
pub async fn show(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Query(query): Query<DeliveriesQuery>,
) -> Result<Response, PageError> {
    let webhook = webhooks::get(&state, &session.context(), &id).await?;
    let view = View {
        query,
        ..View::default()
    };
    webhook_page(&state, &session, webhook, view).await
}

async fn webhook_page(
    state: &AppState,
    session: &Session,
    webhook: Webhook,
    view: View,
) -> Result<Response, PageError> {
    let ctx = session.context();
    let status = match view.query.status.as_str() {
        "" => None,
        s => Some(deliveries::parse_status(s)?),
    };
    let query = DeliveryQuery {
        status,
        after: parse_after(&view.query.after),
        limit: DELIVERIES_PER_PAGE,
    };
    let page_of = deliveries::list(state, &ctx, &webhook.row.id, &query).await?;
    let form = view.form.unwrap_or_else(|| WebhookForm {
        endpoint_url: webhook.row.endpoint_url.clone(),
        event_types: webhook.event_types.clone(),
        filters: webhook.filters.clone(),
    });
    let code = if view.errors.any() || view.since_error.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let filters_text = webhook
        .filters
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let page = WebhookPage {
        layout: Layout::new(session, "webhooks", "Webhook"),
        id: webhook.row.id.clone(),
        url: webhook.row.endpoint_url.clone(),
        monitor_id: webhook.row.monitor_id.clone().unwrap_or_default(),
        event_types: webhook.event_types.join(", "),
        filters_text,
        modified: format!(
            "{} via {}",
            when(Some(webhook.row.updated_at)),
            webhook.row.last_modified_via.as_deref().unwrap_or("api")
        ),
        delivered: webhook.stats.successful_deliveries,
        failed: webhook.stats.failed_deliveries,
        secret: view.secret,
        notice: view.notice,
        events: form.event_choices(),
        filters: form.filter_fields(),
        form,
        errors: view.errors,
        status: view.query.status.clone(),
        older: page_of.next.map(|k| format!("{}_{}", k.created_at, k.id)),
        deliveries: page_of
            .rows
            .into_iter()
            .map(|d| DeliveryItem {
                status: d.status.as_str(),
                response: d
                    .response_status
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "—".into()),
                attempts: d.attempt_count,
                created: when(Some(d.created_at)),
                event_type: d.event_type,
                id: d.id,
            })
            .collect(),
        since_error: view.since_error,
    };
    Ok(render_with(code, &page))
}

/// `after=<created_at>_<id>` of the "Older" link.
fn parse_after(text: &str) -> Option<DeliveryKey> {
    let (at, id) = text.split_once('_')?;
    Some(DeliveryKey {
        created_at: at.parse().ok()?,
        id: id.to_string(),
    })
}

/// `POST /app/webhooks/{id}`: saves the edit form.
pub async fn update(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let ctx = session.context();
    let current = webhooks::get(&state, &ctx, &id).await?;
    let form = WebhookForm::read(pairs);
    let checked = match form.check(&state).await {
        Ok(checked) => checked,
        Err(errors) => {
            let view = View {
                form: Some(form),
                errors,
                ..View::default()
            };
            return webhook_page(&state, &session, current, view).await;
        }
    };
    let changes = WebhookChanges {
        endpoint_url: Some(checked.endpoint_url),
        event_types: Some(checked.event_types),
        filters: Some(checked.filters),
        ..WebhookChanges::default()
    };
    match webhooks::update(&state, &ctx, &id, changes).await {
        Ok(_) => Ok(see_other(&format!("/app/webhooks/{id}"))),
        Err(ServiceError::Invalid(message) | ServiceError::Conflict(message)) => {
            let view = View {
                form: Some(form),
                errors: WebhookErrors {
                    form: Some(message),
                    ..WebhookErrors::default()
                },
                ..View::default()
            };
            webhook_page(&state, &session, current, view).await
        }
        Err(err) => Err(err.into()),
    }
}

/// `POST /app/webhooks/{id}/test`: sends a test event now and opens its delivery.
pub async fn send_test(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let sent = webhooks::send_test(&state, &session.context(), &id).await?;
    Ok(see_other(&format!(
        "/app/webhooks/{id}/deliveries/{}",
        sent.delivery_id
    )))
}

/// `POST /app/webhooks/{id}/rotate`: mints a new secret and shows it once.
pub async fn rotate(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let changes = WebhookChanges {
        rotate_secret: true,
        ..WebhookChanges::default()
    };
    let webhook = webhooks::update(&state, &session.context(), &id, changes).await?;
    let view = View {
        secret: Some(webhook.row.secret.clone()),
        notice: Some("The secret was rotated; the old one is no longer used.".into()),
        ..View::default()
    };
    webhook_page(&state, &session, webhook, view).await
}

/// `POST /app/webhooks/{id}/delete`.
pub async fn delete(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    webhooks::delete(&state, &session.context(), &id).await?;
    Ok(see_other("/app/webhooks"))
}

/// The `Retry failed since` form.
#[derive(Debug, Deserialize)]
pub struct SinceForm {
    #[serde(default)]
    since: String,
}

/// `POST /app/webhooks/{id}/retry-failed`: queues every failed delivery since a time again.
pub async fn retry_failed(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<SinceForm>,
) -> Result<Response, PageError> {
    let ctx = session.context();
    let since = rfc3339_of(&form.since);
    let view = match deliveries::retry_failed(&state, &ctx, &id, since.as_deref()).await {
        Ok(queued) => View {
            notice: Some(format!(
                "{queued} failed deliveries queued to be sent again."
            )),
            ..View::default()
        },
        Err(ServiceError::Invalid(message)) => View {
            since_error: Some(message),
            ..View::default()
        },
        Err(err) => return Err(err.into()),
    };
    let webhook = webhooks::get(&state, &ctx, &id).await?;
    webhook_page(&state, &session, webhook, view).await
}

/// A time as a browser's `datetime-local` field sends it (`2026-05-29T10:30`, read as UTC) or
/// already in RFC 3339.
fn rfc3339_of(text: &str) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.len() == 16 && text.as_bytes().get(10) == Some(&b'T') {
        return Some(format!("{text}:00Z"));
    }
    Some(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_local_time_is_read_as_utc() {
        assert_eq!(
            rfc3339_of("2026-05-29T10:30").as_deref(),
            Some("2026-05-29T10:30:00Z")
        );
        assert_eq!(rfc3339_of(" "), None);
        assert_eq!(
            rfc3339_of("2026-05-29T10:30:00.000Z").as_deref(),
            Some("2026-05-29T10:30:00.000Z")
        );
    }

    #[test]
    fn the_older_link_names_the_last_delivery_shown() {
        let key = parse_after("1700000000000_abc").unwrap();
        assert_eq!(key.created_at, 1_700_000_000_000);
        assert_eq!(key.id, "abc");
        assert!(parse_after("nonsense").is_none());
    }
}
