//! `signalwatch import DIR_OR_FILE`: loads NDJSON files of companies, people and signals with a
//! progress bar; same effects as the admin API. Re-importing a file changes nothing new (signals
//! are matched by id, external id or natural key). Exits non-zero when any record was refused.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::database;
use crate::config::DatabaseArgs;
use crate::service::imports::{import_file, plan_files};

/// Options of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Create the SQLite database file when it does not exist (otherwise a missing file is an
    /// error)
    #[arg(long)]
    pub create: bool,
    /// A directory of import files (companies.ndjson, people.ndjson, funding.ndjson,
    /// hiring.ndjson, acquisitions.ndjson, job-changes.ndjson) or one such file
    pub path: PathBuf,
}

/// Imports every file and prints a summary line per file, then the refused records.
pub async fn run(args: ImportArgs) -> anyhow::Result<()> {
    // The files first: a wrong path is reported before any database is opened or created.
    let files = plan_files(&args.path)?;
    let db = database::open(&args.database.database_url, args.create).await?;
    let started = Instant::now();
    let (mut total, mut refused) = (0usize, 0usize);
    for (path, kind) in files {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let bar = ProgressBar::new(size).with_message(path.display().to_string());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {bytes}/{total_bytes} {elapsed} eta {eta}",
            )?
            .progress_chars("=> "),
        );
        let file_started = Instant::now();
        let report = import_file(&db, &path, kind, |read| bar.set_position(read)).await;
        bar.finish_and_clear();
        let report = match report {
            Ok(report) => report,
            Err(err) => {
                db.close().await;
                return Err(err);
            }
        };
        let secs = file_started.elapsed().as_secs_f64().max(0.001);
        println!(
            "{}: {} records, {} stored, {} refused, {:.0} records/s",
            report.file,
            report.records,
            report.stored,
            report.invalid,
            report.records as f64 / secs
        );
        for err in &report.errors {
            println!("  line {}: {}", err.index, err.error);
        }
        if report.invalid > report.errors.len() {
            println!(
                "  … and {} more refused records",
                report.invalid - report.errors.len()
            );
        }
        total += report.records;
        refused += report.invalid;
    }
    db.analyze().await?;
    db.close().await;
    let secs = started.elapsed().as_secs_f64().max(0.001);
    println!(
        "imported {total} records in {secs:.1}s ({:.0} records/s)",
        total as f64 / secs
    );
    anyhow::ensure!(
        refused == 0,
        "{refused} of {total} records were refused (listed above); the others were stored"
    );
    Ok(())
}
