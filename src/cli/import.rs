//! `signalwatch import DIR_OR_FILE`: loads NDJSON files of companies, people and signals with a
//! progress bar; same effects as the admin API.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::config::DatabaseArgs;
use crate::service::imports::{import_file, plan_files};
use crate::store::Db;

/// Options of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// A directory of import files (companies.ndjson, people.ndjson, funding.ndjson,
    /// hiring.ndjson, acquisitions.ndjson, job-changes.ndjson) or one such file
    pub path: PathBuf,
}

/// Imports every file and prints a summary line per file.
pub async fn run(args: ImportArgs) -> anyhow::Result<()> {
    let db = Db::connect(&args.database.database_url).await?;
    db.migrate().await?;
    let started = Instant::now();
    let mut total = 0usize;
    for (path, kind) in plan_files(&args.path)? {
        let size = std::fs::metadata(&path)?.len();
        let bar = ProgressBar::new(size).with_message(path.display().to_string());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {bytes}/{total_bytes} {elapsed} eta {eta}",
            )?
            .progress_chars("=> "),
        );
        let file_started = Instant::now();
        let report = import_file(&db, &path, kind, |read| bar.set_position(read)).await?;
        bar.finish_and_clear();
        let secs = file_started.elapsed().as_secs_f64().max(0.001);
        println!(
            "{}: {} records, {} stored, {} invalid, {:.0} records/s",
            report.file,
            report.records,
            report.stored,
            report.invalid,
            report.records as f64 / secs
        );
        for err in &report.errors {
            println!("  line {}: {}", err.index, err.error);
        }
        total += report.records;
    }
    db.analyze().await?;
    let secs = started.elapsed().as_secs_f64().max(0.001);
    println!(
        "imported {total} records in {secs:.1}s ({:.0} records/s)",
        total as f64 / secs
    );
    db.close().await;
    Ok(())
}
