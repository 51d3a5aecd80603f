//! `ServerProcess`: the real `signalwatch serve` binary as a child process, for tests that need
//! several processes on one database or a real SIGTERM. Each listens on a port the OS picks
//! (`--listen 127.0.0.1:0`) and writes its output (JSON log lines) to a temporary file; the start
//! line tells the address. The process is killed when dropped.

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::{NamedTempFile, TempDir};

use super::TestApp;
use super::app::ADMIN_TOKEN;

/// How long a process may take to start, migrations included, on a loaded machine.
const START_DEADLINE: Duration = Duration::from_secs(60);

/// How often the log, `/ready` and the exit status are looked at while waiting.
const POLL: Duration = Duration::from_millis(20);

/// How a process logs: its `--log` filter and `--log-format`.
#[derive(Debug, Clone, Copy)]
pub struct Logging {
    pub filter: &'static str,
    pub format: &'static str,
}

/// The `--role` of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Api,
    Worker,
    All,
}

impl Role {
    fn as_arg(self) -> &'static str {
        match self {
            Role::Api => "api",
            Role::Worker => "worker",
            Role::All => "all",
        }
    }
}

/// A running `signalwatch serve` process.
pub struct ServerProcess {
    pub role: Role,
    child: Child,
    /// `http://ip:port` once started; `None` for a worker.
    base: Option<String>,
    database_url: String,
    log: NamedTempFile,
    _mail: TempDir,
}

impl ServerProcess {
    /// Starts the binary on `database_url` in `role` with `extra` settings, and returns at
    /// once, before it is ready: processes spawned one after another start together.
    pub fn spawn(database_url: &str, role: Role, extra: &[&str]) -> ServerProcess {
        let logging = Logging {
            filter: "warn,signalwatch::cli::serve=info",
            format: "json",
        };
        ServerProcess::spawn_logging(database_url, role, &logging, extra)
    }

    /// As [`ServerProcess::spawn`], logging as `logging` says. The start line is found in
    /// either format.
    pub fn spawn_logging(
        database_url: &str,
        role: Role,
        logging: &Logging,
        extra: &[&str],
    ) -> ServerProcess {
        let log = NamedTempFile::new().expect("log file");
        let output = log.reopen().expect("log file handle");
        let mail = tempfile::tempdir().expect("mail dir");
        let mut command = Command::new(env!("CARGO_BIN_EXE_signalwatch"));
        command
            .args(["serve", "--role", role.as_arg(), "--listen", "127.0.0.1:0"])
            .args(["--database-url", database_url, "--admin-token", ADMIN_TOKEN])
            .args(["--log", logging.filter, "--log-format", logging.format])
            // Several processes per test, beside other tests on one PostgreSQL server.
            .args(["--database-max-connections", "4"])
            .arg("--mail-dir")
            .arg(mail.path())
            .args(
                super::sources::OFFLINE_SOURCES
                    .iter()
                    .filter(|(flag, _)| !extra.contains(flag))
                    .flat_map(|(flag, value)| [*flag, *value]),
            )
            .args(extra)
            .stdin(Stdio::null())
            .stdout(output.try_clone().expect("log file handle"))
            .stderr(output);
        for (name, _) in std::env::vars() {
            if name.starts_with("SIGNALWATCH_") {
                command.env_remove(name);
            }
        }
        let child = command.spawn().expect("the signalwatch binary starts");
        ServerProcess {
            role,
            child,
            base: None,
            database_url: database_url.to_string(),
            log,
            _mail: mail,
        }
    }

    /// Spawns the process and waits until it is ready.
    pub async fn start(database_url: &str, role: Role, extra: &[&str]) -> ServerProcess {
        let mut process = ServerProcess::spawn(database_url, role, extra);
        process.wait_until_ready().await;
        process
    }

    /// Spawns one process per role, all at once (so they race to migrate a fresh database),
    /// and waits until every one is ready.
    pub async fn start_together(
        database_url: &str,
        roles: &[Role],
        extra: &[&str],
    ) -> Vec<ServerProcess> {
        let mut processes: Vec<ServerProcess> = roles
            .iter()
            .map(|role| ServerProcess::spawn(database_url, *role, extra))
            .collect();
        let mut waiting = tokio::task::JoinSet::new();
        for mut process in processes.drain(..).enumerate() {
            waiting.spawn(async move {
                process.1.wait_until_ready().await;
                process
            });
        }
        let mut ready = waiting.join_all().await;
        ready.sort_by_key(|(i, _)| *i);
        ready.into_iter().map(|(_, p)| p).collect()
    }

    /// Waits for the start line in the log (the database is migrated by then) and, when the
    /// process serves HTTP, for `/ready` to answer 200. Panics with the log after a deadline
    /// or when the process exits.
    pub async fn wait_until_ready(&mut self) {
        let until = Instant::now() + START_DEADLINE;
        let started = loop {
            if let Some(started) = self.start_line() {
                break started;
            }
            self.assert_running_before(until, "to log its start");
            tokio::time::sleep(POLL).await;
        };
        let Some(addr) = started else {
            return;
        };
        let base = format!("http://{addr}");
        let client = reqwest::Client::new();
        loop {
            let ready = client.get(format!("{base}/ready")).send().await;
            if ready.is_ok_and(|r| r.status().is_success()) {
                break;
            }
            self.assert_running_before(until, "to answer /ready");
            tokio::time::sleep(POLL).await;
        }
        self.base = Some(base);
    }

    /// A client of this process's HTTP API. Panics for a worker.
    pub fn app(&self) -> TestApp {
        let base = self.base.clone().expect("a process serving HTTP, started");
        TestApp::attach(base, &self.database_url)
    }

    /// The `host:port` this process listens on. Panics for a worker.
    pub fn addr(&self) -> String {
        let base = self
            .base
            .as_deref()
            .expect("a process serving HTTP, started");
        base.trim_start_matches("http://").to_string()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The `/proc` directory of each thread of the process (Linux).
    pub fn threads(&self) -> Vec<std::path::PathBuf> {
        threads_of(self.pid())
    }

    /// Sends SIGTERM, as a service manager stopping it would.
    pub fn terminate(&self) {
        let pid = self.pid().to_string();
        let status = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(status.success(), "SIGTERM sent to {pid}");
    }

    /// Waits until the process exits; panics with its log after `deadline`.
    pub async fn wait_for_exit(&mut self, deadline: Duration) -> ExitStatus {
        let until = Instant::now() + deadline;
        loop {
            if let Some(status) = self.child.try_wait().expect("process status") {
                return status;
            }
            assert!(
                Instant::now() < until,
                "the {:?} process still runs after {deadline:?}; its log:\n{}",
                self.role,
                self.log()
            );
            tokio::time::sleep(POLL).await;
        }
    }

    /// True while the process has not exited.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("process status").is_none()
    }

    /// Everything the process logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap_or_default()
    }

    /// The start line, once logged: `Some(address)` for a process serving HTTP, `Some(None)`
    /// for a worker. Read from JSON lines, or from text lines (`… addr=127.0.0.1:80 …`).
    fn start_line(&self) -> Option<Option<String>> {
        self.log().lines().find_map(|line| {
            if let Ok(json) = serde_json::from_str::<Value>(line) {
                let message = json["fields"]["message"].as_str().unwrap_or_default();
                let started =
                    message == "signalwatch listening" || message == "signalwatch workers running";
                return started.then(|| json["fields"]["addr"].as_str().map(str::to_string));
            }
            if line.contains("signalwatch workers running") {
                return Some(None);
            }
            line.contains("signalwatch listening").then(|| {
                line.split_whitespace()
                    .find_map(|field| field.strip_prefix("addr="))
                    .map(str::to_string)
            })
        })
    }

    fn assert_running_before(&mut self, until: Instant, what: &str) {
        if let Some(status) = self.child.try_wait().expect("process status") {
            panic!(
                "the {:?} process exited ({status}) waiting {what}; its log:\n{}",
                self.role,
                self.log()
            );
        }
        assert!(
            Instant::now() < until,
            "the {:?} process took too long {what}; its log:\n{}",
            self.role,
            self.log()
        );
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `/proc` directory of each thread of process `pid` (Linux).
pub fn threads_of(pid: u32) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("the process's threads")
        .flatten()
        .map(|task| task.path())
        .collect()
}
