//! Degrading under load instead of failing: a service allowed two requests at once, four
//! waiting for at most a second, and two database connections, sent a hundred signal ingests and
//! list requests at one moment, answers each with 200 or with 503 `service_unavailable` and
//! `Retry-After` — never a 500 — and every signal it accepted is stored and delivered, once.

use std::collections::BTreeSet;
use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use crate::delivery_support::{Watching, acme_round};
use crate::support::Backend;
use crate::support::app::ADMIN_TOKEN;

mod over_capacity_requests_get_503_with_retry_after_and_nothing_accepted_is_lost {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn on_sqlite() {
        super::over_capacity(crate::support::Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::over_capacity(crate::support::Backend::postgres()).await
    }
}

/// A service far smaller than the burst sent at it.
const TINY: [&str; 12] = [
    "--max-requests-in-flight",
    "2",
    "--request-queue",
    "4",
    "--request-queue-seconds",
    "1",
    "--database-max-connections",
    "2",
    "--database-acquire-timeout-seconds",
    "1",
    "--rate-limit-per-minute",
    "100000",
];

/// Ingests of one funding round each, and list pages, sent at once.
const INGESTS: usize = 80;
const PAGES: usize = 20;

const DELIVERED_WITHIN: Duration = Duration::from_secs(60);

async fn over_capacity(backend: Backend) {
    let watching = Watching::start(backend, &TINY).await;
    let app = &watching.app;
    let mut requests = JoinSet::new();
    for i in 0..INGESTS {
        let id = format!("0ad10ad0-0000-4000-8000-{i:012}");
        let request = app
            .request(Method::POST, "/admin/v1/signals/funding", ADMIN_TOKEN)
            .json(&json!([acme_round(&id)]));
        requests.spawn(answer(Some(id), request));
    }
    for _ in 0..PAGES {
        let page = "/api/v2/signals/funding?limit=1";
        let request = app.request(Method::GET, page, &watching.team.key);
        requests.spawn(answer(None, request));
    }
    let answers = requests.join_all().await;

    let mut accepted = BTreeSet::new();
    let mut refused = 0;
    for (id, status, retry_after, body) in &answers {
        match status {
            200 => accepted.extend(id.clone()),
            503 => {
                refused += 1;
                assert_eq!(body["success"], false, "{body}");
                assert_eq!(body["code"], "service_unavailable", "{body}");
                let seconds: u64 = retry_after
                    .as_deref()
                    .and_then(|s| s.parse().ok())
                    .expect("a 503 says when to come back");
                assert!(seconds >= 1);
                assert_eq!(body["retryAfter"], json!(seconds), "{body}");
            }
            other => panic!("neither served nor refused: {other} {body}"),
        }
    }
    assert!(refused > 0, "the burst exceeds what the service takes");
    assert!(!accepted.is_empty(), "the service keeps serving under load");

    let delivered = watching
        .receiver
        .wait_for(accepted.len(), DELIVERED_WITHIN)
        .await;
    let told: Vec<String> = delivered
        .iter()
        .filter_map(|d| {
            d.json()["data"]["signal"]["id"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    let told_once: BTreeSet<String> = told.iter().cloned().collect();
    assert_eq!(told_once, accepted, "every accepted signal is delivered");
    assert_eq!(told.len(), accepted.len(), "and delivered once");
    let stored = app
        .get("/api/v2/signals/funding?limit=100", &watching.team.key)
        .await;
    assert_eq!(stored.status, 200, "{:?}", stored.body);
    let stored: BTreeSet<String> = stored
        .data()
        .as_array()
        .expect("signals")
        .iter()
        .filter_map(|s| s["signalId"].as_str().map(str::to_string))
        .collect();
    assert_eq!(stored, accepted, "what was refused was not stored");
}

/// Sends the request; returns the signal it carries, the status, `Retry-After` and the body.
async fn answer(
    id: Option<String>,
    request: reqwest::RequestBuilder,
) -> (Option<String>, u16, Option<String>, Value) {
    let response = request.send().await.expect("request reaches the service");
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("Retry-After")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = response.json().await.unwrap_or(Value::Null);
    (id, status, retry_after, body)
}
