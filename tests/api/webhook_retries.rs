//! Manual retries of one delivery and replays of every failed delivery since a time.

use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::delivery_support::{SOON, assert_stays_at};
use crate::delivery_support::{Watching, acme_round};
use crate::each_backend;
use crate::support::receiver::{Answer, Receiver};
use crate::support::{Backend, TestApp};
use crate::webhook_deliveries::{Hooked, signed_with};
use crate::webhooks::{assert_error, webhook_path};

each_backend!(
    retrying_a_failed_delivery_creates_a_new_delivery_of_the_same_event,
    a_retry_is_signed_with_the_current_secret,
    retrying_a_successful_delivery_is_a_conflict,
    retrying_an_unknown_or_foreign_delivery_is_not_found,
    a_successful_retry_of_a_signal_delivery_costs_one_credit,
    a_retry_at_a_balance_of_0_is_refused_with_402_and_sends_nothing,
    retry_failed_replays_every_failed_delivery_since_a_time,
    retry_failed_accepts_only_a_time_within_the_last_14_days,
    retrying_a_delivery_still_on_its_schedule_sends_the_event_once,
);

fn retry_path(hooked: &Hooked, delivery_id: &str) -> String {
    format!(
        "{}/deliveries/{delivery_id}/retry",
        webhook_path(&hooked.id)
    )
}

async fn post_empty(hooked: &Hooked, path: &str) -> crate::support::TestResponse {
    let request = hooked
        .app
        .request(reqwest::Method::POST, path, &hooked.team.key);
    hooked.app.send(request).await
}

/// A test event the receiver refuses; returns its delivery id and event id.
async fn failed_test_event(hooked: &Hooked) -> (String, String) {
    hooked.receiver.script([Answer::Status(500)]);
    let sent = hooked.send_test().await;
    assert_eq!(sent.data()["success"], false);
    let field = |name: &str| sent.data()[name].as_str().unwrap().to_string();
    (field("delivery_id"), field("event_id"))
}

fn rfc3339(at: chrono::DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

async fn retrying_a_failed_delivery_creates_a_new_delivery_of_the_same_event(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let (failed_id, event_id) = failed_test_event(&hooked).await;

    let retried = post_empty(&hooked, &retry_path(&hooked, &failed_id)).await;

    assert_eq!(retried.status, 200, "{:?}", retried.body);
    assert_eq!(
        retried.body["meta"],
        json!({ "endpoint": "webhooks.deliveries.retry", "creditsUsed": 0 }),
        "a test event is free, retried or not"
    );
    let data = retried.data();
    assert_ne!(data["delivery_id"], failed_id.as_str());
    assert_eq!(data["previous_delivery_id"], failed_id.as_str());
    assert_eq!(data["status"], "done");
    assert_eq!(data["success"], true);
    assert_eq!(data["response_status"], 200);
    assert!(data["attempt_count"].as_i64().unwrap() >= 2, "{data}");
    let received = hooked.receiver.wait_for(2, SOON).await;
    assert_eq!(received[1].header("X-Webhook-ID"), Some(event_id.as_str()));
    let listed = hooked.deliveries("").await;
    let deliveries = listed.data().as_array().unwrap();
    assert_eq!(deliveries.len(), 2);
    assert_eq!(deliveries[0]["id"], data["delivery_id"]);
    assert_eq!(deliveries[0]["event_id"], event_id.as_str());
    assert_eq!(deliveries[1]["id"], failed_id.as_str());
    assert_eq!(deliveries[1]["status"], "failed");
}

async fn a_retry_is_signed_with_the_current_secret(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let (failed_id, _) = failed_test_event(&hooked).await;
    let rotated = hooked
        .app
        .put(
            &webhook_path(&hooked.id),
            &hooked.team.key,
            json!({ "rotate_secret": true }),
        )
        .await;
    let new_secret = rotated.data()["secret"].as_str().unwrap().to_string();

    let retried = post_empty(&hooked, &retry_path(&hooked, &failed_id)).await;

    assert_eq!(retried.status, 200, "{:?}", retried.body);
    let received = hooked.receiver.wait_for(2, SOON).await;
    assert!(signed_with(&received[0], &hooked.secret));
    assert!(signed_with(&received[1], &new_secret));
    assert!(
        !signed_with(&received[1], &hooked.secret),
        "the old secret no longer signs"
    );
}

async fn retrying_a_successful_delivery_is_a_conflict(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let sent = hooked.send_test().await;
    let delivery_id = sent.data()["delivery_id"].as_str().unwrap();

    let refused = post_empty(&hooked, &retry_path(&hooked, delivery_id)).await;

    assert_error(&refused, 409, "conflict");
    assert_eq!(
        hooked.receiver.received().len(),
        1,
        "nothing was sent again"
    );
    assert_eq!(
        hooked.deliveries("").await.data().as_array().unwrap().len(),
        1
    );
}

async fn retrying_an_unknown_or_foreign_delivery_is_not_found(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let (failed_id, _) = failed_test_event(&hooked).await;
    let other = hooked
        .app
        .post(
            "/api/v2/webhooks",
            &hooked.team.key,
            json!({ "endpoint_url": hooked.receiver.url, "event_types": ["hiring.created"] }),
        )
        .await;
    let other_id = other.data()["id"].as_str().unwrap();

    let unknown = retry_path(&hooked, "0190a3b4-0000-7000-8000-000000000000");
    assert_error(&post_empty(&hooked, &unknown).await, 404, "not_found");
    assert_error(
        &post_empty(&hooked, &retry_path(&hooked, "nope")).await,
        404,
        "not_found",
    );
    let through_other = format!("{}/deliveries/{failed_id}/retry", webhook_path(other_id));
    assert_error(&post_empty(&hooked, &through_other).await, 404, "not_found");
    assert_eq!(hooked.receiver.received().len(), 1);
}

/// A monitor delivery of a funding round that failed (the receiver answered 500); returns the
/// path that retries it.
async fn failed_signal_delivery(watching: &Watching) -> String {
    watching.receiver.always(Answer::Status(500));
    watching
        .ingest("funding", json!([acme_round("round-1")]))
        .await;
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
    let failed_path = format!("{}/deliveries?status=failed", webhook_path(&webhook_id));
    let failed = wait_for_rows(watching, &failed_path, 1).await;
    format!(
        "{}/deliveries/{}/retry",
        webhook_path(&webhook_id),
        failed[0]["id"].as_str().unwrap()
    )
}

async fn post_retry(watching: &Watching, path: &str) -> crate::support::TestResponse {
    let request = watching
        .app
        .request(reqwest::Method::POST, path, &watching.team.key);
    watching.app.send(request).await
}

async fn a_successful_retry_of_a_signal_delivery_costs_one_credit(backend: Backend) {
    let watching = Watching::start(backend, &[]).await;
    let path = failed_signal_delivery(&watching).await;
    let before = watching.credits().await;
    watching.receiver.always(Answer::Status(200));

    let retried = post_retry(&watching, &path).await;

    assert_eq!(retried.status, 200, "{:?}", retried.body);
    assert_eq!(retried.data()["success"], true);
    assert_eq!(retried.body["meta"]["creditsUsed"], 1);
    watching.wait_for_credits(before - 1).await;
}

async fn a_retry_at_a_balance_of_0_is_refused_with_402_and_sends_nothing(backend: Backend) {
    let watching = Watching::start(backend, &[]).await;
    let path = failed_signal_delivery(&watching).await;
    let attempts = watching.receiver.received().len();
    watching.receiver.always(Answer::Status(200));
    watching.set_credits(0).await;

    let retried = post_retry(&watching, &path).await;

    assert_error(&retried, 402, "insufficient_credits");
    assert_eq!(watching.receiver.received().len(), attempts);
    assert_eq!(watching.credits().await, 0);
}

/// Polls a delivery list until it has `n` rows.
async fn wait_for_rows(watching: &Watching, path: &str, n: usize) -> Vec<Value> {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let listed = watching.app.get(path, &watching.team.key).await;
        let rows = listed.data().as_array().cloned().unwrap_or_default();
        if rows.len() >= n {
            return rows;
        }
        assert!(
            Instant::now() < until,
            "{path} has {} row(s), expected {n}",
            rows.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn retry_failed_replays_every_failed_delivery_since_a_time(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    let since = rfc3339(Utc::now() - chrono::Duration::hours(1));
    failed_test_event(&hooked).await;
    failed_test_event(&hooked).await;
    hooked.send_test().await;
    let path = format!("{}/deliveries/retry-failed", webhook_path(&hooked.id));

    let replayed = hooked
        .app
        .post(&path, &hooked.team.key, json!({ "since": since }))
        .await;

    assert_eq!(replayed.status, 200, "{:?}", replayed.body);
    assert_eq!(
        replayed.body,
        json!({
            "success": true,
            "data": { "queued": 2 },
            "meta": { "endpoint": "webhooks.deliveries.retry_failed", "creditsUsed": 0 }
        })
    );
    let received = hooked.receiver.wait_for(5, SOON).await;
    let replayed_events: Vec<_> = received[3..]
        .iter()
        .map(|r| r.header("X-Webhook-ID").unwrap().to_string())
        .collect();
    let first_two: Vec<_> = received[..2]
        .iter()
        .map(|r| r.header("X-Webhook-ID").unwrap().to_string())
        .collect();
    for event in &replayed_events {
        assert!(
            first_two.contains(event),
            "{event} is a failed event sent again"
        );
    }
    let later = rfc3339(Utc::now() + chrono::Duration::minutes(1));
    let nothing = hooked
        .app
        .post(&path, &hooked.team.key, json!({ "since": later }))
        .await;
    assert_eq!(nothing.data(), &json!({ "queued": 0 }));
}

async fn retry_failed_accepts_only_a_time_within_the_last_14_days(backend: Backend) {
    let hooked = Hooked::start(backend).await;
    failed_test_event(&hooked).await;
    let path = format!("{}/deliveries/retry-failed", webhook_path(&hooked.id));

    for body in [
        json!({ "since": rfc3339(Utc::now() - chrono::Duration::days(15)) }),
        json!({ "since": "2026-05-29" }),
        json!({ "since": "yesterday" }),
        json!({ "since": 1_780_050_600 }),
        json!({}),
        json!({ "since": rfc3339(Utc::now()), "status": "failed" }),
    ] {
        let refused = hooked.app.post(&path, &hooked.team.key, body.clone()).await;
        assert_error(&refused, 400, "bad_request");
    }

    let thirteen_days = rfc3339(Utc::now() - chrono::Duration::days(13));
    let accepted = hooked
        .app
        .post(&path, &hooked.team.key, json!({ "since": thirteen_days }))
        .await;
    assert_eq!(accepted.status, 200, "{:?}", accepted.body);
    assert_eq!(accepted.data(), &json!({ "queued": 1 }));
}

/// A manual retry of a delivery that failed once and waits for its next automatic attempt takes
/// that schedule over: the event reaches the endpoint once more, not twice, and costs 1 credit.
async fn retrying_a_delivery_still_on_its_schedule_sends_the_event_once(backend: Backend) {
    let app = TestApp::start_with(
        backend,
        &[
            "--allow-private-webhooks",
            "true",
            "--retry-schedule",
            "4,4",
        ],
    )
    .await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let receiver = Receiver::start().await;
    receiver.script([Answer::Status(500)]);
    let created = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": receiver.url, "event_types": ["funding.created"] }),
        )
        .await;
    let webhook = created.data()["id"].as_str().unwrap().to_string();
    let ingested = app
        .admin(
            reqwest::Method::POST,
            "/signals/funding",
            Some(json!([acme_round("round-1")])),
        )
        .await;
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);
    receiver.wait_for(1, SOON).await;
    // The receiver has answered; the retry waits for that attempt to be recorded, or it would be
    // refused as in flight.
    let until = Instant::now() + SOON;
    let original = loop {
        let listed = app
            .get(&format!("{}/deliveries", webhook_path(&webhook)), &team.key)
            .await;
        let first = &listed.data()[0];
        if first["attempt_count"].as_i64() >= Some(1) {
            break first["id"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < until, "attempt never recorded: {first:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    let path = format!("{}/deliveries/{original}/retry", webhook_path(&webhook));
    let retried = app
        .send(app.request(reqwest::Method::POST, &path, &team.key))
        .await;

    assert_eq!(retried.status, 200, "{:?}", retried.body);
    assert_eq!(retried.data()["success"], true);
    // One failed attempt and the retry; the original's next try (after 4 s) never comes.
    assert_stays_at(&receiver, 2, Duration::from_secs(7)).await;
    let listed = app
        .get(&format!("{}/deliveries", webhook_path(&webhook)), &team.key)
        .await;
    let statuses: Vec<&Value> = listed
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["status"])
        .collect();
    assert_eq!(statuses, [&json!("done"), &json!("failed")]);
}
