//! The collectors report: one table of board passes and one of SEC runs, with what bounds them.

use std::time::Duration;

/// One timed pass of the Greenhouse collector.
#[derive(Debug, Clone)]
pub struct BoardPass {
    pub label: String,
    pub boards: u64,
    pub postings: u64,
    pub created: u64,
    pub failed: Option<String>,
    /// Board requests the local Greenhouse answered during the pass.
    pub requests: u64,
    pub wall: Duration,
    /// CPU seconds of the server process during the pass.
    pub cpu: f64,
    /// Seconds per stage so far (`signalwatch_collector_stage_seconds_sum`, cumulative).
    pub stages: Vec<(String, f64)>,
    /// Distinct deliveries at the receiver afterwards, and how long after the pass the last one
    /// came.
    pub delivered: Option<(usize, Duration)>,
}

/// The `sec-form-d` collector over a number of filings, one pass per feed batch.
#[derive(Debug, Clone, Default)]
pub struct SecRun {
    pub label: String,
    pub filings: u64,
    pub read: u64,
    pub created: u64,
    pub errors: Vec<String>,
    pub requests: u64,
    pub wall: Duration,
    pub cpu: f64,
    /// Seconds per stage during the run.
    pub stages: Vec<(String, f64)>,
}

impl SecRun {
    fn stage(&self, name: &str) -> f64 {
        self.stages
            .iter()
            .find(|(s, _)| s == name)
            .map_or(0.0, |(_, t)| *t)
    }
}

/// Everything the report names.
pub struct Run {
    pub command: String,
    pub build: String,
    pub machine: String,
    pub database: String,
    pub load: (String, String),
    pub boards: usize,
    pub postings: usize,
    pub changed_percent: usize,
    pub passes: Vec<BoardPass>,
    pub sec: Vec<SecRun>,
}

fn per_second(count: u64, wall: Duration) -> f64 {
    count as f64 / wall.as_secs_f64().max(1e-9)
}

/// The markdown report.
pub fn render(run: &Run) -> String {
    let mut out = format!(
        "# Collectors benchmark\n\n`{}`\n\nBuild: {}. Machine: {}. Database: a copy of {}. \
         Load average before / after: {} / {}.\n\n",
        run.command, run.build, run.machine, run.database, run.load.0, run.load.1
    );
    out.push_str(&format!(
        "## Job boards (Greenhouse, {} boards × {} postings, {} % new before each later pass)\n\n",
        run.boards, run.postings, run.changed_percent
    ));
    out.push_str(
        "| pass | boards | postings read | signals created | requests | wall | server CPU | \
         signals/s | boards/s | failures | deliveries after |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
    );
    for p in &run.passes {
        let delivered = p.delivered.map_or(String::from("-"), |(n, after)| {
            format!(
                "{n} in all, last {:.1} s after the pass",
                after.as_secs_f64()
            )
        });
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.1} s | {:.1} s ({:.0} %) | {:.0} | {:.1} | {} | {} |\n",
            p.label,
            p.boards,
            p.postings,
            p.created,
            p.requests,
            p.wall.as_secs_f64(),
            p.cpu,
            100.0 * p.cpu / p.wall.as_secs_f64().max(1e-9),
            per_second(p.created, p.wall),
            per_second(p.boards, p.wall),
            p.failed.as_deref().unwrap_or("none"),
            delivered,
        ));
    }
    if let Some(polite) = run.passes.iter().find(|p| p.label.contains("real")) {
        let rate = per_second(polite.boards, polite.wall);
        out.push_str(&format!(
            "\nAt the real politeness ({:.2} boards/s over {} boards, one host) a pass over {} \
             boards takes {:.0} s.\n",
            rate,
            polite.boards,
            run.boards,
            run.boards as f64 / rate.max(1e-9)
        ));
    }
    out.push_str("\nStage seconds (cumulative since the server started, per pass end):\n\n");
    for p in &run.passes {
        out.push_str(&format!("- {}: {}\n", p.label, stages(&p.stages)));
    }
    out.push_str("\n## SEC Form D\n\n");
    out.push_str(
        "| run | filings | read | rounds created | requests | wall | filings/s | server CPU | \
         match | fetch (+ wait) | parse | ingest | match share of wall | errors |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for s in &run.sec {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.1} s | {:.1} | {:.1} s | {:.1} s | {:.1} s (+ {:.1} s) | {:.1} s | {:.1} s | {:.0} % | {} |\n",
            s.label,
            s.filings,
            s.read,
            s.created,
            s.requests,
            s.wall.as_secs_f64(),
            per_second(s.read, s.wall),
            s.cpu,
            s.stage("match"),
            s.stage("fetch"),
            s.stage("wait"),
            s.stage("parse"),
            s.stage("ingest"),
            100.0 * s.stage("match") / s.wall.as_secs_f64().max(1e-9),
            match s.errors.len() {
                0 => "none".to_string(),
                n => format!("{n} passes with errors; last: {}", s.errors[n - 1]),
            },
        ));
    }
    out
}

fn stages(stages: &[(String, f64)]) -> String {
    stages
        .iter()
        .map(|(s, t)| format!("{s} {t:.1} s"))
        .collect::<Vec<_>>()
        .join(", ")
}
