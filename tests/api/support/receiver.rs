//! A real webhook receiver on loopback: records every request it gets and answers from a script,
//! so tests can play any endpoint behaviour (down, slow, 500, 429 with `Retry-After`, 410, 3xx,
//! a huge body).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// How the receiver answers one request.
#[derive(Debug, Clone)]
pub enum Answer {
    /// This status with a short body.
    Status(u16),
    /// This status, these headers and this body.
    Full(u16, Vec<(&'static str, String)>, String),
    /// Never answers (until the receiver stops).
    Hang,
    /// This status after this long.
    Slow(Duration, u16),
}

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub headers: HeaderMap,
    pub body: Bytes,
    pub at: Instant,
    /// True once the receiver's answer was ready to go back (never for a request whose
    /// connection the sender dropped first).
    pub answered: bool,
}

impl Received {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("the delivery body is JSON")
    }
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Answer>,
    default: Option<Answer>,
    received: Vec<Received>,
}

/// A running receiver. Stops when dropped.
pub struct Receiver {
    /// The URL to register as a webhook endpoint.
    pub url: String,
    shared: Arc<Mutex<Shared>>,
    stop: CancellationToken,
}

impl Receiver {
    /// Starts a receiver that answers 200 to everything.
    pub async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let stop = CancellationToken::new();
        let router = axum::Router::new()
            .fallback(answer)
            .with_state(shared.clone());
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        Receiver {
            url: format!("http://{addr}/hook"),
            shared,
            stop,
        }
    }

    /// The next requests get these answers, in order; after them, the default answer.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.lock().script.extend(answers);
    }

    /// Every request after the script gets this answer (200 until set).
    pub fn always(&self, answer: Answer) {
        self.lock().default = Some(answer);
    }

    /// What the receiver got so far.
    pub fn received(&self) -> Vec<Received> {
        self.lock().received.clone()
    }

    /// Waits until the receiver got at least `n` requests; panics after `deadline`.
    pub async fn wait_for(&self, n: usize, deadline: Duration) -> Vec<Received> {
        let until = Instant::now() + deadline;
        loop {
            let received = self.received();
            if received.len() >= n {
                return received;
            }
            assert!(
                Instant::now() < until,
                "the receiver got {} request(s), expected {n} within {deadline:?}",
                received.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn answer(
    State(shared): State<Arc<Mutex<Shared>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (index, answer) = {
        let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.received.push(Received {
            headers,
            body,
            at: Instant::now(),
            answered: false,
        });
        let default = shared.default.clone();
        (
            shared.received.len() - 1,
            shared.script.pop_front().or(default),
        )
    };
    let response = respond_with(answer.unwrap_or(Answer::Status(200))).await;
    let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
    shared.received[index].answered = true;
    response
}

async fn respond_with(answer: Answer) -> Response {
    match answer {
        Answer::Status(status) => respond(status, Vec::new(), "ok".into()),
        Answer::Full(status, headers, body) => respond(status, headers, body),
        Answer::Hang => {
            std::future::pending::<()>().await;
            respond(200, Vec::new(), String::new())
        }
        Answer::Slow(after, status) => {
            tokio::time::sleep(after).await;
            respond(status, Vec::new(), "ok".into())
        }
    }
}

fn respond(status: u16, headers: Vec<(&'static str, String)>, body: String) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    for (name, value) in headers {
        if let Ok(value) = value.parse() {
            response.headers_mut().insert(name, value);
        }
    }
    response
}
