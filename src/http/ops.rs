//! Operational endpoints: liveness, readiness, Prometheus metrics, and the API description.
//! No auth, no rate limit, no envelope.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::state::AppState;

/// `GET /health`: the process is up.
pub async fn health() -> Response {
    (StatusCode::OK, "ok").into_response()
}

/// `GET /ready`: the database answers; 503 otherwise.
pub async fn ready(State(state): State<AppState>) -> Response {
    if state.db.ping().await {
        (StatusCode::OK, "ready").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable").into_response()
    }
}

/// `GET /metrics`: Prometheus text exposition; the delivery queue is measured for it.
pub async fn metrics(State(state): State<AppState>) -> Response {
    if let Err(err) = crate::service::deliveries::measure_queue(&state.db).await {
        tracing::warn!(error = %err, "measuring the delivery queue for /metrics failed");
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}
