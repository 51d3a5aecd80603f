//! Where the group writer of signal ingests runs. On SQLite it has a thread of its own, which
//! shares one core with the thread of its database connection (the statements of a group hop
//! between the two); no other thread of the process is tied to a core. On PostgreSQL no thread
//! is. Read from `/proc` (Linux), where the process may run on more than one core.
//!
//! And the connection it writes through: one of its own, opened when the process starts, not
//! when the first ingest arrives (which then waited for it), and every group goes through it.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::delivery_support::other_round;
use crate::each_backend;
use crate::support::Backend;
use crate::support::app::TestApp;
use crate::support::process::{Role, ServerProcess, threads_of};

each_backend!(
    only_the_sqlite_writer_and_its_connection_share_one_core,
    the_writer_opens_its_own_connection_at_start_and_every_group_goes_through_it,
);

/// How long a started process may take to open its writer's connection.
const WRITER_CONNECTED: Duration = Duration::from_secs(10);

/// Long enough for the checkpoints that follow the writer's turns to have run.
const CHECKPOINTS_RUN: Duration = Duration::from_millis(500);

async fn only_the_sqlite_writer_and_its_connection_share_one_core(backend: Backend) {
    let database = backend.fresh_database().await;
    let server = ServerProcess::start(&database.url, Role::All, &[]).await;
    ingest_rounds(&server.app(), "f0000000", 5).await;
    tokio::time::sleep(CHECKPOINTS_RUN).await;

    let process = format!("/proc/{}", server.pid());
    let Some(cores) = allowed_cores(&format!("{process}/status")) else {
        return; // not Linux
    };
    if cores.len() < 2 {
        return; // one core: nothing to tie
    }
    let pinned: Vec<(String, Vec<usize>)> = server
        .threads()
        .into_iter()
        .filter_map(|task| {
            let name = std::fs::read_to_string(task.join("comm")).ok()?;
            let allowed = allowed_cores(&task.join("status").display().to_string())?;
            (allowed != cores).then(|| (name.trim().to_string(), allowed))
        })
        .collect();

    if let Backend::Postgres(_) = backend {
        assert!(pinned.is_empty(), "threads tied to cores: {pinned:?}");
        return;
    }
    let names: Vec<&str> = pinned.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(pinned.len(), 2, "threads tied to cores: {pinned:?}");
    assert!(names.contains(&"ingest-writer"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("sqlx-sqlite")),
        "{names:?}"
    );
    assert_eq!(pinned[0].1.len(), 1, "one core: {pinned:?}");
    assert_eq!(pinned[0].1, pinned[1].1, "the same core: {pinned:?}");
}

async fn the_writer_opens_its_own_connection_at_start_and_every_group_goes_through_it(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let server = ServerProcess::start(&database.url, Role::Api, &[]).await;
    let mut before = writer_session(&backend, &database.url, server.pid()).await;
    if let Backend::Postgres(_) = backend {
        // The start ends with the rehearsal of each kind (`ingest::rehearsal`), rolled back.
        let until = std::time::Instant::now() + WRITER_CONNECTED;
        while before.last_statement.as_deref() != Some("ROLLBACK") {
            assert!(
                std::time::Instant::now() < until,
                "no rehearsal: {before:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
            before = writer_session(&backend, &database.url, server.pid()).await;
        }
    }

    ingest_rounds(&server.app(), "f1000000", 3).await;

    let after = writer_session(&backend, &database.url, server.pid()).await;
    assert_eq!(after.id, before.id, "the writer kept its connection");
    if let Backend::Postgres(_) = backend {
        assert_eq!(after.last_statement.as_deref(), Some("COMMIT"), "{after:?}");
    }
}

/// Ingests `count` funding rounds one request each (ids starting with `prefix`), each stored.
async fn ingest_rounds(app: &TestApp, prefix: &str, count: usize) {
    for n in 0..count {
        let round = other_round(&format!("{prefix}-0000-4000-8000-{n:012}"));
        let stored = app
            .admin(Method::POST, "/signals/funding", Some(json!([round])))
            .await;
        assert_eq!(stored.status, 200, "{:?}", stored.body);
    }
}

/// The writer's connection as the database server sees it (PostgreSQL), or the writer's
/// thread (SQLite, whose connection lives in the process).
#[derive(Debug)]
struct WriterSession {
    /// The server process of the session, or the writer thread's id.
    id: String,
    /// PostgreSQL: the session's last statement.
    last_statement: Option<String>,
}

/// Waits until the process's writer has its connection open, and describes it. Exactly one.
async fn writer_session(backend: &Backend, database_url: &str, pid: u32) -> WriterSession {
    let until = std::time::Instant::now() + WRITER_CONNECTED;
    loop {
        let found = match backend {
            Backend::Sqlite => writer_threads(pid),
            Backend::Postgres(_) => writer_connections(database_url).await,
        };
        assert!(found.len() <= 1, "one writer: {found:?}");
        if let Some(session) = found.into_iter().next() {
            return session;
        }
        assert!(
            std::time::Instant::now() < until,
            "no writer connection {WRITER_CONNECTED:?} after the start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The `ingest-writer` threads of process `pid`.
fn writer_threads(pid: u32) -> Vec<WriterSession> {
    threads_of(pid)
        .into_iter()
        .filter(|task| {
            std::fs::read_to_string(task.join("comm"))
                .is_ok_and(|name| name.trim() == "ingest-writer")
        })
        .map(|task| WriterSession {
            id: task
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            last_statement: None,
        })
        .collect()
}

/// The sessions named as a writer's on the test's database.
async fn writer_connections(database_url: &str) -> Vec<WriterSession> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(database_url)
        .await
        .expect("connect");
    let rows: Vec<(i32, String)> = sqlx::query_as(
        "SELECT pid, query FROM pg_stat_activity \
         WHERE datname = current_database() AND application_name = 'signalwatch-writer'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("pg_stat_activity");
    rows.into_iter()
        .map(|(pid, query)| WriterSession {
            id: pid.to_string(),
            last_statement: Some(query.trim().to_string()),
        })
        .collect()
}

/// The cores in `Cpus_allowed_list` of a `/proc/…/status` file (e.g. `0-3,6`).
fn allowed_cores(status: &str) -> Option<Vec<usize>> {
    let text = std::fs::read_to_string(status).ok()?;
    let list = text
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))?;
    let mut cores = Vec::new();
    for range in list.trim().split(',') {
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        cores.extend(first.parse::<usize>().ok()?..=last.parse::<usize>().ok()?);
    }
    Some(cores)
}
