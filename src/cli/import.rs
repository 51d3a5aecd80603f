//! `signalwatch import DIR_OR_FILE`: loads NDJSON files of companies, people and signals with a
//! progress bar; same effects as the admin API. Re-importing a file changes nothing new (signals
//! are matched by id, external id or natural key). Exits non-zero when any record was refused.
//!
//! Into a database without data (no companies, people or signals, no monitors or webhooks) that
//! no server is running on, the load goes in bulk: rows first, then the indexes are built (see
//! `service::bulk_load`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::database;
use crate::config::DatabaseArgs;
use crate::service::bulk_load::{
    BulkLoad, HALF_LOADED, LoadPath, Ordinary, begin_import, wait_for_turn,
};
use crate::service::imports::{FileKind, FileReport, Loading, import_file_as, plan_files};
use crate::store::{Db, TableSizes};

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
    let db = database::open_unmigrated(&args.database.database_url, args.create).await?;
    let outcome = import_all(&db, &files).await;
    db.close().await;
    let (total, refused) = outcome?;
    anyhow::ensure!(
        refused == 0,
        "{refused} of {total} records were refused (listed above); the others were stored"
    );
    Ok(())
}

/// Waits until no other import writes to the database, then brings its schema up to date and
/// loads the files; returns the records read and refused. The turn comes first: migrating
/// waits for the write lock of an import under way, which would keep this one waiting without
/// saying so.
async fn import_all(db: &Db, files: &[(PathBuf, FileKind)]) -> anyhow::Result<(usize, usize)> {
    let turn = wait_for_turn(db, || {
        println!("another import into this database is running: waiting for it to end")
    })
    .await?;
    let outcome = async {
        database::migrate(db).await?;
        import_in_turn(db, files).await
    }
    .await;
    turn.release().await;
    outcome
}

/// Loads the files in bulk or the ordinary way; returns the records read and refused.
async fn import_in_turn(db: &Db, files: &[(PathBuf, FileKind)]) -> anyhow::Result<(usize, usize)> {
    let started = Instant::now();
    let path = begin_import(db).await?;
    let bulk = match path {
        LoadPath::Bulk(load) => {
            // A load frees as fast as it allocates: memory handed back to the system a second
            // after was cleared again page by page for the next batches (with the loading
            // connection's page cache sized for it, the peak stays as before).
            sqlite_memory::keep_freed_memory();
            if load.restarted {
                println!(
                    "an interrupted bulk load was found: its rows were deleted, loading again"
                );
            }
            println!(
                "bulk load: the database holds no data, so rows are loaded first and the \
                 indexes built after"
            );
            Some(load)
        }
        LoadPath::Ordinary(why) => {
            let because = match why {
                Ordinary::HoldsData => "the database holds data, monitors or webhooks",
                Ordinary::Served => {
                    "a server is running on this database (stop it for a bulk load)"
                }
            };
            println!("{because}: records are stored batch by batch, as the admin API stores them");
            None
        }
    };
    let outcome = match &bulk {
        Some(load) => load_in_bulk(db, load, files).await,
        None => load_ordinarily(db, files).await,
    };
    if let Some(load) = bulk {
        load.close().await;
        if outcome.is_err() {
            eprintln!("{HALF_LOADED}");
        }
    }
    let (total, refused) = outcome?;
    let secs = started.elapsed().as_secs_f64().max(0.001);
    println!(
        "imported {total} records in {secs:.1}s ({:.0} records/s)",
        total as f64 / secs
    );
    Ok((total, refused))
}

/// A bulk load: the files, then the indexes and the statistics.
async fn load_in_bulk(
    db: &Db,
    load: &BulkLoad,
    files: &[(PathBuf, FileKind)],
) -> anyhow::Result<(usize, usize)> {
    let counts = load_files(db, Some(load), files).await?;
    finish_bulk(load).await?;
    Ok(counts)
}

/// An ordinary import: the files, then the statistics of the tables they grew noticeably
/// (measured before, so that a small import into a large database analyzes nothing).
async fn load_ordinarily(db: &Db, files: &[(PathBuf, FileKind)]) -> anyhow::Result<(usize, usize)> {
    let sizes = db.table_sizes().await?;
    let counts = load_files(db, None, files).await?;
    refresh_statistics(db, &sizes).await?;
    Ok(counts)
}

/// Loads each file in order; returns the records read and refused.
async fn load_files(
    db: &Db,
    bulk: Option<&BulkLoad>,
    files: &[(PathBuf, FileKind)],
) -> anyhow::Result<(usize, usize)> {
    let (mut total, mut refused) = (0usize, 0usize);
    for (path, kind) in files {
        let (target, loading) = match bulk {
            Some(load) => (load.db(), load.loading(*kind).await?),
            None => (db, Loading::ordinary()),
        };
        let report = load_file(target, path, *kind, loading).await?;
        total += report.records;
        refused += report.invalid;
    }
    Ok((total, refused))
}

/// Loads one file under a progress bar and prints its summary and refused records.
async fn load_file(
    db: &Db,
    path: &Path,
    kind: FileKind,
    loading: Loading,
) -> anyhow::Result<FileReport> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let bar = ProgressBar::new(size).with_message(path.display().to_string());
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {elapsed} eta {eta}")?
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let report = import_file_as(db, path, kind, loading, |read| bar.set_position(read)).await;
    bar.finish_and_clear();
    let report = report?;
    let secs = started.elapsed().as_secs_f64().max(0.001);
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
    Ok(report)
}

/// Moves a bulk load's staged company and tag rows in, merges its search tables (the staged
/// ones in the background), builds its indexes, copies the staged search tables in, refreshes
/// the planner's statistics and puts the database on disk.
async fn finish_bulk(load: &BulkLoad) -> anyhow::Result<()> {
    timed(
        "moving the staged company and tag rows",
        load.move_staged_links(),
    )
    .await?;
    timed("merging search tables", load.merge_search_tables()).await?;
    timed("building indexes", async {
        load.build_indexes().await.map(|_| ())
    })
    .await?;
    timed(
        "copying the staged search tables",
        load.copy_search_tables(),
    )
    .await?;
    timed("ANALYZE", load.analyze()).await?;
    timed("writing to disk", load.sync_to_disk()).await
}

/// After an ordinary import: analyzes the tables it grew by a tenth or more, and says which.
async fn refresh_statistics(db: &Db, sizes: &TableSizes) -> anyhow::Result<()> {
    let started = Instant::now();
    let refreshed = db.refresh_statistics(sizes).await?;
    let secs = started.elapsed().as_secs_f64();
    if refreshed.everything {
        println!("ANALYZE: {secs:.1}s");
    } else if refreshed.tables.is_empty() {
        println!("ANALYZE: not needed, no table grew by a tenth or more");
    } else {
        println!("ANALYZE ({}): {secs:.1}s", refreshed.tables.join(", "));
    }
    Ok(())
}

/// Runs one closing step under a spinner and prints how long it took.
async fn timed<E>(what: &str, step: impl Future<Output = Result<(), E>>) -> anyhow::Result<()>
where
    anyhow::Error: From<E>,
{
    let spinner = ProgressBar::new_spinner().with_message(what.to_string());
    spinner.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}")?);
    spinner.enable_steady_tick(Duration::from_millis(200));
    let started = Instant::now();
    let outcome = step.await;
    spinner.finish_and_clear();
    outcome?;
    println!("{what}: {:.1}s", started.elapsed().as_secs_f64());
    Ok(())
}
