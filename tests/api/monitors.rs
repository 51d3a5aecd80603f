//! Creating, reading, updating and deleting monitors.

use serde_json::json;

use crate::each_backend;
use crate::support::{Backend, TestApp};

each_backend!(
    creating_a_monitor_returns_201_with_the_monitor_and_its_meta,
    a_new_webhook_secret_is_shown_once_and_never_again,
);

async fn creating_a_monitor_returns_201_with_the_monitor_and_its_meta(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Competitors", "signal_types": ["funding_round", "hiring", "hiring"] }),
        )
        .await;

    assert_eq!(created.status, 201);
    assert_eq!(created.body["success"], true);
    assert_eq!(
        created.body["meta"],
        json!({ "endpoint": "monitors.create", "creditsUsed": 0 })
    );
    let monitor = created.data();
    assert_eq!(monitor["name"], "Competitors");
    assert_eq!(monitor["signal_types"], json!(["funding_round", "hiring"]));
    assert_eq!(monitor["active"], true);
    assert_eq!(monitor["webhook"], json!(null));
    assert_eq!(
        monitor["stats"],
        json!({ "targets": 0, "resolved_targets": 0, "signals_30d": 0, "last_delivery_at": null })
    );
}

async fn a_new_webhook_secret_is_shown_once_and_never_again(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hooked", "signalTypes": ["acquisition"], "webhookUrl": "https://example.com/hook" }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let webhook = &created.data()["webhook"];
    assert!(webhook["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(webhook["endpoint_url"], "https://example.com/hook");

    let id = created.data()["id"].as_str().unwrap();
    let fetched = app.get(&format!("/api/v2/monitors/{id}"), &team.key).await;
    assert_eq!(fetched.data()["webhook"]["id"], webhook["id"]);
    assert!(fetched.data()["webhook"].get("secret").is_none());
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert!(listed.data()[0]["webhook"].get("secret").is_none());
}
