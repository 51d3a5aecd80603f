//! On PostgreSQL an accepting transaction leaves its deliveries to a worker: an API process
//! with no worker beside it queues them durably (counted as pending, not yet listed), and the
//! first worker to start writes and sends every one of them, once.

use std::time::Duration;

use serde_json::json;

use crate::delivery_support::{FAST, SOON, acme_round, assert_stays_at};
use crate::support::process::{Role, ServerProcess};
use crate::support::receiver::Receiver;
use crate::support::{Backend, TestApp};

mod an_ingest_without_a_worker_queues_its_deliveries_for_the_first_worker_to_send {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::queued_until_a_worker_sends(crate::support::Backend::postgres()).await
    }
}

async fn queued_until_a_worker_sends(backend: Backend) {
    let database = backend.fresh_database().await;
    let api = ServerProcess::start(&database.url, Role::Api, &FAST).await;
    let app = api.app();
    let receiver = Receiver::start().await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let body = json!({ "name": "Accounts", "signal_types": ["funding_round"],
        "webhook_url": receiver.url });
    let created = app.post("/api/v2/monitors", &team.key, body).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("monitor id");
    let webhook = created.data()["webhook"]["id"]
        .as_str()
        .expect("webhook id");
    let added = app.add_targets(&team, monitor, json!(["acme.com"])).await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    let records = json!(["r-1", "r-2", "r-3"].map(acme_round));
    let ingested = app
        .admin(reqwest::Method::POST, "/signals/funding", Some(records))
        .await;
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);

    assert_stays_at(&receiver, 0, Duration::from_millis(500)).await;
    let path = format!("/api/v2/webhooks/{webhook}/deliveries");
    let listed = app.get(&path, &team.key).await;
    assert_eq!(listed.data(), &json!([]), "no worker has written them yet");
    let metrics = metrics(&app).await;
    assert!(
        metrics.contains("signalwatch_deliveries_pending 3"),
        "the queued deliveries count as pending:\n{metrics}"
    );

    let _worker = ServerProcess::start(&database.url, Role::Worker, &FAST).await;
    let received = receiver.wait_for(3, SOON).await;
    let mut signals: Vec<String> = received
        .iter()
        .map(|r| r.json()["data"]["signal"]["id"].to_string())
        .collect();
    signals.sort();
    signals.dedup();
    assert_eq!(signals.len(), 3, "each signal once: {signals:?}");
    assert_stays_at(&receiver, 3, Duration::from_millis(500)).await;
    let listed = app.get(&path, &team.key).await;
    let rows = listed.data().as_array().expect("a list of deliveries");
    assert_eq!(rows.len(), 3, "the worker wrote them: {:?}", listed.body);
}

async fn metrics(app: &TestApp) -> String {
    app.client
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .expect("metrics answer")
        .text()
        .await
        .expect("metrics text")
}
