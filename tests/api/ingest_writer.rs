//! Where the group writer of signal ingests runs. On SQLite it has a thread of its own, which
//! shares one core with the thread of its database connection (the statements of a group hop
//! between the two); no other thread of the process is tied to a core. On PostgreSQL no thread
//! is. Read from `/proc` (Linux), where the process may run on more than one core.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::delivery_support::other_round;
use crate::each_backend;
use crate::support::Backend;
use crate::support::process::{Role, ServerProcess};

each_backend!(only_the_sqlite_writer_and_its_connection_share_one_core,);

/// Long enough for the checkpoints that follow the writer's turns to have run.
const CHECKPOINTS_RUN: Duration = Duration::from_millis(500);

async fn only_the_sqlite_writer_and_its_connection_share_one_core(backend: Backend) {
    let database = backend.fresh_database().await;
    let server = ServerProcess::start(&database.url, Role::All, &[]).await;
    let app = server.app();
    for n in 0..5 {
        let round = other_round(&format!("f0000000-0000-4000-8000-{n:012}"));
        let stored = app
            .admin(Method::POST, "/signals/funding", Some(json!([round])))
            .await;
        assert_eq!(stored.status, 200, "{:?}", stored.body);
    }
    tokio::time::sleep(CHECKPOINTS_RUN).await;

    let process = format!("/proc/{}", server.pid());
    let Some(cores) = allowed_cores(&format!("{process}/status")) else {
        return; // not Linux
    };
    if cores.len() < 2 {
        return; // one core: nothing to tie
    }
    let pinned: Vec<(String, Vec<usize>)> = std::fs::read_dir(format!("{process}/task"))
        .expect("the process's threads")
        .flatten()
        .filter_map(|task| {
            let name = std::fs::read_to_string(task.path().join("comm")).ok()?;
            let allowed = allowed_cores(&task.path().join("status").display().to_string())?;
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
