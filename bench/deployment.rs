//! The processes a run measures: one `serve` process (API and workers), or the scale-out
//! topology — API processes (`serve --role api`) and worker processes
//! (`serve --role worker`) sharing one database.

use std::path::Path;

use tempfile::TempDir;

use super::server::{Memory, Server};

/// How the service is deployed for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// One `serve` process.
    Single,
    /// `api` API processes and `workers` worker processes.
    ScaleOut { api: usize, workers: usize },
}

impl Topology {
    /// How the topology is named in the report.
    pub fn label(self) -> String {
        match self {
            Topology::Single => "1 process".into(),
            Topology::ScaleOut { api, workers } => format!("{api} api + {workers} workers"),
        }
    }
}

/// Running processes of one topology, and the API key of the benchmark team.
pub struct Deployment {
    /// Processes that serve HTTP, in the order clients are spread over them.
    pub api: Vec<Server>,
    pub workers: Vec<Server>,
    pub api_key: String,
    _work: TempDir,
}

impl Deployment {
    /// Starts the processes of `topology` on `database_url`, logging into `log_prefix-<n>.log`.
    pub async fn start(
        signalwatch: &Path,
        database_url: &str,
        topology: Topology,
        log_prefix: &Path,
    ) -> anyhow::Result<Deployment> {
        let work = tempfile::Builder::new()
            .prefix("sw-bench-serve-")
            .tempdir()?;
        let log = |role: &str, n: usize| {
            let mut name = log_prefix.as_os_str().to_owned();
            name.push(format!("-{role}{n}.log"));
            std::path::PathBuf::from(name)
        };
        let (roles, api_count) = match topology {
            Topology::Single => (vec!["all"], 1),
            Topology::ScaleOut { api, workers } => {
                let mut roles = vec!["api"; api];
                roles.extend(std::iter::repeat_n("worker", workers));
                (roles, api)
            }
        };
        let mut api = Vec::new();
        let mut workers = Vec::new();
        for (n, role) in roles.into_iter().enumerate() {
            let server =
                Server::start_role(signalwatch, database_url, work.path(), &log(role, n), role)
                    .await?;
            if n < api_count {
                api.push(server);
            } else {
                workers.push(server);
            }
        }
        let api_key = api[0].create_team().await?;
        Ok(Deployment {
            api,
            workers,
            api_key,
            _work: work,
        })
    }

    /// Base URLs of the API processes.
    pub fn bases(&self) -> Vec<String> {
        self.api.iter().map(|s| s.base.clone()).collect()
    }

    /// Memory of the largest API process (the one the RSS target applies to).
    pub fn memory(&self) -> anyhow::Result<Memory> {
        let mut largest = Memory { rss: 0, peak: 0 };
        for server in &self.api {
            let m = server.memory()?;
            largest.rss = largest.rss.max(m.rss);
            largest.peak = largest.peak.max(m.peak);
        }
        Ok(largest)
    }

    /// CPU time used so far by every process of the deployment, together.
    pub fn cpu_time(&self) -> anyhow::Result<std::time::Duration> {
        let mut total = std::time::Duration::ZERO;
        for server in self.api.iter().chain(&self.workers) {
            total += server.cpu_time()?;
        }
        Ok(total)
    }

    /// Stops every process.
    pub async fn stop(self) -> anyhow::Result<()> {
        for server in self.api.into_iter().chain(self.workers) {
            server.stop().await?;
        }
        Ok(())
    }
}
