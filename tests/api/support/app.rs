//! `TestApp`: one running service with its own database, an admin client and request helpers.

use clap::Parser;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::backend::{Backend, FreshDatabase};
use signalwatch::app::Application;
use signalwatch::config::Config;
use signalwatch::domain::time::Clock;

/// Admin token every test app is started with.
pub const ADMIN_TOKEN: &str = "test-admin-token";

#[derive(Parser)]
struct ConfigOnly {
    #[command(flatten)]
    config: Config,
}

/// A running service under test. Stops when dropped.
pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub database_url: String,
    /// The service's clock: `clock.advance(ms)` moves its time forward.
    pub clock: Clock,
    shutdown: CancellationToken,
    /// The database this app created and drops; `None` for an app started beside another.
    _database: Option<FreshDatabase>,
    _mail: tempfile::TempDir,
}

/// A team created through the admin API, with its owner's key.
#[derive(Debug, Clone)]
pub struct Team {
    pub id: String,
    pub user_id: String,
    pub key: String,
}

/// A response read whole: status, headers and JSON body (`Value::Null` when not JSON).
#[derive(Debug)]
pub struct TestResponse {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl TestResponse {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// `body.data`.
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }

    /// `body.error`, for asserting on messages.
    pub fn error(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }
}

impl TestApp {
    /// Starts the service on `backend` with test defaults.
    pub async fn start(backend: Backend) -> TestApp {
        TestApp::start_with(backend, &[]).await
    }

    /// Starts the service with extra command-line settings, e.g. `["--rate-limit-per-minute", "5"]`.
    pub async fn start_with(backend: Backend, extra: &[&str]) -> TestApp {
        TestApp::launch(backend, Some(ADMIN_TOKEN), extra).await
    }

    /// Starts the service with no admin token configured, so its admin API answers 404.
    pub async fn start_without_admin(backend: Backend) -> TestApp {
        TestApp::launch(backend, None, &[]).await
    }

    async fn launch(backend: Backend, admin_token: Option<&str>, extra: &[&str]) -> TestApp {
        let database = backend.fresh_database().await;
        let url = database.url.clone();
        TestApp::launch_on(&url, Some(database), admin_token, extra).await
    }

    /// Starts a second service on this one's database (another process of a scale-out), with
    /// the same admin token and `extra` settings.
    pub async fn start_beside(&self, extra: &[&str]) -> TestApp {
        TestApp::launch_on(&self.database_url, None, Some(ADMIN_TOKEN), extra).await
    }

    /// A client of a service running elsewhere (another process) at `base` on `database_url`;
    /// dropping it leaves that service running. Its `clock` is not that service's.
    pub fn attach(base: String, database_url: &str) -> TestApp {
        TestApp {
            base,
            client: reqwest::Client::new(),
            database_url: database_url.to_string(),
            clock: Clock::default(),
            shutdown: CancellationToken::new(),
            _database: None,
            _mail: tempfile::tempdir().expect("mail dir"),
        }
    }

    /// A service on an existing database (migrated when it is not yet), with the admin API.
    pub async fn start_on(database_url: &str) -> TestApp {
        TestApp::launch_on(database_url, None, Some(ADMIN_TOKEN), &[]).await
    }

    async fn launch_on(
        url: &str,
        database: Option<FreshDatabase>,
        admin_token: Option<&str>,
        extra: &[&str],
    ) -> TestApp {
        // E-mail digests go to a directory of this test's own unless the test names one.
        let mail = tempfile::tempdir().expect("mail dir");
        let mail_dir = mail.path().display().to_string();
        let mut args = vec![
            "signalwatch",
            "--listen",
            "127.0.0.1:0",
            "--database-url",
            url,
            "--log",
            "warn",
        ];
        if !extra.contains(&"--mail-dir") {
            args.extend_from_slice(&["--mail-dir", &mail_dir]);
        }
        for (flag, value) in super::sources::OFFLINE_SOURCES {
            if !extra.contains(&flag) {
                args.extend_from_slice(&[flag, value]);
            }
        }
        if let Some(token) = admin_token {
            args.extend_from_slice(&["--admin-token", token]);
        }
        args.extend_from_slice(extra);
        let config = ConfigOnly::try_parse_from(args)
            .expect("test configuration")
            .config;
        let app = Application::build(config).await.expect("service starts");
        let addr = app.local_addr().expect("listening");
        let clock = app.clock();
        let shutdown = CancellationToken::new();
        tokio::spawn(app.run(shutdown.clone()));
        TestApp {
            base: format!("http://{addr}"),
            client: reqwest::Client::new(),
            database_url: url.to_string(),
            clock,
            shutdown,
            _database: database,
            _mail: mail,
        }
    }

    /// The directory this app writes e-mails into (unless the test named another).
    pub fn mail_dir(&self) -> &std::path::Path {
        self._mail.path()
    }

    /// Sends a request and reads the whole answer.
    pub async fn send(&self, request: reqwest::RequestBuilder) -> TestResponse {
        let response = request.send().await.expect("request reaches the service");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.expect("body");
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        TestResponse {
            status,
            headers,
            body,
        }
    }

    /// A request to `path` with a team key.
    pub fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
    ) -> reqwest::RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(key)
    }

    /// GET with a team key.
    pub async fn get(&self, path: &str, key: &str) -> TestResponse {
        self.send(self.request(reqwest::Method::GET, path, key))
            .await
    }

    /// DELETE with a team key.
    pub async fn delete(&self, path: &str, key: &str) -> TestResponse {
        self.send(self.request(reqwest::Method::DELETE, path, key))
            .await
    }

    /// POST a JSON body with a team key.
    pub async fn post(&self, path: &str, key: &str, body: Value) -> TestResponse {
        self.send(self.request(reqwest::Method::POST, path, key).json(&body))
            .await
    }

    /// PUT a JSON body with a team key.
    pub async fn put(&self, path: &str, key: &str, body: Value) -> TestResponse {
        self.send(self.request(reqwest::Method::PUT, path, key).json(&body))
            .await
    }

    /// The service's Prometheus metrics (`GET /metrics`) as text.
    pub async fn metrics(&self) -> String {
        self.client
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .expect("metrics answer")
            .text()
            .await
            .expect("metrics text")
    }

    /// An admin API call with the admin token.
    pub async fn admin(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> TestResponse {
        let mut request = self.request(method, &format!("/admin/v1{path}"), ADMIN_TOKEN);
        if let Some(body) = body {
            request = request.json(&body);
        }
        self.send(request).await
    }

    /// Creates a team with the given starting values merged over the defaults.
    pub async fn create_team_with(&self, overrides: Value) -> Team {
        let mut body = json!({ "name": "Test team", "owner_email": "owner@example.com" });
        if let (Some(target), Some(extra)) = (body.as_object_mut(), overrides.as_object()) {
            target.extend(extra.clone());
        }
        let response = self
            .admin(reqwest::Method::POST, "/teams", Some(body))
            .await;
        assert_eq!(response.status, 201, "team creation: {:?}", response.body);
        let data = response.data();
        Team {
            id: data["team_id"].as_str().expect("team_id").to_string(),
            user_id: data["user_id"].as_str().expect("user_id").to_string(),
            key: data["api_key"].as_str().expect("api_key").to_string(),
        }
    }

    /// Creates an active team with default credits.
    pub async fn create_team(&self) -> Team {
        self.create_team_with(json!({})).await
    }

    /// Imports companies through the admin API and returns their ids.
    pub async fn import_companies(&self, companies: Value) -> Vec<String> {
        let response = self
            .admin(reqwest::Method::POST, "/companies", Some(companies))
            .await;
        assert_eq!(response.status, 200, "company import: {:?}", response.body);
        ids_of(&response)
    }

    /// Imports people through the admin API and returns their ids.
    pub async fn import_people(&self, people: Value) -> Vec<String> {
        let response = self
            .admin(reqwest::Method::POST, "/people", Some(people))
            .await;
        assert_eq!(response.status, 200, "people import: {:?}", response.body);
        ids_of(&response)
    }

    /// Creates a monitor (no webhook) and returns its id.
    pub async fn create_monitor(&self, team: &Team, name: &str) -> String {
        let response = self
            .post(
                "/api/v2/monitors",
                &team.key,
                json!({ "name": name, "signal_types": ["funding_round", "hiring"] }),
            )
            .await;
        assert_eq!(
            response.status, 201,
            "monitor creation: {:?}",
            response.body
        );
        response.data()["id"].as_str().expect("id").to_string()
    }

    /// Adds targets to a monitor and returns the whole answer.
    pub async fn add_targets(&self, team: &Team, monitor_id: &str, targets: Value) -> TestResponse {
        self.post(
            &format!("/api/v2/monitors/{monitor_id}/targets"),
            &team.key,
            json!({ "targets": targets }),
        )
        .await
    }
}

fn ids_of(response: &TestResponse) -> Vec<String> {
    response.data()["ids"]
        .as_array()
        .expect("ids")
        .iter()
        .map(|id| id.as_str().expect("id").to_string())
        .collect()
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}
