//! A delivery's page: its event, every attempt (time, status, duration, error, what the receiver
//! answered), the last response excerpt, and `Retry`.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use super::page::{Layout, PageError, render, see_other, when};
use crate::http::state::AppState;
use crate::service::deliveries;
use crate::service::sessions::Session;

/// Most characters of a response body shown.
const EXCERPT_CHARS: usize = 500;

/// One row of the attempts table.
pub struct AttemptItem {
    pub number: usize,
    pub at: String,
    pub status: String,
    pub duration_ms: i64,
    pub error: String,
    /// The first bytes of the receiver's answer; empty when it sent none (or no answer came).
    pub response: String,
}

#[derive(Template)]
#[template(path = "dashboard/delivery.html")]
struct DeliveryPage {
    layout: Layout,
    webhook_id: String,
    id: String,
    event_type: String,
    event_id: String,
    status: &'static str,
    created: String,
    finished: String,
    response_status: String,
    response_excerpt: String,
    attempts: Vec<AttemptItem>,
    can_retry: bool,
}

/// `GET /app/webhooks/{id}/deliveries/{delivery_id}`.
pub async fn show(
    State(state): State<AppState>,
    session: Session,
    Path((webhook_id, delivery_id)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let detail = deliveries::get(&state, &session.context(), &webhook_id, &delivery_id).await?;
    let d = detail.delivery;
    let page = DeliveryPage {
        layout: Layout::new(&session, "webhooks", "Delivery"),
        webhook_id,
        can_retry: d.status.as_str() != "done",
        status: d.status.as_str(),
        created: when(Some(d.created_at)),
        finished: when(d.delivered_at.or(d.failed_at)),
        response_status: d
            .response_status
            .map(|s| s.to_string())
            .unwrap_or_else(|| "—".into()),
        response_excerpt: d
            .response_body
            .unwrap_or_default()
            .chars()
            .take(EXCERPT_CHARS)
            .collect(),
        attempts: detail
            .attempts
            .into_iter()
            .enumerate()
            .map(|(n, a)| AttemptItem {
                number: n + 1,
                at: when(Some(a.attempted_at)),
                status: a
                    .response_status
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "no answer".into()),
                duration_ms: a.duration_ms,
                error: a.error.unwrap_or_default(),
                response: a.response_excerpt.unwrap_or_default(),
            })
            .collect(),
        id: d.id,
        event_type: d.event_type,
        event_id: d.event_id,
    };
    Ok(render(&page))
}

/// `POST /app/webhooks/{id}/deliveries/{delivery_id}/retry`: sends it again now and opens the
/// new delivery.
pub async fn retry(
    State(state): State<AppState>,
    session: Session,
    Path((webhook_id, delivery_id)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let retried = deliveries::retry(&state, &session.context(), &webhook_id, &delivery_id).await?;
    Ok(see_other(&format!(
        "/app/webhooks/{webhook_id}/deliveries/{}",
        retried.sent.delivery_id
    )))
}
