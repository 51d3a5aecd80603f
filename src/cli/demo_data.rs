//! `signalwatch demo-data`: writes a deterministic synthetic data set as NDJSON import files.

use std::path::PathBuf;
use std::time::Instant;

use chrono::{NaiveDate, Utc};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::demo::{self, DemoOptions, FileSummary, Scale};

/// Options of `demo-data`.
#[derive(Debug, Args)]
pub struct DemoDataArgs {
    /// Size of the data set: s (2,000 companies), m (20,000) or l (200,000)
    #[arg(long, value_enum, default_value = "s")]
    pub scale: Scale,
    /// Random seed; the same scale, seed and a past anchor date give byte-identical files
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Directory to write the six .ndjson files into (created if missing)
    #[arg(long)]
    pub out: PathBuf,
    /// Last day (YYYY-MM-DD) of the two years the signals are spread over; nothing is dated after
    /// the moment of generation, so on today (the default, UTC) the data stops at the current time
    #[arg(long = "anchor-date", alias = "anchor_date")]
    pub anchor_date: Option<NaiveDate>,
}

/// Generates the files with a progress bar on stderr, then prints one summary line.
pub fn run(args: DemoDataArgs) -> anyhow::Result<()> {
    let now = Utc::now();
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
