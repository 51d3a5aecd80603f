//! `signalwatch import` into a database without data loads in bulk (rows first, indexes after);
//! into one with monitors it stores records batch by batch, as the admin API does. Both ways
//! must give the same lists, the bulk-loaded database must have the schema the migrations make,
//! and a bulk load stopped half-way must keep the server from starting until the import is run
//! again.

use std::path::Path;

use clap::Parser;
use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    ACQUISITIONS, COMPANIES, FUNDING, HIRING, JOB_CHANGES, acquisitions, companies, funding_rounds,
    job_changes, job_postings, last_signal_types, url,
};
use crate::support::command::{CommandRun, signalwatch};
use crate::support::{Backend, Team, TestApp, TestResponse};
use signalwatch::app::Application;
use signalwatch::config::Config;
use signalwatch::service::bulk_load::{LoadPath, begin_import};
use signalwatch::service::imports::{import_file_as, plan_files};
use signalwatch::store::Db;

each_backend!(
    a_bulk_load_and_a_load_beside_a_monitor_answer_every_list_alike,
    a_bulk_loaded_database_has_the_indexes_a_migrated_one_has,
    a_bulk_load_stopped_half_way_keeps_the_server_away_until_the_import_runs_again,
    a_bulk_load_of_thousands_of_records_a_file_lists_each_record_once,
    a_posting_stored_again_by_a_later_batch_of_a_bulk_load_keeps_only_its_last_tags,
);

/// Every list, plain and with the filters, orders and searches that read the indexes a bulk load
/// builds afterwards (dates, amounts, countries, tags, full-text and substring documents).
const REQUESTS: &[(&str, &[(&str, &str)])] = &[
    (COMPANIES, &[]),
    (COMPANIES, &[("count", "true")]),
    (COMPANIES, &[("search", "software")]),
    (COMPANIES, &[("sort_order", "asc"), ("limit", "3")]),
    (COMPANIES, &[("countries", "DACH")]),
    (COMPANIES, &[("domain", "acme.com")]),
    (FUNDING, &[]),
    (FUNDING, &[("count", "true")]),
    (FUNDING, &[("round", "seed,Pre-Seed")]),
    (FUNDING, &[("countries", "DE")]),
    (FUNDING, &[("search", "acme")]),
    (FUNDING, &[("sort_order", "asc"), ("limit", "2")]),
    (HIRING, &[]),
    (HIRING, &[("count", "true")]),
    (HIRING, &[("departments", "engineering")]),
    (HIRING, &[("seniorities", "vp")]),
    (HIRING, &[("job_countries", "US")]),
    (HIRING, &[("states", "CA,WA")]),
    (HIRING, &[("company_countries", "US")]),
    (HIRING, &[("sort_order", "asc")]),
    (ACQUISITIONS, &[]),
    (ACQUISITIONS, &[("count", "true")]),
    (ACQUISITIONS, &[("countries", "DACH")]),
    (ACQUISITIONS, &[("amount_min", "50000000")]),
    (ACQUISITIONS, &[("search", "health")]),
    (JOB_CHANGES, &[]),
    (JOB_CHANGES, &[("count", "true")]),
    (JOB_CHANGES, &[("positions", "cto")]),
    (JOB_CHANGES, &[("seniorities", "vp")]),
    (JOB_CHANGES, &[("new_role", "MANAGER")]),
    (JOB_CHANGES, &[("source", "LinkedIn")]),
    (JOB_CHANGES, &[("sort_order", "asc")]),
];

#[derive(Parser)]
struct ConfigOnly {
    #[command(flatten)]
    config: Config,
}

/// Writes the known data set of the list tests as import files.
pub(crate) fn write_known_data(dir: &Path) {
    let files = [
        ("companies.ndjson", companies()),
        ("funding.ndjson", funding_rounds()),
        ("hiring.ndjson", job_postings()),
        ("acquisitions.ndjson", acquisitions()),
        ("job-changes.ndjson", job_changes()),
    ];
    for (name, records) in files {
        std::fs::write(dir.join(name), ndjson(&records)).expect("import file");
    }
}

fn ndjson(records: &Value) -> String {
    let records = records.as_array().expect("records");
    records.iter().map(|r| format!("{r}\n")).collect()
}

async fn import(dir: &Path, database_url: &str) -> CommandRun {
    signalwatch(dir, &["import", "--database-url", database_url, "."]).await
}

/// `import --create` of the files of `dir` into `database_url`.
async fn import_creating(dir: &Path, database_url: &str) -> CommandRun {
    signalwatch(
        dir,
        &["import", "--create", "--database-url", database_url, "."],
    )
    .await
}

/// Writes the known data with a hiring file that stops an import after its postings: a line
/// that is not UTF-8 text follows them, so the import fails in the hiring file with the
/// companies and the funding rounds loaded and the indexes not built. Returns the postings'
/// file as it should be, to write back.
fn write_data_stopping_in_the_hiring_file(dir: &Path) -> String {
    write_known_data(dir);
    let postings = ndjson(&job_postings());
    let mut broken = postings.clone().into_bytes();
    broken.extend_from_slice(b"{\"title\": \"\xff\"}\n");
    std::fs::write(dir.join("hiring.ndjson"), broken).expect("import file");
    postings
}

/// The answer without what only says when the import ran (companies' `createdAt` and
/// `updatedAt` are the time they were stored).
fn comparable(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("createdAt");
            map.remove("updatedAt");
            for item in map.values_mut() {
                *item = comparable(item.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = comparable(item.take());
            }
        }
        _ => {}
    }
    value
}

async fn team_with_credits(app: &TestApp) -> Team {
    app.create_team_with(json!({ "credits": 100_000 })).await
}

async fn a_bulk_load_and_a_load_beside_a_monitor_answer_every_list_alike(backend: Backend) {
    let files = tempfile::tempdir().expect("temp dir");
    write_known_data(files.path());
    let bulk = TestApp::start(backend.clone()).await;
    let bulk_team = team_with_credits(&bulk).await;
    let ordinary = TestApp::start(backend).await;
    let ordinary_team = team_with_credits(&ordinary).await;
    let monitor = ordinary.create_monitor(&ordinary_team, "Watched").await;
    ordinary
        .add_targets(&ordinary_team, &monitor, json!(["acme.com"]))
        .await;

    let loaded = import(files.path(), &bulk.database_url).await;
    let stored = import(files.path(), &ordinary.database_url).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    assert!(stored.success, "{stored:?}");
    assert!(
        stored.stdout.contains("batch by batch"),
        "{}",
        stored.stdout
    );
    for (path, params) in REQUESTS {
        let request = url(path, params);
        let from_bulk = bulk.get(&request, &bulk_team.key).await;
        let from_ordinary = ordinary.get(&request, &ordinary_team.key).await;
        assert_eq!(from_bulk.status, 200, "{request}: {:?}", from_bulk.body);
        assert_eq!(
            from_ordinary.status, 200,
            "{request}: {:?}",
            from_ordinary.body
        );
        assert_eq!(
            comparable(from_bulk.body["data"].clone()),
            comparable(from_ordinary.body["data"].clone()),
            "{request}"
        );
        assert_eq!(
            from_bulk.body["pagination"], from_ordinary.body["pagination"],
            "{request}"
        );
    }
}

/// The schema of a database as `(kind, name, definition)` lines: tables, indexes and triggers
/// with their statements (SQLite), or indexes and triggers with theirs (PostgreSQL). The
/// planner's statistics tables, which `ANALYZE` creates, are left out.
async fn schema(database_url: &str) -> Vec<String> {
    let db = Db::connect(database_url).await.expect("database");
    let lines: Vec<(String, String, String)> = match &db {
        Db::Sqlite(sqlite) => sqlx::query_as(
            "SELECT type, name, COALESCE(sql, '') FROM sqlite_master \
             WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name",
        )
        .fetch_all(sqlite.pool())
        .await
        .expect("sqlite_master"),
        Db::Postgres(pool) => sqlx::query_as(
            "SELECT 'index', indexname::text, indexdef FROM pg_indexes \
             WHERE schemaname = current_schema() \
             UNION ALL SELECT 'trigger', tgname::text, pg_get_triggerdef(oid) FROM pg_trigger \
             WHERE NOT tgisinternal ORDER BY 1, 2",
        )
        .fetch_all(pool)
        .await
        .expect("pg_indexes"),
    };
    db.close().await;
    lines
        .into_iter()
        .map(|(kind, name, sql)| format!("{kind} {name}: {sql}"))
        .collect()
}

async fn a_bulk_loaded_database_has_the_indexes_a_migrated_one_has(backend: Backend) {
    let files = tempfile::tempdir().expect("temp dir");
    write_known_data(files.path());
    let migrated = TestApp::start(backend.clone()).await;
    let bulk = TestApp::start(backend).await;

    let loaded = import(files.path(), &bulk.database_url).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    let closing: Vec<&str> = ["building indexes: ", "ANALYZE: ", "writing to disk: "]
        .into_iter()
        .filter(|step| loaded.stdout.contains(step))
        .collect();
    assert_eq!(closing.len(), 3, "every closing step: {}", loaded.stdout);
    let at = |step: &str| loaded.stdout.find(step).expect("printed");
    assert!(
        at("building indexes: ") < at("ANALYZE: ") && at("ANALYZE: ") < at("writing to disk: "),
        "the closing steps in order: {}",
        loaded.stdout
    );
    let expected = schema(&migrated.database_url).await;
    assert!(
        expected.iter().any(|l| l.contains("signals_kind_occurred")),
        "the list indexes are compared: {expected:?}"
    );
    assert_eq!(schema(&bulk.database_url).await, expected);
    assert_eq!(
        merge_settings(&bulk.database_url).await,
        merge_settings(&migrated.database_url).await,
        "the full-text tables merge as FTS5's defaults say once the load is over"
    );
    assert_eq!(
        foreign_key_violations(&bulk.database_url).await,
        Vec::<String>::new(),
        "every signal, person and job board names a stored company (SQLite's load does not \
         check foreign keys as it writes)"
    );
}

/// The rows of a SQLite database whose foreign key names no row, as `table rowid parent`
/// lines (`PRAGMA foreign_key_check`); none on PostgreSQL, which checks every write.
async fn foreign_key_violations(database_url: &str) -> Vec<String> {
    let db = Db::connect(database_url).await.expect("database");
    let lines = match &db {
        Db::Sqlite(sqlite) => {
            let rows: Vec<(String, Option<i64>, String)> =
                sqlx::query_as("SELECT \"table\", rowid, parent FROM pragma_foreign_key_check")
                    .fetch_all(sqlite.pool())
                    .await
                    .expect("foreign key check");
            rows.into_iter()
                .map(|(table, rowid, parent)| format!("{table} {rowid:?} {parent}"))
                .collect()
        }
        Db::Postgres(_) => Vec::new(),
    };
    db.close().await;
    lines
}

/// The merge settings of each SQLite full-text table (FTS5's defaults where none was set; a
/// bulk load raises them while it loads), as `table setting value` lines; none on PostgreSQL.
async fn merge_settings(database_url: &str) -> Vec<String> {
    let db = Db::connect(database_url).await.expect("database");
    let mut lines = Vec::new();
    if let Db::Sqlite(sqlite) = &db {
        for table in [
            "company_search",
            "company_names",
            "signal_search",
            "signal_substrings",
        ] {
            for (setting, default) in [("automerge", 4), ("crisismerge", 16)] {
                let sql = format!("SELECT v FROM {table}_config WHERE k = ?");
                let value: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .bind(setting)
                    .fetch_optional(sqlite.pool())
                    .await
                    .expect("full-text configuration");
                lines.push(format!("{table} {setting} {}", value.unwrap_or(default)));
            }
        }
    }
    db.close().await;
    lines
}

/// Starts the service on `database_url` as `serve` does; the error when it refuses.
async fn start_error(database_url: &str) -> Option<String> {
    let config = ConfigOnly::try_parse_from([
        "signalwatch",
        "--listen",
        "127.0.0.1:0",
        "--database-url",
        database_url,
        "--log",
        "warn",
    ])
    .expect("configuration")
    .config;
    Application::build(config)
        .await
        .err()
        .map(|err| err.to_string())
}

/// The server's refusal to start on the half-loaded database at `database_url`.
async fn refused_as_half_loaded(database_url: &str) -> String {
    let refused = start_error(database_url).await.expect("the server refuses");
    assert!(refused.contains("half-loaded"), "{refused}");
    refused
}

/// `import` of the files of `dir` again, into a database a bulk load left half-loaded: it
/// succeeds, and says it started the load over.
async fn import_starting_over(dir: &Path, database_url: &str) {
    let again = import(dir, database_url).await;
    assert!(again.success, "{again:?}");
    assert!(
        again.stdout.contains("interrupted bulk load"),
        "{}",
        again.stdout
    );
}

async fn a_bulk_load_stopped_half_way_keeps_the_server_away_until_the_import_runs_again(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let files = tempfile::tempdir().expect("temp dir");
    let postings = write_data_stopping_in_the_hiring_file(files.path());

    let stopped = import_creating(files.path(), &database.url).await;

    assert!(!stopped.success, "{stopped:?}");
    assert!(stopped.stderr.contains("not UTF-8"), "{}", stopped.stderr);
    assert!(
        stopped.stderr.contains("half-loaded") && stopped.stderr.contains("again"),
        "{}",
        stopped.stderr
    );
    let refused = refused_as_half_loaded(&database.url).await;
    assert!(refused.contains("signalwatch import"), "{refused}");

    std::fs::write(files.path().join("hiring.ndjson"), postings).expect("import file");
    import_starting_over(files.path(), &database.url).await;
    let app = TestApp::start_on(&database.url).await;
    let team = team_with_credits(&app).await;
    for (path, records) in [
        (FUNDING, funding_rounds().as_array().expect("rounds").len()),
        (HIRING, job_postings().as_array().expect("postings").len()),
    ] {
        let listed = app.get(&url(path, &[("count", "true")]), &team.key).await;
        assert_eq!(
            listed.body["pagination"]["totalCount"],
            json!(records),
            "{path}: each record once, none from the stopped load twice"
        );
    }
}

/// The records of an import file: its non-blank lines.
pub(crate) fn records_in(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .expect("import file")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count()
}

/// Files of thousands of records load in batches of thousands, each written with statements of
/// thousands of rows: every record arrives once, and the searches built from them find them.
async fn a_bulk_load_of_thousands_of_records_a_file_lists_each_record_once(backend: Backend) {
    let files = tempfile::tempdir().expect("temp dir");
    let out = files.path().display().to_string();
    let written = signalwatch(files.path(), &["demo-data", "--scale", "s", "--out", &out]).await;
    assert!(written.success, "{written:?}");
    let app = TestApp::start(backend).await;

    let loaded = import(files.path(), &app.database_url).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    let team = team_with_credits(&app).await;
    for (path, file) in [
        (COMPANIES, "companies.ndjson"),
        (FUNDING, "funding.ndjson"),
        (HIRING, "hiring.ndjson"),
        (ACQUISITIONS, "acquisitions.ndjson"),
        (JOB_CHANGES, "job-changes.ndjson"),
    ] {
        let records = records_in(&files.path().join(file));
        assert!(records >= 500, "{file}: {records} records");
        let listed = app.get(&url(path, &[("count", "true")]), &team.key).await;
        assert_eq!(
            listed.body["pagination"]["totalCount"],
            json!(records),
            "{file}: each record once"
        );
    }
    let described = app
        .get(
            &url(HIRING, &[("description", "engineer"), ("count", "true")]),
            &team.key,
        )
        .await;
    assert_eq!(described.status, 200, "{:?}", described.body);
    assert!(
        described.body["pagination"]["totalCount"].as_u64() > Some(0),
        "{:?}",
        described.body["pagination"]
    );
}

/// A posting at a company of its own, found by its website.
fn posting_at(id: &str, title: &str, firm: usize) -> Value {
    json!({
        "id": id, "title": title, "datePosted": "2025-03-10T12:00:00Z",
        "companyName": format!("Firm {firm}"), "companyWebsite": format!("https://firm{firm}.example"),
        "location": "Berlin, Germany", "jobCountry": "DE"
    })
}

/// The first batch of a file is its first 500 records: a posting on line 1 and again on its last
/// line is stored by two batches of one load. The second replaces the first's tags and
/// companies, as a second import would.
async fn a_posting_stored_again_by_a_later_batch_of_a_bulk_load_keeps_only_its_last_tags(
    backend: Backend,
) {
    let files = tempfile::tempdir().expect("temp dir");
    let mut postings = vec![posting_at("posting-0", "VP of Engineering", 0)];
    postings.extend((1..600).map(|n| posting_at(&format!("posting-{n}"), "Barista", n)));
    postings.push(posting_at("posting-0", "Head of Sales", 1));
    std::fs::write(files.path().join("hiring.ndjson"), ndjson(&json!(postings))).expect("file");
    let app = TestApp::start(backend).await;

    let loaded = import(files.path(), &app.database_url).await;

    assert!(loaded.success, "{loaded:?}");
    assert!(loaded.stdout.contains("bulk load"), "{}", loaded.stdout);
    let team = team_with_credits(&app).await;
    let count = async |params: &[(&str, &str)]| {
        let mut params = params.to_vec();
        params.push(("count", "true"));
        let listed = app.get(&url(HIRING, &params), &team.key).await;
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        listed.body["pagination"]["totalCount"].clone()
    };
    assert_eq!(count(&[]).await, json!(600), "each posting once");
    assert_eq!(count(&[("departments", "engineering")]).await, json!(0));
    assert_eq!(count(&[("seniorities", "vp")]).await, json!(0));
    assert_eq!(count(&[("departments", "sales")]).await, json!(1));
    let monitor = app.create_monitor(&team, "Firms").await;
    let added = app
        .add_targets(&team, &monitor, json!(["firm0.example", "firm1.example"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let last_signals = last_signal_types(&added);
    assert_eq!(
        last_signals,
        [
            (json!("firm0.example"), Value::Null),
            (json!("firm1.example"), json!("hiring"))
        ],
        "the posting's company is the last batch's"
    );
}

/// The files beside a SQLite database, by name, less the lock files every command leaves.
fn files_beside(database: &Path) -> Vec<String> {
    let dir = database.parent().expect("database directory");
    crate::support::file_names(dir)
        .into_iter()
        .filter(|name| !name.ends_with(".lock"))
        .collect()
}

/// A bulk load on SQLite stages the signals' search documents (and their tag and company rows)
/// in a scratch database beside the loaded one, and its connection moves them into the loaded
/// database at the end: once the load is over, stopped or not, nothing of it is left beside the
/// database, which the copy left on its write-ahead log, and the searches find every posting the
/// staged documents describe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_on_sqlite_leaves_nothing_beside_its_database_and_its_searches_find_what_it_staged()
 {
    let database = Backend::Sqlite.fresh_database().await;
    let file = Path::new(database.url.trim_start_matches("sqlite://")).to_path_buf();
    let files = tempfile::tempdir().expect("temp dir");
    let postings = write_data_stopping_in_the_hiring_file(files.path());

    let stopped = import_creating(files.path(), &database.url).await;

    assert!(!stopped.success, "{stopped:?}");
    assert_eq!(files_beside(&file), ["test.db"], "after the stopped load");

    std::fs::write(files.path().join("hiring.ndjson"), postings).expect("import file");
    let loaded = import(files.path(), &database.url).await;

    assert!(loaded.success, "{loaded:?}");
    assert_eq!(files_beside(&file), ["test.db"], "after the load");
    let db = Db::connect(&database.url).await.expect("database");
    let Db::Sqlite(sqlite) = &db else {
        panic!("a SQLite database");
    };
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(sqlite.pool())
        .await
        .expect("journal mode");
    assert_eq!(mode, "wal");
    db.close().await;
    let found = count_postings_about_rust(&database.url).await;
    assert_eq!(found.status, 200, "{:?}", found.body);
    let about_rust = postings_about_rust();
    assert!(about_rust > 0, "the known postings mention Rust");
    assert_eq!(
        found.body["pagination"]["totalCount"],
        json!(about_rust),
        "the staged search documents were copied in: {:?}",
        found.body
    );
}

/// The answer of a server started on `database_url` to a count of the postings whose
/// description mentions Rust.
async fn count_postings_about_rust(database_url: &str) -> TestResponse {
    let app = TestApp::start_on(database_url).await;
    let team = team_with_credits(&app).await;
    app.get(
        &url(HIRING, &[("description", "rust"), ("count", "true")]),
        &team.key,
    )
    .await
}

/// The known postings whose description mentions Rust.
fn postings_about_rust() -> usize {
    job_postings()
        .as_array()
        .expect("postings")
        .iter()
        .filter(|p| {
            let text = p["descriptionText"]
                .as_str()
                .unwrap_or_default()
                .to_lowercase();
            text.split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "rust")
        })
        .count()
}

/// A bulk load on SQLite writes last the copy of its staged search tables, after its indexes
/// are built. Stopped between the two, the database is still half-loaded: the server refuses
/// it (it would have answered every search with nothing), and the next import starts the load
/// over, builds again the indexes the stopped load had built, and ends with the schema a
/// migrated database has and every search document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_stopped_before_its_search_tables_are_copied_in_is_still_half_loaded() {
    let database = Backend::Sqlite.fresh_database().await;
    let migrated = TestApp::start(Backend::Sqlite).await;
    let files = tempfile::tempdir().expect("temp dir");
    write_known_data(files.path());
    let db = Db::connect(&database.url).await.expect("database");
    db.migrate().await.expect("migrations");
    let LoadPath::Bulk(load) = begin_import(&db).await.expect("import") else {
        panic!("a database without data loads in bulk");
    };
    for (path, kind) in plan_files(files.path()).expect("import files") {
        let loading = load.loading(kind).await.expect("loading");
        import_file_as(load.db(), &path, kind, loading, |_| {})
            .await
            .expect("file loaded");
    }
    load.move_staged_links().await.expect("moved");
    load.merge_search_tables().await.expect("merged");
    load.build_indexes().await.expect("indexes built");
    // The process stops here, before the staged search tables are copied in.
    load.close().await;

    refused_as_half_loaded(&database.url).await;
    db.close().await;

    import_starting_over(files.path(), &database.url).await;
    assert_eq!(
        schema(&database.url).await,
        schema(&migrated.database_url).await
    );
    let found = count_postings_about_rust(&database.url).await;
    assert_eq!(
        found.body["pagination"]["totalCount"],
        json!(postings_about_rust()),
        "{:?}",
        found.body
    );
}
