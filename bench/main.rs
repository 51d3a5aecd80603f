//! `bench`, the load harness (`cargo run --release --bin bench -- --scale l --backend both`):
//! generates (or reuses) the data set, and per backend imports it into a fresh database, starts the server (one process,
//! or API and worker processes), drives the request mix and `/health`, times CSV enrichment
//! jobs, reads the server's memory, and reports one markdown table.

pub mod about;
pub mod cli;
pub mod collectors;
pub mod database;
pub mod dataset;
pub mod delivery;
pub mod deployment;
pub mod enrichment;
pub mod explain;
pub mod load;
pub mod mix;
pub mod report;
pub mod report_detail;
pub mod server;

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use clap::Parser;
use serde_json::Value;

use cli::{Args, BackendChoice};
use database::{Backend, FreshDatabase};
use dataset::Dataset;
use deployment::{Deployment, Topology};
use load::Target;
use mix::MixRequest;
use report::{BackendResult, CpuUse, CreditCheck};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The one rustls crypto provider, installed before any client is built (as in `main.rs`).
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    run(Args::parse()).await
}

/// What every backend run uses: the binary, the data set, the mix and the enrichment jobs.
struct Inputs {
    signalwatch: std::path::PathBuf,
    data: Dataset,
    mix: Vec<MixRequest>,
    enrichment_jobs: Vec<Vec<Value>>,
}

/// Runs the whole benchmark and writes the report into `args.out`.
pub async fn run(args: Args) -> anyhow::Result<()> {
    if let (Some(file), Some(url)) = (&args.explain, &args.existing_database) {
        return explain::explain(url, file).await;
    }
    let signalwatch = about::signalwatch_binary(&args)?;
    if args.suite == delivery::Suite::Collectors {
        return collectors::run(&args, &signalwatch).await;
    }
    if args.suite != delivery::Suite::Lists {
        delivery::run(&args, &signalwatch).await?;
        if args.suite == delivery::Suite::Delivery {
            return Ok(());
        }
    }
    std::fs::create_dir_all(&args.out)?;
    let data = dataset::prepare(&signalwatch, args.scale.name(), &args.data_dir())?;
    let inputs = Inputs {
        mix: mix::mix(&data),
        enrichment_jobs: enrichment::job_inputs(&data.dir, args.enrichment_jobs)?,
        signalwatch,
        data,
    };
    let backends = match (&args.existing_database, args.backend) {
        (Some(url), _) if url.starts_with("sqlite:") => vec![Backend::Sqlite],
        (Some(_), _) => vec![Backend::Postgres(args.postgres_url.clone())],
        (None, backend) => match backend {
            BackendChoice::Sqlite => vec![Backend::Sqlite],
            BackendChoice::Postgres => vec![Backend::Postgres(args.postgres_url.clone())],
            BackendChoice::Both => vec![
                Backend::Sqlite,
                Backend::Postgres(args.postgres_url.clone()),
            ],
        },
    };
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for backend in &backends {
        eprintln!("bench: {} ...", backend.name());
        let db = match &args.existing_database {
            Some(url) => FreshDatabase::existing(url),
            None => FreshDatabase::create(backend).await?,
        };
        let outcome = run_backend(&args, &inputs, backend, &db, &mut results).await;
        db.finish(args.keep_db).await?;
        if let Err(e) = outcome {
            eprintln!("bench: {} failed: {e:#}", backend.name());
            errors.push(format!("{}: {e:#}", backend.name()));
        }
    }
    let ctx = report::Context {
        scale: args.scale.name(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        data: &inputs.data,
        mix: &inputs.mix,
        connections: args.connections,
        build: about::build_description(&args, &inputs.signalwatch),
    };
    let mut text = report::render(&ctx, &about::machine(), &results);
    for e in &errors {
        text.push_str(&format!("\n**Run failed** on {e}\n"));
    }
    let path = args.out.join(format!("bench-{}.md", args.scale.name()));
    std::fs::write(&path, &text)?;
    println!("{text}");
    eprintln!("bench: report written to {}", path.display());
    if errors.is_empty() {
        Ok(())
    } else {
        bail!("{} backend run(s) failed", errors.len())
    }
}

/// Imports the data set into `db`, then measures each topology of the backend on it.
async fn run_backend(
    args: &Args,
    inputs: &Inputs,
    backend: &Backend,
    db: &FreshDatabase,
    results: &mut Vec<BackendResult>,
) -> anyhow::Result<()> {
    let name = backend.name();
    let import = match args.existing_database {
        Some(_) => None,
        None => Some(import(args, inputs, db, name).await?),
    };
    let mut topologies = vec![Topology::Single];
    if args.scale_out && matches!(backend, Backend::Postgres(_)) {
        topologies.push(Topology::ScaleOut {
            api: args.api_processes,
            workers: args.worker_processes,
        });
    }
    for (i, topology) in topologies.into_iter().enumerate() {
        let mut result = measure(args, inputs, backend, db, topology).await?;
        if i == 0 {
            result.import = import.clone();
        }
        result.db_size = db.size_bytes().await;
        results.push(result);
    }
    Ok(())
}

/// Imports the data set into `db`; returns the wall time and the command's output.
async fn import(
    args: &Args,
    inputs: &Inputs,
    db: &FreshDatabase,
    name: &str,
) -> anyhow::Result<(Duration, String)> {
    let scale = args.scale.name();
    let import_log = args.out.join(format!("import-{scale}-{name}.log"));
    let timeout = Duration::from_secs(args.import_timeout_seconds);
    eprintln!(
        "bench: {name}: importing {} records",
        inputs.data.total_records()
    );
    let import_time = server::import(
        &inputs.signalwatch,
        &db.url,
        &inputs.data.dir,
        &import_log,
        timeout,
    )
    .await?;
    let import_output = std::fs::read_to_string(&import_log)?;
    eprintln!(
        "bench: {name}: imported in {:.1}s",
        import_time.as_secs_f64()
    );
    Ok((import_time, import_output))
}

/// Starts `topology` on the imported database and runs every measuring phase against it.
async fn measure(
    args: &Args,
    inputs: &Inputs,
    backend: &Backend,
    db: &FreshDatabase,
    topology: Topology,
) -> anyhow::Result<BackendResult> {
    let label = match topology {
        Topology::Single => backend.name().to_string(),
        _ => format!("{}, {}", backend.name(), topology.label()),
    };
    let log_prefix = args.out.join(format!(
        "server-{}-{}",
        args.scale.name(),
        label.replace([',', ' ', '+'], "")
    ));
    let deployment = Deployment::start(&inputs.signalwatch, &db.url, topology, &log_prefix).await?;
    let memory_after_start = deployment.memory()?;
    let load_before = about::loadavg();
    let bases = Arc::new(deployment.bases());
    let target = Target {
        bases: bases.clone(),
        api_key: Some(deployment.api_key.clone()),
        requests: Arc::new(inputs.mix.clone()),
    };
    let max_sequential = Duration::from_secs(args.max_sequential_seconds);
    eprintln!("bench: {label}: single client, {} rounds", args.rounds);
    let cpu_at_start = deployment.cpu_time()?;
    let sequential = load::sequential(&target, args.rounds, max_sequential).await?;
    let cpu_after_sequential = deployment.cpu_time()?;
    eprintln!("bench: {label}: mix at {} connections", args.connections);
    let balance_before = load::balance(&target).await?;
    let cpu_before_mix = deployment.cpu_time()?;
    let mix_load = load::concurrent(&target, args.connections, args.duration()).await?;
    let cpu_after_mix = deployment.cpu_time()?;
    let balance_after = load::balance(&target).await?;
    let credits = CreditCheck {
        before: balance_before,
        charged: mix_load.charged,
        after: balance_after,
    };
    eprintln!(
        "bench: {label}: credits before {} - charged answers {} = {}; balance after {} ({})",
        credits.before,
        credits.charged,
        credits.expected(),
        credits.after,
        if credits.exact() { "exact" } else { "MISMATCH" }
    );
    let health_target = Target {
        bases: bases.clone(),
        api_key: None,
        requests: Arc::new(vec![MixRequest {
            name: "health".into(),
            path_and_query: "/health".into(),
        }]),
    };
    eprintln!(
        "bench: {label}: /health at {} connections",
        args.connections
    );
    let cpu_before_health = deployment.cpu_time()?;
    let health = load::concurrent(&health_target, args.connections, args.duration()).await?;
    let cpu = CpuUse {
        sequential: cpu_after_sequential.saturating_sub(cpu_at_start),
        mix: cpu_after_mix.saturating_sub(cpu_before_mix),
        health: deployment.cpu_time()?.saturating_sub(cpu_before_health),
    };
    eprintln!(
        "bench: {label}: {} CSV enrichment jobs",
        inputs.enrichment_jobs.len()
    );
    let enrichment = enrichment::run(&bases, &deployment.api_key, &inputs.enrichment_jobs).await;
    let memory_at_end = deployment.memory()?;
    let load_after = about::loadavg();
    deployment.stop().await?;
    Ok(BackendResult {
        backend: label,
        import: None,
        db_size: None,
        memory_after_start,
        sequential,
        mix: mix_load,
        health,
        enrichment,
        memory_at_end,
        load: (load_before, load_after),
        cpu,
        credits,
    })
}
