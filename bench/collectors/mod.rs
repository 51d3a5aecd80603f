//! The collectors benchmark (`bench --suite collectors`): the job-board collector over 1,000
//! local Greenhouse boards of 200 postings each (a first pass, then a pass after 10 % of every
//! board's postings changed), with the per-host politeness lifted and, over a subset, at its
//! real rate; and the `sec-form-d` collector over 10,000 filings of a local EDGAR, lifted and at
//! the SEC's rate. The database is an imported scale (`l` for the figures), copied afresh for
//! each run; the server is the release `signalwatch serve`, set up through its APIs as a user
//! would (companies with their boards, a team, monitors with a webhook to a local receiver).

mod boards;
mod edgar;
mod process;
mod report;
mod setup;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::cli::Args;
use super::database::FreshDatabase;
use super::delivery::receiver::BenchReceiver;
use boards::LocalBoards;
use edgar::LocalEdgar;
use process::{Server, Throttle};
use report::{BoardPass, SecRun};

/// Options of the collectors suite.
#[derive(Debug, Clone, clap::Args)]
pub struct CollectorsArgs {
    /// Greenhouse boards served, each a watched company's
    #[arg(long, default_value_t = 1_000)]
    pub boards: usize,
    /// Postings on each board
    #[arg(long, default_value_t = 200)]
    pub postings_per_board: usize,
    /// Percent of each board's postings replaced by new ones before the second pass
    #[arg(long, default_value_t = 10)]
    pub changed_percent: usize,
    /// Boards of the pass at the real per-host rate (a subset: the whole set takes
    /// boards / rate seconds)
    #[arg(long, default_value_t = 100)]
    pub polite_boards: usize,
    /// Form D filings the local EDGAR publishes
    #[arg(long, default_value_t = 10_000)]
    pub sec_filings: usize,
    /// Filings in the feed at one time (one pass each)
    #[arg(long, default_value_t = 1_000)]
    pub sec_feed_size: usize,
    /// Filings of the run at the SEC's real rate (a subset)
    #[arg(long, default_value_t = 400)]
    pub sec_polite_filings: usize,
}

/// Runs the suite and writes `collectors.md` into `args.out`.
pub async fn run(args: &Args, signalwatch: &Path) -> anyhow::Result<()> {
    let c = &args.collectors;
    std::fs::create_dir_all(&args.out)?;
    let data = super::dataset::prepare(signalwatch, args.scale.name(), &args.data_dir())?;
    let imported = imported_database(args, signalwatch, &data).await?;
    let work = args.out.join("collectors-work.db");
    copy_database(&imported, &work)?;
    let db = FreshDatabase::existing(&format!("sqlite://{}", work.display()));

    let picked = setup::pick_companies(&data.dir, c.boards, c.sec_filings)?;
    let boards = LocalBoards::start(c.boards, c.postings_per_board, c.changed_percent).await?;
    let edgar = LocalEdgar::start(&picked.issuers, c.sec_filings + c.sec_polite_filings).await?;
    let receiver = BenchReceiver::start().await?;
    let load_before = super::about::loadavg();
    let logs = args.out.join("collectors-logs");
    std::fs::create_dir_all(&logs)?;

    let server = Server::start(
        signalwatch,
        &db.url,
        &logs,
        "lifted",
        Throttle::Lifted,
        &boards.base,
        &edgar.base,
    )
    .await?;
    let watched = setup::watch(&server, &picked.boards, c.polite_boards, &receiver.url(0)).await?;
    eprintln!("bench: collectors: first pass over {} boards", c.boards);
    let first = board_pass(&server, &boards, &receiver, "first pass, every posting new").await?;
    boards.next_generation();
    eprintln!(
        "bench: collectors: second pass ({} % changed)",
        c.changed_percent
    );
    let second = board_pass(&server, &boards, &receiver, "second pass, lifted").await?;
    eprintln!(
        "bench: collectors: sec-form-d over {} filings",
        c.sec_filings
    );
    let sec_lifted = sec_run(&server, &edgar, c.sec_filings, c.sec_feed_size, "lifted").await?;
    server.stop().await?;

    let server = Server::start(
        signalwatch,
        &db.url,
        &logs,
        "polite",
        Throttle::Real,
        &boards.base,
        &edgar.base,
    )
    .await?;
    watched.pause_all_but_subset(&server).await?;
    boards.next_generation();
    eprintln!(
        "bench: collectors: pass over {} boards at the real rate",
        c.polite_boards
    );
    let polite = board_pass(&server, &boards, &receiver, "subset, real politeness").await?;
    eprintln!(
        "bench: collectors: sec-form-d over {} filings at the real rate",
        c.sec_polite_filings
    );
    let sec_polite = sec_run(
        &server,
        &edgar,
        c.sec_polite_filings,
        c.sec_polite_filings,
        "real rate",
    )
    .await?;
    server.stop().await?;
    let load_after = super::about::loadavg();

    let text = report::render(&report::Run {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        build: super::about::build_description(args, signalwatch),
        machine: super::about::machine(),
        database: imported.display().to_string(),
        load: (load_before, load_after),
        boards: c.boards,
        postings: c.postings_per_board,
        changed_percent: c.changed_percent,
        passes: vec![first, second, polite],
        sec: vec![sec_lifted, sec_polite],
    });
    if !args.keep_db {
        remove_database(&work);
    }
    let path = args.out.join("collectors.md");
    std::fs::write(&path, &text)?;
    println!("{text}");
    eprintln!("bench: collectors report written to {}", path.display());
    Ok(())
}

/// One timed pass of the Greenhouse collector, then the wait for its deliveries.
async fn board_pass(
    server: &Server,
    boards: &LocalBoards,
    receiver: &BenchReceiver,
    label: &str,
) -> anyhow::Result<BoardPass> {
    let delivered_before = receiver.distinct();
    boards.reset_requests();
    let cpu_before = server.cpu_seconds()?;
    let started = Instant::now();
    let record = server.run_collector("greenhouse").await?;
    let wall = started.elapsed();
    let cpu = server.cpu_seconds()? - cpu_before;
    let created = record["signals_created"].as_u64().unwrap_or_default();
    let pass = BoardPass {
        label: label.to_string(),
        boards: record["sources_checked"].as_u64().unwrap_or_default(),
        postings: record["items_seen"].as_u64().unwrap_or_default(),
        created,
        failed: record["last_error"].as_str().map(str::to_string),
        requests: boards.requests(),
        wall,
        cpu,
        stages: server.stage_seconds("greenhouse").await?,
        delivered: None,
    };
    let expected = delivered_before + created as usize;
    let delivered = wait_for_deliveries(receiver, expected).await;
    Ok(BoardPass {
        delivered: Some(delivered),
        ..pass
    })
}

/// Waits until `expected` distinct deliveries arrived, or none came for 30 s; returns how long
/// after the pass's end the last one came.
async fn wait_for_deliveries(receiver: &BenchReceiver, expected: usize) -> (usize, Duration) {
    let started = Instant::now();
    let mut last = (receiver.distinct(), Instant::now());
    while last.0 < expected && last.1.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = receiver.distinct();
        if now > last.0 {
            last = (now, Instant::now());
        }
    }
    (last.0, last.1.saturating_duration_since(started))
}

/// Publishes `filings` filings, `feed_size` at a time, running one `sec-form-d` pass per
/// batch; times the whole and reads where the time went.
async fn sec_run(
    server: &Server,
    edgar: &LocalEdgar,
    filings: usize,
    feed_size: usize,
    label: &str,
) -> anyhow::Result<SecRun> {
    let stages_before = server.stage_seconds("sec-form-d").await?;
    edgar.reset_requests();
    let cpu_before = server.cpu_seconds()?;
    let started = Instant::now();
    let mut run = SecRun {
        label: label.to_string(),
        ..SecRun::default()
    };
    let mut published = 0;
    while published < filings {
        let batch = feed_size.min(filings - published);
        if !edgar.publish_next(batch) {
            bail!("the local EDGAR has no more filings to publish");
        }
        published += batch;
        let record = server.run_collector("sec-form-d").await?;
        run.read += record["sources_checked"].as_u64().unwrap_or_default();
        run.created += record["signals_created"].as_u64().unwrap_or_default();
        if let Some(error) = record["last_error"].as_str() {
            run.errors.push(error.to_string());
        }
    }
    run.filings = published as u64;
    run.wall = started.elapsed();
    run.cpu = server.cpu_seconds()? - cpu_before;
    run.requests = edgar.requests();
    let after = server.stage_seconds("sec-form-d").await?;
    run.stages = after
        .into_iter()
        .map(|(stage, total)| {
            let before = stages_before
                .iter()
                .find(|(s, _)| *s == stage)
                .map_or(0.0, |(_, t)| *t);
            (stage, total - before)
        })
        .collect();
    Ok(run)
}

/// The imported database of the scale: `--existing-database` (a SQLite file), else the one
/// imported by an earlier run of this suite, else one imported now and kept for the next runs.
async fn imported_database(
    args: &Args,
    signalwatch: &Path,
    data: &super::dataset::Dataset,
) -> anyhow::Result<PathBuf> {
    if let Some(url) = &args.existing_database {
        let db = FreshDatabase::existing(url);
        return db
            .file
            .filter(|_| url.starts_with("sqlite:"))
            .context("the collectors suite measures a SQLite database (sqlite://FILE)");
    }
    let kept = args
        .out
        .join(format!("collectors-{}-imported.db", args.scale.name()));
    if kept.is_file() {
        eprintln!("bench: collectors: reusing the imported {}", kept.display());
        return Ok(kept);
    }
    let partial = PathBuf::from(format!("{}.partial", kept.display()));
    remove_database(&partial);
    eprintln!(
        "bench: collectors: importing {} records (once; kept as {})",
        data.total_records(),
        kept.display()
    );
    let log = args.out.join("collectors-import.log");
    let timeout = Duration::from_secs(args.import_timeout_seconds);
    let url = format!("sqlite://{}", partial.display());
    let took = super::server::import(signalwatch, &url, &data.dir, &log, timeout).await?;
    eprintln!("bench: collectors: imported in {:.0} s", took.as_secs_f64());
    for suffix in ["", "-wal"] {
        let from = format!("{}{suffix}", partial.display());
        if Path::new(&from).is_file() {
            std::fs::rename(&from, format!("{}{suffix}", kept.display()))?;
        }
    }
    remove_database(&partial);
    Ok(kept)
}

/// Copies a SQLite database (with its write-ahead log, if one is left) to `to`, replacing
/// what is there. No process may have it open.
fn copy_database(from: &Path, to: &Path) -> anyhow::Result<()> {
    remove_database(to);
    let started = Instant::now();
    std::fs::copy(from, to).with_context(|| format!("copying {}", from.display()))?;
    let wal = format!("{}-wal", from.display());
    if Path::new(&wal).is_file() {
        std::fs::copy(&wal, format!("{}-wal", to.display()))?;
    }
    eprintln!(
        "bench: collectors: copied {} to {} in {:.1} s",
        from.display(),
        to.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn remove_database(file: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
}
