//! Kill -9 of the real `signalwatch serve` in the middle of a delivery run, then a restart on the
//! same database: every accepted signal is delivered (a repeat carries the same event id), each
//! delivered event is charged once, and what was in flight goes out again within 30 s of the
//! restart.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::process::{Child, Command};

use crate::delivery_support::SOON;
use crate::each_backend;
use crate::support::Backend;
use crate::support::receiver::{Answer, Receiver};

each_backend!(
    a_server_killed_mid_delivery_delivers_every_accepted_signal_after_a_restart_charging_each_once,
);

const ADMIN_TOKEN: &str = "crash-test-admin-token";

/// Deliveries in flight at a crash are attempted again within 30 s of the restart.
const REDELIVERY: Duration = Duration::from_secs(30);

/// The credits a new team starts with.
const CREDITS: i64 = 100_000;

/// `signalwatch serve` as a child process, on a free loopback port.
struct Served {
    child: Child,
    base: String,
    client: reqwest::Client,
}

impl Served {
    /// Starts the binary on `database_url` with the default lease and retry settings, and
    /// waits until it answers `/health`.
    async fn start(database_url: &str, dir: &Path) -> Served {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = std::fs::File::create(dir.join(format!("serve-{port}.log"))).expect("log");
        let child = Command::new(env!("CARGO_BIN_EXE_signalwatch"))
            .arg("serve")
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(["--database-url", database_url, "--admin-token", ADMIN_TOKEN])
            .arg("--mail-dir")
            .arg(dir.join("mail"))
            .args(["--log", "warn"])
            .env("SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS", "true")
            .env_remove("SIGNALWATCH_DATABASE_URL")
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .expect("the signalwatch binary starts");
        let mut served = Served {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        };
        served.wait_healthy().await;
        served
    }

    async fn wait_healthy(&mut self) {
        let until = Instant::now() + SOON;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("signalwatch serve exited at start: {status}");
            }
            let health = self
                .client
                .get(format!("{}/health", self.base))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return;
            }
            assert!(
                Instant::now() < until,
                "no answer on /health within {SOON:?}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// SIGKILL: no shutdown, no lease released, whatever was in flight stays in flight.
    async fn kill(mut self) {
        self.child.kill().await.expect("SIGKILL");
    }

    async fn call(&self, method: reqwest::Method, path: &str, key: &str, body: Value) -> Value {
        let response = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(key)
            .json(&body)
            .send()
            .await
            .expect("the server answers");
        assert!(
            response.status().is_success(),
            "{path}: {}",
            response.status()
        );
        response.json().await.expect("JSON")
    }

    /// A team with a standalone webhook of funding rounds posting to `url`; returns its id.
    async fn team_with_webhook(&self, url: &str) -> String {
        let post = reqwest::Method::POST;
        let team = self
            .call(
                post.clone(),
                "/admin/v1/teams",
                ADMIN_TOKEN,
                json!({ "name": "Crash", "owner_email": "crash@example.com", "credits": CREDITS }),
            )
            .await;
        let key = team["data"]["api_key"].as_str().expect("api_key");
        self.call(
            post,
            "/api/v2/webhooks",
            key,
            json!({ "endpoint_url": url, "event_types": ["funding.created"] }),
        )
        .await;
        team["data"]["team_id"]
            .as_str()
            .expect("team_id")
            .to_string()
    }

    async fn credits(&self, team_id: &str) -> i64 {
        let path = format!("/admin/v1/teams/{team_id}");
        let team = self
            .call(reqwest::Method::GET, &path, ADMIN_TOKEN, Value::Null)
            .await;
        team["data"]["credits"].as_i64().expect("credits")
    }
}

/// A funding round of Acme (created with the first one).
fn round(id: &str) -> Value {
    json!({ "signalId": id, "companyWebsite": "acme.com", "companyName": "Acme",
        "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed", "amount": 1_000_000 })
}

/// Ingests one round per request until a request fails (the server was killed); returns the
/// signal ids whose ingest was answered 200 (accepted).
async fn ingest_until_killed(base: String) -> Vec<String> {
    let client = reqwest::Client::new();
    let mut accepted = Vec::new();
    for i in 0.. {
        let id = format!("f4000000-0000-4000-8000-{i:012}");
        let sent = client
            .post(format!("{base}/admin/v1/signals/funding"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!([round(&id)]))
            .send()
            .await;
        match sent {
            Ok(response) if response.status().is_success() => {
                let Ok(body) = response.json::<Value>().await else {
                    break;
                };
                assert_eq!(body["data"]["inserted"], 1, "{body}");
                accepted.push(id);
            }
            _ => break,
        }
    }
    accepted
}

/// Signal id → the event ids it arrived with, counting only requests the receiver answered
/// (an attempt cut off by the kill is not a delivery).
fn events_by_signal(receiver: &Receiver) -> HashMap<String, HashSet<String>> {
    let mut by_signal: HashMap<String, HashSet<String>> = HashMap::new();
    for request in receiver.received().into_iter().filter(|r| r.answered) {
        let body = request.json();
        let signal = body["data"]["signal"]["id"].as_str().unwrap_or_default();
        let event = body["event_id"].as_str().unwrap_or_default();
        by_signal
            .entry(signal.to_string())
            .or_default()
            .insert(event.to_string());
    }
    by_signal
}

/// Waits until every signal of `accepted` has arrived; panics with the missing ones at `until`.
async fn wait_until_delivered(receiver: &Receiver, accepted: &[String], until: Instant) {
    loop {
        let arrived = events_by_signal(receiver);
        let missing: Vec<&String> = accepted
            .iter()
            .filter(|id| !arrived.contains_key(*id))
            .collect();
        if missing.is_empty() {
            return;
        }
        assert!(
            Instant::now() < until,
            "{} accepted signal(s) never arrived: {missing:?}",
            missing.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn a_server_killed_mid_delivery_delivers_every_accepted_signal_after_a_restart_charging_each_once(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let receiver = Receiver::start().await;
    // Slow answers keep a wave of attempts in flight when the kill comes.
    receiver.always(Answer::Slow(Duration::from_millis(300), 200));
    let server = Served::start(&database.url, dir.path()).await;
    let team_id = server.team_with_webhook(&receiver.url).await;

    let ingesting = tokio::spawn(ingest_until_killed(server.base.clone()));
    // The first wave has been answered and recorded; a later one is waiting for its answers.
    receiver.wait_for(40, SOON).await;
    server.kill().await;
    let accepted = ingesting.await.expect("the ingesting task");
    assert!(
        !accepted.is_empty(),
        "no signal was accepted before the kill"
    );

    let restarted = Instant::now();
    let server = Served::start(&database.url, dir.path()).await;
    wait_until_delivered(&receiver, &accepted, restarted + REDELIVERY).await;

    for (signal, events) in &events_by_signal(&receiver) {
        assert_eq!(
            events.len(),
            1,
            "{signal} arrived as different events: {events:?}"
        );
    }
    let until = restarted + REDELIVERY + SOON;
    assert_each_delivered_event_charged_once(&server, &team_id, &receiver, until).await;
}

/// Waits until the credits spent equal the distinct events delivered (also those of ingests the
/// kill cut off after their commit, which may arrive too). Answers the kill kept from being
/// recorded are sent again once their lease runs out, and charged then.
async fn assert_each_delivered_event_charged_once(
    server: &Served,
    team_id: &str,
    receiver: &Receiver,
    until: Instant,
) {
    loop {
        let delivered = events_by_signal(receiver).len() as i64;
        let spent = CREDITS - server.credits(team_id).await;
        if spent == delivered {
            return;
        }
        assert!(
            Instant::now() < until,
            "{spent} credit(s) spent for {delivered} delivered event(s)"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
