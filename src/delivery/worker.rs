//! The webhook worker (DESIGN.md flow 3): claims due deliveries under a lease, sends each outside
//! any transaction, and records outcomes in batches. Each webhook has at most
//! [`PER_ENDPOINT`] requests open, so a hanging endpoint only slows itself; a webhook's slot is
//! free again as soon as its answer is in (the lease keeps the row ours until the outcome is
//! recorded), so recording in batches does not hold its endpoints back.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::dispatch::Dispatcher;
use crate::domain::time::now_ms;
use crate::store::deliveries::{
    AttemptRecord, Claim, claim_due, expire_held, extend_leases, record_attempts, release,
    release_all,
};
use crate::store::outbox::listen_queued;

/// Most requests open per webhook.
pub const PER_ENDPOINT: usize = 16;

/// Most claimed deliveries per process whose outcome is not recorded yet.
pub const IN_FLIGHT: usize = 1024;

/// Longest wait between claims when nothing wakes the worker (other processes' ingests).
const POLL: Duration = Duration::from_millis(200);
/// After a claim round that found nothing to send, the worker rests this many times the
/// round's own duration (at most a fifth of its time goes to fruitless rounds).
const FRUITLESS_REST: u32 = 4;

/// Outcomes recorded per transaction, at most.
const RECORD_BATCH: usize = 512;

/// What the worker has under way: open requests per webhook, and claimed deliveries whose
/// outcome is not recorded yet.
#[derive(Default)]
struct Underway {
    per_webhook: Mutex<HashMap<String, usize>>,
    unrecorded: AtomicUsize,
}

type InFlight = Arc<Underway>;

fn lock(in_flight: &InFlight) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
    in_flight
        .per_webhook
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The request to `webhook_id` is over: frees its slot; wakes the claimer when the webhook
/// had none left.
fn answered(dispatcher: &Dispatcher, in_flight: &InFlight, webhook_id: &str) {
    let mut map = lock(in_flight);
    if let Some(n) = map.get_mut(webhook_id) {
        let was_full = *n >= PER_ENDPOINT;
        *n -= 1;
        if *n == 0 {
            map.remove(webhook_id);
        }
        if was_full {
            dispatcher.wake_local();
        }
    }
}

/// Runs until `shutdown`; attempts in flight then finish and are recorded (within the lease
/// time) and any lease still held is released before it returns.
pub async fn delivery_loop(dispatcher: Arc<Dispatcher>, shutdown: CancellationToken) {
    let in_flight: InFlight = Arc::default();
    let (sender, receiver) = mpsc::channel::<AttemptRecord>(IN_FLIGHT);
    let recorder = tokio::spawn(record_loop(dispatcher.clone(), receiver, in_flight.clone()));
    tokio::spawn(hear_announcements(dispatcher.clone(), shutdown.clone()));
    let mut last_expiry = 0;
    let mut last_renewal = now_ms();
    while !shutdown.is_cancelled() {
        let now = now_ms();
        if now - last_renewal > dispatcher.lease_ms() / 3 {
            last_renewal = now;
            renew_leases(&dispatcher, &in_flight, now).await;
        }
        if now - last_expiry > 60_000 {
            last_expiry = now;
            if let Err(err) = expire_held(dispatcher.db(), now).await {
                tracing::error!(error = %err, "expiring held deliveries failed");
            }
        }
        let round = Instant::now();
        let claimed = match claim_round(&dispatcher, &in_flight, &sender).await {
            Ok(n) => n,
            Err(err) => {
                tracing::error!(error = %err, "claiming deliveries failed");
                0
            }
        };
        if claimed == 0 {
            // A round that finds nothing may still have read many due rows it cannot send
            // (held for want of credits, paused monitors). Rest in proportion before the next,
            // so a stream of wake-ups cannot keep one core busy re-reading them; a wake-up
            // during the rest is kept and answered after it.
            let rest = round.elapsed() * FRUITLESS_REST;
            if rest > Duration::from_millis(1) {
                tokio::select! {
                    _ = shutdown.cancelled() => break,
                    _ = tokio::time::sleep(rest) => {}
                }
            }
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = dispatcher.woken(POLL) => {}
            }
        }
    }
    drop(sender);
    // Attempts in flight end within the webhook timeout; give them that long to be recorded.
    let drain = Duration::from_millis(dispatcher.lease_ms() as u64);
    if tokio::time::timeout(drain, recorder).await.is_err() {
        tracing::warn!("delivery attempts still in flight at shutdown; their leases are released");
    }
    match release_all(dispatcher.db(), dispatcher.owner()).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(released = n, "delivery leases released at shutdown"),
        Err(err) => tracing::error!(error = %err, "releasing delivery leases failed"),
    }
}

/// Extends the leases of this process's attempts still under way, so an attempt longer than a
/// lease keeps its delivery (a dead process renews nothing, and its leases run out).
async fn renew_leases(dispatcher: &Dispatcher, in_flight: &InFlight, now: i64) {
    if in_flight.unrecorded.load(Ordering::Acquire) == 0 {
        return;
    }
    let until = now + dispatcher.lease_ms();
    if let Err(err) = extend_leases(dispatcher.db(), dispatcher.owner(), now, until).await {
        tracing::error!(error = %err, "renewing delivery leases failed");
    }
}

/// On PostgreSQL, wakes this worker whenever another process announces queued deliveries.
async fn hear_announcements(dispatcher: Arc<Dispatcher>, shutdown: CancellationToken) {
    let mut listener = match listen_queued(dispatcher.db()).await {
        Ok(Some(listener)) => listener,
        Ok(None) => return,
        Err(err) => {
            tracing::warn!(error = %err, "not listening for queued deliveries; polling only");
            return;
        }
    };
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            heard = listener.recv() => match heard {
                Ok(_) => dispatcher.wake_local(),
                Err(err) => {
                    tracing::warn!(error = %err, "listening for queued deliveries failed");
                    tokio::time::sleep(POLL).await;
                }
            },
        }
    }
}

/// Claims what there is room for and starts sending it; returns how many started.
async fn claim_round(
    dispatcher: &Arc<Dispatcher>,
    in_flight: &InFlight,
    sender: &mpsc::Sender<AttemptRecord>,
) -> Result<usize, crate::store::StoreError> {
    let room = IN_FLIGHT.saturating_sub(in_flight.unrecorded.load(Ordering::Acquire));
    let full: Vec<String> = lock(in_flight)
        .iter()
        .filter(|(_, n)| **n >= PER_ENDPOINT)
        .map(|(id, _)| id.clone())
        .collect();
    if room == 0 {
        return Ok(0);
    }
    let claim = Claim {
        owner: dispatcher.owner(),
        now: now_ms(),
        lease_ms: dispatcher.lease_ms(),
        limit: room.min(256) as i64,
        per_webhook: PER_ENDPOINT as i64,
        exclude: &full,
    };
    let claimed = claim_due(dispatcher.db(), &claim).await?;
    let mut extra = Vec::new();
    let mut started = 0;
    for delivery in claimed {
        {
            let mut map = lock(in_flight);
            let n = map.entry(delivery.webhook_id.clone()).or_default();
            if *n >= PER_ENDPOINT {
                extra.push(delivery.id.clone());
                continue;
            }
            *n += 1;
        }
        started += 1;
        in_flight.unrecorded.fetch_add(1, Ordering::AcqRel);
        let (dispatcher, sender, in_flight) =
            (dispatcher.clone(), sender.clone(), in_flight.clone());
        tokio::spawn(async move {
            let record = dispatcher.attempt(&delivery).await;
            answered(&dispatcher, &in_flight, &delivery.webhook_id);
            let _ = sender.send(record).await;
        });
    }
    if !extra.is_empty() {
        let ids: Vec<&str> = extra.iter().map(String::as_str).collect();
        release(dispatcher.db(), &ids, dispatcher.owner()).await?;
    }
    Ok(started)
}

/// Records outcomes as they come, many per transaction, then makes room for more claims.
async fn record_loop(
    dispatcher: Arc<Dispatcher>,
    mut receiver: mpsc::Receiver<AttemptRecord>,
    in_flight: InFlight,
) {
    let mut batch = Vec::with_capacity(RECORD_BATCH);
    while receiver.recv_many(&mut batch, RECORD_BATCH).await > 0 {
        let mut delay = Duration::from_millis(50);
        while let Err(err) = record_attempts(dispatcher.db(), &batch).await {
            // The lease keeps the rows ours for a while; keep trying rather than lose outcomes.
            tracing::error!(error = %err, "recording delivery attempts failed; retrying");
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(2));
        }
        in_flight
            .unrecorded
            .fetch_sub(batch.len(), Ordering::AcqRel);
        batch.clear();
        dispatcher.wake_local();
    }
}
