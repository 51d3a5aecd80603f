//! Test events, the delivery history of a webhook and its statistics, against a real receiver.

use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::delivery_support::{FAST, SOON, Watching};
use crate::each_backend;
use crate::support::receiver::{Answer, Received, Receiver};
use crate::support::{Backend, Team, TestApp, TestResponse};
use crate::webhooks::{WEBHOOKS, assert_error, id_of, webhook_path};

each_backend!(
    a_test_event_arrives_signed_and_is_recorded_as_a_delivery,
    a_test_event_reaches_an_endpoint_url_kept_as_sent,
    a_test_event_the_endpoint_refuses_is_listed_as_failed_and_not_retried,
    a_test_event_to_an_unreachable_endpoint_reports_status_0,
    one_delivery_shows_its_attempts,
    a_delivery_that_succeeded_at_once_shows_its_one_attempt,
    deliveries_are_paged_newest_first_with_a_cursor,
    deliveries_can_be_filtered_by_status,
    listing_deliveries_refuses_bad_parameters,
    stats_count_deliveries_and_the_failures_since_the_last_success,
    a_monitor_webhook_can_be_tested_and_shows_its_deliveries,
    a_deleted_webhook_cannot_be_tested_or_listed,
);

/// A team with a standalone webhook posting to a real receiver.
pub struct Hooked {
    pub app: TestApp,
    pub team: Team,
    pub receiver: Receiver,
    pub id: String,
    pub secret: String,
}

impl Hooked {
    /// Starts the app and creates the webhook.
    pub async fn start(backend: Backend) -> Hooked {
        let app = TestApp::start_with(backend, &FAST).await;
        let team = app.create_team().await;
        let receiver = Receiver::start().await;
        let created = app
            .post(
                WEBHOOKS,
                &team.key,
                json!({ "endpoint_url": receiver.url, "event_types": ["funding.created"] }),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let secret = created.data()["secret"].as_str().unwrap().to_string();
        Hooked {
            id: id_of(&created),
            app,
            team,
            receiver,
            secret,
        }
    }

    /// `POST /webhooks/{id}/test`, asserting a 200.
    pub async fn send_test(&self) -> TestResponse {
        let path = format!("{}/test", webhook_path(&self.id));
        let sent = self
            .app
            .send(
                self.app
                    .request(reqwest::Method::POST, &path, &self.team.key),
            )
            .await;
        assert_eq!(sent.status, 200, "{:?}", sent.body);
        sent
    }

    /// `GET /webhooks/{id}/deliveries` with a query string.
    pub async fn deliveries(&self, query: &str) -> TestResponse {
        let path = format!("{}/deliveries{query}", webhook_path(&self.id));
        self.app.get(&path, &self.team.key).await
    }

    /// The webhook as `GET /webhooks/{id}` shows it.
    pub async fn webhook(&self) -> Value {
        let fetched = self.app.get(&webhook_path(&self.id), &self.team.key).await;
        assert_eq!(fetched.status, 200, "{:?}", fetched.body);
        fetched.data().clone()
    }
}

/// True when `X-Webhook-Signature` is the hex HMAC-SHA256 of the raw body keyed with `secret`.
pub fn signed_with(request: &Received, secret: &str) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(&request.body);
    let expected = hex::encode(mac.finalize().into_bytes());
    request.header("X-Webhook-Signature") == Some(expected.as_str())
}

fn ids(response: &TestResponse) -> Vec<String> {
    let items = response.data().as_array().expect("data is an array");
    items
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

async fn a_test_event_arrives_signed_and_is_recorded_as_a_delivery(backend: Backend) {
    let hooked = Hooked::start(backend).await;

    let sent = hooked.send_test().await;

    assert_eq!(
        sent.body["meta"],
        json!({ "endpoint": "webhooks.test", "creditsUsed": 0 })
    );
    let data = sent.data();
    assert_eq!(data["success"], true);
    assert_eq!(data["event_type"], "system.test");
    assert_eq!(data["response_status"], 200);
    assert_eq!(data["response_body"], "ok");
    let received = hooked.receiver.wait_for(1, SOON).await;
    let request = &received[0];
    assert!(signed_with(request, &hooked.secret), "signature verifies");
    assert_eq!(request.header("X-Webhook-Event"), Some("system.test"));
    assert_eq!(request.header("X-Webhook-ID"), data["event_id"].as_str());
    let body = request.json();
    assert_eq!(body["event_type"], "system.test");
    assert_eq!(body["event_id"], data["event_id"]);

    let listed = hooked.deliveries("").await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(
        listed.body["meta"],
        json!({ "endpoint": "webhooks.deliveries.list", "creditsUsed": 0 })
    );
    let delivery = &listed.data()[0];
    assert_eq!(delivery["id"], data["delivery_id"]);
    assert_eq!(delivery["event_id"], data["event_id"]);
    assert_eq!(delivery["event_type"], "system.test");
    assert_eq!(delivery["status"], "done");
    assert_eq!(delivery["response_status"], 200);
    assert_eq!(delivery["attempt_count"], 1);
    assert!(delivery["delivered_at"].is_string(), "{delivery}");
    assert_eq!(delivery["failed_at"], Value::Null);
    assert!(
        delivery.get("attempts").is_none(),
        "attempts only on one delivery"
    );
    let stats = &hooked.webhook().await["stats"];
    assert_eq!(stats["total_deliveries"], 1);
    assert_eq!(stats["successful_deliveries"], 1);
    assert!(stats["last_success_at"].is_string(), "{stats}");
}

async fn a_test_event_reaches_an_endpoint_url_kept_as_sent(backend: Backend) {
    let app = TestApp::start_with(backend, &FAST).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    // The receiver's URL written as a client might: scheme in capitals, surrounding spaces.
    let written = format!(" {} ", receiver.url.replacen("http://", "HTTP://", 1));
    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": written, "event_types": ["system.test"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.data()["endpoint_url"], written.trim());

    let path = format!("{}/test", webhook_path(&id_of(&created)));
    let sent = app
        .send(app.request(reqwest::Method::POST, &path, &team.key))
        .await;

    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(sent.data()["success"], true, "{:?}", sent.body);
    let received = receiver.wait_for(1, SOON).await;
    assert_eq!(received[0].json()["event_type"], "system.test");
}

async fn a_test_event_the_endpoint_refuses_is_listed_as_failed_and_not_retried(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.receiver.script([Answer::Status(500)]);

    let sent = hooked.send_test().await;

    assert_eq!(sent.data()["success"], false);
    assert_eq!(sent.data()["response_status"], 500);
    let failed = hooked.deliveries("?status=failed").await;
    assert_eq!(ids(&failed), [sent.data()["delivery_id"].as_str().unwrap()]);
    assert_eq!(failed.data()[0]["attempt_count"], 1);
    assert_eq!(failed.data()[0]["response_status"], 500);
    assert!(failed.data()[0]["failed_at"].is_string());
    let pending = hooked.deliveries("?status=pending").await;
    assert_eq!(pending.data(), &json!([]), "a test event is never retried");
}

async fn a_test_event_to_an_unreachable_endpoint_reports_status_0(backend: Backend) {
    let app = TestApp::start_with(backend, &FAST).await;
    let team = app.create_team().await;
    // Nothing listens on port 1 of the loopback address: the connection is refused.
    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "http://127.0.0.1:1/hook", "event_types": ["system.test"] }),
        )
        .await;
    let path = format!("{}/test", webhook_path(&id_of(&created)));

    let sent = app
        .send(app.request(reqwest::Method::POST, &path, &team.key))
        .await;

    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(sent.data()["success"], false);
    assert_eq!(sent.data()["response_status"], 0);
    let delivery_path = format!(
        "{}/deliveries/{}",
        webhook_path(&id_of(&created)),
        sent.data()["delivery_id"].as_str().unwrap()
    );
    let delivery = app.get(&delivery_path, &team.key).await;
    assert_eq!(delivery.data()["status"], "failed");
    assert_eq!(delivery.data()["response_status"], 0);
    let attempt = &delivery.data()["attempts"][0];
    assert_eq!(attempt["response_status"], Value::Null);
    assert!(
        attempt["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{attempt}"
    );
}

async fn one_delivery_shows_its_attempts(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.receiver.script([Answer::Status(503)]);
    let sent = hooked.send_test().await;
    let delivery_id = sent.data()["delivery_id"].as_str().unwrap();

    let path = format!("{}/deliveries/{delivery_id}", webhook_path(&hooked.id));
    let fetched = hooked.app.get(&path, &hooked.team.key).await;

    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    assert_eq!(
        fetched.body["meta"],
        json!({ "endpoint": "webhooks.deliveries.get", "creditsUsed": 0 })
    );
    let delivery = fetched.data();
    assert_eq!(delivery["id"], delivery_id);
    assert_eq!(delivery["status"], "failed");
    let attempts = delivery["attempts"].as_array().expect("attempts");
    assert_eq!(attempts.len(), 1);
    let attempt = attempts[0].as_object().unwrap();
    let mut keys: Vec<&str> = attempt.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["attempted_at", "duration_ms", "error", "response_status"]
    );
    assert_eq!(attempt["response_status"], 503);
    assert_eq!(attempt["error"], Value::Null);
    assert!(attempt["duration_ms"].as_i64().is_some_and(|ms| ms >= 0));
    assert!(attempt["attempted_at"].as_str().unwrap().ends_with('Z'));

    let unknown = format!(
        "{}/deliveries/0190a3b4-0000-7000-8000-000000000000",
        webhook_path(&hooked.id)
    );
    assert_error(
        &hooked.app.get(&unknown, &hooked.team.key).await,
        404,
        "not_found",
    );
}

async fn a_delivery_that_succeeded_at_once_shows_its_one_attempt(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.receiver.script([Answer::Status(201)]);
    let sent = hooked.send_test().await;
    let delivery_id = sent.data()["delivery_id"].as_str().unwrap();

    let path = format!("{}/deliveries/{delivery_id}", webhook_path(&hooked.id));
    let fetched = hooked.app.get(&path, &hooked.team.key).await;

    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    let delivery = fetched.data();
    assert_eq!(delivery["status"], "done");
    let attempts = delivery["attempts"].as_array().expect("attempts");
    assert_eq!(attempts.len(), 1, "{delivery}");
    let attempt = &attempts[0];
    assert_eq!(attempt["response_status"], 201);
    assert_eq!(attempt["error"], Value::Null);
    assert!(attempt["duration_ms"].as_i64().is_some_and(|ms| ms >= 0));
    assert_eq!(
        attempt["attempted_at"], delivery["delivered_at"],
        "{delivery}"
    );
}

async fn deliveries_are_paged_newest_first_with_a_cursor(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let mut sent = Vec::new();
    for _ in 0..5 {
        let test = hooked.send_test().await;
        sent.push(test.data()["delivery_id"].as_str().unwrap().to_string());
    }
    sent.reverse();

    let mut seen = Vec::new();
    let mut query = "?limit=2".to_string();
    let mut pages = 0;
    loop {
        let page = hooked.deliveries(&query).await;
        assert_eq!(page.status, 200, "{:?}", page.body);
        assert_eq!(page.body["pagination"]["limit"], 2);
        seen.extend(ids(&page));
        pages += 1;
        match page.body["pagination"]["next_cursor"].as_str() {
            Some(cursor) => query = format!("?limit=2&cursor={cursor}"),
            None => break,
        }
    }

    assert_eq!(pages, 3);
    assert_eq!(seen, sent, "every delivery once, newest first");
    let all = hooked.deliveries("").await;
    assert_eq!(
        all.body["pagination"],
        json!({ "next_cursor": null, "limit": 50 })
    );
    assert_eq!(ids(&all), sent);
    let empty_cursor = hooked.deliveries("?cursor=").await;
    assert_eq!(
        ids(&empty_cursor),
        sent,
        "an empty cursor asks for the first page"
    );
}

async fn deliveries_can_be_filtered_by_status(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.receiver.script([
        Answer::Status(200),
        Answer::Status(500),
        Answer::Status(204),
    ]);
    let mut sent = Vec::new();
    for _ in 0..3 {
        sent.push(hooked.send_test().await.data()["delivery_id"].clone());
    }

    let done = hooked.deliveries("?status=done").await;
    let failed = hooked.deliveries("?status=failed&limit=1").await;

    assert_eq!(done.data().as_array().unwrap().len(), 2);
    assert!(
        done.data()
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["status"] == "done")
    );
    assert_eq!(failed.data()[0]["id"], sent[1]);
    assert_eq!(failed.body["pagination"]["next_cursor"], Value::Null);
    assert_eq!(
        hooked.deliveries("?status=pending").await.data(),
        &json!([])
    );
}

async fn listing_deliveries_refuses_bad_parameters(backend: Backend) {
    let hooked = Hooked::start(backend).await;

    for query in [
        "?limit=0",
        "?limit=101",
        "?status=succeeded",
        "?cursor=not-a-cursor",
        "?page=2",
    ] {
        assert_error(&hooked.deliveries(query).await, 400, "bad_request");
    }
}

async fn stats_count_deliveries_and_the_failures_since_the_last_success(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.receiver.script([
        Answer::Status(500),
        Answer::Status(200),
        Answer::Status(500),
        Answer::Status(502),
    ]);
    for _ in 0..4 {
        hooked.send_test().await;
    }

    let webhook = hooked.webhook().await;

    let stats = &webhook["stats"];
    assert_eq!(stats["total_deliveries"], 4);
    assert_eq!(stats["successful_deliveries"], 1);
    assert_eq!(stats["failed_deliveries"], 3);
    assert_eq!(stats["consecutive_failures"], 2);
    let (success, failure) = (
        stats["last_success_at"].as_str().unwrap(),
        stats["last_failure_at"].as_str().unwrap(),
    );
    assert!(failure > success, "{stats}");
    let listed = hooked.app.get(WEBHOOKS, &hooked.team.key).await;
    assert_eq!(&listed.data()[0]["stats"], stats);

    hooked.send_test().await;
    let stats = &hooked.webhook().await["stats"];
    assert_eq!(stats["consecutive_failures"], 0);
    assert_eq!(stats["successful_deliveries"], 2);
}

async fn a_monitor_webhook_can_be_tested_and_shows_its_deliveries(backend: Backend) {
    let watching = Watching::start(backend, &[]).await;
    let monitor = watching
        .app
        .get(
            &format!("/api/v2/monitors/{}", watching.monitor_id),
            &watching.team.key,
        )
        .await;
    let webhook_id = monitor.data()["webhook"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("{}/test", webhook_path(&webhook_id));

    let sent = watching
        .app
        .send(
            watching
                .app
                .request(reqwest::Method::POST, &path, &watching.team.key),
        )
        .await;

    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(sent.data()["success"], true);
    let received = watching.receiver.wait_for(1, SOON).await;
    assert!(signed_with(&received[0], &watching.secret));
    let listed = watching
        .app
        .get(
            &format!("{}/deliveries", webhook_path(&webhook_id)),
            &watching.team.key,
        )
        .await;
    assert_eq!(listed.data()[0]["id"], sent.data()["delivery_id"]);
}

async fn a_deleted_webhook_cannot_be_tested_or_listed(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    hooked.send_test().await;
    let deleted = hooked
        .app
        .delete(&webhook_path(&hooked.id), &hooked.team.key)
        .await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);

    let path = format!("{}/test", webhook_path(&hooked.id));
    let test = hooked
        .app
        .send(
            hooked
                .app
                .request(reqwest::Method::POST, &path, &hooked.team.key),
        )
        .await;

    assert_error(&test, 404, "not_found");
    assert_error(&hooked.deliveries("").await, 404, "not_found");
    assert_eq!(hooked.receiver.received().len(), 1);
    let revived = hooked
        .app
        .put(
            &webhook_path(&hooked.id),
            &hooked.team.key,
            json!({ "active": true }),
        )
        .await;
    assert_eq!(revived.status, 200, "{:?}", revived.body);
    assert_eq!(
        revived.data()["stats"]["total_deliveries"],
        1,
        "history kept"
    );
    assert_eq!(
        hooked.deliveries("").await.data().as_array().unwrap().len(),
        1
    );
}
