//! A webhook receiver on loopback that keeps a log per event id: how many attempts came, how
//! many were answered 2xx, and the most attempts of that event it ever had open at once — so a
//! test can tell a delivery that was in flight twice at the same time from an honest retry.
//! How each attempt is answered comes from a function of (event number, attempt number).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// How one attempt is answered.
#[derive(Debug, Clone, Copy)]
pub enum Reply {
    /// 200 after this long.
    Ok(Duration),
    /// 503 after this long.
    Fail(Duration),
    /// Never answers.
    Hang,
}

/// Decides the reply to attempt `attempt` (1, 2, …) of the `event`-th event seen (0, 1, …).
pub type Script = dyn Fn(usize, usize) -> Reply + Send + Sync;

/// What the receiver saw of one event id.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    /// The order in which this event was first seen.
    pub number: usize,
    /// `data.signal.id` of the body, when there is one.
    pub signal_id: Option<String>,
    pub attempts: usize,
    /// Attempts answered 2xx.
    pub delivered: usize,
    in_flight: usize,
    /// The most attempts of this event open at one moment.
    pub most_at_once: usize,
}

struct Shared {
    script: Box<Script>,
    events: HashMap<String, EventLog>,
}

type Handle = Arc<Mutex<Shared>>;

/// A running receiver. Stops when dropped.
pub struct EventReceiver {
    /// The URL to register as a webhook endpoint.
    pub url: String,
    shared: Handle,
    stop: CancellationToken,
}

impl EventReceiver {
    /// Starts a receiver answering by `script`.
    pub async fn start(script: impl Fn(usize, usize) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let shared = Arc::new(Mutex::new(Shared {
            script: Box::new(script),
            events: HashMap::new(),
        }));
        let router = axum::Router::new()
            .fallback(answer)
            .with_state(shared.clone());
        let stop = CancellationToken::new();
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        EventReceiver {
            url: format!("http://{addr}/hook"),
            shared,
            stop,
        }
    }

    /// Every event seen so far.
    pub fn events(&self) -> Vec<EventLog> {
        lock(&self.shared).events.values().cloned().collect()
    }

    /// Waits until `n` events were delivered (answered 2xx); panics after `deadline`.
    pub async fn wait_for_delivered(&self, n: usize, deadline: Duration) -> Vec<EventLog> {
        self.wait_until(deadline, |events| {
            events.iter().filter(|e| e.delivered > 0).count() >= n
        })
        .await
    }

    /// Waits until `n` attempts in all have arrived (answered or not); panics after `deadline`.
    pub async fn wait_for_attempts(&self, n: usize, deadline: Duration) -> Vec<EventLog> {
        self.wait_until(deadline, |events| {
            events.iter().map(|e| e.attempts).sum::<usize>() >= n
        })
        .await
    }

    async fn wait_until(
        &self,
        deadline: Duration,
        done: impl Fn(&[EventLog]) -> bool,
    ) -> Vec<EventLog> {
        let until = Instant::now() + deadline;
        loop {
            let events = self.events();
            if done(&events) {
                return events;
            }
            assert!(
                Instant::now() < until,
                "the receiver did not get what was expected within {deadline:?}: {events:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for EventReceiver {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn lock(shared: &Handle) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts an attempt as open from its arrival until its answer, or until the sender gives up.
struct Open {
    shared: Handle,
    event_id: String,
}

impl Drop for Open {
    fn drop(&mut self) {
        if let Some(event) = lock(&self.shared).events.get_mut(&self.event_id) {
            event.in_flight -= 1;
        }
    }
}

async fn answer(State(shared): State<Handle>, headers: HeaderMap, body: Bytes) -> Response {
    let event_id = headers
        .get("webhook-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let signal_id = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|b| b["data"]["signal"]["id"].as_str().map(str::to_string));
    let reply = {
        let mut guard = lock(&shared);
        let next = guard.events.len();
        let event = guard.events.entry(event_id.clone()).or_default();
        if event.attempts == 0 {
            event.number = next;
            event.signal_id = signal_id;
        }
        event.attempts += 1;
        event.in_flight += 1;
        event.most_at_once = event.most_at_once.max(event.in_flight);
        let (number, attempt) = (event.number, event.attempts);
        (guard.script)(number, attempt)
    };
    let _open = Open {
        shared: shared.clone(),
        event_id: event_id.clone(),
    };
    let status = match reply {
        Reply::Ok(after) => {
            tokio::time::sleep(after).await;
            if let Some(event) = lock(&shared).events.get_mut(&event_id) {
                event.delivered += 1;
            }
            StatusCode::OK
        }
        Reply::Fail(after) => {
            tokio::time::sleep(after).await;
            StatusCode::SERVICE_UNAVAILABLE
        }
        Reply::Hang => std::future::pending().await,
    };
    let mut response = Response::new(Body::from("ok"));
    *response.status_mut() = status;
    response
}
