//! The delivery benchmark (`bench --suite delivery`): against a loopback receiver of its own,
//! the receiver's POST ceiling, a durably drained backlog (deliveries/s), paced single-signal
//! ingests fanning out to 10 endpoints (ingest and accept-to-first-attempt latency), and a
//! kill -9 crash loop (lost = 0?). Per backend with one `serve` process, and on PostgreSQL also
//! with 2 `api` + 2 `worker` processes.

mod cpu;
mod crash;
mod phases;
pub mod process;
pub mod receiver;
mod report;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use super::cli::{Args, BackendChoice};
use super::database::{Backend, FreshDatabase};
use process::{Api, Launch, run_dir};
use receiver::BenchReceiver;
use report::Figures;

/// Which suites `bench` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Suite {
    Lists,
    Delivery,
    /// The job-board and SEC collectors at a data set's scale (see `bench/collectors/`).
    Collectors,
    All,
}

/// Options of the delivery suite.
#[derive(Debug, Clone, clap::Args)]
pub struct DeliveryArgs {
    /// Signals a second of the paced ingest phases (one signal per request; also run at a
    /// fifth of it and at 20/s)
    #[arg(long, default_value_t = 1_000)]
    pub delivery_rate: u32,
    /// Duration of the paced ingest phases, in seconds
    #[arg(long, default_value_t = 10)]
    pub delivery_seconds: u64,
    /// SIGKILLs of the crash loop (0 skips it); with 2 api + 2 worker processes, a worker and
    /// an api process in turn
    #[arg(long, default_value_t = 100)]
    pub crash_kills: u32,
    /// Closed-loop clients of the ingest phase (each sends its next single-signal ingest when
    /// the last is answered; deliveries going out); 0 skips it
    #[arg(long, default_value_t = 16)]
    pub ingest_clients: usize,
    /// Which PostgreSQL topologies to measure: one `serve` process, 2 api + 2 worker
    /// processes, or both (SQLite always runs one process)
    #[arg(long, value_enum, default_value = "both")]
    pub topology: Topology,
    /// Directory to write the requests of each paced phase to, one CSV file a phase (when each
    /// was sent, in milliseconds into the phase, and its latency): where the slow answers fell
    #[arg(long)]
    pub latency_log: Option<PathBuf>,
}

/// `--topology` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Topology {
    One,
    Split,
    Both,
}

/// Endpoints every signal fans out to.
const ENDPOINTS: u32 = 10;

/// Runs the delivery suite on the chosen backends and writes `delivery.md` into `args.out`.
pub async fn run(args: &Args, signalwatch: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.out)?;
    let backends = match args.backend {
        BackendChoice::Sqlite => vec![Backend::Sqlite],
        BackendChoice::Postgres => vec![Backend::Postgres(args.postgres_url.clone())],
        BackendChoice::Both => vec![
            Backend::Sqlite,
            Backend::Postgres(args.postgres_url.clone()),
        ],
    };
    let receiver = BenchReceiver::start().await?;
    let mut rows = Vec::new();
    for backend in &backends {
        let postgres = matches!(backend, Backend::Postgres(_));
        let chosen = args.delivery.topology;
        if !postgres || chosen != Topology::Split {
            rows.push(topology(args, signalwatch, &receiver, backend, false).await?);
        }
        if postgres && chosen != Topology::One {
            rows.push(topology(args, signalwatch, &receiver, backend, true).await?);
        }
    }
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let text = report::render(&command, &rows);
    let path = args.out.join("delivery.md");
    std::fs::write(&path, &text)?;
    println!("{text}");
    eprintln!("bench: delivery report written to {}", path.display());
    Ok(())
}

/// Writes a paced phase's requests to `--latency-log`, when given.
fn log_requests(
    d: &DeliveryArgs,
    name: &str,
    phase: &str,
    paced: &phases::Paced,
) -> anyhow::Result<()> {
    if let Some(dir) = &d.latency_log {
        std::fs::create_dir_all(dir)?;
        let file = dir.join(format!("{name}-{phase}-{}.csv", paced.rate));
        std::fs::write(&file, paced.requests_csv())?;
    }
    Ok(())
}

/// All phases on one backend, with one `serve` process or (`split`) 2 api + 2 worker processes.
async fn topology(
    args: &Args,
    signalwatch: &Path,
    receiver: &BenchReceiver,
    backend: &Backend,
    split: bool,
) -> anyhow::Result<Figures> {
    let name = format!(
        "{}{}",
        backend.name(),
        if split { "-2api-2worker" } else { "" }
    );
    let d = &args.delivery;
    eprintln!("bench: delivery: {name}: receiver ceiling");
    let ceiling = phases::ceiling(receiver, 64, Duration::from_secs(5)).await?;
    let db = FreshDatabase::create(backend).await?;
    let launch = Launch {
        signalwatch: signalwatch.to_path_buf(),
        database_url: db.url.clone(),
        dir: run_dir(&args.out, &name)?,
    };
    let roles: &[&str] = if split {
        &["api", "api", "worker", "worker"]
    } else {
        &["all"]
    };
    let mut procs = Vec::new();
    for (i, role) in roles.iter().enumerate() {
        procs.push(launch.start(role, &format!("{role}-{i}")).await?);
    }
    let deliverers = roles.iter().filter(|role| **role != "api").count();
    process::wait_until_started(&db.url, deliverers).await?;
    let apis: Vec<Api> = procs
        .iter()
        .filter_map(|p| p.base.as_deref())
        .map(Api::new)
        .collect::<anyhow::Result<_>>()?;
    let urls: Vec<String> = (0..ENDPOINTS).map(|n| receiver.url(n)).collect();
    let team_id = apis[0].team_with_webhooks(1_000_000_000_000, &urls).await?;
    apis[0].benchmark_company().await?;
    let seconds = Duration::from_secs(d.delivery_seconds);
    eprintln!(
        "bench: delivery: {name}: {} signals/s x {ENDPOINTS}, held",
        d.delivery_rate
    );
    let already = process::done_deliveries(&db.url).await?;
    apis[0].set_credits(&team_id, 0).await?;
    let pids: Vec<u32> = procs.iter().filter_map(|p| p.pid()).collect();
    let start = cpu::PhaseStart::now(&pids, &db.url).await?;
    let held = phases::paced(true, &apis, receiver, ENDPOINTS, d.delivery_rate, seconds).await?;
    log_requests(d, &name, "held", &held)?;
    let held_cpu = start.end().await?;
    eprintln!("bench: delivery: {name}: draining the held deliveries");
    let queued = (held.accepted * ENDPOINTS as usize) as i64;
    let start = cpu::PhaseStart::now(&pids, &db.url).await?;
    let drain = phases::release(&apis[0], &db.url, &team_id, already, queued).await?;
    let drain_cpu = start.end().await?;
    let mut live = Vec::new();
    for rate in [d.delivery_rate, d.delivery_rate / 5, 20] {
        eprintln!("bench: delivery: {name}: {rate} signals/s x {ENDPOINTS}");
        let duration = if rate >= 100 {
            seconds
        } else {
            Duration::from_secs(5)
        };
        let paced = phases::paced(false, &apis, receiver, ENDPOINTS, rate, duration).await?;
        log_requests(d, &name, "live", &paced)?;
        live.push(paced);
    }
    let mut closed = Vec::new();
    if d.ingest_clients > 0 {
        // Deliveries going out, then held (the team without credits): what accepting an event
        // costs apart from sending its deliveries, at the same concurrency.
        for held in [false, true] {
            eprintln!(
                "bench: delivery: {name}: {} closed-loop ingest clients{}",
                d.ingest_clients,
                if held { ", deliveries held" } else { "" }
            );
            if held {
                apis[0].set_credits(&team_id, 0).await?;
            }
            let cpu = cpu::PhaseStart::now(&pids, &db.url).await?;
            let clients = d.ingest_clients;
            let run = (ENDPOINTS, held);
            closed.push(phases::closed_loop(&apis, receiver, run, clients, seconds, cpu).await?);
        }
    }
    for proc in procs {
        proc.stop().await?;
    }
    db.finish(args.keep_db).await?;
    let crash = if d.crash_kills == 0 {
        None
    } else {
        eprintln!(
            "bench: delivery: {name}: crash loop of {} kills",
            d.crash_kills
        );
        let db = FreshDatabase::create(backend).await?;
        let launch = Launch {
            database_url: db.url.clone(),
            ..launch
        };
        let result = crash::crash_loop(&launch, receiver, d.crash_kills, split).await;
        db.finish(args.keep_db).await?;
        Some(result?)
    };
    Ok(Figures {
        name,
        ceiling,
        drain,
        drain_cpu,
        held,
        held_cpu,
        live,
        closed,
        crash,
        load: load_average(),
    })
}

/// The 1-minute load average now (other work on the machine skews the figures).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}
