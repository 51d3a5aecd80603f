//! The loopback webhook receiver of the delivery benchmark: a plain axum server that answers
//! 200 (after an optional delay) and notes when each (endpoint, signal) first arrived and how
//! often it came.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use tokio_util::sync::CancellationToken;

/// One endpoint's copy of one signal: when it first arrived and how many times.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub first: Instant,
    pub count: u32,
}

#[derive(Default)]
struct Shared {
    arrivals: Mutex<HashMap<(u32, String), Arrival>>,
    requests: AtomicU64,
    /// Answer delay in microseconds.
    delay_us: AtomicU64,
}

/// A running receiver; stops when dropped.
pub struct BenchReceiver {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    stop: CancellationToken,
}

#[derive(serde::Deserialize)]
struct Envelope {
    data: EventData,
}

#[derive(serde::Deserialize)]
struct EventData {
    signal: SignalRef,
}

#[derive(serde::Deserialize)]
struct SignalRef {
    id: String,
}

impl BenchReceiver {
    /// Binds 127.0.0.1 on a free port and serves `POST /hook/{n}`.
    pub async fn start() -> anyhow::Result<BenchReceiver> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared::default());
        let router = axum::Router::new()
            .route("/hook/{n}", axum::routing::post(receive))
            .with_state(shared.clone());
        let stop = CancellationToken::new();
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        Ok(BenchReceiver { addr, shared, stop })
    }

    /// The URL of endpoint `n`.
    pub fn url(&self, n: u32) -> String {
        format!("http://{}/hook/{n}", self.addr)
    }

    /// Answers from now on come after `delay`.
    pub fn set_delay(&self, delay: Duration) {
        self.shared
            .delay_us
            .store(delay.as_micros() as u64, Ordering::Relaxed);
    }

    /// Requests received so far.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::Relaxed)
    }

    /// Distinct (endpoint, signal) pairs received so far.
    pub fn distinct(&self) -> usize {
        self.lock().len()
    }

    /// The arrival of signal `signal` at endpoint `n`, if it came.
    pub fn arrival(&self, n: u32, signal: &str) -> Option<Arrival> {
        self.lock().get(&(n, signal.to_string())).copied()
    }

    /// Forgets everything received (between phases).
    pub fn clear(&self) {
        self.lock().clear();
        self.shared.requests.store(0, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(u32, String), Arrival>> {
        self.shared
            .arrivals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for BenchReceiver {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn receive(State(shared): State<Arc<Shared>>, Path(n): Path<u32>, body: Bytes) -> StatusCode {
    let at = Instant::now();
    shared.requests.fetch_add(1, Ordering::Relaxed);
    if let Ok(envelope) = serde_json::from_slice::<Envelope>(&body) {
        let mut arrivals = shared.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        arrivals
            .entry((n, envelope.data.signal.id))
            .and_modify(|a| a.count += 1)
            .or_insert(Arrival {
                first: at,
                count: 1,
            });
    }
    let delay = shared.delay_us.load(Ordering::Relaxed);
    if delay > 0 {
        tokio::time::sleep(Duration::from_micros(delay)).await;
    }
    StatusCode::OK
}
