//! `signalwatch demo-data`: writes a deterministic synthetic data set as NDJSON import files.

use std::path::PathBuf;
use std::time::Instant;

use chrono::{DateTime, DurationRound, NaiveDate, TimeDelta, Utc};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::demo::{self, DemoOptions, FileSummary, Scale};

/// Options of `demo-data`.
#[derive(Debug, Args)]
pub struct DemoDataArgs {
    /// Size of the data set: s (2,000 companies), m (20,000) or l (200,000)
    #[arg(long, value_enum, default_value = "s")]
    pub scale: Scale,
    /// Random seed; the same scale, seed and anchor date give byte-identical files (with the
    /// default anchor, within the same UTC hour)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Directory to write the six .ndjson files into (created if missing)
    #[arg(long)]
    pub out: PathBuf,
    /// Last day (YYYY-MM-DD) of the two years the signals are spread over; nothing is dated after
    /// the start of the current UTC hour, so on today (the default, UTC) the data stops then
    #[arg(long = "anchor-date", alias = "anchor_date")]
    pub anchor_date: Option<NaiveDate>,
}

/// Generates the files with a progress bar on stderr, then prints one summary line.
pub fn run(args: DemoDataArgs) -> anyhow::Result<()> {
    let now = generation_moment(Utc::now());
    let options = DemoOptions {
        scale: args.scale,
        seed: args.seed,
        anchor: args.anchor_date.unwrap_or_else(|| now.date_naive()),
        now,
        out: args.out,
    };
    let progress = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "{spinner} {msg:20} [{bar:40}] {human_pos}/{human_len} rows ({per_sec}, eta {eta})",
        )?
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let files = demo::generate(&options, &progress)
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", options.out.display()))?;
    progress.finish_and_clear();
    println!(
        "{}",
        summary_line(&options, &files, started.elapsed().as_secs_f64())
    );
    Ok(())
}

fn summary_line(options: &DemoOptions, files: &[FileSummary], seconds: f64) -> String {
    let counts = files
        .iter()
        .map(|f| format!("{} {}", f.name.trim_end_matches(".ndjson"), f.rows))
        .collect::<Vec<_>>()
        .join(", ");
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    format!(
        "wrote {counts} ({:.1} MiB) to {} in {seconds:.1}s (seed {}, anchor {})",
        bytes as f64 / (1024.0 * 1024.0),
        options.out.display(),
        options.seed,
        options.anchor,
    )
}

/// The moment the data set is generated "at": the start of the current UTC hour. Nothing is dated
/// after it, and two runs within the hour write the same bytes.
fn generation_moment(now: DateTime<Utc>) -> DateTime<Utc> {
    now.duration_trunc(TimeDelta::hours(1)).unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_within_the_same_hour_are_generated_at_the_same_moment() {
        let at = |text: &str| text.parse::<DateTime<Utc>>().expect("instant");
        let start = at("2026-11-23T17:00:00Z");
        assert_eq!(generation_moment(at("2026-11-23T17:00:00Z")), start);
        assert_eq!(generation_moment(at("2026-11-23T17:59:59.999Z")), start);
        assert_eq!(
            generation_moment(at("2026-11-23T18:00:00.001Z")),
            at("2026-11-23T18:00:00Z")
        );
    }
}
