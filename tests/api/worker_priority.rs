//! A worker process yields the CPUs to the API processes it shares a machine with: every thread
//! of a `--role worker` process runs at niceness 10 unless `--worker-niceness` says otherwise,
//! and an API process keeps the ordinary priority.

use crate::support::Backend;
use crate::support::process::{Role, ServerProcess};

/// The niceness of each thread of process `pid` (field 19 of each thread's `stat`).
fn thread_niceness(pid: u32) -> Vec<i64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process's threads");
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("stat")).ok())
        .map(|stat| {
            // Fields after the command name, which is in parentheses: the state is field 3.
            let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
            let fields: Vec<&str> = after.split_whitespace().collect();
            fields[19 - 3].parse().expect("a niceness")
        })
        .collect()
}

async fn niceness_of(role: Role, extra: &[&str]) -> Vec<i64> {
    let database = Backend::Sqlite.fresh_database().await;
    let process = ServerProcess::start(&database.url, role, extra).await;
    let niceness = thread_niceness(process.pid());
    assert!(!niceness.is_empty(), "the process has threads");
    niceness
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_thread_of_a_worker_process_runs_at_niceness_10() {
    let niceness = niceness_of(Role::Worker, &[]).await;
    assert!(niceness.iter().all(|n| *n == 10), "{niceness:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_process_told_niceness_0_keeps_the_ordinary_priority() {
    let niceness = niceness_of(Role::Worker, &["--worker-niceness", "0"]).await;
    assert!(niceness.iter().all(|n| *n == 0), "{niceness:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_process_keeps_the_ordinary_priority() {
    let niceness = niceness_of(Role::Api, &[]).await;
    assert!(niceness.iter().all(|n| *n == 0), "{niceness:?}");
}
