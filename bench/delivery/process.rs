//! `signalwatch serve` processes of the delivery benchmark (all roles in one, or `api` and
//! `worker` apart), the admin calls that set a run up, and the database's own count of
//! deliveries recorded done.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use sqlx::Connection;
use tokio::process::{Child, Command};

/// Admin token of the benchmark servers (loopback only, process lifetime only).
pub const ADMIN_TOKEN: &str = "bench-delivery-admin-token";
const UNLIMITED_RATE: i64 = 1_000_000_000;

/// What every process of a run shares.
#[derive(Debug, Clone)]
pub struct Launch {
    pub signalwatch: PathBuf,
    pub database_url: String,
    /// Logs and mail go here.
    pub dir: PathBuf,
}

/// One running `signalwatch serve`.
pub struct Proc {
    child: Child,
    /// `http://127.0.0.1:port` when the process serves HTTP.
    pub base: Option<String>,
}

impl Launch {
    /// Starts `serve --role role` and, when it serves HTTP, waits until `/health` answers.
    pub async fn start(&self, role: &str, name: &str) -> anyhow::Result<Proc> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(format!("{name}.log")))?;
        let child = Command::new(&self.signalwatch)
            .arg("serve")
            .args(["--role", role, "--listen", &format!("127.0.0.1:{port}")])
            .args(["--database-url", &self.database_url])
            .args(["--admin-token", ADMIN_TOKEN])
            .args(["--rate-limit-per-minute", &UNLIMITED_RATE.to_string()])
            .arg("--mail-dir")
            .arg(self.dir.join("mail"))
            // Digests would compete for the database; one a day keeps them out of the figures.
            .args(["--email-digest-seconds", "86400", "--log", "warn"])
            // Targets of made-up domains must not be looked up on the internet.
            .args(["--research-fetch", "false"])
            .env("SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS", "true")
            .env_remove("SIGNALWATCH_DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .context("starting signalwatch serve")?;
        let mut proc = Proc { child, base: None };
        if role != "worker" {
            let base = format!("http://127.0.0.1:{port}");
            proc.wait_healthy(&base).await?;
            proc.base = Some(base);
        }
        Ok(proc)
    }
}

impl Proc {
    /// The process id, while the process runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    async fn wait_healthy(&mut self, base: &str) -> anyhow::Result<()> {
        let client = reqwest::Client::builder().no_proxy().build()?;
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            if let Some(status) = self.child.try_wait()? {
                bail!("signalwatch serve exited at start: {status}");
            }
            let health = client.get(format!("{base}/health")).send().await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        bail!("signalwatch serve did not answer /health within 60 s")
    }

    /// SIGKILL, and waits for the process to be gone.
    pub async fn kill(mut self) -> anyhow::Result<()> {
        self.child.kill().await?;
        Ok(())
    }

    /// SIGTERM (a clean stop), then SIGKILL after 30 s.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        if let Some(pid) = self.child.id() {
            let _ = Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .await;
        }
        if tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// Admin and team calls against one API process.
#[derive(Clone)]
pub struct Api {
    pub client: reqwest::Client,
    pub base: String,
}

impl Api {
    pub fn new(base: &str) -> anyhow::Result<Api> {
        Api::with_timeout(base, Duration::from_secs(120))
    }

    /// An API client whose calls give up after `timeout`.
    pub fn with_timeout(base: &str, timeout: Duration) -> anyhow::Result<Api> {
        Ok(Api {
            client: reqwest::Client::builder()
                .no_proxy()
                .timeout(timeout)
                .build()?,
            base: base.to_string(),
        })
    }

    /// A call that must succeed; returns the JSON answer.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Value> {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            bail!("{path} answered {status}: {body}");
        }
        Ok(body)
    }

    /// Stores the company the benchmark's funding rounds name ([`round`]), so that the paced
    /// phases measure signals alone: otherwise the first round sent to each API process creates
    /// it, both at the same instant, and one of them runs its first group again after the
    /// other's commit.
    pub async fn benchmark_company(&self) -> anyhow::Result<()> {
        let answer = self
            .call(
                reqwest::Method::POST,
                "/admin/v1/companies",
                ADMIN_TOKEN,
                Some(json!([{ "name": "BenchCo", "website": "https://benchco.example" }])),
            )
            .await?;
        anyhow::ensure!(answer["success"] == true, "company not stored: {answer}");
        Ok(())
    }

    /// A team with `credits` and one standalone `funding.created` webhook per URL; returns the
    /// team id.
    pub async fn team_with_webhooks(
        &self,
        credits: i64,
        urls: &[String],
    ) -> anyhow::Result<String> {
        let team = self
            .call(
                reqwest::Method::POST,
                "/admin/v1/teams",
                ADMIN_TOKEN,
                Some(json!({
                "name": "bench-delivery", "owner_email": "bench@signalwatch.local",
                "credits": credits, "rate_limit_per_minute": UNLIMITED_RATE })),
            )
            .await?;
        let key = team["data"]["api_key"].as_str().context("api_key")?;
        for url in urls {
            self.call(
                reqwest::Method::POST,
                "/api/v2/webhooks",
                key,
                Some(json!({
                "endpoint_url": url, "event_types": ["funding.created"] })),
            )
            .await?;
        }
        Ok(team["data"]["team_id"]
            .as_str()
            .context("team_id")?
            .to_string())
    }

    /// Sets a team's credits.
    pub async fn set_credits(&self, team_id: &str, credits: i64) -> anyhow::Result<()> {
        let path = format!("/admin/v1/teams/{team_id}");
        self.call(
            reqwest::Method::PATCH,
            &path,
            ADMIN_TOKEN,
            Some(json!({ "credits": credits })),
        )
        .await
        .map(|_| ())
    }

    /// A team's credits.
    pub async fn credits(&self, team_id: &str) -> anyhow::Result<i64> {
        let path = format!("/admin/v1/teams/{team_id}");
        let team = self
            .call(reqwest::Method::GET, &path, ADMIN_TOKEN, None)
            .await?;
        team["data"]["credits"].as_i64().context("credits")
    }

    /// Ingests funding rounds with these signal ids; `Ok(true)` when all were inserted.
    pub async fn ingest(&self, ids: &[String]) -> anyhow::Result<bool> {
        let records: Vec<Value> = ids.iter().map(|id| round(id)).collect();
        let answer = self
            .call(
                reqwest::Method::POST,
                "/admin/v1/signals/funding",
                ADMIN_TOKEN,
                Some(Value::Array(records)),
            )
            .await?;
        Ok(answer["data"]["inserted"].as_u64() == Some(ids.len() as u64))
    }
}

/// A funding round of the benchmark company.
fn round(id: &str) -> Value {
    json!({ "signalId": id, "companyWebsite": "benchco.example", "companyName": "BenchCo",
        "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed", "amount": 1_000_000,
        "currency": "USD" })
}

/// Deliveries the database holds as `done`: what was delivered durably.
pub async fn done_deliveries(database_url: &str) -> anyhow::Result<i64> {
    count(
        database_url,
        "SELECT COUNT(*) FROM deliveries WHERE status = 'done'",
    )
    .await
}

/// Deliveries still `pending` (due, leased or held): a count off a partial index of pending
/// rows, which shrinks as a backlog drains, where counting the done rows would read a growing
/// table each time and take the database's CPU from the drain being measured.
pub async fn pending_deliveries(database_url: &str) -> anyhow::Result<i64> {
    count(
        database_url,
        "SELECT COUNT(*) FROM deliveries WHERE status = 'pending'",
    )
    .await
}

/// Waits until the started processes have finished starting: on PostgreSQL until `deliverers`
/// sessions listen for the announcements of queued deliveries (a delivering process's last step
/// of its start, after its connections have opened), then a second more. A phase measured while
/// workers still start (each opening connections with a slow TLS handshake) measures their start
/// too. SQLite processes (one, serving HTTP) are ready when `/health` answers.
pub async fn wait_until_started(database_url: &str, deliverers: usize) -> anyhow::Result<()> {
    if database_url.starts_with("sqlite:") {
        return Ok(());
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut conn = sqlx::PgConnection::connect(database_url).await?;
    loop {
        let listening: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity \
             WHERE datname = current_database() AND query LIKE 'LISTEN %'",
        )
        .fetch_one(&mut conn)
        .await?;
        if listening as usize >= deliverers {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "{listening} of {deliverers} delivering processes listen after 60 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    conn.close().await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(())
}

async fn count(database_url: &str, sql: &'static str) -> anyhow::Result<i64> {
    if database_url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(database_url).await?;
        let n = sqlx::query_scalar(sql).fetch_one(&mut conn).await?;
        conn.close().await?;
        Ok(n)
    } else {
        let mut conn = sqlx::PgConnection::connect(database_url).await?;
        let n = sqlx::query_scalar(sql).fetch_one(&mut conn).await?;
        conn.close().await?;
        Ok(n)
    }
}

/// Fresh signal ids.
pub fn new_ids(n: usize) -> Vec<String> {
    (0..n).map(|_| uuid::Uuid::new_v4().to_string()).collect()
}

/// The directory of a run's logs.
pub fn run_dir(out: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let dir = out.join(format!("delivery-{name}"));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
