//! The signalwatch processes under benchmark: a timed `import`, and `serve` on a free loopback
//! port with a team that neither credits nor rate limits hold back.

use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::process::{Child, Command};

/// Admin token of the benchmark server (loopback only, process lifetime only).
const ADMIN_TOKEN: &str = "bench-admin-token";
/// Server-wide and per-team requests a minute: high enough never to be reached.
const UNLIMITED_RATE: i64 = 1_000_000_000;
const UNLIMITED_CREDITS: i64 = 1_000_000_000_000;

/// Runs `signalwatch import` on `data_dir`, logging its output to `log`; returns the wall time.
pub async fn import(
    signalwatch: &Path,
    database_url: &str,
    data_dir: &Path,
    log: &Path,
    timeout: Duration,
) -> anyhow::Result<Duration> {
    let out = File::create(log)?;
    let mut child = Command::new(signalwatch)
        .arg("import")
        .arg("--create")
        .arg("--database-url")
        .arg(database_url)
        .arg(data_dir)
        .env("SIGNALWATCH_LOG", "warn")
        .stdout(out.try_clone()?)
        .stderr(out)
        .kill_on_drop(true)
        .spawn()
        .context("starting signalwatch import")?;
    let started = Instant::now();
    let status = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(status) => status?,
        Err(_) => {
            child.kill().await?;
            bail!(
                "import did not finish within {timeout:?} (see {})",
                log.display()
            );
        }
    };
    if !status.success() {
        bail!("import failed: {status} (see {})", log.display());
    }
    Ok(started.elapsed())
}

/// A running `signalwatch serve` process.
pub struct Server {
    child: Child,
    pub pid: u32,
    pub base: String,
}

impl Server {
    /// Starts `serve --role <role>`: an `api` or `all` process on a free loopback port, waiting
    /// until it answers; a `worker` process (no HTTP), checking that it is still running after a
    /// second. No team is created.
    pub async fn start_role(
        signalwatch: &Path,
        database_url: &str,
        work_dir: &Path,
        log: &Path,
        role: &str,
    ) -> anyhow::Result<Server> {
        let addr = free_port()?;
        let out = File::create(log)?;
        let child = Command::new(signalwatch)
            .arg("serve")
            .args(["--role", role])
            .args(["--listen", &addr.to_string()])
            .args(["--database-url", database_url])
            .args(["--admin-token", ADMIN_TOKEN])
            .args(["--rate-limit-per-minute", &UNLIMITED_RATE.to_string()])
            .arg("--mail-dir")
            .arg(work_dir.join("mail"))
            .args(["--log", "warn"])
            // Targets of made-up domains must not be looked up on the internet.
            .args(["--research-fetch", "false"])
            .stdout(out.try_clone()?)
            .stderr(out)
            .kill_on_drop(true)
            .spawn()
            .context("starting signalwatch serve")?;
        let pid = child.id().context("server pid")?;
        let mut server = Server {
            child,
            pid,
            base: format!("http://{addr}"),
        };
        if role == "worker" {
            tokio::time::sleep(Duration::from_secs(1)).await;
            if let Some(status) = server.child.try_wait()? {
                bail!("signalwatch serve --role worker exited at start: {status}");
            }
        } else {
            server.wait_healthy(Duration::from_secs(120)).await?;
        }
        Ok(server)
    }

    async fn wait_healthy(&mut self, deadline: Duration) -> anyhow::Result<()> {
        let client = super::load::client()?;
        let started = Instant::now();
        while started.elapsed() < deadline {
            if let Some(status) = self.child.try_wait()? {
                bail!("signalwatch serve exited at start: {status}");
            }
            let health = client.get(format!("{}/health", self.base)).send().await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bail!("signalwatch serve did not answer /health within {deadline:?}")
    }

    /// Creates the benchmark team through this (API) process; returns its key.
    pub async fn create_team(&self) -> anyhow::Result<String> {
        let response = super::load::client()?
            .post(format!("{}/admin/v1/teams", self.base))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({
                "name": "bench",
                "owner_email": "bench@signalwatch.local",
                "credits": UNLIMITED_CREDITS,
                "rate_limit_per_minute": UNLIMITED_RATE,
            }))
            .send()
            .await?;
        let status = response.status();
        let body: Value = response.json().await?;
        if status.as_u16() != 201 {
            bail!("POST /admin/v1/teams answered {status}: {body}");
        }
        body["data"]["api_key"]
            .as_str()
            .map(str::to_string)
            .context("no data.api_key in the team creation answer")
    }

    /// The server's resident memory now and at its peak, in bytes.
    pub fn memory(&self) -> anyhow::Result<Memory> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))?;
        let field = |name: &str| -> anyhow::Result<u64> {
            let line = status
                .lines()
                .find(|l| l.starts_with(name))
                .with_context(|| format!("no {name} in /proc/{}/status", self.pid))?;
            let kb: u64 = line[name.len()..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()?;
            Ok(kb * 1024)
        };
        Ok(Memory {
            rss: field("VmRSS:")?,
            peak: field("VmHWM:")?,
        })
    }

    /// Stops the server with SIGTERM, and kills it when it has not exited within 10 s.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// Clock ticks a second of the CPU times in `/proc/<pid>/stat` (USER_HZ, 100 on Linux).
const USER_HZ: f64 = 100.0;

impl Server {
    /// CPU time (user + system) the process has used so far, from `/proc/<pid>/stat`.
    pub fn cpu_time(&self) -> anyhow::Result<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid))?;
        // The command name (field 2) may hold spaces: count fields after its closing paren.
        let after = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .context("malformed /proc stat")?;
        let fields: Vec<&str> = after.split_whitespace().collect();
        // Fields 14 (utime) and 15 (stime) of the whole line are 12 and 13 after the name.
        let ticks: u64 = fields.get(11).context("no utime")?.parse::<u64>()?
            + fields.get(12).context("no stime")?.parse::<u64>()?;
        Ok(Duration::from_secs_f64(ticks as f64 / USER_HZ))
    }
}

/// Resident set size of the server process.
#[derive(Debug, Clone, Copy)]
pub struct Memory {
    /// VmRSS: resident now.
    pub rss: u64,
    /// VmHWM: the peak resident size since the process started.
    pub peak: u64,
}

fn free_port() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?)
}
