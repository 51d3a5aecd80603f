//! How each receiver behaviour plays out: the attempts made, their spacing, and the credit.

use std::time::Duration;

use serde_json::json;

use crate::delivery_support::{
    FAST, SOON, Watching, acme_round, assert_stays_at, attempt_statuses,
};
use crate::each_backend;
use crate::support::Backend;
use crate::support::process::{Role, ServerProcess};
use crate::support::receiver::{Answer, Receiver};
use signalwatch::store::Db;

each_backend!(
    a_500_is_retried_with_the_same_event_id_and_charged_once_when_it_succeeds,
    a_410_stops_the_retries_at_once_and_costs_nothing,
    a_503_with_retry_after_waits_at_least_that_long,
    a_redirect_is_a_failure_and_is_never_followed,
    a_hanging_endpoint_times_out_and_is_retried,
    a_huge_response_body_does_not_hold_up_the_delivery,
    a_429_with_retry_after_waits_at_least_that_long_and_is_charged_once_when_it_succeeds,
    a_refused_connection_is_retried_on_schedule_then_failed_and_costs_nothing,
    a_retry_falling_due_while_the_monitor_is_paused_waits_and_goes_out_after_it_resumes,
    a_delivery_held_for_more_than_seven_days_is_failed_and_never_sent,
    a_delivery_committed_long_after_it_was_stamped_still_goes_out,
);

const ROUND: &str = "f3000000-0000-4000-8000-000000000001";

async fn a_500_is_retried_with_the_same_event_id_and_charged_once_when_it_succeeds(
    backend: Backend,
) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    w.receiver.script([Answer::Status(500)]);

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    let got = w.receiver.wait_for(2, SOON).await;
    assert_eq!(got[0].json()["event_id"], got[1].json()["event_id"]);
    let gap = got[1].at - got[0].at;
    assert!(gap >= Duration::from_millis(750), "retried after {gap:?}");
    w.wait_for_credits(before - 1).await;
    assert_stays_at(&w.receiver, 2, Duration::from_millis(500)).await;
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [Some(500), Some(200)]);
}

async fn a_410_stops_the_retries_at_once_and_costs_nothing(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    w.receiver.always(Answer::Status(410));

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    w.receiver.wait_for(1, SOON).await;
    assert_stays_at(&w.receiver, 1, Duration::from_millis(2500)).await;
    assert_eq!(w.credits().await, before);
    let delivery = w.wait_for_delivery("failed").await;
    assert_eq!(attempt_statuses(&delivery), [Some(410)]);
}

async fn a_503_with_retry_after_waits_at_least_that_long(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.receiver.script([Answer::Full(
        503,
        vec![("retry-after", "3".to_string())],
        "busy".into(),
    )]);

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    let got = w.receiver.wait_for(2, SOON).await;
    let gap = got[1].at - got[0].at;
    assert!(gap >= Duration::from_millis(2900), "retried after {gap:?}");
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [Some(503), Some(200)]);
}

async fn a_redirect_is_a_failure_and_is_never_followed(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let elsewhere = Receiver::start().await;
    let before = w.credits().await;
    w.receiver.always(Answer::Full(
        302,
        vec![("location", elsewhere.url.clone())],
        String::new(),
    ));

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    // The first attempt and the two retries of the schedule "1,1", then nothing.
    w.receiver.wait_for(3, SOON).await;
    assert_stays_at(&w.receiver, 3, Duration::from_millis(2500)).await;
    assert!(elsewhere.received().is_empty(), "the redirect was followed");
    assert_eq!(w.credits().await, before);
    let delivery = w.wait_for_delivery("failed").await;
    assert_eq!(attempt_statuses(&delivery), [Some(302); 3]);
}

async fn a_hanging_endpoint_times_out_and_is_retried(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    w.receiver.script([Answer::Hang]);

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    let got = w.receiver.wait_for(2, SOON).await;
    let gap = got[1].at - got[0].at;
    assert!(
        gap >= Duration::from_secs(2),
        "retried after {gap:?}, before the timeout"
    );
    w.wait_for_credits(before - 1).await;
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [None, Some(200)]);
    let error = delivery["attempts"][0]["error"]
        .as_str()
        .unwrap_or_default();
    assert!(error.contains("timed out"), "{error}");
}

async fn a_huge_response_body_does_not_hold_up_the_delivery(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    w.receiver
        .always(Answer::Full(200, Vec::new(), "x".repeat(5_000_000)));

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    w.receiver.wait_for(1, SOON).await;
    w.wait_for_credits(before - 1).await;
    assert_stays_at(&w.receiver, 1, Duration::from_millis(500)).await;
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [Some(200)]);
}

async fn a_429_with_retry_after_waits_at_least_that_long_and_is_charged_once_when_it_succeeds(
    backend: Backend,
) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    w.receiver.script([Answer::Full(
        429,
        vec![("retry-after", "2".to_string())],
        "slow down".into(),
    )]);

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    let got = w.receiver.wait_for(2, SOON).await;
    let gap = got[1].at - got[0].at;
    assert!(gap >= Duration::from_millis(1900), "retried after {gap:?}");
    assert_eq!(got[0].json()["event_id"], got[1].json()["event_id"]);
    w.wait_for_credits(before - 1).await;
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [Some(429), Some(200)]);
}

async fn a_refused_connection_is_retried_on_schedule_then_failed_and_costs_nothing(
    backend: Backend,
) {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/hook", closed.local_addr().expect("address"));
    drop(closed);
    let w = Watching::posting_to(backend, &[], Receiver::start().await, &url).await;
    let before = w.credits().await;

    w.ingest("funding", json!([acme_round(ROUND)])).await;

    // The first attempt and the two retries of the schedule "1,1", a second or so apart.
    let delivery = w.wait_for_delivery("failed").await;
    assert_eq!(attempt_statuses(&delivery), [None, None, None]);
    let attempts = delivery["attempts"].as_array().expect("attempts");
    for attempt in attempts {
        assert_eq!(attempt["error"], "connection refused");
    }
    let at = |i: usize| {
        let text = attempts[i]["attempted_at"].as_str().expect("attempted_at");
        chrono::DateTime::parse_from_rfc3339(text).expect("RFC 3339")
    };
    for i in 1..attempts.len() {
        let gap = at(i) - at(i - 1);
        assert!(gap.num_milliseconds() >= 750, "retried after {gap}");
    }
    assert_eq!(w.credits().await, before);
    assert_eq!(FAST[3], "1,1", "the schedule this test counts on");
}

async fn a_retry_falling_due_while_the_monitor_is_paused_waits_and_goes_out_after_it_resumes(
    backend: Backend,
) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;
    let path = format!("/api/v2/monitors/{}", w.monitor_id);
    w.receiver.script([Answer::Status(500)]);

    w.ingest("funding", json!([acme_round(ROUND)])).await;
    w.receiver.wait_for(1, SOON).await;
    let paused = w
        .app
        .put(&path, &w.team.key, json!({ "active": false }))
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);

    // The retry falls due a second later ("1,1"), and waits while the monitor is paused.
    assert_stays_at(&w.receiver, 1, Duration::from_millis(2500)).await;
    assert_eq!(w.credits().await, before);

    let resumed = w
        .app
        .put(&path, &w.team.key, json!({ "active": true }))
        .await;
    assert_eq!(resumed.status, 200, "{:?}", resumed.body);
    let got = w.receiver.wait_for(2, SOON).await;
    assert_eq!(got[0].json()["event_id"], got[1].json()["event_id"]);
    w.wait_for_credits(before - 1).await;
    let delivery = w.wait_for_delivery("done").await;
    assert_eq!(attempt_statuses(&delivery), [Some(500), Some(200)]);
}

async fn a_delivery_held_for_more_than_seven_days_is_failed_and_never_sent(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.set_credits(0).await;
    w.ingest("funding", json!([acme_round(ROUND)])).await;
    w.wait_for_delivery("pending").await;

    // Eight days pass with the delivery held; a worker starting now looks at it at once.
    set_delivery(&w.app.database_url, "pending", -8 * DAY_MS).await;
    let _worker = ServerProcess::start(&w.app.database_url, Role::Worker, &[]).await;

    let failed = w.wait_for_delivery("failed").await;
    assert_eq!(attempt_statuses(&failed), Vec::new(), "never attempted");
    w.set_credits(5).await;
    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;
    assert_eq!(w.credits().await, 5, "nothing charged");
}

async fn a_delivery_committed_long_after_it_was_stamped_still_goes_out(backend: Backend) {
    let w = Watching::start(backend, &["--role", "api"]).await;
    w.set_credits(0).await;
    w.ingest("funding", json!([acme_round(ROUND)])).await;
    let _worker = ServerProcess::start(&w.app.database_url, Role::Worker, &FAST).await;
    w.wait_for_delivery("pending").await;

    // The worker seeks each webhook's rows from where its pending rows began when it last
    // looked. A delivery that was not there then, stamped an hour before it appeared (an ingest
    // that took that long to commit, or a clock an hour slow), sits below that.
    set_delivery(&w.app.database_url, "failed", 0).await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    set_delivery(&w.app.database_url, "pending", -3_600_000).await;
    w.set_credits(5).await;

    let got = w.receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    w.wait_for_delivery("done").await;
    w.wait_for_credits(4).await;
}

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Sets the one delivery's status, and moves its due time `by_ms` (queueing time too).
async fn set_delivery(database_url: &str, status: &str, by_ms: i64) {
    let db = Db::connect(database_url).await.expect("database");
    let sql = "UPDATE deliveries SET status = $1, created_at = created_at + $2, \
               next_attempt_at = next_attempt_at + $2";
    let set = match &db {
        Db::Sqlite(sqlite) => sqlx::query(sql)
            .bind(status)
            .bind(by_ms)
            .execute(sqlite.pool())
            .await
            .map(|done| done.rows_affected()),
        Db::Postgres(pool) => sqlx::query(sql)
            .bind(status)
            .bind(by_ms)
            .execute(pool)
            .await
            .map(|done| done.rows_affected()),
    };
    assert_eq!(set.expect("set"), 1, "one delivery");
    db.close().await;
}
