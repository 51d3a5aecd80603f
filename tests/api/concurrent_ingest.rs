//! Ingest without a global lock: two API processes on one PostgreSQL database accept the same
//! new companies and funding rounds at the same moment — one names each company by its website
//! and LinkedIn page, the other by its page alone, and the rounds carry no id of their own, so
//! their ids derive from the company each lands on. Each company is created once, each round
//! stored once, and each webhook told of each once. On SQLite, one process takes both streams.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use crate::support::app::ADMIN_TOKEN;
use crate::support::backend::FreshDatabase;
use crate::support::event_receiver::{EventLog, EventReceiver, Reply};
use crate::support::process::{Role, ServerProcess};
use crate::support::{Backend, TestApp};

mod two_processes_ingesting_the_same_new_companies_create_and_announce_each_once {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn on_sqlite() {
        super::create_and_announce_each_once(crate::support::Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::create_and_announce_each_once(crate::support::Backend::postgres()).await
    }
}

/// Settings of every process: loopback receivers, rate limits out of the way.
const SETTINGS: [&str; 4] = [
    "--allow-private-webhooks",
    "true",
    "--rate-limit-per-minute",
    "100000",
];

/// Rounds of traffic, each a batch sent through both processes at once, and new companies (one
/// funding round each) per batch.
const BATCHES: usize = 8;
const COMPANIES: usize = 10;

/// How long the workers may take to deliver everything on a loaded machine.
const DELIVERED_WITHIN: Duration = Duration::from_secs(60);

async fn create_and_announce_each_once(backend: Backend) {
    let services = start(backend).await;
    let (apps, url) = (&services.apps, &services.url);
    let receivers = [
        EventReceiver::start(|_, _| Reply::Ok(Duration::ZERO)).await,
        EventReceiver::start(|_, _| Reply::Ok(Duration::ZERO)).await,
    ];
    let team = apps[0]
        .create_team_with(json!({ "credits": 100_000 }))
        .await;
    for receiver in &receivers {
        let body = json!({ "endpoint_url": receiver.url,
            "event_types": ["funding.created", "new_company.created"] });
        let created = apps[1].post("/api/v2/webhooks", &team.key, body).await;
        assert_eq!(created.status, 201, "{:?}", created.body);
    }

    let mut requests = JoinSet::new();
    for batch in 0..BATCHES {
        for (i, app) in apps.iter().enumerate() {
            let request = app
                .request(Method::POST, "/admin/v1/signals/funding", ADMIN_TOKEN)
                .json(&batch_records(batch, i == 0));
            requests.spawn(async move {
                let response = request.send().await.expect("request reaches the service");
                let status = response.status().as_u16();
                (
                    status,
                    response.json::<Value>().await.unwrap_or(Value::Null),
                )
            });
        }
    }
    let mut stored: BTreeMap<String, usize> = BTreeMap::new();
    for (status, body) in requests.join_all().await {
        assert_eq!(status, 200, "{body}");
        for id in body["data"]["ids"].as_array().expect("ids") {
            *stored
                .entry(id.as_str().expect("id").to_string())
                .or_default() += 1;
        }
    }

    let all = BATCHES * COMPANIES;
    assert_eq!(count(url, "SELECT count(*) FROM companies").await, all);
    let per_page = "SELECT count(*) FROM (SELECT linkedin_key FROM companies \
                    GROUP BY linkedin_key HAVING count(*) = 1) AS once";
    assert_eq!(count(url, per_page).await, all, "one company per page");
    assert_eq!(count(url, "SELECT count(*) FROM signals").await, all);
    assert_eq!(stored.len(), all, "both streams name the same rounds");
    assert!(stored.values().all(|n| *n == 2), "{stored:?}");
    for receiver in &receivers {
        let events = receiver.wait_for_delivered(2 * all, DELIVERED_WITHIN).await;
        told_of_each_once(&events, &stored);
    }
}

/// The services taking the two streams, on one database.
struct Services {
    apps: [TestApp; 2],
    url: String,
    /// Killed before the database is dropped (fields drop in this order).
    _processes: Vec<ServerProcess>,
    _database: Option<FreshDatabase>,
}

async fn start(backend: Backend) -> Services {
    match backend {
        Backend::Sqlite => {
            let app = TestApp::start_with(backend, &SETTINGS).await;
            let other = TestApp::attach(app.base.clone(), &app.database_url);
            let url = app.database_url.clone();
            Services {
                apps: [app, other],
                url,
                _processes: Vec::new(),
                _database: None,
            }
        }
        Backend::Postgres(_) => {
            let database = backend.fresh_database().await;
            let roles = [Role::Api, Role::Api, Role::Worker];
            let processes = ServerProcess::start_together(&database.url, &roles, &SETTINGS).await;
            Services {
                apps: [processes[0].app(), processes[1].app()],
                url: database.url.clone(),
                _processes: processes,
                _database: Some(database),
            }
        }
    }
}

/// A batch of new companies, one funding round each (no round id: it derives from the company).
/// The first stream names each company by website and LinkedIn page, the second by page only.
fn batch_records(batch: usize, with_website: bool) -> Value {
    let records: Vec<Value> = (0..COMPANIES)
        .map(|i| {
            let slug = format!("newco-{batch}-{i}");
            let mut record = json!({
                "companyName": format!("Newco {batch} {i}"),
                "companyLinkedin": format!("https://www.linkedin.com/company/{slug}"),
                "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed", "amount": 1000 + i });
            if with_website {
                record["companyWebsite"] = json!(format!("https://{slug}.com"));
            }
            record
        })
        .collect();
    json!(records)
}

/// One delivered event per stored round and one per new company, none delivered twice.
fn told_of_each_once(events: &[EventLog], stored: &BTreeMap<String, usize>) {
    let rounds: BTreeSet<&str> = stored.keys().map(String::as_str).collect();
    let told: Vec<&str> = events
        .iter()
        .filter_map(|e| e.signal_id.as_deref())
        .filter(|id| rounds.contains(id))
        .collect();
    assert_eq!(told.len(), rounds.len(), "each round announced once");
    assert_eq!(told.into_iter().collect::<BTreeSet<_>>(), rounds);
    assert_eq!(events.len(), 2 * rounds.len(), "a round and a company each");
    for event in events {
        assert_eq!(event.delivered, 1, "delivered more than once: {event:?}");
    }
}

/// A count the database answers.
async fn count(url: &str, sql: &str) -> usize {
    use sqlx::Connection;
    let n: i64 = if url.starts_with("postgres") {
        let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&mut conn)
            .await
            .expect(sql)
    } else {
        let mut conn = sqlx::SqliteConnection::connect(url).await.expect("connect");
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&mut conn)
            .await
            .expect(sql)
    };
    n as usize
}
