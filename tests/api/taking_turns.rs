//! Processes sharing one database take turns where they must: several processes starting at
//! once on a fresh database migrate it one after another (each then serves), an import started
//! while a bulk load runs waits for it to end instead of starting the load over (and an
//! operator's command answers meanwhile), and an import
//! into an empty database a server is running on stores its records as the server would, not
//! in bulk, so that none loses a record (on PostgreSQL also after the session holding the
//! server's lock ended).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};

use crate::bulk_import::{records_in, write_known_data};
use crate::each_backend;
use crate::lists_support::{ACQUISITIONS, COMPANIES, FUNDING, HIRING, JOB_CHANGES, url};
use crate::support::command::{signalwatch, start_signalwatch};
use crate::support::process::{Role, ServerProcess};
use crate::support::{Backend, TestApp};
use signalwatch::store::Db;
use signalwatch::store::bulk_load::interrupted_since;

each_backend!(
    processes_starting_together_on_a_fresh_database_all_migrate_it_and_serve,
    an_import_started_during_a_bulk_load_waits_for_it_and_every_record_of_both_is_kept,
    a_command_and_an_import_started_during_a_bulk_load_nobody_serves_both_succeed,
    an_import_into_an_empty_database_a_server_runs_on_stores_its_records_batch_by_batch,
);

mod a_server_whose_lock_session_ends_takes_the_lock_again_and_keeps_a_bulk_load_out {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::the_serving_lock_is_taken_again(crate::support::Backend::postgres()).await
    }
}

mod a_server_whose_lock_was_taken_by_a_bulk_load_meanwhile_stops_and_says_why {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::a_lock_taken_meanwhile_stops_the_server(crate::support::Backend::postgres()).await
    }
}

/// The serving lock's advisory key (`store::serving_lock`) as `pg_locks` shows it: its high and
/// its low 32 bits.
const SERVING_LOCK_KEY: (i64, i64) = (0x5357_5345, 0x5256_494e);

/// How long a server may take to hold its serving lock again.
const LOCK_AGAIN_DEADLINE: Duration = Duration::from_secs(20);

/// How long a bulk load may take to show that it is under way.
const LOAD_START_DEADLINE: Duration = Duration::from_secs(60);

async fn processes_starting_together_on_a_fresh_database_all_migrate_it_and_serve(
    backend: Backend,
) {
    // The race is a matter of timing: a few fresh databases, three processes each.
    for _ in 0..3 {
        let database = backend.fresh_database().await;
        let roles = [Role::All, Role::All, Role::Api];

        let mut processes = ServerProcess::start_together(&database.url, &roles, &[]).await;

        for process in &mut processes {
            let health = reqwest::get(format!("http://{}/health", process.addr()))
                .await
                .expect("health answers");
            assert_eq!(health.status(), 200);
            assert!(process.is_running(), "{}", process.log());
        }
    }
}

async fn an_import_started_during_a_bulk_load_waits_for_it_and_every_record_of_both_is_kept(
    backend: Backend,
) {
    let (bulk, extra) = bulk_and_late_files().await;
    let app = TestApp::start(backend).await;
    let url_of_db = app.database_url.clone();

    let first = start_signalwatch(bulk.path(), &["import", "--database-url", &url_of_db, "."]);
    wait_until_a_bulk_load_is_under_way(&url_of_db).await;
    let second = signalwatch(extra.path(), &["import", "--database-url", &url_of_db, "."]).await;
    let first = first.finish().await;

    assert!(first.success, "{first:?}");
    assert!(first.stdout.contains("bulk load"), "{}", first.stdout);
    assert!(second.success, "{second:?}");
    assert!(
        second
            .stdout
            .contains("another import into this database is running"),
        "the second import says it waits: {}",
        second.stdout
    );
    assert!(
        second.stdout.contains("the database holds data"),
        "the second import, after the load, stores its records the ordinary way: {}",
        second.stdout
    );
    let team = app.create_team_with(json!({ "credits": 1_000 })).await;
    assert_the_loads_and_the_late_companies_are_listed(&app, &team.key, bulk.path()).await;
    for domain in ["turn-one.example", "turn-two.example"] {
        let found = app
            .get(&url(COMPANIES, &[("domain", domain)]), &team.key)
            .await;
        assert_eq!(
            found.body["data"].as_array().map(Vec::len),
            Some(1),
            "{domain}"
        );
    }
    assert_every_signal_of_the_files_is_listed(&app, &team.key, bulk.path()).await;
}

/// Without a server holding the database open (as in production, where servers keep bulk loads
/// out): an operator's command answers while the load runs, and a second import waits for its
/// turn, instead of either finding the database locked.
async fn a_command_and_an_import_started_during_a_bulk_load_nobody_serves_both_succeed(
    backend: Backend,
) {
    let (bulk, extra) = bulk_and_late_files().await;
    let database = backend.fresh_database().await;
    let url_of_db = database.url.clone();
    let create = ["import", "--create", "--database-url", &url_of_db, "."];

    let first = start_signalwatch(bulk.path(), &create);
    wait_until_a_bulk_load_is_under_way(&url_of_db).await;
    let listed = signalwatch(
        extra.path(),
        &["admin", "--database-url", &url_of_db, "team", "list"],
    )
    .await;
    let second = signalwatch(extra.path(), &["import", "--database-url", &url_of_db, "."]).await;
    let first = first.finish().await;

    assert!(listed.success, "{listed:?}");
    assert_eq!(listed.json(), json!([]), "no team yet");
    assert!(first.success, "{first:?}");
    assert!(first.stdout.contains("bulk load"), "{}", first.stdout);
    assert!(second.success, "{second:?}");
    let app = TestApp::start_on(&url_of_db).await;
    let team = app.create_team_with(json!({ "credits": 1_000 })).await;
    assert_the_loads_and_the_late_companies_are_listed(&app, &team.key, bulk.path()).await;
}

async fn an_import_into_an_empty_database_a_server_runs_on_stores_its_records_batch_by_batch(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let server = ServerProcess::start(&database.url, Role::All, &[]).await;

    import_beside(&server, &database.url).await;
}

async fn the_serving_lock_is_taken_again(backend: Backend) {
    let database = backend.fresh_database().await;
    let server = ServerProcess::start(&database.url, Role::All, &[]).await;
    let mut conn = PgConnection::connect(&database.url).await.expect("connect");
    let first = serving_lock_holders(&mut conn).await;
    assert_eq!(
        first.len(),
        1,
        "the server holds the serving lock: {first:?}"
    );

    // What a restart of the database server or a cut connection does to the lock's session.
    sqlx::query("SELECT pg_terminate_backend($1)")
        .bind(first[0])
        .execute(&mut conn)
        .await
        .expect("terminate the session");
    let until = Instant::now() + LOCK_AGAIN_DEADLINE;
    loop {
        let holders = serving_lock_holders(&mut conn).await;
        if holders.len() == 1 && holders[0] != first[0] {
            break;
        }
        assert!(
            Instant::now() < until,
            "the lock is held again: {}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    import_beside(&server, &database.url).await;
    conn.close().await.expect("close");
}

async fn a_lock_taken_meanwhile_stops_the_server(backend: Backend) {
    let database = backend.fresh_database().await;
    let mut server = ServerProcess::start(&database.url, Role::All, &[]).await;
    let mut conn = PgConnection::connect(&database.url).await.expect("connect");

    // The session ends, and before the server holds the lock again, the lock is taken
    // exclusively, as a bulk load takes it (tried again should the server be first).
    let until = Instant::now() + LOCK_AGAIN_DEADLINE;
    loop {
        let holders = serving_lock_holders(&mut conn).await;
        for pid in holders {
            sqlx::query("SELECT pg_terminate_backend($1)")
                .bind(pid)
                .execute(&mut conn)
                .await
                .expect("terminate the session");
        }
        if take_serving_lock_exclusively(&mut conn).await {
            break;
        }
        assert!(
            Instant::now() < until,
            "the lock was taken: {}",
            server.log()
        );
    }
    let status = server.wait_for_exit(LOCK_AGAIN_DEADLINE).await;

    assert!(!status.success(), "the server fails: {status:?}");
    assert!(
        server.log().contains("an import took the lock"),
        "the server says why it stops: {}",
        server.log()
    );
    conn.close().await.expect("close");
}

/// Tries for a second to take the serving lock exclusively on `conn`'s session.
async fn take_serving_lock_exclusively(conn: &mut PgConnection) -> bool {
    let until = Instant::now() + Duration::from_secs(1);
    while Instant::now() < until {
        let taken: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(($1 << 32) | $2)")
            .bind(SERVING_LOCK_KEY.0)
            .bind(SERVING_LOCK_KEY.1)
            .fetch_one(&mut *conn)
            .await
            .expect("advisory lock");
        if taken {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// The backends holding the serving lock of the connection's database.
async fn serving_lock_holders(conn: &mut PgConnection) -> Vec<i32> {
    sqlx::query_scalar(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
         AND classid::bigint = $1 AND objid::bigint = $2 ORDER BY pid",
    )
    .bind(SERVING_LOCK_KEY.0)
    .bind(SERVING_LOCK_KEY.1)
    .fetch_all(conn)
    .await
    .expect("pg_locks")
}

/// Imports the known data set into the empty database `server` runs on: the import stores it
/// the ordinary way and says why, and the server lists every record.
async fn import_beside(server: &ServerProcess, database_url: &str) {
    let files = tempfile::tempdir().expect("temp dir");
    write_known_data(files.path());

    let loaded = signalwatch(
        files.path(),
        &["import", "--database-url", database_url, "."],
    )
    .await;

    assert!(loaded.success, "{loaded:?}");
    assert!(
        loaded
            .stdout
            .contains("a server is running on this database"),
        "the import says why it does not load in bulk: {}",
        loaded.stdout
    );
    assert!(
        !loaded.stdout.contains("indexes built after"),
        "no bulk load beside a running server: {}",
        loaded.stdout
    );
    let app = server.app();
    let team = app.create_team_with(json!({ "credits": 1_000 })).await;
    assert_every_signal_of_the_files_is_listed(&app, &team.key, files.path()).await;
}

/// Each signal list counts as many signals as its import file in `dir` holds records.
async fn assert_every_signal_of_the_files_is_listed(app: &TestApp, key: &str, dir: &Path) {
    for (path, file) in [
        (FUNDING, "funding.ndjson"),
        (HIRING, "hiring.ndjson"),
        (ACQUISITIONS, "acquisitions.ndjson"),
        (JOB_CHANGES, "job-changes.ndjson"),
    ] {
        let listed = app.get(&url(path, &[("count", "true")]), key).await;
        assert_eq!(
            listed.body["pagination"]["totalCount"],
            json!(records_in(&dir.join(file))),
            "{file}: every record of the import is listed"
        );
    }
}

/// Waits until a bulk load has marked the database as loading.
async fn wait_until_a_bulk_load_is_under_way(database_url: &str) {
    let db = Db::connect(database_url).await.expect("connect");
    let until = Instant::now() + LOAD_START_DEADLINE;
    while !interrupted_since(&db)
        .await
        .is_ok_and(|mark| mark.is_some())
    {
        assert!(Instant::now() < until, "no bulk load started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    db.close().await;
}

/// The companies list counts every company of the load in `bulk` and the two late ones.
async fn assert_the_loads_and_the_late_companies_are_listed(app: &TestApp, key: &str, bulk: &Path) {
    let companies = records_in(&bulk.join("companies.ndjson")) + 2;
    let listed = app.get(&url(COMPANIES, &[("count", "true")]), key).await;
    assert_eq!(
        listed.body["pagination"]["totalCount"],
        json!(companies),
        "the load's companies and the second import's two"
    );
}

/// A directory holding the `s` demo data set, and one holding [`late_companies`].
async fn bulk_and_late_files() -> (tempfile::TempDir, tempfile::TempDir) {
    let bulk = tempfile::tempdir().expect("temp dir");
    let out = bulk.path().display().to_string();
    let written = signalwatch(bulk.path(), &["demo-data", "--scale", "s", "--out", &out]).await;
    assert!(written.success, "{written:?}");
    let extra = tempfile::tempdir().expect("temp dir");
    std::fs::write(extra.path().join("companies.ndjson"), late_companies()).expect("file");
    (bulk, extra)
}

/// Two companies the demo data set does not hold, one record a line.
fn late_companies() -> String {
    let companies: [Value; 2] = [
        json!({ "id": "5f0c1d52-8b9e-4e44-9a55-0d7f3a3c0001", "name": "Turn One",
            "website": "https://turn-one.example", "headquartersCountry": "DE" }),
        json!({ "id": "5f0c1d52-8b9e-4e44-9a55-0d7f3a3c0002", "name": "Turn Two",
            "website": "https://turn-two.example", "headquartersCountry": "FR" }),
    ];
    companies.iter().map(|c| format!("{c}\n")).collect()
}
