//! Graceful shutdown of the real binary on SIGTERM: it stops accepting connections, lets the
//! requests in flight finish, lets delivery attempts in flight end and be recorded (or gives
//! their leases back), gives back enrichment jobs in progress, and exits 0 — so a restarted
//! process, or another worker, carries on at once with nothing lost.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use crate::csv_enrichment_support::{job_path, submit_companies, wait_for_job};
use crate::delivery_support::acme_round;
use crate::each_backend;
use crate::lists_support::balance_of;
use crate::support::event_receiver::{EventReceiver, Reply};
use crate::support::process::{Role, ServerProcess};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    a_request_in_flight_at_sigterm_is_answered_while_new_connections_are_refused,
    a_delivery_in_flight_at_sigterm_finishes_and_is_recorded_once,
    a_hanging_delivery_at_sigterm_is_recorded_and_a_restarted_worker_sends_it,
    an_enrichment_job_running_at_sigterm_is_given_back_and_finished_after_a_restart,
);

/// Several processes serve one database only on PostgreSQL.
mod a_worker_stopped_mid_delivery_leaves_the_rest_to_another_worker {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        let backend = crate::support::Backend::postgres();
        super::a_worker_stopped_mid_delivery_leaves_the_rest_to_another_worker(backend).await
    }
}

/// Loopback receivers, a quick retry, and a short webhook timeout so a hanging receiver is
/// given up on soon.
const SETTINGS: [&str; 6] = [
    "--allow-private-webhooks",
    "true",
    "--retry-schedule",
    "1,1",
    "--webhook-timeout-seconds",
    "2",
];

/// Longer than any drain this file causes, shorter than the 30 s request drain deadline.
const EXITS_WITHIN: Duration = Duration::from_secs(25);

/// How long a test waits for something that should happen at once.
const SOON: Duration = Duration::from_secs(15);

async fn a_request_in_flight_at_sigterm_is_answered_while_new_connections_are_refused(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    // An API process alone: no worker finishes the enrichment job, so the `wait` lasts the
    // whole `timeout`.
    let mut server = ServerProcess::start(&database.url, Role::Api, &[]).await;
    let app = server.app();
    let team = app.create_team().await;
    let before = balance_of(&app, &team).await;
    let body = json!({ "companies": [{ "company_name": "Acme" }], "wait": true, "timeout": 6 });
    let request = app.request(Method::POST, "/api/v2/csv-enrichment", &team.key);
    let slow = tokio::spawn(request.json(&body).send());
    // The job's credit is taken before its wait begins.
    wait_for_balance(&app, &team, before - 1).await;

    server.terminate();

    wait_until_refused(&server.addr()).await;
    let answered = slow.await.expect("the request's task");
    let answered = answered.expect("the request in flight is answered");
    assert_eq!(answered.status(), 200);
    let answered: Value = answered.json().await.expect("a JSON body");
    assert!(answered["data"]["jobId"].is_string(), "{answered}");
    let exit = server.wait_for_exit(EXITS_WITHIN).await;
    assert!(exit.success(), "exit status {exit}; log:\n{}", server.log());
}

async fn a_delivery_in_flight_at_sigterm_finishes_and_is_recorded_once(backend: Backend) {
    let database = backend.fresh_database().await;
    let receiver = EventReceiver::start(|_, _| Reply::Ok(Duration::from_secs(1))).await;
    let mut first = ServerProcess::start(&database.url, Role::All, &SETTINGS).await;
    let watch = Watch::start(&first.app(), &receiver).await;
    watch.ingest_a_round(&first.app()).await;
    receiver.wait_for_attempts(1, SOON).await;

    first.terminate();

    let exit = first.wait_for_exit(EXITS_WITHIN).await;
    assert!(exit.success(), "exit status {exit}; log:\n{}", first.log());
    let events = receiver.events();
    assert_eq!((events[0].attempts, events[0].delivered), (1, 1));
    let restarted = ServerProcess::start(&database.url, Role::Api, &SETTINGS).await;
    let delivery = watch.only_delivery(&restarted.app()).await;
    assert_eq!(delivery["status"], "done", "{delivery}");
    assert_eq!(delivery["attempts"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        balance_of(&restarted.app(), &watch.team).await,
        watch.credits - 1
    );
}

async fn a_hanging_delivery_at_sigterm_is_recorded_and_a_restarted_worker_sends_it(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let receiver = EventReceiver::start(|_, attempt| match attempt {
        1 => Reply::Hang,
        _ => Reply::Ok(Duration::ZERO),
    })
    .await;
    let mut first = ServerProcess::start(&database.url, Role::All, &SETTINGS).await;
    let watch = Watch::start(&first.app(), &receiver).await;
    watch.ingest_a_round(&first.app()).await;
    receiver.wait_for_attempts(1, SOON).await;

    first.terminate();

    let exit = first.wait_for_exit(EXITS_WITHIN).await;
    assert!(exit.success(), "exit status {exit}; log:\n{}", first.log());
    let restarted = ServerProcess::start(&database.url, Role::All, &SETTINGS).await;
    // Had the first attempt been neither recorded nor given back, nothing would come before
    // its lease ran out, and the delivery would show one attempt.
    receiver.wait_for_delivered(1, SOON).await;
    let delivery = watch.wait_until_done(&restarted.app()).await;
    let attempts = delivery["attempts"].as_array().expect("attempts").clone();
    assert_eq!(attempts.len(), 2, "{delivery}");
    assert!(
        attempts.iter().any(|a| a["error"].is_string()),
        "{delivery}"
    );
    assert_eq!(
        balance_of(&restarted.app(), &watch.team).await,
        watch.credits - 1
    );
}

async fn a_worker_stopped_mid_delivery_leaves_the_rest_to_another_worker(backend: Backend) {
    const ROUNDS: usize = 40;
    let database = backend.fresh_database().await;
    // Slow enough that one worker needs several rounds of 16 attempts.
    let receiver = EventReceiver::start(|_, _| Reply::Ok(Duration::from_secs(1))).await;
    let api = ServerProcess::start(&database.url, Role::Api, &SETTINGS).await;
    let watch = Watch::start(&api.app(), &receiver).await;
    let mut stopping = ServerProcess::start(&database.url, Role::Worker, &SETTINGS).await;
    let rounds: Vec<Value> = (0..ROUNDS)
        .map(|i| acme_round(&format!("f5d10000-0000-4000-8000-{i:012}")))
        .collect();
    watch.ingest(&api.app(), json!(rounds)).await;
    receiver.wait_for_attempts(1, SOON).await;
    let _staying = ServerProcess::start(&database.url, Role::Worker, &SETTINGS).await;
    assert!(
        receiver.events().len() < ROUNDS,
        "work is left to hand over"
    );

    stopping.terminate();

    let exit = stopping.wait_for_exit(EXITS_WITHIN).await;
    assert!(
        exit.success(),
        "exit status {exit}; log:\n{}",
        stopping.log()
    );
    let events = receiver.wait_for_delivered(ROUNDS, SOON).await;
    for event in &events {
        assert_eq!(event.most_at_once, 1, "in flight twice at once: {event:?}");
        assert_eq!(event.delivered, 1, "delivered more than once: {event:?}");
    }
    assert_eq!(events.len(), ROUNDS);
    let expected = watch.credits - ROUNDS as i64;
    wait_for_balance(&api.app(), &watch.team, expected).await;
}

async fn an_enrichment_job_running_at_sigterm_is_given_back_and_finished_after_a_restart(
    backend: Backend,
) {
    // Two chunks of rows per job.
    const ROWS: usize = 300;
    let database = backend.fresh_database().await;
    let mut first = ServerProcess::start(&database.url, Role::All, &SETTINGS).await;
    let app = first.app();
    let team = app.create_team().await;
    let companies: Vec<Value> = (0..ROWS)
        .map(|i| json!({ "company_name": format!("Unknown {i}") }))
        .collect();
    // More jobs than a worker runs at once, so some are in progress or waiting at the signal.
    let mut jobs = Vec::new();
    for _ in 0..4 {
        jobs.push(submit_companies(&app, &team, json!(companies)).await);
    }
    wait_for_job(&app, &team, &jobs[0], "", |job| job["status"] != "pending").await;

    first.terminate();

    let exit = first.wait_for_exit(EXITS_WITHIN).await;
    assert!(exit.success(), "exit status {exit}; log:\n{}", first.log());
    let restarted = ServerProcess::start(&database.url, Role::All, &SETTINGS).await;
    for id in &jobs {
        let done = wait_until_completed(&restarted.app(), &team, id).await;
        assert_eq!(
            done["progress"],
            json!({ "processed": ROWS, "total": ROWS })
        );
        assert_eq!(done["summary"]["unmatched"], ROWS, "each row counted once");
    }
}

/// Polls a job until it is completed. A job given back at shutdown is taken up at once, not
/// when its 30 s lease would have run out, so this waits less than that.
async fn wait_until_completed(app: &TestApp, team: &Team, id: &str) -> Value {
    let until = Instant::now() + SOON;
    loop {
        let job = app.get(&job_path(id, ""), &team.key).await;
        if job.data()["status"] == "completed" {
            return job.data().clone();
        }
        assert!(Instant::now() < until, "not completed: {:?}", job.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A team whose monitor watches acme.com and posts to a receiver.
struct Watch {
    team: Team,
    webhook_id: String,
    /// The balance before any delivery.
    credits: i64,
}

impl Watch {
    async fn start(app: &TestApp, receiver: &EventReceiver) -> Watch {
        let team = app.create_team().await;
        app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
            .await;
        let created = app
            .post(
                "/api/v2/monitors",
                &team.key,
                json!({ "name": "Acme", "signal_types": ["funding_round"], "webhook_url": receiver.url }),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let monitor = created.data()["id"].as_str().expect("id");
        let webhook_id = created.data()["webhook"]["id"].as_str().expect("webhook");
        let added = app.add_targets(&team, monitor, json!(["acme.com"])).await;
        assert_eq!(added.status, 200, "{:?}", added.body);
        let credits = balance_of(app, &team).await;
        Watch {
            team,
            webhook_id: webhook_id.to_string(),
            credits,
        }
    }

    async fn ingest_a_round(&self, app: &TestApp) {
        let round = acme_round("f5d00000-0000-4000-8000-000000000001");
        self.ingest(app, json!([round])).await;
    }

    async fn ingest(&self, app: &TestApp, rounds: Value) {
        let response = app
            .admin(Method::POST, "/signals/funding", Some(rounds))
            .await;
        assert_eq!(response.status, 200, "{:?}", response.body);
    }

    /// The webhook's one delivery, with its attempts.
    async fn only_delivery(&self, app: &TestApp) -> Value {
        let path = format!("/api/v2/webhooks/{}/deliveries", self.webhook_id);
        let listed = app.get(&path, &self.team.key).await;
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        let deliveries = listed.data().as_array().expect("deliveries").clone();
        assert_eq!(deliveries.len(), 1, "{deliveries:?}");
        let id = deliveries[0]["id"].as_str().expect("id");
        let one = app.get(&format!("{path}/{id}"), &self.team.key).await;
        assert_eq!(one.status, 200, "{:?}", one.body);
        one.data().clone()
    }

    /// The webhook's one delivery once it is `done`; its outcome is recorded just after the
    /// receiver answers.
    async fn wait_until_done(&self, app: &TestApp) -> Value {
        let until = Instant::now() + SOON;
        loop {
            let delivery = self.only_delivery(app).await;
            if delivery["status"] == "done" {
                return delivery;
            }
            assert!(Instant::now() < until, "not done: {delivery}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn wait_for_balance(app: &TestApp, team: &Team, expected: i64) {
    let until = Instant::now() + SOON;
    while balance_of(app, team).await != expected {
        assert!(
            Instant::now() < until,
            "the balance never became {expected}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until connecting to `addr` is refused: the process no longer listens.
async fn wait_until_refused(addr: &str) {
    let until = Instant::now() + SOON;
    loop {
        match tokio::net::TcpStream::connect(addr).await {
            Err(err) if err.kind() == std::io::ErrorKind::ConnectionRefused => return,
            // Queued when the listener closed: reset, never served. The next try is refused.
            Err(err) if err.kind() == std::io::ErrorKind::ConnectionReset => {}
            Err(err) => panic!("connecting failed otherwise than refused: {err}"),
            Ok(_) => {}
        }
        assert!(Instant::now() < until, "{addr} still accepts connections");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
