//! How a bulk load into SQLite writes: through a rollback journal instead of the write-ahead
//! log when nothing else holds the file open, and through the log when something does. Either
//! way the file is in WAL when the load ends, and a load killed while it writes is loaded again
//! whole by the next import.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::bulk_import::records_in;
use crate::lists_support::{ACQUISITIONS, COMPANIES, FUNDING, HIRING, JOB_CHANGES, url};
use crate::support::command::{CommandRun, signalwatch, start_signalwatch};
use crate::support::{Backend, TestApp};
use signalwatch::store::Db;

/// What the import says when it keeps the write-ahead log.
const KEPT_LOG: &str = "another connection holds the database open";

/// The lists and the import files whose records they list.
const LISTS: [(&str, &str); 5] = [
    (COMPANIES, "companies.ndjson"),
    (FUNDING, "funding.ndjson"),
    (HIRING, "hiring.ndjson"),
    (ACQUISITIONS, "acquisitions.ndjson"),
    (JOB_CHANGES, "job-changes.ndjson"),
];

/// A directory holding the `s` demo data set (thousands of records a file).
async fn demo_files() -> tempfile::TempDir {
    let files = tempfile::tempdir().expect("temp dir");
    let out = files.path().display().to_string();
    let written = signalwatch(files.path(), &["demo-data", "--scale", "s", "--out", &out]).await;
    assert!(written.success, "{written:?}");
    files
}

async fn import_creating(dir: &Path, database_url: &str) -> CommandRun {
    signalwatch(
        dir,
        &["import", "--create", "--database-url", database_url, "."],
    )
    .await
}

/// The database file of a `sqlite://` URL.
fn file_of(database_url: &str) -> String {
    database_url
        .strip_prefix("sqlite://")
        .expect("a SQLite URL")
        .to_string()
}

/// The journal mode the file is in, and the outcome of SQLite's integrity check, read through a
/// connection of the test's own.
async fn journal_and_integrity(database_url: &str) -> (String, String) {
    // The file's own mode, read before a connection opened here would set it.
    let header = header_of(database_url).expect("the database file's header");
    let db = Db::connect(database_url).await.expect("database");
    let Db::Sqlite(sqlite) = &db else {
        panic!("a SQLite database")
    };
    let mode = match (header[18], header[19]) {
        (2, 2) => "wal",
        (1, 1) => "rollback",
        _ => "unknown",
    };
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(sqlite.pool())
        .await
        .expect("integrity check");
    db.close().await;
    (mode.to_string(), integrity)
}

/// True while a transaction writes through a rollback journal into a file that was in WAL:
/// the journal holds pages, and the file's header says rollback journal. (A new file is given
/// its first page through a rollback journal too, before it is turned to WAL; its header cannot
/// be read until then.)
fn writing_without_log(database_url: &str) -> bool {
    let file = file_of(database_url);
    let journal = std::fs::metadata(format!("{file}-journal")).map(|m| m.len());
    matches!(journal, Ok(len) if len > 0)
        && header_of(database_url).is_some_and(|h| (h[18], h[19]) == (1, 1))
}

/// The first bytes of the database file, up to the journal mode's (bytes 18 and 19: 1 for a
/// rollback journal, 2 for WAL); `None` while the file is shorter.
fn header_of(database_url: &str) -> Option<[u8; 20]> {
    use std::io::Read;
    let mut header = [0u8; 20];
    let mut file = std::fs::File::open(file_of(database_url)).ok()?;
    file.read_exact(&mut header).ok()?;
    Some(header)
}

/// Checks that the file is in WAL and whole, then serves it and checks that each list holds
/// each record of its file once.
async fn assert_loaded_whole_in_wal(files: &Path, database_url: &str) {
    assert_eq!(
        journal_and_integrity(database_url).await,
        ("wal".to_string(), "ok".to_string())
    );
    let app = TestApp::start_on(database_url).await;
    let team = app.create_team_with(json!({ "credits": 100_000 })).await;
    for (path, file) in LISTS {
        let records = records_in(&files.join(file));
        let listed = app.get(&url(path, &[("count", "true")]), &team.key).await;
        assert_eq!(
            listed.body["pagination"]["totalCount"],
            json!(records),
            "{file}: each record once"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_nobody_else_holds_open_writes_without_the_log_and_ends_in_wal() {
    let files = demo_files().await;
    let database = Backend::Sqlite.fresh_database().await;

    let loaded = import_creating(files.path(), &database.url).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    assert!(!loaded.stdout.contains(KEPT_LOG), "{}", loaded.stdout);
    let file = file_of(&database.url);
    assert!(
        !Path::new(&format!("{file}-journal")).exists(),
        "the load's rollback journal is gone"
    );
    assert_loaded_whole_in_wal(files.path(), &database.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_beside_an_open_connection_keeps_the_log_and_says_so() {
    let files = demo_files().await;
    let fresh = Backend::Sqlite.fresh_database().await;
    let holder = Db::connect(&fresh.url).await.expect("database");
    holder.migrate().await.expect("migrated");
    let Db::Sqlite(sqlite) = &holder else {
        panic!("a SQLite database")
    };
    let mut held = sqlite.pool().acquire().await.expect("a connection");
    let _: i64 = sqlx::query_scalar("SELECT count(*) FROM companies")
        .fetch_one(&mut *held)
        .await
        .expect("a read");

    let loaded = signalwatch(files.path(), &["import", "--database-url", &fresh.url, "."]).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    assert!(loaded.stdout.contains(KEPT_LOG), "{}", loaded.stdout);
    drop(held);
    holder.close().await;
    assert_loaded_whole_in_wal(files.path(), &fresh.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_killed_while_it_writes_is_loaded_again_whole_by_the_next_import() {
    let files = demo_files().await;
    let database = Backend::Sqlite.fresh_database().await;
    let create = ["import", "--create", "--database-url", &database.url, "."];

    let mut running = start_signalwatch(files.path(), &create);
    // Killed while a transaction of the load has copied pages into the rollback journal.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !writing_without_log(&database.url) {
        assert!(
            running.is_running(),
            "the import ended before it could be killed"
        );
        assert!(
            Instant::now() < deadline,
            "no transaction wrote its journal"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    running.kill();

    let again = import_creating(files.path(), &database.url).await;

    assert!(again.success, "{again:?}");
    assert!(
        again.stdout.contains("interrupted bulk load"),
        "{}",
        again.stdout
    );
    assert_loaded_whole_in_wal(files.path(), &database.url).await;
}
