//! `serve --demo` fires where the user looks: a monitor made on a company the demo printed hears
//! of a new signal of that company within a minute.

use std::time::Duration;

use serde_json::json;

use crate::support::demo::Demo;
use crate::support::receiver::Receiver;
use crate::support::{TestApp, TestResponse};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_on_a_printed_demo_company_hears_of_a_signal_within_a_minute() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut demo = Demo::start(dir.path());
    let base = demo.setting("BASE").await;
    let key = demo.setting("KEY").await;
    let domains = demo.watched_domains().await;
    assert_eq!(domains.len(), 5, "the demo names the companies it watches");
    let app = TestApp::attach(base, "");
    let receiver = Receiver::start().await;

    let created: TestResponse = app
        .post(
            "/api/v2/monitors",
            &key,
            json!({"name": "Mine", "signal_types": ["funding_round", "hiring", "job_change"],
                   "webhook_url": receiver.url}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    let added = app
        .post(
            &format!("/api/v2/monitors/{monitor}/targets"),
            &key,
            json!({"targets": [domains[2]]}),
        )
        .await;
    assert_eq!(
        added.data()["added"][0]["status"],
        "resolved",
        "{:?}",
        added.body
    );
    let company = added.data()["added"][0]["company"]["id"].clone();

    let received = receiver.wait_for(1, Duration::from_secs(60)).await;

    let event = received[0].json();
    assert_eq!(event["data"]["company"]["id"], company, "{event}");
}
