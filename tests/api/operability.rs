//! What an operator sees of a running service: one plain log line per request, a warning per
//! failed delivery attempt, and Prometheus metrics of the delivery queue and the ingests.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::Backend;
use crate::support::process::{Logging, Role, ServerProcess};
use crate::support::receiver::{Answer, Receiver};

const DEADLINE: Duration = Duration::from_secs(30);

/// Waits until `check` holds for the text `read` gives; panics with the last text after
/// [`DEADLINE`].
async fn wait_until<F, Fut>(what: &str, read: F, check: impl Fn(&str) -> bool) -> String
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = String>,
{
    let until = Instant::now() + DEADLINE;
    loop {
        let text = read().await;
        if check(&text) {
            return text;
        }
        assert!(
            Instant::now() < until,
            "waited too long for {what}:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_and_failed_deliveries_are_logged_plainly_and_the_queue_is_measured() {
    let database = Backend::Sqlite.fresh_database().await;
    let logging = Logging {
        filter: "info",
        format: "text",
    };
    let settings = ["--allow-private-webhooks", "true"];
    let mut server = ServerProcess::spawn_logging(&database.url, Role::All, &logging, &settings);
    server.wait_until_ready().await;
    let app = server.app();
    let receiver = Receiver::start().await;
    receiver.always(Answer::Status(503));
    app.import_companies(json!([{"name": "Acme", "website": "https://acme.example"}]))
        .await;
    let team = app.create_team().await;
    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({"name": "Acme", "signal_types": ["funding_round"],
                   "webhook_url": receiver.url}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    let webhook = created.data()["webhook"]["id"]
        .as_str()
        .expect("webhook")
        .to_string();
    app.add_targets(&team, &monitor, json!(["acme.example"]))
        .await;

    let missing = app
        .get(
            "/api/v2/monitors/00000000-0000-4000-8000-000000000000",
            &team.key,
        )
        .await;
    let ingested = app
        .admin(
            reqwest::Method::POST,
            "/signals/funding",
            Some(
                json!([{"companyWebsite": "https://acme.example", "announcedDate": "2026-05-01",
                         "roundType": "seed", "amount": 1_000_000}]),
            ),
        )
        .await;

    let listed = app.get("/api/v2/signals/funding?limit=1", &team.key).await;

    assert_eq!(missing.status, 404);
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);
    let log = wait_until(
        "the failed attempt's warning",
        || async { server.log() },
        |log| log.contains("webhook delivery attempt failed"),
    )
    .await;
    let request = log
        .lines()
        .find(|l| l.contains(" request ") && l.contains("path=/api/v2/monitors/{id} "))
        .unwrap_or_else(|| panic!("a line for the request:\n{log}"));
    for part in [
        " INFO ",
        "method=GET",
        "status=404",
        "duration_ms=",
        &format!("team_id={}", team.id),
    ] {
        assert!(request.contains(part), "{part} in {request}");
    }
    let warning = log
        .lines()
        .find(|l| l.contains("webhook delivery attempt failed"))
        .expect("the warning");
    for part in [
        " WARN ",
        &format!("webhook_id={webhook}"),
        "status=503",
        "error=",
    ] {
        assert!(warning.contains(part), "{part} in {warning}");
    }
    assert!(!log.contains('\u{1b}'), "no colour codes in a log file");
    assert!(!log.contains(&team.key), "no API key in the log");

    let text = wait_until(
        "the retry in the metrics",
        || app.metrics(),
        |m| m.contains("signalwatch_deliveries_retrying 1"),
    )
    .await;
    for name in [
        "signalwatch_delivery_attempts_total{result=\"failed\"} ",
        "signalwatch_delivery_retries_total ",
        "signalwatch_deliveries_pending 1",
        "signalwatch_delivery_oldest_pending_age_seconds ",
        "signalwatch_ingest_batches_total{kind=\"funding_round\"} 1",
        "signalwatch_ingest_batch_duration_seconds",
        "signalwatch_credits_charged_total{reason=\"list\"} 1",
    ] {
        assert!(text.contains(name), "{name} in\n{text}");
    }
}
