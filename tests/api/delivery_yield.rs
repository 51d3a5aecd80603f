//! Deliveries give way to a saturated ingest: while signals arrive faster than the ingest
//! writer can store them, the worker holds its claims back and the deliveries wait, queued,
//! never longer than `--delivery-yield-seconds`; every one of them still arrives. Told 0, the
//! worker never holds back. On PostgreSQL a worker process hears it from an API process.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use crate::delivery_support::{Watching, acme_round};
use crate::each_backend;
use crate::support::Backend;
use crate::support::process::{Logging, Role, ServerProcess};
use crate::support::receiver::Receiver;

each_backend!(
    under_a_saturating_ingest_the_worker_holds_back_and_every_delivery_still_arrives,
    told_never_to_yield_the_worker_claims_under_the_same_load,
);

mod a_worker_process_holds_back_when_an_api_process_says_its_ingest_is_saturated {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn on_postgres() {
        super::a_worker_process_holds_back_when_an_api_process_says_its_ingest_is_saturated(
            crate::support::Backend::postgres(),
        )
        .await
    }
}

/// Clients sending one signal after another, at once: more than the writer stores as fast as
/// they come, so its groups hold several requests each and it is never idle.
const CLIENTS: usize = 16;
/// How long they send.
const LOAD: Duration = Duration::from_secs(3);
/// How long the deliveries may take to arrive once the load is over.
const ARRIVAL: Duration = Duration::from_secs(90);

/// The watched company's funding rounds from [`CLIENTS`] clients for [`LOAD`]; the ids
/// accepted.
async fn saturate(watching: &Arc<Watching>) -> Vec<String> {
    // Credits for every delivery the load can queue.
    watching.set_credits(1_000_000).await;
    let until = Instant::now() + LOAD;
    let mut clients = JoinSet::new();
    for client in 0..CLIENTS {
        let watching = watching.clone();
        clients.spawn(async move {
            let mut ids = Vec::new();
            while Instant::now() < until {
                let id = format!("a0000000-0000-4000-8000-{client:04}{:08}", ids.len());
                watching
                    .ingest("funding", serde_json::json!([acme_round(&id)]))
                    .await;
                ids.push(id);
            }
            ids
        });
    }
    clients.join_all().await.into_iter().flatten().collect()
}

/// How many times the worker rested instead of claiming, from the service's metrics.
async fn claims_held_back(watching: &Watching) -> u64 {
    let text = watching.app.metrics().await;
    text.lines()
        .find_map(|line| line.strip_prefix("signalwatch_delivery_claims_held_back_total "))
        .map_or(0, |value| {
            value.trim().parse::<f64>().expect("a count") as u64
        })
}

/// Waits until one delivery of each of `accepted` signals came in; the distinct deliveries.
async fn distinct_deliveries(watching: &Watching, accepted: usize) -> usize {
    let received = watching.receiver.wait_for(accepted, ARRIVAL).await;
    let ids: HashSet<String> = received
        .iter()
        .filter_map(|r| r.header("webhook-id").map(str::to_string))
        .collect();
    ids.len()
}

async fn under_a_saturating_ingest_the_worker_holds_back_and_every_delivery_still_arrives(
    backend: Backend,
) {
    let watching = Arc::new(Watching::start(backend, &["--delivery-yield-seconds", "5"]).await);

    let accepted = saturate(&watching).await;

    assert!(
        claims_held_back(&watching).await > 0,
        "the worker gave way to the ingest"
    );
    assert_eq!(
        distinct_deliveries(&watching, accepted.len()).await,
        accepted.len(),
        "one delivery per accepted signal"
    );
}

async fn told_never_to_yield_the_worker_claims_under_the_same_load(backend: Backend) {
    let watching = Arc::new(Watching::start(backend, &["--delivery-yield-seconds", "0"]).await);

    let accepted = saturate(&watching).await;

    assert_eq!(
        distinct_deliveries(&watching, accepted.len()).await,
        accepted.len()
    );
    assert_eq!(claims_held_back(&watching).await, 0);
}

async fn a_worker_process_holds_back_when_an_api_process_says_its_ingest_is_saturated(
    backend: Backend,
) {
    let database = backend.fresh_database().await;
    let settings = [
        "--allow-private-webhooks",
        "true",
        "--delivery-yield-seconds",
        "5",
    ];
    let api = ServerProcess::start(&database.url, Role::Api, &settings).await;
    let logging = Logging {
        filter: "warn,signalwatch::cli::serve=info,signalwatch::delivery::worker=debug",
        format: "json",
    };
    let mut worker = ServerProcess::spawn_logging(&database.url, Role::Worker, &logging, &settings);
    worker.wait_until_ready().await;
    let receiver = Receiver::start().await;
    let url = receiver.url.clone();
    let watching = Arc::new(Watching::on(api.app(), receiver, &url).await);

    let accepted = saturate(&watching).await;

    assert_eq!(
        distinct_deliveries(&watching, accepted.len()).await,
        accepted.len(),
        "one delivery per accepted signal"
    );
    assert!(
        worker.log().contains("holding delivery claims back"),
        "the worker process heard that the ingest was saturated:\n{}",
        worker.log()
    );
}
