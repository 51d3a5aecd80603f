//! The markdown report: one summary table with the targets, then per-request latencies,
//! failures and the import output.

use std::fmt::Write;
use std::time::Duration;

use super::dataset::Dataset;
use super::enrichment::{Enrichment, ROWS};
use super::load::{Sequential, Throughput, percentile};
use super::mix::MixRequest;
use super::server::Memory;

/// Everything measured on one backend.
pub struct BackendResult {
    /// The backend, and the topology when not one process.
    pub backend: String,
    /// Import wall time and output; `None` for a further topology on the same database.
    pub import: Option<(Duration, String)>,
    pub db_size: Option<u64>,
    pub memory_after_start: Memory,
    pub sequential: Sequential,
    pub mix: Throughput,
    pub health: Throughput,
    pub enrichment: Enrichment,
    pub memory_at_end: Memory,
    /// The load average before and after the measuring phases.
    pub load: (String, String),
    /// CPU time the server processes used in each phase.
    pub cpu: CpuUse,
    /// The team's balance around the phase at `connections` connections.
    pub credits: CreditCheck,
}

/// CPU time (user + system, every server process) used during each measuring phase.
#[derive(Debug, Clone, Copy)]
pub struct CpuUse {
    pub sequential: Duration,
    pub mix: Duration,
    pub health: Duration,
}

/// Credits under load: the balance before and after the concurrent mix, and the answers that
/// said they were charged. Exact when `before - charged == after`.
#[derive(Debug, Clone, Copy)]
pub struct CreditCheck {
    pub before: i64,
    pub charged: u64,
    pub after: i64,
}

impl CreditCheck {
    /// The balance the charged answers leave.
    pub fn expected(&self) -> i64 {
        self.before - self.charged as i64
    }

    /// Whether the balance moved by exactly the charged answers.
    pub fn exact(&self) -> bool {
        self.expected() == self.after
    }
}

/// Server CPU milliseconds per answer of a phase.
fn cpu_ms_per_request(cpu: Duration, answers: usize) -> String {
    format!("{:.3}", cpu.as_secs_f64() * 1000.0 / answers.max(1) as f64)
}

impl BackendResult {
    fn all_sequential(&self) -> Vec<Duration> {
        self.sequential
            .per_request
            .iter()
            .flatten()
            .copied()
            .collect()
    }
    fn failures(&self) -> u64 {
        self.sequential.failures.count + self.mix.failures.count + self.health.failures.count
    }
}

/// The run's context for the header.
pub struct Context<'a> {
    pub scale: &'a str,
    pub command: String,
    pub data: &'a Dataset,
    pub mix: &'a [MixRequest],
    pub connections: usize,
    /// Which signalwatch build was measured.
    pub build: String,
}

/// Milliseconds with two decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

fn mb(bytes: u64) -> String {
    format!("{:.0}", bytes as f64 / 1e6)
}

fn thousands(n: f64) -> String {
    let digits = format!("{:.0}", n);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn mark(met: bool) -> &'static str {
    if met { "met" } else { "**missed**" }
}

/// A summary row: label, target, and per backend the figure (with whether it meets the target).
type Row = (String, &'static str, Box<dyn Fn(&BackendResult) -> String>);

fn rows(ctx: &Context) -> Vec<Row> {
    let records = ctx.data.total_records() as f64;
    let conns = ctx.connections;
    vec![
        (
            "import rate (records/s)".into(),
            "≥ 50,000",
            Box::new(move |r| match &r.import {
                Some((time, _)) => {
                    let rate = records / time.as_secs_f64().max(1e-9);
                    format!("{} ({})", thousands(rate), mark(rate >= 50_000.0))
                }
                None => "(same database)".into(),
            }),
        ),
        (
            format!("import wall time ({} records)", thousands(records)),
            "",
            Box::new(|r| match &r.import {
                Some((time, _)) => format!("{:.1} s", time.as_secs_f64()),
                None => "—".into(),
            }),
        ),
        (
            "mix p50, 1 client (ms)".into(),
            "≤ 2",
            Box::new(|r| {
                let p = percentile(&r.all_sequential(), 50.0);
                format!("{} ({})", ms(p), mark(p <= Duration::from_millis(2)))
            }),
        ),
        (
            "mix p99, 1 client (ms)".into(),
            "≤ 25",
            Box::new(|r| {
                let p = percentile(&r.all_sequential(), 99.0);
                format!("{} ({})", ms(p), mark(p <= Duration::from_millis(25)))
            }),
        ),
        (
            "mix cold round (first answers), p50 / max (ms)".into(),
            "max ≤ 250",
            Box::new(|r| {
                let cold = &r.sequential.cold;
                let max = percentile(cold, 100.0);
                format!(
                    "{} / {} ({})",
                    ms(percentile(cold, 50.0)),
                    ms(max),
                    mark(max <= Duration::from_millis(250))
                )
            }),
        ),
        (
            "mix throughput, 1 client (req/s)".into(),
            "",
            Box::new(|r| {
                let all = r.all_sequential();
                let busy: f64 = all.iter().map(Duration::as_secs_f64).sum();
                format!("{:.1}", all.len() as f64 / busy.max(1e-9))
            }),
        ),
        (
            format!("mix throughput, {conns} connections (req/s)"),
            "≥ 2,000",
            Box::new(|r| {
                let rate = r.mix.per_second();
                format!("{} ({})", thousands(rate), mark(rate >= 2_000.0))
            }),
        ),
        (
            format!("mix p50 / p99 under {conns} connections (ms)"),
            "",
            Box::new(|r| {
                let (p50, p99) = (
                    percentile(&r.mix.latencies, 50.0),
                    percentile(&r.mix.latencies, 99.0),
                );
                format!("{} / {}", ms(p50), ms(p99))
            }),
        ),
        (
            "server CPU per answer: 1 client / mix at connections / `/health` (ms)".into(),
            "",
            Box::new(|r| {
                format!(
                    "{} / {} / {}",
                    cpu_ms_per_request(
                        r.cpu.sequential,
                        r.all_sequential().len() + r.sequential.cold.len(),
                    ),
                    cpu_ms_per_request(r.cpu.mix, r.mix.latencies.len()),
                    cpu_ms_per_request(r.cpu.health, r.health.latencies.len())
                )
            }),
        ),
        (
            format!("credits after {conns} connections: start − charged answers = balance"),
            "exact",
            Box::new(|r| {
                let c = r.credits;
                format!(
                    "{} − {} = {}; balance {} ({})",
                    c.before,
                    c.charged,
                    c.expected(),
                    c.after,
                    mark(c.exact())
                )
            }),
        ),
        (
            format!("`/health` throughput, {conns} connections (req/s): the ceiling"),
            "",
            Box::new(|r| thousands(r.health.per_second())),
        ),
        (
            "mix throughput / `/health` throughput".into(),
            "",
            Box::new(|r| {
                format!(
                    "{:.1} %",
                    100.0 * r.mix.per_second() / r.health.per_second().max(1e-9)
                )
            }),
        ),
        (
            "server RSS peak, VmHWM (MB)".into(),
            "≤ 300",
            Box::new(|r| {
                format!(
                    "{} ({})",
                    mb(r.memory_at_end.peak),
                    mark(r.memory_at_end.peak <= 300_000_000)
                )
            }),
        ),
        (
            "server RSS after start / at end, VmRSS (MB)".into(),
            "",
            Box::new(|r| {
                format!(
                    "{} / {}",
                    mb(r.memory_after_start.rss),
                    mb(r.memory_at_end.rss)
                )
            }),
        ),
        (
            format!(
                "CSV enrichment, {} rows: submit → completed, median (ms)",
                ROWS
            ),
            "≤ 1,000",
            Box::new(|r| {
                let p = percentile(&r.enrichment.jobs, 50.0);
                format!("{} ({})", ms(p), mark(p <= Duration::from_secs(1)))
            }),
        ),
        (
            "CSV enrichment: jobs, min / max (ms), matched rows per job".into(),
            "",
            Box::new(|r| {
                let jobs = &r.enrichment.jobs;
                let failed = match &r.enrichment.error {
                    Some(e) => format!("; **failed**: {e}"),
                    None => String::new(),
                };
                format!(
                    "{}, {} / {}, {:?}{failed}",
                    jobs.len(),
                    ms(percentile(jobs, 0.0)),
                    ms(percentile(jobs, 100.0)),
                    r.enrichment.matched
                )
            }),
        ),
        (
            "load average (1/5/15 min) before / after the measuring phases".into(),
            "",
            Box::new(|r| format!("{} / {}", r.load.0, r.load.1)),
        ),
        (
            "database size on disk (MB)".into(),
            "",
            Box::new(|r| r.db_size.map(mb).unwrap_or_else(|| "?".into())),
        ),
        (
            "failed requests (all phases)".into(),
            "0",
            Box::new(|r| r.failures().to_string()),
        ),
    ]
}

/// Renders the whole report.
pub fn render(ctx: &Context, machine: &str, results: &[BackendResult]) -> String {
    let mut out = String::new();
    let date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC");
    let _ = writeln!(
        out,
        "# signalwatch benchmark: scale `{}`, {date}\n",
        ctx.scale
    );
    let _ = writeln!(out, "Command: `{}`  \nMachine: {machine}  ", ctx.command);
    let _ = writeln!(out, "Measured: {}  ", ctx.build);
    let counts: Vec<String> = ctx
        .data
        .counts
        .iter()
        .map(|(f, n)| format!("{} {}", f.trim_end_matches(".ndjson"), thousands(*n as f64)))
        .collect();
    let _ = writeln!(
        out,
        "Data set: {} ({})  ",
        counts.join(", "),
        ctx.data.dir.display()
    );
    let rounds: Vec<String> = results
        .iter()
        .map(|r| format!("{} {}", r.backend, r.sequential.rounds))
        .collect();
    let _ = writeln!(
        out,
        "Mix: {} GET requests; single-client rounds: {}\n",
        ctx.mix.len(),
        rounds.join(", ")
    );
    let _ = write!(out, "| figure | target (SQLite) |");
    for r in results {
        let _ = write!(out, " {} |", r.backend);
    }
    let _ = writeln!(out, "\n|---|---|{}", "---:|".repeat(results.len()));
    for (label, target, figure) in rows(ctx) {
        let _ = write!(out, "| {label} | {target} |");
        for r in results {
            let _ = write!(out, " {} |", figure(r));
        }
        out.push('\n');
    }
    super::report_detail::per_request(&mut out, ctx, results);
    super::report_detail::failures_and_imports(&mut out, results);
    out
}
