//! Two worker processes of the real binary collecting the same boards from one database: every
//! posting becomes one signal, delivered once, however their passes interleave (PostgreSQL), and
//! between them they ask one host at most twice a second (both backends).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::collectors_boards::watch;
use crate::delivery_support::{FAST, assert_stays_at};
use crate::each_backend;
use crate::support::process::{Role, ServerProcess};
use crate::support::receiver::Receiver;
use crate::support::sources::{Page, Sources, greenhouse_board};
use crate::support::{Backend, TestApp};

each_backend!(two_worker_processes_ask_one_host_at_most_twice_a_second_between_them);

mod two_worker_processes_collect_every_posting_once {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::two_worker_processes_collect_every_posting_once(crate::support::Backend::postgres())
            .await
    }
}

/// Boards of the watched company, and postings per board.
const BOARDS: u64 = 4;
const POSTINGS: u64 = 30;

/// How long the workers may take to collect and deliver everything on a loaded machine.
const WITHIN: Duration = Duration::from_secs(60);

async fn two_worker_processes_collect_every_posting_once(backend: Backend) {
    let sources = Sources::start().await;
    let tokens: Vec<String> = (0..BOARDS).map(|i| format!("board{i}")).collect();
    let serve_boards = |extra: u64| {
        for (i, token) in tokens.iter().enumerate() {
            let first = 10_000 * (i as u64 + 1);
            let board = greenhouse_board(token, first, POSTINGS + extra);
            sources.board("greenhouse", token, Page::json(board));
        }
    };
    serve_boards(0);
    let watch = watch(backend, &sources, &[]).await;
    watch
        .company("Acme", "acme-jobs.com", greenhouse_boards(&tokens))
        .await;

    let _workers = two_collecting_workers(&watch.app, &sources).await;

    let first = (BOARDS * POSTINGS) as usize;
    assert_eq!(distinct_signals(&watch.receiver, first).await, first);
    // Ten more postings on every board: each becomes one more signal.
    serve_boards(10);
    let all = first + (BOARDS * 10) as usize;
    assert_eq!(distinct_signals(&watch.receiver, all).await, all);
    assert_stays_at(&watch.receiver, all, Duration::from_secs(3)).await;
}

/// Board requests to watch the spacing of, and the least gap between two of their arrivals:
/// the starts are reserved 500 ms apart, and an arrival may trail its start by the time the
/// sending process took to wake and send on a busy machine.
const SPACED_REQUESTS: usize = 8;
const LEAST_GAP: Duration = Duration::from_millis(300);

async fn two_worker_processes_ask_one_host_at_most_twice_a_second_between_them(backend: Backend) {
    let sources = Sources::start().await;
    let tokens: Vec<String> = (0..6).map(|i| format!("polite{i}")).collect();
    for (i, token) in tokens.iter().enumerate() {
        let board = greenhouse_board(token, 10_000 * (i as u64 + 1), 2);
        sources.board("greenhouse", token, Page::json(board));
    }
    let watch = watch(backend, &sources, &[]).await;
    watch
        .company("Polite", "polite-jobs.com", greenhouse_boards(&tokens))
        .await;

    let _workers = two_collecting_workers(&watch.app, &sources).await;

    let until = Instant::now() + WITHIN;
    let mut arrivals = loop {
        let arrivals: Vec<Instant> = sources
            .requests()
            .iter()
            .filter(|r| r.path.starts_with("/v1/boards/polite"))
            .map(|r| r.at)
            .collect();
        if arrivals.len() >= SPACED_REQUESTS {
            break arrivals;
        }
        assert!(
            Instant::now() < until,
            "the workers asked {} times",
            arrivals.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    arrivals.sort();
    for pair in arrivals.windows(2) {
        assert!(
            pair[1] - pair[0] >= LEAST_GAP,
            "two requests to the host {:?} apart: {:?}",
            pair[1] - pair[0],
            arrivals.windows(2).map(|p| p[1] - p[0]).collect::<Vec<_>>()
        );
    }
}

/// The company record's `jobBoards` for these Greenhouse board tokens.
fn greenhouse_boards(tokens: &[String]) -> Value {
    tokens
        .iter()
        .map(|token| json!({ "provider": "greenhouse", "token": token }))
        .collect()
}

/// Two worker processes of the real binary on `app`'s database, reading `sources` with the
/// Greenhouse collector every second.
async fn two_collecting_workers(app: &TestApp, sources: &Sources) -> Vec<ServerProcess> {
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    settings.extend(
        [
            "--collectors",
            "greenhouse",
            "--collect-interval-seconds",
            "1",
        ]
        .map(String::from),
    );
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    ServerProcess::start_together(&app.database_url, &[Role::Worker, Role::Worker], &args).await
}

/// Waits until the receiver got `n` deliveries, and counts the signals among them.
async fn distinct_signals(receiver: &Receiver, n: usize) -> usize {
    let got = receiver.wait_for(n, WITHIN).await;
    let ids: BTreeSet<String> = got
        .iter()
        .map(|d| {
            d.json()["data"]["signal"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    ids.len()
}
