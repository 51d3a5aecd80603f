//! Scale-out: two API processes and two workers of the real binary, all started at the same
//! moment on one fresh PostgreSQL database (so they race to migrate it), act as one service under
//! concurrent traffic: team limits hold, every delivery is made, none is in flight twice at
//! once, and no credit is charged twice.

use std::collections::BTreeSet;
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
    async fn on_postgres() {
        if let Some(backend) = crate::support::Backend::postgres() {
            super::act_as_one_service(backend).await
        }
    }
}

/// Settings of every process: loopback receivers, quick retries, limits out of the way.
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

/// Ingest batches, each sent through both API processes at once, and funding rounds per batch.
const BATCHES: usize = 6;
const ROUNDS_PER_BATCH: usize = 10;

/// Charged list pages requested while the signals arrive.
const PAGES: usize = 20;

/// CSV enrichment jobs submitted through the API processes, for the workers to share.
const JOBS: usize = 6;

/// The credits of a team that asks for twice as many pages as it can pay for.
const FRUGAL: i64 = 6;

/// How long the workers may take to deliver everything on a loaded machine.
const DELIVERED_WITHIN: Duration = Duration::from_secs(45);

/// Sends every request at once; returns `(status, body)` in the order given.
async fn at_once(requests: Vec<RequestBuilder>) -> Vec<(u16, Value)> {
    let mut set = JoinSet::new();
    for (i, request) in requests.into_iter().enumerate() {
        set.spawn(async move {
            let response = request.send().await.expect("request reaches the service");
            let status = response.status().as_u16();
            let body = response.json().await.unwrap_or(Value::Null);
            (i, status, body)
        });
    }
    let mut answers = set.join_all().await;
    answers.sort_by_key(|(i, _, _)| *i);
    answers.into_iter().map(|(_, s, b)| (s, b)).collect()
}

fn count(answers: &[(u16, Value)], status: u16) -> usize {
    answers.iter().filter(|(s, _)| *s == status).count()
}

/// Everything not `expected` or 400 is a failure of its own.
fn assert_only(answers: &[(u16, Value)], expected: u16, what: &str) {
    for (status, body) in answers {
        assert!(
            *status == expected || *status == 400,
            "{what}: unexpected {status}: {body}"
        );
    }
}

fn post(app: &TestApp, path: &str, team: &Team, body: Value) -> RequestBuilder {
    app.request(Method::POST, path, &team.key).json(&body)
}

fn funding_rounds(batch: usize) -> Vec<Value> {
    (0..ROUNDS_PER_BATCH)
        .map(|i| acme_round(&format!("f5ca1e00-0000-4000-8000-{:06}{i:06}", batch)))
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
    let watching = apps[0].create_team().await;
    let starting_credits = balance_of(&apps[1], &watching).await;
    apps[0]
        .import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let created = apps[1]
        .post(
            "/api/v2/monitors",
            &watching.key,
            json!({ "name": "Acme", "signal_types": ["funding_round"], "webhook_url": receiver.url }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    let added = apps[0]
        .add_targets(&watching, &monitor, json!(["acme.com"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let (monitors, webhooks, targets) = (
        apps[0].create_team().await,
        apps[1].create_team().await,
        apps[0].create_team().await,
    );
    let frugal = apps[1].create_team_with(json!({ "credits": FRUGAL })).await;
    let target_monitors = [
        apps[0].create_monitor(&targets, "One").await,
        apps[1].create_monitor(&targets, "Two").await,
    ];

    let mut requests = Vec::new();
    for i in 0..30 {
        let body = json!({ "name": format!("Monitor {i}"), "signal_types": ["hiring"] });
        requests.push(post(&apps[i % 2], "/api/v2/monitors", &monitors, body));
    }
    for i in 0..14 {
        let body = json!({ "endpoint_url": format!("http://127.0.0.1:9/{i}"),
            "event_types": ["acquisition.created"] });
        requests.push(post(&apps[i % 2], "/api/v2/webhooks", &webhooks, body));
    }
    for i in 0..12 {
        let entries: Vec<String> = (0..100).map(|j| format!("co-{i}-{j}.example")).collect();
        let path = format!("/api/v2/monitors/{}/targets", target_monitors[i % 2]);
        requests.push(post(
            &apps[i % 2],
            &path,
            &targets,
            json!({ "targets": entries }),
        ));
    }
    for batch in 0..BATCHES {
        for app in &apps {
            let request = app.request(Method::POST, "/admin/v1/signals/funding", ADMIN_TOKEN);
            requests.push(request.json(&batch_records(batch)));
        }
    }
    for i in 0..PAGES {
        let path = "/api/v2/signals/funding?limit=1";
        requests.push(apps[i % 2].request(Method::GET, path, &watching.key));
    }
    for i in 0..2 * FRUGAL {
        let path = "/api/v2/signals/funding?limit=1";
        requests.push(apps[i as usize % 2].request(Method::GET, path, &frugal.key));
    }
    for i in 0..JOBS {
        let body =
            json!({ "companies": [{ "website_url": "acme.com" }, { "company_name": "Nobody" }] });
        requests.push(post(
            &apps[i % 2],
            "/api/v2/csv-enrichment",
            &monitors,
            body,
        ));
    }
    let mut answers = at_once(requests).await;
    let jobs = answers.split_off(answers.len() - JOBS);
    let frugal_pages = answers.split_off(answers.len() - 2 * FRUGAL as usize);
    let pages = answers.split_off(answers.len() - PAGES);
    let ingests = answers.split_off(answers.len() - 2 * BATCHES);
    let target_adds = answers.split_off(answers.len() - 12);
    let webhook_creations = answers.split_off(answers.len() - 14);
    let monitor_creations = answers;

    assert_only(&monitor_creations, 201, "monitor creation");
    assert_eq!(count(&monitor_creations, 201), 20, "never 21 monitors");
    assert_eq!(listed(&apps[1], "/api/v2/monitors", &monitors).await, 20);
    assert_only(&webhook_creations, 201, "webhook creation");
    assert_eq!(count(&webhook_creations, 201), 10, "never 11 webhooks");
    assert_eq!(
        listed(&apps[0], "/api/v2/webhooks?limit=100", &webhooks).await,
        10
    );
    assert_only(&target_adds, 200, "adding targets");
    assert_eq!(count(&target_adds, 200), 10, "never 1,001 targets");
    assert_eq!(team_targets(&apps[1], &targets).await, 1000);
    assert_eq!(count(&ingests, 200), ingests.len(), "ingests: {ingests:?}");
    for batch in 0..BATCHES {
        let path = format!("/api/v2/companies?domain=newco-{batch}.com");
        let found = listed(&apps[batch % 2], &path, &monitors).await;
        assert_eq!(found, 1, "one company created for newco-{batch}.com");
    }
    assert_eq!(count(&pages, 200), PAGES, "pages: {pages:?}");
    assert_eq!(
        count(&frugal_pages, 200),
        FRUGAL as usize,
        "{frugal_pages:?}"
    );
    assert_eq!(
        count(&frugal_pages, 402),
        FRUGAL as usize,
        "{frugal_pages:?}"
    );
    assert_eq!(balance_of(&apps[0], &frugal).await, 0);

    for (status, body) in &jobs {
        assert_eq!(*status, 200, "{body}");
        let id = body["data"]["jobId"].as_str().expect("jobId");
        let done = wait_until_done(&apps[1], &monitors, id).await;
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(done["progress"], json!({ "processed": 2, "total": 2 }));
        let summary = &done["summary"];
        assert_eq!(
            (&summary["matched"], &summary["unmatched"]),
            (&json!(1), &json!(1))
        );
    }

    let expected: BTreeSet<String> = (0..BATCHES)
        .flat_map(funding_rounds)
        .map(|round| round["signalId"].as_str().expect("id").to_string())
        .collect();
    let events = receiver
        .wait_for_delivered(expected.len(), DELIVERED_WITHIN)
        .await;
    let delivered: BTreeSet<String> = events
        .iter()
        .filter(|e| e.delivered > 0)
        .filter_map(|e| e.signal_id.clone())
        .collect();
    assert_eq!(
        delivered, expected,
        "every accepted signal reached the receiver"
    );
    for event in &events {
        assert_eq!(event.most_at_once, 1, "in flight twice at once: {event:?}");
        assert_eq!(event.delivered, 1, "delivered more than once: {event:?}");
    }
    let charged = (expected.len() + PAGES) as i64;
    wait_for_balance(&apps[0], &watching, starting_credits - charged).await;
    for process in &mut processes {
        assert!(
            process.is_running(),
            "{:?} crashed:\n{}",
            process.role,
            process.log()
        );
    }
}

/// How many items a list answers with.
async fn listed(app: &TestApp, path: &str, team: &Team) -> usize {
    let response = app.get(path, &team.key).await;
    assert_eq!(response.status, 200, "{path}: {:?}", response.body);
    response.data().as_array().expect("a list").len()
}

/// The team's targets over all of its monitors.
async fn team_targets(app: &TestApp, team: &Team) -> i64 {
    let response = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    let monitors = response.data().as_array().expect("monitors").clone();
    monitors
        .iter()
        .map(|m| m["stats"]["targets"].as_i64().expect("target count"))
        .sum()
}

/// Waits until the balance is `expected`, since an attempt is recorded just after it is made.
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
