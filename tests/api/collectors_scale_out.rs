//! Two worker processes of the real binary collecting the same boards from one PostgreSQL
//! database: every posting becomes one signal, delivered once, however their passes interleave.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::delivery_support::{FAST, assert_stays_at};
use crate::support::process::{Role, ServerProcess};
use crate::support::receiver::Receiver;
use crate::support::sources::{Page, Sources, greenhouse_board};
use crate::support::{Backend, TestApp};

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
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hiring", "signal_types": ["hiring"], "webhook_url": receiver.url }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    let boards: Vec<Value> = tokens
        .iter()
        .map(|token| json!({ "provider": "greenhouse", "token": token }))
        .collect();
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme-jobs.com",
        "jobBoards": boards }]))
        .await;
    app.add_targets(&team, &monitor, json!(["acme-jobs.com"]))
        .await;

    let mut worker_args = args.clone();
    worker_args.extend_from_slice(&[
        "--collectors",
        "greenhouse",
        "--collect-interval-seconds",
        "1",
    ]);
    let _workers = ServerProcess::start_together(
        &app.database_url,
        &[Role::Worker, Role::Worker],
        &worker_args,
    )
    .await;

    let first = (BOARDS * POSTINGS) as usize;
    assert_eq!(distinct_signals(&receiver, first).await, first);
    // Ten more postings on every board: each becomes one more signal.
    serve_boards(10);
    let all = first + (BOARDS * 10) as usize;
    assert_eq!(distinct_signals(&receiver, all).await, all);
    assert_stays_at(&receiver, all, Duration::from_secs(3)).await;
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
