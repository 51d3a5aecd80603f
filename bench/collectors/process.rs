//! The `signalwatch serve` process of the collectors benchmark: started on the copied database
//! with every source pointed at the harness, the collectors off (passes are run through the
//! admin API), and the politeness towards the sources lifted or real. Its CPU time is read from
//! `/proc`, and where the collectors spent their time from `/metrics`.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::Value;
use tokio::process::{Child, Command};

use crate::delivery::process::Api;

/// Admin token of the benchmark server (loopback only, process lifetime only).
pub const ADMIN_TOKEN: &str = "bench-collectors-admin-token";
/// Requests a minute no limit reaches.
pub const UNLIMITED_RATE: i64 = 1_000_000_000;
/// The `User-Agent` the local EDGAR is asked with, as the SEC requires one.
const SEC_USER_AGENT: &str = "signalwatch-bench bench@signalwatch.local";

/// The politeness towards the sources a server runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throttle {
    /// `--unthrottled-sources`: no spacing between requests to a host (a benchmark setting).
    Lifted,
    /// The defaults: 2 requests a second per board host, 8 a second to EDGAR.
    Real,
}

/// A running server.
pub struct Server {
    child: Child,
    pid: u32,
    api: Api,
    ticks_per_second: f64,
}

impl Server {
    /// Starts `serve` on `database_url`, logging to `<logs>/<name>.log`.
    pub async fn start(
        signalwatch: &Path,
        database_url: &str,
        logs: &Path,
        name: &str,
        throttle: Throttle,
        boards_base: &str,
        edgar_base: &str,
    ) -> anyhow::Result<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let log = std::fs::File::create(logs.join(format!("{name}.log")))?;
        let mut command = Command::new(signalwatch);
        command
            .arg("serve")
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(["--database-url", database_url])
            .args(["--admin-token", ADMIN_TOKEN])
            .args(["--rate-limit-per-minute", &UNLIMITED_RATE.to_string()])
            .arg("--mail-dir")
            .arg(logs.join("mail"))
            .args(["--email-digest-seconds", "86400", "--log", "info"])
            .args(["--research-fetch", "false", "--collectors", ""])
            .args(["--greenhouse-url", boards_base])
            .args(["--lever-url", boards_base])
            .args(["--ashby-url", boards_base])
            .args(["--sec-url", edgar_base, "--sec-user-agent", SEC_USER_AGENT])
            // The receiver and the sources are on loopback.
            .args(["--allow-private-webhooks", "true"])
            .env_remove("SIGNALWATCH_DATABASE_URL");
        if throttle == Throttle::Lifted {
            command.args(["--unthrottled-sources", "true"]);
        }
        let child = command
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .context("starting signalwatch serve")?;
        let pid = child.id().context("server pid")?;
        let mut server = Server {
            child,
            pid,
            api: Api::with_timeout(
                &format!("http://127.0.0.1:{port}"),
                Duration::from_secs(3_600),
            )?,
            ticks_per_second: clock_ticks()?,
        };
        server.wait_healthy().await?;
        Ok(server)
    }

    async fn wait_healthy(&mut self) -> anyhow::Result<()> {
        let until = Instant::now() + Duration::from_secs(300);
        while Instant::now() < until {
            if let Some(status) = self.child.try_wait()? {
                bail!("signalwatch serve exited at start: {status}");
            }
            let health = self
                .api
                .client
                .get(format!("{}/health", self.api.base))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("signalwatch serve did not answer /health within 300 s")
    }

    /// A call that must succeed; returns the JSON answer.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Value> {
        self.api.call(method, path, key, body).await
    }

    /// Runs one pass of `collector` now; its record when the pass has ended.
    pub async fn run_collector(&self, collector: &str) -> anyhow::Result<Value> {
        let path = format!("/admin/v1/collectors/{collector}/run");
        let answer = self
            .call(reqwest::Method::POST, &path, ADMIN_TOKEN, None)
            .await?;
        Ok(answer["data"].clone())
    }

    /// CPU time (user + system) the server has used so far, in seconds.
    pub fn cpu_seconds(&self) -> anyhow::Result<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid))?;
        // The fields after the command name (which may hold spaces) in parentheses.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .context("unreadable /proc stat")?
            .1
            .split_whitespace()
            .collect();
        // utime and stime are the 14th and 15th fields; the state, the 3rd, is fields[0].
        let ticks = |i: usize| -> anyhow::Result<f64> {
            Ok(fields.get(i).context("short /proc stat")?.parse::<f64>()?)
        };
        Ok((ticks(11)? + ticks(12)?) / self.ticks_per_second)
    }

    /// Seconds `collector` has spent in each stage so far, from
    /// `signalwatch_collector_stage_seconds` on `/metrics`.
    pub async fn stage_seconds(&self, collector: &str) -> anyhow::Result<Vec<(String, f64)>> {
        let text = self
            .api
            .client
            .get(format!("{}/metrics", self.api.base))
            .send()
            .await?
            .text()
            .await?;
        let mut stages = Vec::new();
        let wanted = format!("collector=\"{collector}\"");
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("signalwatch_collector_stage_seconds_sum{") else {
                continue;
            };
            let Some((labels, value)) = rest.split_once("} ") else {
                continue;
            };
            if !labels.split(',').any(|l| l == wanted) {
                continue;
            }
            let stage = labels
                .split(',')
                .find_map(|l| l.strip_prefix("stage=\""))
                .map(|s| s.trim_end_matches('"').to_string())
                .unwrap_or_default();
            stages.push((stage, value.trim().parse()?));
        }
        Ok(stages)
    }

    /// SIGTERM, then SIGKILL after 30 s.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// Clock ticks a second of `/proc` CPU times.
fn clock_ticks() -> anyhow::Result<f64> {
    let out = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .context("running getconf CLK_TCK")?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().parse()?)
}
