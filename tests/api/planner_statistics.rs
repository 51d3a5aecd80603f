//! SQLite's planner trusts the statistics `ANALYZE` leaves. A table analyzed while empty (the
//! deliveries, events and collector tables of a freshly imported database) must not stay
//! recorded as empty, or once it fills, joins on it walk the whole table instead of looking rows
//! up by key. An import leaves no such statistics, and a database analyzed before is mended when
//! the service starts.

use serde_json::Value;

use crate::lists_support::{companies, funding_rounds};
use crate::support::command::signalwatch;
use crate::support::{Backend, TestApp};
use signalwatch::store::Db;

/// The tables the statistics record as holding no rows, and how many tables they record at all.
async fn statistics(database_url: &str) -> (Vec<String>, i64) {
    let db = Db::connect(database_url).await.expect("database");
    let Db::Sqlite(sqlite) = &db else {
        panic!("SQLite only")
    };
    let empty: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT tbl FROM sqlite_stat1 WHERE stat = '0' OR stat LIKE '0 %' ORDER BY tbl",
    )
    .fetch_all(sqlite.pool())
    .await
    .expect("sqlite_stat1");
    let recorded: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT tbl) FROM sqlite_stat1")
        .fetch_one(sqlite.pool())
        .await
        .expect("sqlite_stat1");
    db.close().await;
    (empty, recorded)
}

fn ndjson(records: Value) -> String {
    let records = records.as_array().cloned().expect("records");
    records.iter().map(|r| format!("{r}\n")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_never_records_a_table_as_empty_for_the_planner() {
    let database = Backend::Sqlite.fresh_database().await;
    let files = tempfile::tempdir().expect("temp dir");
    std::fs::write(files.path().join("companies.ndjson"), ndjson(companies())).expect("file");
    std::fs::write(
        files.path().join("funding.ndjson"),
        ndjson(funding_rounds()),
    )
    .expect("file");

    let run = signalwatch(
        files.path(),
        &["import", "--create", "--database-url", &database.url, "."],
    )
    .await;

    assert!(run.success, "{run:?}");
    assert!(run.stdout.contains("ANALYZE"), "{}", run.stdout);
    let (empty, recorded) = statistics(&database.url).await;
    assert!(recorded > 0, "the import analyzed the loaded tables");
    assert_eq!(empty, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_analyzed_while_its_tables_were_empty_is_mended_when_the_service_starts() {
    let database = Backend::Sqlite.fresh_database().await;
    let db = Db::connect(&database.url).await.expect("database");
    db.migrate().await.expect("migrations");
    if let Db::Sqlite(sqlite) = &db {
        sqlx::query("ANALYZE")
            .execute(sqlite.pool())
            .await
            .expect("ANALYZE");
    }
    db.close().await;
    let (before, _) = statistics(&database.url).await;
    assert!(
        before.iter().any(|t| t == "deliveries"),
        "analyzed empty: {before:?}"
    );

    // Started means ready: the migrations ran, and the statistics were mended after them.
    let _app = TestApp::start_on(&database.url).await;

    let (after, _) = statistics(&database.url).await;
    assert_eq!(after, Vec::<String>::new());
}

/// `count` companies with names and domains numbered from `first`.
fn numbered_companies(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| {
            let record = serde_json::json!({
                "name": format!("Numbered Company {n}"),
                "website": format!("https://numbered-{n}.example"),
                "industry": "Software",
                "headquartersCountry": "DE",
            });
            format!("{record}\n")
        })
        .collect()
}

/// The statistics recorded of `table`, index by index.
async fn table_statistics(database_url: &str, table: &str) -> Vec<(Option<String>, String)> {
    let db = Db::connect(database_url).await.expect("database");
    let Db::Sqlite(sqlite) = &db else {
        panic!("SQLite only")
    };
    let rows = sqlx::query_as("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx")
        .bind(table)
        .fetch_all(sqlite.pool())
        .await
        .expect("sqlite_stat1");
    db.close().await;
    rows
}

/// Imports `companies` (NDJSON) into the database, as a file of its own directory.
async fn import_companies(
    database_url: &str,
    companies: String,
) -> crate::support::command::CommandRun {
    let files = tempfile::tempdir().expect("temp dir");
    std::fs::write(files.path().join("companies.ndjson"), companies).expect("file");
    signalwatch(
        files.path(),
        &["import", "--create", "--database-url", database_url, "."],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_import_into_a_loaded_database_leaves_the_statistics_as_they_were() {
    let database = Backend::Sqlite.fresh_database().await;
    let loaded = import_companies(&database.url, numbered_companies(0, 100)).await;
    assert!(loaded.success, "{loaded:?}");
    let before = table_statistics(&database.url, "companies").await;
    assert!(
        before.iter().any(|(_, stat)| stat.starts_with("100")),
        "{before:?}"
    );

    let small = import_companies(&database.url, numbered_companies(100, 9)).await;

    assert!(small.success, "{small:?}");
    assert!(
        small
            .stdout
            .contains("ANALYZE: not needed, no table grew by a tenth or more"),
        "{}",
        small.stdout
    );
    assert_eq!(table_statistics(&database.url, "companies").await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_that_grows_a_table_by_a_tenth_analyzes_that_table_again() {
    let database = Backend::Sqlite.fresh_database().await;
    let loaded = import_companies(&database.url, numbered_companies(0, 100)).await;
    assert!(loaded.success, "{loaded:?}");

    let grown = import_companies(&database.url, numbered_companies(100, 10)).await;

    assert!(grown.success, "{grown:?}");
    let analyzed = grown
        .stdout
        .lines()
        .find(|line| line.starts_with("ANALYZE ("))
        .unwrap_or_else(|| panic!("no ANALYZE line: {}", grown.stdout));
    assert!(analyzed.contains("companies"), "{analyzed}");
    assert!(
        !analyzed.contains("people"),
        "people did not grow: {analyzed}"
    );
    let after = table_statistics(&database.url, "companies").await;
    assert!(
        after.iter().all(|(_, stat)| stat.starts_with("110")),
        "every index of companies counts the 110 rows: {after:?}"
    );
    let (empty, _) = statistics(&database.url).await;
    assert_eq!(
        empty,
        Vec::<String>::new(),
        "still nothing recorded as empty"
    );
}
