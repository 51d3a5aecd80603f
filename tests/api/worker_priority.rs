//! A worker process yields the CPUs to the API processes it shares a machine with: every thread
//! of a `--role worker` process runs at niceness 10 unless `--worker-niceness` says otherwise,
//! and an API process keeps the priority it was started with (the test runner's).

use std::path::Path;

use crate::support::Backend;
use crate::support::process::{Role, ServerProcess, threads_of};

/// The niceness of a thread, from field 19 of its `stat`.
fn niceness(thread: &Path) -> i64 {
    let stat = std::fs::read_to_string(thread.join("stat")).expect("the thread's stat");
    // Fields after the command name, which is in parentheses: the state is field 3.
    let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields[19 - 3].parse().expect("a niceness")
}

/// The niceness this test runs at, which a process it starts inherits.
fn own_niceness() -> i64 {
    niceness(&threads_of(std::process::id())[0])
}

/// The niceness of each thread of a process started in `role` with `extra` settings.
async fn niceness_of(role: Role, extra: &[&str]) -> Vec<i64> {
    let database = Backend::Sqlite.fresh_database().await;
    let process = ServerProcess::start(&database.url, role, extra).await;
    let niceness: Vec<i64> = process.threads().iter().map(|t| niceness(t)).collect();
    assert!(!niceness.is_empty(), "the process has threads");
    niceness
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_thread_of_a_worker_process_runs_at_niceness_10() {
    let niceness = niceness_of(Role::Worker, &[]).await;
    assert!(niceness.iter().all(|n| *n == 10), "{niceness:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_process_told_niceness_0_keeps_the_priority_it_was_started_with() {
    let niceness = niceness_of(Role::Worker, &["--worker-niceness", "0"]).await;
    let own = own_niceness();
    assert!(
        niceness.iter().all(|n| *n == own),
        "{niceness:?}, runner {own}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_process_keeps_the_priority_it_was_started_with() {
    let niceness = niceness_of(Role::Api, &[]).await;
    let own = own_niceness();
    assert!(
        niceness.iter().all(|n| *n == own),
        "{niceness:?}, runner {own}"
    );
}
