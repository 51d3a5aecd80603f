//! Shared steps of the delivery tests: a team watching a company through a monitor whose
//! webhook is a real loopback receiver, and signals arriving for it.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::receiver::{Received, Receiver};
use crate::support::{Backend, Team, TestApp};

/// Settings every delivery test runs with: loopback receivers allowed, quick retries.
pub const FAST: [&str; 6] = [
    "--allow-private-webhooks",
    "true",
    "--retry-schedule",
    "1,1",
    "--webhook-timeout-seconds",
    "2",
];

/// How long a test waits for something the worker should do at once.
pub const SOON: Duration = Duration::from_secs(15);

/// A team whose monitor watches acme.com and posts to a receiver.
pub struct Watching {
    pub app: TestApp,
    pub team: Team,
    pub receiver: Receiver,
    pub monitor_id: String,
    /// The monitor's webhook.
    pub webhook_id: String,
    pub secret: String,
    pub acme: String,
}

impl Watching {
    /// Starts the app with `extra` settings after [`FAST`] and sets up the watch.
    pub async fn start(backend: Backend, extra: &[&str]) -> Watching {
        let receiver = Receiver::start().await;
        let url = receiver.url.clone();
        Watching::posting_to(backend, extra, receiver, &url).await
    }

    /// As [`Watching::start`], but the monitor's webhook posts to `url` (the receiver gets
    /// nothing unless `url` is its own).
    pub async fn posting_to(
        backend: Backend,
        extra: &[&str],
        receiver: Receiver,
        url: &str,
    ) -> Watching {
        let mut args = FAST.to_vec();
        args.extend_from_slice(extra);
        Watching::set_up(backend, &args, receiver, url).await
    }

    /// As [`Watching::start`], with `settings` instead of [`FAST`].
    pub async fn with_settings(backend: Backend, settings: &[&str]) -> Watching {
        let receiver = Receiver::start().await;
        let url = receiver.url.clone();
        Watching::set_up(backend, settings, receiver, &url).await
    }

    async fn set_up(
        backend: Backend,
        settings: &[&str],
        receiver: Receiver,
        url: &str,
    ) -> Watching {
        let app = TestApp::start_with(backend, settings).await;
        Watching::on(app, receiver, url).await
    }

    /// The watch set up through `app` (a service already running, maybe another process),
    /// its monitor's webhook posting to `url`.
    pub async fn on(app: TestApp, receiver: Receiver, url: &str) -> Watching {
        let team = app.create_team().await;
        let acme = app
            .import_companies(json!([{ "name": "Acme", "website": "https://acme.com",
                "linkedinUrl": "https://www.linkedin.com/company/acme", "country": "DE" }]))
            .await
            .remove(0);
        let created = app
            .post(
                "/api/v2/monitors",
                &team.key,
                json!({ "name": "Accounts", "signal_types": ["funding_round", "acquisition", "job_change"],
                    "webhook_url": url }),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let monitor_id = created.data()["id"].as_str().expect("id").to_string();
        let webhook_id = created.data()["webhook"]["id"]
            .as_str()
            .expect("webhook id")
            .to_string();
        let secret = created.data()["webhook"]["secret"]
            .as_str()
            .expect("secret")
            .to_string();
        let added = app
            .add_targets(&team, &monitor_id, json!(["acme.com"]))
            .await;
        assert_eq!(added.status, 200, "{:?}", added.body);
        Watching {
            app,
            team,
            receiver,
            monitor_id,
            webhook_id,
            secret,
            acme,
        }
    }

    /// Ingests signals of `kind` (`funding`, `acquisitions`, …) through the admin API.
    pub async fn ingest(&self, kind: &str, records: Value) -> Value {
        let response = self
            .app
            .admin(
                reqwest::Method::POST,
                &format!("/signals/{kind}"),
                Some(records),
            )
            .await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        response.data().clone()
    }

    /// The team's credit balance.
    pub async fn credits(&self) -> i64 {
        let team = self
            .app
            .admin(
                reqwest::Method::GET,
                &format!("/teams/{}", self.team.id),
                None,
            )
            .await;
        team.data()["credits"].as_i64().expect("credits")
    }

    /// Sets the team's credit balance.
    pub async fn set_credits(&self, credits: i64) {
        let response = self
            .app
            .admin(
                reqwest::Method::PATCH,
                &format!("/teams/{}", self.team.id),
                Some(json!({ "credits": credits })),
            )
            .await;
        assert_eq!(response.status, 200, "{:?}", response.body);
    }

    /// Waits until the webhook's only delivery has status `status` and returns it with its
    /// `attempts`.
    pub async fn wait_for_delivery(&self, status: &str) -> Value {
        let list = format!("/api/v2/webhooks/{}/deliveries", self.webhook_id);
        let until = std::time::Instant::now() + SOON;
        loop {
            let listed = self.app.get(&list, &self.team.key).await;
            let rows = listed.data().as_array().cloned().unwrap_or_default();
            assert!(rows.len() <= 1, "more than one delivery: {rows:?}");
            if let Some(row) = rows.first().filter(|row| row["status"] == status) {
                let path = format!("{list}/{}", row["id"].as_str().expect("id"));
                return self.app.get(&path, &self.team.key).await.data().clone();
            }
            assert!(
                std::time::Instant::now() < until,
                "no {status} delivery within {SOON:?}: {rows:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the credit balance is `expected`.
    pub async fn wait_for_credits(&self, expected: i64) {
        let until = std::time::Instant::now() + SOON;
        loop {
            let credits = self.credits().await;
            if credits == expected {
                return;
            }
            assert!(
                std::time::Instant::now() < until,
                "credits stayed at {credits}, expected {expected}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The response statuses of a delivery's attempts (`None` where no answer came).
pub fn attempt_statuses(delivery: &Value) -> Vec<Option<i64>> {
    delivery["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| a["response_status"].as_i64())
        .collect()
}

/// A funding round of acme.com with this id.
pub fn acme_round(id: &str) -> Value {
    json!({ "signalId": id, "companyWebsite": "acme.com", "occurredAt": "2026-11-20T10:00:00Z",
        "roundType": "Seed", "amount": 2_000_000, "currency": "USD",
        "investors": [{ "name": "Northwind Capital", "type": "vc", "leadInvestor": true }] })
}

/// A funding round of a company nobody watches.
pub fn other_round(id: &str) -> Value {
    json!({ "signalId": id, "companyWebsite": "globex.com", "companyName": "Globex",
        "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed", "amount": 1 })
}

/// True when both signatures of a delivery verify with `secret`.
pub fn signatures_verify(request: &Received, secret: &str) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("key");
    mac.update(&request.body);
    let legacy = hex::encode(mac.finalize().into_bytes());
    let key = STANDARD
        .decode(secret.trim_start_matches("whsec_"))
        .expect("base64 secret");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("key");
    let id = request.header("webhook-id").unwrap_or_default();
    let timestamp = request.header("webhook-timestamp").unwrap_or_default();
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(&request.body);
    let standard = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    request.header("X-Webhook-Signature") == Some(legacy.as_str())
        && request.header("webhook-signature") == Some(standard.as_str())
}

/// Waits `quiet` and asserts the receiver got exactly `n` requests.
pub async fn assert_stays_at(receiver: &Receiver, n: usize, quiet: Duration) {
    tokio::time::sleep(quiet).await;
    assert_eq!(receiver.received().len(), n, "unexpected deliveries");
}
