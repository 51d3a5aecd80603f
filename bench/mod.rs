//! The benchmark harness behind `cargo run --release --bin bench`: generates (or reuses) the
//! data set, and per backend imports it into a fresh database, starts the server, drives the
//! request mix and `/health`, reads the server's memory, and reports one markdown table.

pub mod cli;
pub mod database;
pub mod dataset;
pub mod load;
pub mod mix;
pub mod report;
pub mod server;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, bail};

use cli::{Args, BackendChoice};
use database::{Backend, FreshDatabase};
use dataset::Dataset;
use load::Target;
use mix::MixRequest;
use report::BackendResult;

/// Runs the whole benchmark and writes the report into `args.out`.
pub async fn run(args: Args) -> anyhow::Result<()> {
    let signalwatch = signalwatch_binary(&args)?;
    std::fs::create_dir_all(&args.out)?;
    let data = dataset::prepare(&signalwatch, args.scale.name(), &args.data_dir())?;
    let mix = mix::mix(&data);
    let backends = match args.backend {
        BackendChoice::Sqlite => vec![Backend::Sqlite],
        BackendChoice::Postgres => vec![Backend::Postgres(args.postgres_url.clone())],
        BackendChoice::Both => vec![
            Backend::Sqlite,
            Backend::Postgres(args.postgres_url.clone()),
        ],
    };
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for backend in &backends {
        eprintln!("bench: {} ...", backend.name());
        let db = FreshDatabase::create(backend).await?;
        let outcome = run_backend(&args, &signalwatch, backend, &db, &data, &mix).await;
        db.finish(args.keep_db).await?;
        match outcome {
            Ok(result) => results.push(result),
            Err(e) => {
                eprintln!("bench: {} failed: {e:#}", backend.name());
                errors.push(format!("{}: {e:#}", backend.name()));
            }
        }
    }
    let ctx = report::Context {
        scale: args.scale.name(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        data: &data,
        mix: &mix,
        connections: args.connections,
        build: build_description(&args, &signalwatch),
    };
    let mut text = report::render(&ctx, &machine(), &results);
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

async fn run_backend(
    args: &Args,
    signalwatch: &Path,
    backend: &Backend,
    db: &FreshDatabase,
    data: &Dataset,
    mix: &[MixRequest],
) -> anyhow::Result<BackendResult> {
    let name = backend.name();
    let import_log = args
        .out
        .join(format!("import-{}-{name}.log", args.scale.name()));
    let timeout = Duration::from_secs(args.import_timeout_seconds);
    eprintln!("bench: {name}: importing {} records", data.total_records());
    let import_time = server::import(signalwatch, &db.url, &data.dir, &import_log, timeout).await?;
    let import_output = std::fs::read_to_string(&import_log)?;
    eprintln!(
        "bench: {name}: imported in {:.1}s",
        import_time.as_secs_f64()
    );
    let work = tempfile::Builder::new()
        .prefix("sw-bench-serve-")
        .tempdir()?;
    let server_log = args
        .out
        .join(format!("server-{}-{name}.log", args.scale.name()));
    let server = server::Server::start(signalwatch, &db.url, work.path(), &server_log).await?;
    let memory_after_start = server.memory()?;
    let target = Target {
        base: server.base.clone(),
        api_key: Some(server.api_key.clone()),
        requests: Arc::new(mix.to_vec()),
    };
    let max_sequential = Duration::from_secs(args.max_sequential_seconds);
    eprintln!("bench: {name}: single client, {} rounds", args.rounds);
    let sequential = load::sequential(&target, args.rounds, max_sequential).await?;
    eprintln!("bench: {name}: mix at {} connections", args.connections);
    let mix_load = load::concurrent(&target, args.connections, args.duration()).await?;
    let health_target = Target {
        base: server.base.clone(),
        api_key: None,
        requests: Arc::new(vec![MixRequest {
            name: "health".into(),
            path_and_query: "/health".into(),
        }]),
    };
    eprintln!("bench: {name}: /health at {} connections", args.connections);
    let health = load::concurrent(&health_target, args.connections, args.duration()).await?;
    let memory_at_end = server.memory()?;
    server.stop().await?;
    Ok(BackendResult {
        backend: name,
        import_time,
        import_output,
        db_size: db.size_bytes().await,
        memory_after_start,
        sequential,
        mix: mix_load,
        health,
        memory_at_end,
    })
}

/// The `--signalwatch` binary, or target/release/signalwatch built now (cheap when current).
fn signalwatch_binary(args: &Args) -> anyhow::Result<PathBuf> {
    if let Some(path) = &args.signalwatch {
        return Ok(path.clone());
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("bench: cargo build --release --bin signalwatch");
    let status = std::process::Command::new(cargo)
        .current_dir(manifest)
        .args(["build", "--release", "--bin", "signalwatch"])
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("cargo build --release --bin signalwatch failed: {status}");
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("target"));
    Ok(target_dir.join("release").join("signalwatch"))
}

/// Which signalwatch was measured: the given binary, or the source revision it was built from.
fn build_description(args: &Args, signalwatch: &Path) -> String {
    if args.signalwatch.is_some() {
        let modified = std::fs::metadata(signalwatch)
            .and_then(|m| m.modified())
            .map(|t| {
                chrono::DateTime::<chrono::Utc>::from(t)
                    .format("%Y-%m-%d %H:%M UTC")
                    .to_string()
            })
            .unwrap_or_default();
        return format!("binary {} (built {modified})", signalwatch.display());
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let revision = git(&["rev-parse", "--short", "HEAD"]);
    let modified = git(&["status", "--porcelain", "--untracked-files=no"])
        .lines()
        .count();
    format!("target/release/signalwatch built from {revision} with {modified} modified file(s)")
}

/// CPUs, memory, CPU model and kernel of this machine.
fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!(
        "{cpus} CPUs ({model}), {:.1} GiB RAM, Linux {}; client and server share the CPUs",
        mem_kb as f64 / 1048576.0,
        kernel.trim()
    )
}
