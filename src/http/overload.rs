//! Admission of API requests: at most a set number are handled at once; the next ones wait in a
//! bounded queue for a turn, and past the queue's length, or its longest wait, the service
//! answers `503 service_unavailable` with `Retry-After` instead of piling up work the database
//! cannot take (which ends, much later, in time-outs). A request answered 503 was not started,
//! so nothing of it was stored: sending it again is safe.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::error::ApiError;

/// How many requests are handled at once and how long the others may wait.
#[derive(Debug, Clone, Copy)]
pub struct AdmissionLimits {
    /// Requests handled at once.
    pub in_flight: usize,
    /// Requests that may wait for a turn; one more is answered 503 at once.
    pub queue: usize,
    /// The longest a request waits for a turn before it is answered 503.
    pub wait: Duration,
}

/// The shared admission state of one process's API.
#[derive(Debug, Clone)]
pub struct Admission {
    turns: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    limits: AdmissionLimits,
}

impl Admission {
    /// Admission with these limits.
    pub fn new(limits: AdmissionLimits) -> Admission {
        Admission {
            turns: Arc::new(Semaphore::new(limits.in_flight.max(1))),
            waiting: Arc::default(),
            limits,
        }
    }

    /// Seconds a refused client is asked to wait: the queue's longest wait, at least one.
    fn retry_after(&self) -> u64 {
        self.limits.wait.as_secs().max(1)
    }
}

/// Leaves the waiting count when the wait ends, however it ends.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The middleware: a turn, else 503 after a bounded wait.
pub async fn admit(State(admission): State<Admission>, request: Request, next: Next) -> Response {
    let turn = match admission.turns.clone().try_acquire_owned() {
        Ok(turn) => turn,
        Err(_) => {
            let queued = admission.waiting.fetch_add(1, Ordering::AcqRel);
            let _waiting = Waiting(&admission.waiting);
            if queued >= admission.limits.queue {
                return overloaded(&admission);
            }
            let wait = admission.turns.clone().acquire_owned();
            match tokio::time::timeout(admission.limits.wait, wait).await {
                Ok(Ok(turn)) => turn,
                _ => return overloaded(&admission),
            }
        }
    };
    let response = next.run(request).await;
    drop(turn);
    response
}

fn overloaded(admission: &Admission) -> Response {
    metrics::counter!("signalwatch_requests_shed_total").increment(1);
    ApiError::overloaded(admission.retry_after()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::http::StatusCode;
    use axum::routing::get;
    use tower::ServiceExt;

    fn app(limits: AdmissionLimits, hold: Duration) -> Router {
        let admission = Admission::new(limits);
        Router::new()
            .route(
                "/",
                get(move || async move {
                    tokio::time::sleep(hold).await;
                    "ok"
                }),
            )
            .layer(axum::middleware::from_fn_with_state(admission, admit))
    }

    async fn statuses(app: Router, n: usize) -> Vec<(StatusCode, Option<String>)> {
        let mut calls = tokio::task::JoinSet::new();
        for _ in 0..n {
            let app = app.clone();
            calls.spawn(async move {
                let request = Request::builder().uri("/").body(Body::empty()).unwrap();
                let response = app.oneshot(request).await.expect("answer");
                let retry = response
                    .headers()
                    .get("Retry-After")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                (response.status(), retry)
            });
        }
        calls.join_all().await
    }

    #[tokio::test]
    async fn requests_past_the_queue_are_answered_503_with_retry_after_and_the_rest_served() {
        let limits = AdmissionLimits {
            in_flight: 2,
            queue: 3,
            wait: Duration::from_secs(5),
        };
        let answers = statuses(app(limits, Duration::from_millis(50)), 10).await;
        let served = answers.iter().filter(|(s, _)| *s == StatusCode::OK).count();
        let refused: Vec<_> = answers
            .iter()
            .filter(|(s, _)| *s == StatusCode::SERVICE_UNAVAILABLE)
            .collect();
        assert_eq!(served, 5, "two at once and three waiting: {answers:?}");
        assert_eq!(refused.len(), 5, "{answers:?}");
        assert!(
            refused
                .iter()
                .all(|(_, retry)| retry.as_deref() == Some("5"))
        );
    }

    #[tokio::test]
    async fn a_request_that_waits_longer_than_the_queue_allows_is_answered_503() {
        let limits = AdmissionLimits {
            in_flight: 1,
            queue: 10,
            wait: Duration::from_millis(20),
        };
        let answers = statuses(app(limits, Duration::from_millis(300)), 2).await;
        let codes: Vec<StatusCode> = answers.iter().map(|(s, _)| *s).collect();
        assert!(codes.contains(&StatusCode::OK), "{codes:?}");
        assert!(
            codes.contains(&StatusCode::SERVICE_UNAVAILABLE),
            "{codes:?}"
        );
        let refused = answers
            .iter()
            .find(|(s, _)| *s == StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.and_then(|(_, r)| r.as_deref()), Some("1"));
    }
}
