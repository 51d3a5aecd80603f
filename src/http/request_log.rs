//! One log line per request at `info`: method, route template (never the concrete path with
//! its ids, nor the query, nor any header, so no key reaches the log), status, duration and the
//! team the request was made for when its key was recognized.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;

/// The team a request was answered for, set on the response by the team API guard.
#[derive(Debug, Clone)]
pub struct AnsweredTeam(pub String);

/// Logs the request once it is answered.
pub async fn log_request(req: Request, next: Next) -> Response {
    let path = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = req.method().clone();
    let started = Instant::now();
    let response = next.run(req).await;
    let team = response
        .extensions()
        .get::<AnsweredTeam>()
        .map(|t| t.0.as_str())
        .unwrap_or("-");
    tracing::info!(
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        duration_ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0,
        team_id = %team,
        "request"
    );
    response
}
