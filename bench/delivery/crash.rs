//! The crash loop: `signalwatch serve` processes are killed with SIGKILL at a random moment while
//! signals are being ingested and delivered, restarted on the same database, again and again; at
//! the end the last processes run until everything accepted has arrived. Lost = accepted
//! (signal, endpoint) pairs that never arrived.
//!
//! With one process, every round kills it. With 2 api + 2 worker processes, the rounds kill in
//! turn a worker (while the client ingests through an api process that lives on) and an api
//! process (the one the client ingests through), and restart it in its role.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;

use super::process::{Api, Launch, Proc, new_ids};
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

/// The processes of the loop, by role; a killed one is replaced in its slot.
struct Fleet<'a> {
    launch: &'a Launch,
    roles: &'static [&'static str],
    procs: Vec<Option<Proc>>,
}

impl<'a> Fleet<'a> {
    async fn start(launch: &'a Launch, split: bool) -> anyhow::Result<Fleet<'a>> {
        let roles: &'static [&'static str] = if split {
            &["api", "api", "worker", "worker"]
        } else {
            &["all"]
        };
        let mut procs = Vec::new();
        for (slot, role) in roles.iter().enumerate() {
            procs.push(Some(launch.start(role, &crash_name(role, slot)).await?));
        }
        Ok(Fleet {
            launch,
            roles,
            procs,
        })
    }

    /// The API of the process in `slot` (an api or all-in-one process).
    fn api(&self, slot: usize) -> anyhow::Result<Api> {
        let base = self.procs[slot]
            .as_ref()
            .and_then(|p| p.base.as_deref())
            .unwrap_or_default();
        Api::new(base)
    }

    /// Round `round`'s victim and the slot the client ingests through meanwhile.
    fn turn(&self, round: u32) -> (usize, usize) {
        if self.roles.len() == 1 {
            return (0, 0);
        }
        let api = (round as usize / 2) % 2;
        match round % 2 {
            0 => (2 + api, api),
            _ => (api, api),
        }
    }

    async fn kill_and_restart(&mut self, slot: usize) -> anyhow::Result<()> {
        if let Some(proc) = self.procs[slot].take() {
            proc.kill().await?;
        }
        let role = self.roles[slot];
        self.procs[slot] = Some(self.launch.start(role, &crash_name(role, slot)).await?);
        Ok(())
    }

    async fn stop(self) -> anyhow::Result<()> {
        for proc in self.procs.into_iter().flatten() {
            proc.stop().await?;
        }
        Ok(())
    }
}

fn crash_name(role: &str, slot: usize) -> String {
    format!("crash-{role}-{slot}")
}

/// Runs `kills` kill-and-restart rounds (`split`: over 2 api + 2 worker processes), then
/// recovers.
pub async fn crash_loop(
    launch: &Launch,
    receiver: &BenchReceiver,
    kills: u32,
    split: bool,
) -> anyhow::Result<CrashLoop> {
    receiver.clear();
    // A short answer delay keeps attempts in flight when the kill comes.
    receiver.set_delay(Duration::from_millis(5));
    let urls: Vec<String> = (0..ENDPOINTS)
        .map(|n| receiver.url(FIRST_ENDPOINT + n))
        .collect();
    let mut fleet = Fleet::start(launch, split).await?;
    let credits = 1_000_000_000;
    let team_id = fleet.api(0)?.team_with_webhooks(credits, &urls).await?;
    let accepted: Arc<Mutex<Vec<String>>> = Arc::default();
    for round in 0..kills {
        let (victim, through) = fleet.turn(round);
        let stop = Arc::new(AtomicBool::new(false));
        let ingesting = tokio::spawn(ingest_until_stopped(
            fleet.api(through)?,
            accepted.clone(),
            stop.clone(),
        ));
        let moment = rand::rng().random_range(20..400);
        tokio::time::sleep(Duration::from_millis(moment)).await;
        fleet.kill_and_restart(victim).await?;
        stop.store(true, Ordering::Relaxed);
        let _ = ingesting.await;
        if round % 10 == 9 {
            eprintln!("bench: delivery: crash loop: {} kills", round + 1);
        }
    }
    let restarted = Instant::now();
    let accepted = std::mem::take(&mut *accepted.lock().expect("lock"));
    let missing = wait_for_all(receiver, &accepted, Duration::from_secs(180)).await;
    let recovery_seconds = restarted.elapsed().as_secs_f64();
    let api = fleet.api(0)?;
    let delivered = receiver.distinct();
    // Charges follow the recorded outcome; give the last records a moment to settle.
    let mut spent = credits - api.credits(&team_id).await?;
    let until = Instant::now() + Duration::from_secs(60);
    while spent != delivered as i64 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(200)).await;
        spent = credits - api.credits(&team_id).await?;
    }
    fleet.stop().await?;
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

/// Ingests batches until a request fails (the kill of the process it talks to) or `stop` is
/// set; accepted ids are the batches answered 200.
async fn ingest_until_stopped(api: Api, accepted: Arc<Mutex<Vec<String>>>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
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
