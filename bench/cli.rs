//! Command-line options of the benchmark harness.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// Drives a fixed list-request mix against `signalwatch serve` on SQLite and/or PostgreSQL and
/// prints one markdown table of the figures (see BENCHMARKS.md).
#[derive(Debug, Parser)]
#[command(name = "bench")]
pub struct Args {
    /// Data set scale passed to `signalwatch demo-data`
    #[arg(long, value_enum, default_value = "s")]
    pub scale: Scale,
    /// Which database(s) to benchmark
    #[arg(long, value_enum, default_value = "sqlite")]
    pub backend: BackendChoice,
    /// Directory the results (markdown table, logs) are written to
    #[arg(long, default_value = "target/bench")]
    pub out: PathBuf,
    /// Directory of the generated data set [default: target/bench-data/<scale>-seed1];
    /// reused when it already holds the six files
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// PostgreSQL server; a fresh database is created there and dropped afterwards
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/postgres")]
    pub postgres_url: String,
    /// The signalwatch binary [default: target/release/signalwatch, built first]
    #[arg(long)]
    pub signalwatch: Option<PathBuf>,
    /// Single-client rounds over the mix (after one warm-up round)
    #[arg(long, default_value_t = 20)]
    pub rounds: u32,
    /// Upper bound on the single-client phase, in seconds
    #[arg(long, default_value_t = 300)]
    pub max_sequential_seconds: u64,
    /// Concurrent connections of the throughput phases
    #[arg(long, default_value_t = 32)]
    pub connections: usize,
    /// Duration of each throughput phase (mix, then /health), in seconds
    #[arg(long, default_value_t = 20)]
    pub duration_seconds: u64,
    /// Give up on an import that takes longer than this, in seconds
    #[arg(long, default_value_t = 3600)]
    pub import_timeout_seconds: u64,
    /// CSV enrichment jobs of 1,000 companies each, timed from submit to `completed`
    #[arg(long, default_value_t = 5)]
    pub enrichment_jobs: usize,
    /// On PostgreSQL, also measure the scale-out topology: API processes (`serve --role api`)
    /// and worker processes (`serve --role worker`) on the same database, clients spread over
    /// the API processes
    #[arg(long)]
    pub scale_out: bool,
    /// API processes of the scale-out topology
    #[arg(long, default_value_t = 2)]
    pub api_processes: usize,
    /// Worker processes of the scale-out topology
    #[arg(long, default_value_t = 2)]
    pub worker_processes: usize,
    /// Measure an already imported database instead (`sqlite://…` or `postgres://…`): no
    /// import, and the database is left as it is; `--backend` is then ignored
    #[arg(long)]
    pub existing_database: Option<String>,
    /// Instead of a run: print the query plan and time of each SQL statement of this file (one a
    /// line) on `--existing-database`
    #[arg(long, requires = "existing_database")]
    pub explain: Option<PathBuf>,
    /// Keep the databases (SQLite file, PostgreSQL database) for profiling afterwards
    #[arg(long)]
    pub keep_db: bool,
    /// Suites to run: the list-request mix, the delivery engine, both, or the collectors
    #[arg(long, value_enum, default_value = "lists")]
    pub suite: super::delivery::Suite,
    #[command(flatten)]
    pub delivery: super::delivery::DeliveryArgs,
    #[command(flatten)]
    pub collectors: super::collectors::CollectorsArgs,
}

impl Args {
    /// The data set directory.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(|| {
            PathBuf::from(format!("target/bench-data/{}-seed1", self.scale.name()))
        })
    }

    /// How long each throughput phase runs.
    pub fn duration(&self) -> Duration {
        Duration::from_secs(self.duration_seconds)
    }
}

/// `demo-data --scale` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Scale {
    S,
    M,
    L,
}

impl Scale {
    /// The scale as `demo-data` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Scale::S => "s",
            Scale::M => "m",
            Scale::L => "l",
        }
    }
}

/// `--backend` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BackendChoice {
    Sqlite,
    Postgres,
    Both,
}
