//! Scale-out: two API processes and two workers of the real binary, all started at the same
//! moment on one fresh PostgreSQL database (so they race to migrate it), act as one service under
//! concurrent traffic through both APIs: team limits hold, no credit is charged twice, every
//! signal is delivered, once, never in flight twice at once, and every job is done once.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};
use tokio::task::JoinSet;

use crate::csv_enrichment_support::wait_until_done;
use crate::delivery_support::acme_round;
use crate::lists_support::balance_of;
use crate::support::app::ADMIN_TOKEN;
use crate::support::event_receiver::{EventReceiver, Reply};
use crate::support::process::{Role, ServerProcess};
use crate::support::{Backend, Team, TestApp};

mod two_api_and_two_worker_processes_on_one_database_act_as_one_service {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::act_as_one_service(crate::support::Backend::postgres()).await
    }
}

/// Settings of every process: loopback receivers, quick retries, rate limits out of the way.
const SETTINGS: [&str; 8] = [
    "--allow-private-webhooks",
    "true",
    "--retry-schedule",
    "1,1",
    "--webhook-timeout-seconds",
    "5",
    "--rate-limit-per-minute",
    "100000",
];

/// Ingest batches, each sent through both API processes at once, and acme rounds per batch.
const BATCHES: usize = 6;
const ROUNDS_PER_BATCH: usize = 10;

/// Charged list pages the watching team reads while its signals arrive.
const PAGES: usize = 20;

/// The credits of a team that asks for twice as many pages as it can pay for.
const FRUGAL: usize = 6;

/// CSV enrichment jobs submitted through the API processes, for the workers to share.
const JOBS: usize = 6;

/// How long the workers may take to deliver everything on a loaded machine.
const DELIVERED_WITHIN: Duration = Duration::from_secs(45);

/// What a request of the traffic was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Monitor,
    Webhook,
    Targets,
    Ingest,
    Page,
    FrugalPage,
    Job,
}

/// The teams the traffic is for.
struct Teams {
    /// Watches acme.com with a monitor whose webhook is the receiver; reads list pages.
    watching: Team,
    /// Creates 30 monitors (and submits the enrichment jobs).
    monitors: Team,
    /// Creates 14 webhooks.
    webhooks: Team,
    /// Adds 12 × 100 targets over two monitors.
    targets: Team,
    target_monitors: [String; 2],
    /// Has credits for half the pages it asks for.
    frugal: Team,
}

async fn act_as_one_service(backend: Backend) {
    let database = backend.fresh_database().await;
    let roles = [Role::Api, Role::Api, Role::Worker, Role::Worker];
    let mut processes = ServerProcess::start_together(&database.url, &roles, &SETTINGS).await;
    let apps = [processes[0].app(), processes[1].app()];
    let receiver = EventReceiver::start(|event, attempt| {
        // Every fifth event fails once, so retries are claimed too.
        if event % 5 == 0 && attempt == 1 {
            Reply::Fail(Duration::from_millis(20))
        } else {
            Reply::Ok(Duration::from_millis(100))
        }
    })
    .await;
    let teams = Teams::set_up(&apps, &receiver).await;
    let starting_credits = balance_of(&apps[1], &teams.watching).await;

    let answers = at_once(traffic(&apps, &teams)).await;

    team_limits_held(&apps, &teams, &answers).await;
    for (status, body) in &answers[&Kind::Ingest] {
        assert_eq!(*status, 200, "ingest: {body}");
    }
    for batch in 0..BATCHES {
        let path = format!("/api/v2/companies?domain=newco-{batch}.com");
        let found = listed(&apps[batch % 2], &path, &teams.monitors).await;
        assert_eq!(
            found, 1,
            "newco-{batch}.com, sent in twice, is created once"
        );
    }
    assert_eq!(count(&answers[&Kind::Page], 200), PAGES);
    assert_eq!(count(&answers[&Kind::FrugalPage], 200), FRUGAL);
    assert_eq!(count(&answers[&Kind::FrugalPage], 402), FRUGAL);
    assert_eq!(balance_of(&apps[0], &teams.frugal).await, 0);
    for (status, body) in &answers[&Kind::Job] {
        assert_eq!(*status, 200, "{body}");
        let id = body["data"]["jobId"].as_str().expect("jobId");
        let done = wait_until_done(&apps[1], &teams.monitors, id).await;
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(done["progress"], json!({ "processed": 2, "total": 2 }));
        assert_eq!(done["summary"]["matched"], 1, "{done}");
        assert_eq!(done["summary"]["unmatched"], 1, "{done}");
    }
    let delivered = every_signal_delivered_once(&receiver).await;
    let charged = (delivered + PAGES) as i64;
    wait_for_balance(&apps[0], &teams.watching, starting_credits - charged).await;
    for process in &mut processes {
        assert!(
            process.is_running(),
            "{:?}:\n{}",
            process.role,
            process.log()
        );
    }
}

impl Teams {
    async fn set_up(apps: &[TestApp; 2], receiver: &EventReceiver) -> Teams {
        let watching = apps[0].create_team().await;
        apps[0]
            .import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
            .await;
        let body = json!({ "name": "Acme", "signal_types": ["funding_round"],
            "webhook_url": receiver.url });
        let created = apps[1].post("/api/v2/monitors", &watching.key, body).await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let monitor = created.data()["id"].as_str().expect("id");
        let added = apps[0]
            .add_targets(&watching, monitor, json!(["acme.com"]))
            .await;
        assert_eq!(added.status, 200, "{:?}", added.body);
        let targets = apps[0].create_team().await;
        let target_monitors = [
            apps[0].create_monitor(&targets, "One").await,
            apps[1].create_monitor(&targets, "Two").await,
        ];
        Teams {
            watching,
            monitors: apps[0].create_team().await,
            webhooks: apps[1].create_team().await,
            targets,
            target_monitors,
            frugal: apps[1].create_team_with(json!({ "credits": FRUGAL })).await,
        }
    }
}

/// Every request of the test, spread over both API processes.
fn traffic(apps: &[TestApp; 2], teams: &Teams) -> Vec<(Kind, RequestBuilder)> {
    let post = |i: usize, path: &str, team: &Team, body: Value| {
        apps[i % 2]
            .request(Method::POST, path, &team.key)
            .json(&body)
    };
    let page = |i: usize, team: &Team| {
        let path = "/api/v2/signals/funding?limit=1";
        apps[i % 2].request(Method::GET, path, &team.key)
    };
    let mut requests = Vec::new();
    for i in 0..30 {
        let body = json!({ "name": format!("Monitor {i}"), "signal_types": ["hiring"] });
        requests.push((
            Kind::Monitor,
            post(i, "/api/v2/monitors", &teams.monitors, body),
        ));
    }
    for i in 0..14 {
        let body = json!({ "endpoint_url": format!("http://127.0.0.1:9/{i}"),
            "event_types": ["acquisition.created"] });
        requests.push((
            Kind::Webhook,
            post(i, "/api/v2/webhooks", &teams.webhooks, body),
        ));
    }
    for i in 0..12 {
        let entries: Vec<String> = (0..100).map(|j| format!("co-{i}-{j}.example")).collect();
        let path = format!("/api/v2/monitors/{}/targets", teams.target_monitors[i % 2]);
        let body = json!({ "targets": entries });
        requests.push((Kind::Targets, post(i, &path, &teams.targets, body)));
    }
    for batch in 0..BATCHES {
        for app in apps {
            let request = app.request(Method::POST, "/admin/v1/signals/funding", ADMIN_TOKEN);
            requests.push((Kind::Ingest, request.json(&batch_records(batch))));
        }
    }
    for i in 0..PAGES {
        requests.push((Kind::Page, page(i, &teams.watching)));
    }
    for i in 0..2 * FRUGAL {
        requests.push((Kind::FrugalPage, page(i, &teams.frugal)));
    }
    for i in 0..JOBS {
        let body =
            json!({ "companies": [{ "website_url": "acme.com" }, { "company_name": "Nobody" }] });
        requests.push((
            Kind::Job,
            post(i, "/api/v2/csv-enrichment", &teams.monitors, body),
        ));
    }
    requests
}

/// Never 21 monitors, 11 webhooks or 1,001 targets, in the answers and in what is stored.
async fn team_limits_held(apps: &[TestApp; 2], teams: &Teams, answers: &Answers) {
    let expected = [
        (Kind::Monitor, 201, 20),
        (Kind::Webhook, 201, 10),
        (Kind::Targets, 200, 10),
    ];
    for (kind, success, successes) in expected {
        for (status, body) in &answers[&kind] {
            assert!(
                *status == success || *status == 400,
                "{kind:?}: {status} {body}"
            );
        }
        assert_eq!(count(&answers[&kind], success), successes, "{kind:?}");
    }
    assert_eq!(
        listed(&apps[1], "/api/v2/monitors", &teams.monitors).await,
        20
    );
    let webhooks = listed(&apps[0], "/api/v2/webhooks?limit=100", &teams.webhooks).await;
    assert_eq!(webhooks, 10);
    let response = apps[1].get("/api/v2/monitors", &teams.targets.key).await;
    let monitors = response.data().as_array().expect("monitors").clone();
    let stored: i64 = monitors
        .iter()
        .map(|m| m["stats"]["targets"].as_i64().expect("target count"))
        .sum();
    assert_eq!(stored, 1000);
}

/// Waits for every acme round to reach the receiver and checks each was one event, answered
/// once, never open twice at once; returns how many were delivered.
async fn every_signal_delivered_once(receiver: &EventReceiver) -> usize {
    let expected: BTreeSet<String> = (0..BATCHES)
        .flat_map(funding_rounds)
        .map(|round| round["signalId"].as_str().expect("id").to_string())
        .collect();
    let events = receiver
        .wait_for_delivered(expected.len(), DELIVERED_WITHIN)
        .await;
    let signals: BTreeSet<String> = events.iter().filter_map(|e| e.signal_id.clone()).collect();
    assert_eq!(
        signals, expected,
        "every accepted signal reached the receiver"
    );
    assert_eq!(
        events.len(),
        expected.len(),
        "one event per signal sent in twice"
    );
    for event in &events {
        assert_eq!(event.most_at_once, 1, "in flight twice at once: {event:?}");
        assert_eq!(event.delivered, 1, "delivered more than once: {event:?}");
    }
    events.len()
}

fn funding_rounds(batch: usize) -> Vec<Value> {
    (0..ROUNDS_PER_BATCH)
        .map(|i| acme_round(&format!("f5ca1e00-0000-4000-8000-{batch:06}{i:06}")))
        .collect()
}

/// A batch as sent in: its acme rounds and a round of a company not yet known, `newco-N.com`.
fn batch_records(batch: usize) -> Value {
    let mut records = funding_rounds(batch);
    records.push(
        json!({ "signalId": format!("f5ca1e00-0000-4000-8000-{batch:06}999999"),
        "companyWebsite": format!("newco-{batch}.com"), "companyName": format!("Newco {batch}"),
        "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed", "amount": 1 }),
    );
    json!(records)
}

type Answers = HashMap<Kind, Vec<(u16, Value)>>;

/// Sends every request at once; returns the answers, `(status, body)`, by kind.
async fn at_once(requests: Vec<(Kind, RequestBuilder)>) -> Answers {
    let mut set = JoinSet::new();
    for (kind, request) in requests {
        set.spawn(async move {
            let response = request.send().await.expect("request reaches the service");
            let status = response.status().as_u16();
            (kind, status, response.json().await.unwrap_or(Value::Null))
        });
    }
    let mut answers = Answers::new();
    for (kind, status, body) in set.join_all().await {
        answers.entry(kind).or_default().push((status, body));
    }
    answers
}

fn count(answers: &[(u16, Value)], status: u16) -> usize {
    answers.iter().filter(|(s, _)| *s == status).count()
}

/// How many items a list answers with.
async fn listed(app: &TestApp, path: &str, team: &Team) -> usize {
    let response = app.get(path, &team.key).await;
    assert_eq!(response.status, 200, "{path}: {:?}", response.body);
    response.data().as_array().expect("a list").len()
}

/// Waits until the balance is `expected`: an attempt is recorded just after it is made.
async fn wait_for_balance(app: &TestApp, team: &Team, expected: i64) {
    let until = std::time::Instant::now() + DELIVERED_WITHIN;
    loop {
        let credits = balance_of(app, team).await;
        if credits == expected {
            return;
        }
        assert!(
            credits > expected,
            "charged twice: {credits}, expected {expected}"
        );
        assert!(
            std::time::Instant::now() < until,
            "the balance stayed at {credits}, expected {expected}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
