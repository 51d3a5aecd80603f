//! The crash loop: `signalwatch serve` is killed with SIGKILL at a random moment while signals
//! are being ingested and delivered, restarted on the same database, again and again; at the
//! end one last process runs until everything accepted has arrived. Lost = accepted (signal,
//! endpoint) pairs that never arrived.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::Rng;

use super::process::{Api, Launch, new_ids};
use super::receiver::BenchReceiver;

/// Endpoints of the crash loop, numbered apart from the other phases'.
const FIRST_ENDPOINT: u32 = 100;
const ENDPOINTS: u32 = 2;
/// Signals per ingest request.
const BATCH: usize = 10;

/// What the crash loop found.
#[derive(Debug, Clone)]
pub struct CrashLoop {
    pub kills: u32,
    pub accepted_signals: usize,
    pub lost: usize,
    /// Arrivals beyond the first of a pair (at-least-once repeats, same event id).
    pub repeats: u64,
    /// Distinct pairs delivered, and the credits they cost.
    pub delivered: usize,
    pub credits_spent: i64,
    /// From the last restart until every accepted pair had arrived.
    pub recovery_seconds: f64,
}

/// Runs `kills` kill-and-restart rounds, then recovers.
pub async fn crash_loop(
    launch: &Launch,
    receiver: &BenchReceiver,
    kills: u32,
) -> anyhow::Result<CrashLoop> {
    receiver.clear();
    // A short answer delay keeps attempts in flight when the kill comes.
    receiver.set_delay(Duration::from_millis(5));
    let urls: Vec<String> = (0..ENDPOINTS)
        .map(|n| receiver.url(FIRST_ENDPOINT + n))
        .collect();
    let first = launch.start("all", "crash").await?;
    let api = Api::new(first.base.as_deref().unwrap_or_default())?;
    let credits = 1_000_000_000;
    let team_id = api.team_with_webhooks(credits, &urls).await?;
    let accepted: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut proc = first;
    for round in 0..kills {
        let api = Api::new(proc.base.as_deref().unwrap_or_default())?;
        let ingesting = tokio::spawn(ingest_until_error(api, accepted.clone()));
        let moment = rand::rng().random_range(20..400);
        tokio::time::sleep(Duration::from_millis(moment)).await;
        proc.kill().await?;
        let _ = ingesting.await;
        if round % 10 == 9 {
            eprintln!("bench: delivery: crash loop: {} kills", round + 1);
        }
        proc = launch.start("all", "crash").await?;
    }
    let restarted = Instant::now();
    let accepted = std::mem::take(&mut *accepted.lock().expect("lock"));
    let missing = wait_for_all(receiver, &accepted, Duration::from_secs(180)).await;
    let recovery_seconds = restarted.elapsed().as_secs_f64();
    let api = Api::new(proc.base.as_deref().unwrap_or_default())?;
    let delivered = receiver.distinct();
    // Charges follow the recorded outcome; give the last records a moment to settle.
    let mut spent = credits - api.credits(&team_id).await?;
    let until = Instant::now() + Duration::from_secs(60);
    while spent != delivered as i64 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(200)).await;
        spent = credits - api.credits(&team_id).await?;
    }
    proc.stop().await?;
    receiver.set_delay(Duration::ZERO);
    Ok(CrashLoop {
        kills,
        accepted_signals: accepted.len(),
        lost: missing,
        repeats: receiver.requests().saturating_sub(delivered as u64),
        delivered,
        credits_spent: spent,
        recovery_seconds,
    })
}

/// Ingests batches until a request fails (the kill); accepted ids are the batches answered 200.
async fn ingest_until_error(api: Api, accepted: Arc<Mutex<Vec<String>>>) {
    loop {
        let ids = new_ids(BATCH);
        match api.ingest(&ids).await {
            Ok(true) => accepted.lock().expect("lock").extend(ids),
            _ => return,
        }
    }
}

/// Waits until every accepted signal arrived at every endpoint or `patience` passed; returns
/// how many pairs are missing.
async fn wait_for_all(receiver: &BenchReceiver, accepted: &[String], patience: Duration) -> usize {
    let until = Instant::now() + patience;
    loop {
        let missing = accepted
            .iter()
            .flat_map(|id| (0..ENDPOINTS).map(move |n| (n, id)))
            .filter(|(n, id)| receiver.arrival(FIRST_ENDPOINT + n, id).is_none())
            .count();
        if missing == 0 || Instant::now() > until {
            return missing;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
