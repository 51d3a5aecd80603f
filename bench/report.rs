//! The markdown report: one summary table with the targets, then per-request latencies,
//! failures and the import output.

use std::fmt::Write;
use std::time::Duration;

use super::dataset::Dataset;
use super::load::{Sequential, Throughput, percentile};
use super::mix::MixRequest;
use super::server::Memory;

/// Everything measured on one backend.
pub struct BackendResult {
    pub backend: &'static str,
    pub import_time: Duration,
    pub import_output: String,
    pub db_size: Option<u64>,
    pub memory_after_start: Memory,
    pub sequential: Sequential,
    pub mix: Throughput,
    pub health: Throughput,
    pub memory_at_end: Memory,
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

fn ms(d: Duration) -> String {
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
            Box::new(move |r| {
                let rate = records / r.import_time.as_secs_f64().max(1e-9);
                format!("{} ({})", thousands(rate), mark(rate >= 50_000.0))
            }),
        ),
        (
            format!("import wall time ({} records)", thousands(records)),
            "",
            Box::new(|r| format!("{:.1} s", r.import_time.as_secs_f64())),
        ),
        (
            "mix p50, 1 client (ms)".into(),
            "≤ 5",
            Box::new(|r| {
                let p = percentile(&r.all_sequential(), 50.0);
                format!("{} ({})", ms(p), mark(p <= Duration::from_millis(5)))
            }),
        ),
        (
            "mix p99, 1 client (ms)".into(),
            "≤ 50",
            Box::new(|r| {
                let p = percentile(&r.all_sequential(), 99.0);
                format!("{} ({})", ms(p), mark(p <= Duration::from_millis(50)))
            }),
        ),
        (
            "mix cold round (first answers), p50 / max (ms)".into(),
            "",
            Box::new(|r| {
                let cold = &r.sequential.cold;
                format!(
                    "{} / {}",
                    ms(percentile(cold, 50.0)),
                    ms(percentile(cold, 100.0))
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
    per_request(&mut out, ctx, results);
    failures_and_imports(&mut out, results);
    out
}

fn per_request(out: &mut String, ctx: &Context, results: &[BackendResult]) {
    let _ = writeln!(out, "\n## Single-client latency per request (ms)\n");
    let _ = writeln!(
        out,
        "`cold` is the first answer after the server started (warm-up round, not in p50/p99).\n"
    );
    let _ = write!(out, "| request |");
    for r in results {
        let _ = write!(out, " {0} cold | {0} p50 | {0} p99 |", r.backend);
    }
    let _ = writeln!(out, "\n|---|{}", "---:|---:|---:|".repeat(results.len()));
    for (i, request) in ctx.mix.iter().enumerate() {
        let _ = write!(out, "| {} |", request.name);
        for r in results {
            let samples = &r.sequential.per_request[i];
            let cold = r.sequential.cold[i];
            let (p50, p99) = (percentile(samples, 50.0), percentile(samples, 99.0));
            let _ = write!(out, " {} | {} | {} |", ms(cold), ms(p50), ms(p99));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nRequests:\n");
    for request in ctx.mix {
        let _ = writeln!(out, "- {}: `{}`", request.name, request.path_and_query);
    }
}

fn failures_and_imports(out: &mut String, results: &[BackendResult]) {
    for r in results {
        let all = [&r.sequential.failures, &r.mix.failures, &r.health.failures];
        if all.iter().any(|f| f.count > 0) {
            let _ = writeln!(out, "\n## Failures on {}\n", r.backend);
            for f in all.iter().flat_map(|f| f.first.iter()) {
                let _ = writeln!(out, "- `{f}`");
            }
        }
        let _ = writeln!(
            out,
            "\n## Import output on {}\n\n```\n{}```",
            r.backend, r.import_output
        );
    }
}
