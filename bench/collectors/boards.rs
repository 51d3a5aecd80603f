//! The local Greenhouse of the collectors benchmark: `boards` boards (`bench-0` …) of
//! `postings` postings each, in the shape of `GET /v1/boards/{token}/jobs?content=true`. Each
//! generation replaces a share of every board's postings by new ones (new ids); the bodies of a
//! generation are rendered once, so serving them costs the harness little CPU.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const TITLES: &[&str] = &[
    "Senior Backend Engineer",
    "Account Executive, Mid-Market",
    "Product Designer",
    "Staff Site Reliability Engineer",
    "Customer Success Manager",
    "Data Scientist",
    "Head of Marketing",
    "Recruiter",
];
const LOCATIONS: &[&str] = &[
    "Berlin, Germany",
    "New York, NY",
    "London, United Kingdom",
    "Remote",
    "San Francisco, California, United States",
    "Paris, France",
];
const DEPARTMENTS: &[&str] = &["Engineering", "Sales", "Design", "Marketing", "People"];

struct Shared {
    bodies: RwLock<Vec<Bytes>>,
    requests: AtomicU64,
}

/// The running boards; stop when dropped.
pub struct LocalBoards {
    /// `http://127.0.0.1:port`, the Greenhouse base URL.
    pub base: String,
    boards: usize,
    postings: usize,
    changed: usize,
    generation: AtomicU64,
    shared: Arc<Shared>,
    stop: CancellationToken,
}

/// The token of board `n`.
pub fn token(n: usize) -> String {
    format!("bench-{n}")
}

impl LocalBoards {
    /// Serves generation 0 of every board.
    pub async fn start(
        boards: usize,
        postings: usize,
        changed_percent: usize,
    ) -> anyhow::Result<LocalBoards> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr: SocketAddr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            bodies: RwLock::new(Vec::new()),
            requests: AtomicU64::new(0),
        });
        let router = axum::Router::new()
            .route("/v1/boards/{token}/jobs", axum::routing::get(board))
            .with_state(shared.clone());
        let stop = CancellationToken::new();
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        let boards = LocalBoards {
            base: format!("http://{addr}"),
            boards,
            postings,
            changed: postings * changed_percent / 100,
            generation: AtomicU64::new(0),
            shared,
            stop,
        };
        boards.render();
        Ok(boards)
    }

    /// Replaces the changed share of every board's postings by new ones.
    pub fn next_generation(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.render();
    }

    /// Board requests since the last reset.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::Relaxed)
    }

    pub fn reset_requests(&self) {
        self.shared.requests.store(0, Ordering::Relaxed);
    }

    fn render(&self) {
        let generation = self.generation.load(Ordering::SeqCst);
        let bodies = (0..self.boards)
            .map(|n| Bytes::from(self.board_json(n, generation).to_string()))
            .collect();
        *self
            .shared
            .bodies
            .write()
            .unwrap_or_else(|e| e.into_inner()) = bodies;
    }

    /// Board `n` at `generation`: slot `k`'s posting keeps its id, except the first `changed`
    /// slots, which get a new id each generation.
    fn board_json(&self, n: usize, generation: u64) -> Value {
        let board = token(n);
        let jobs: Vec<Value> = (0..self.postings)
            .map(|k| {
                let fresh = if k < self.changed { generation } else { 0 };
                let id = 4_000_000_000 + (n as u64) * 1_000_000 + fresh * 10_000 + k as u64;
                let title = TITLES[(n + k) % TITLES.len()];
                json!({
                    "id": id,
                    "internal_job_id": id + 1,
                    "title": format!("{title} {k}"),
                    "updated_at": "2026-11-18T09:12:44-05:00",
                    "first_published": "2026-11-17T15:02:10-05:00",
                    "requisition_id": format!("R-{id}"),
                    "location": { "name": LOCATIONS[(n * 7 + k) % LOCATIONS.len()] },
                    "absolute_url": format!("https://job-boards.greenhouse.io/{board}/jobs/{id}"),
                    "metadata": null,
                    "language": "en",
                    "company_name": format!("Bench {n}"),
                    "content": "&lt;p&gt;We are looking for someone to build our \
                        &lt;strong&gt;data platform&lt;/strong&gt;.&lt;/p&gt;&lt;ul&gt;\
                        &lt;li&gt;Rust, PostgreSQL&lt;/li&gt;&lt;li&gt;Kubernetes&lt;/li&gt;\
                        &lt;/ul&gt;",
                    "departments": [{ "id": 1 + k % DEPARTMENTS.len(),
                        "name": DEPARTMENTS[k % DEPARTMENTS.len()],
                        "parent_id": null, "child_ids": [] }],
                    "offices": [{ "id": 10, "name": "HQ", "location": null,
                        "parent_id": null, "child_ids": [] }],
                })
            })
            .collect();
        json!({ "jobs": jobs, "meta": { "total": self.postings } })
    }
}

impl Drop for LocalBoards {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn board(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    shared.requests.fetch_add(1, Ordering::Relaxed);
    let body = token
        .strip_prefix("bench-")
        .and_then(|n| n.parse::<usize>().ok())
        .and_then(|n| {
            shared
                .bodies
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .get(n)
                .cloned()
        });
    match body {
        Some(body) => Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap_or_default(),
        None => Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body(Body::from(r#"{"status":404,"error":"Job not found"}"#))
            .unwrap_or_default(),
    }
}
