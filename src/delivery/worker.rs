//! The webhook worker (docs/ARCHITECTURE.md, "Deliver"): claims due deliveries under a lease, sends
//! each outside any transaction, and records outcomes in batches. Each webhook has at most
//! [`PER_ENDPOINT`] requests open, so a hanging endpoint only slows itself; a webhook's slot is
//! free again as soon as its answer is in (the lease keeps the row ours until the outcome is
//! recorded).
//!
//! One task, the ledger, does all of the worker's database writes one after another: record
//! what came back, then claim what there is room for. Its claims and records never wait for each
//! other's write lock, and the slot counts need no lock of their own.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::dispatch::Dispatcher;
use super::floors::Floors;
use crate::domain::time::now_ms;
use crate::store::deliveries::{
    AttemptRecord, Claim, claim_due, expire_held, extend_leases, record_attempts, release,
};
use crate::store::outbox::{BUSY, listen_queued};

/// Most requests open per webhook.
pub const PER_ENDPOINT: usize = 16;

/// Most claimed deliveries per process whose outcome is not recorded yet.
pub const IN_FLIGHT: usize = 1024;

/// Longest wait between claims when nothing wakes the worker (other processes' ingests, retries
/// coming due).
const POLL: Duration = Duration::from_millis(200);
/// After a claim round that found nothing to send, the worker rests this many times the
/// round's own duration (at most a fifth of its time goes to fruitless rounds).
const FRUITLESS_REST: u32 = 4;

/// Outcomes recorded per transaction, at most.
const RECORD_BATCH: usize = 512;

/// An attempt's outcome, with the webhook whose slot it frees.
type Outcome = (String, AttemptRecord);

/// The worker's state, owned by its one task.
struct Ledger {
    dispatcher: Arc<Dispatcher>,
    /// Requests open per webhook.
    open: HashMap<String, usize>,
    /// Claimed deliveries whose outcome is not recorded yet: the leases this worker holds,
    /// renewed and given back by id.
    leased: HashSet<String>,
    sender: mpsc::Sender<Outcome>,
    outcomes: mpsc::Receiver<Outcome>,
    /// Outcomes in, not recorded yet.
    answered: Vec<AttemptRecord>,
    /// Where each webhook's claims seek from.
    floors: Floors,
}

/// Runs until `shutdown`; attempts in flight then finish and are recorded (within the lease
/// time) and any lease still held is released before it returns.
pub async fn delivery_loop(dispatcher: Arc<Dispatcher>, shutdown: CancellationToken) {
    tokio::spawn(hear_announcements(dispatcher.clone(), shutdown.clone()));
    let mut ledger = Ledger::new(dispatcher.clone());
    let mut last_expiry = 0;
    let mut last_renewal = now_ms();
    // Holding claims back for a saturated ingest, since the last claim.
    let mut holding = false;
    // Something may be claimable: at start, after a wake-up or poll, when a slot frees.
    let mut claimable = true;
    while !shutdown.is_cancelled() {
        let now = now_ms();
        if now - last_renewal > dispatcher.lease_ms() / 3 {
            last_renewal = now;
            ledger.renew_leases(now).await;
        }
        if now - last_expiry > 60_000 {
            last_expiry = now;
            if let Err(err) = expire_held(dispatcher.db(), now).await {
                tracing::error!(error = %err, "expiring held deliveries failed");
            }
        }
        claimable |= ledger.take_answers();
        ledger.record().await;
        if claimable && let Some(rest) = ledger.held_back().await {
            // An ingest is saturated: the deliveries wait (see `pressure`); outcomes coming
            // back are still recorded, and the claim is made once the rest is over.
            crate::telemetry::delivery_claim_held_back();
            if !holding {
                holding = true;
                tracing::debug!("an ingest is saturated: holding delivery claims back");
            }
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tokio::time::sleep(rest) => {}
            }
            continue;
        }
        if claimable {
            claimable = false;
            holding = false;
            let round = Instant::now();
            if ledger.claim_round().await == 0 {
                // A round that finds nothing may still have read due rows it cannot send.
                // Rest in proportion before the next, so a stream of wake-ups cannot keep one
                // core busy; a wake-up during the rest is kept and answered after it.
                let rest = round.elapsed() * FRUITLESS_REST;
                if rest > Duration::from_millis(1) {
                    tokio::select! {
                        _ = shutdown.cancelled() => break,
                        _ = tokio::time::sleep(rest) => {}
                    }
                }
            }
            continue;
        }
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = dispatcher.woken(POLL) => claimable = true,
            Some((webhook_id, record)) = ledger.outcomes.recv() => {
                ledger.answer(&webhook_id, record);
                claimable = true;
            }
        }
    }
    ledger.finish().await;
}

impl Ledger {
    fn new(dispatcher: Arc<Dispatcher>) -> Ledger {
        let (sender, outcomes) = mpsc::channel(IN_FLIGHT);
        Ledger {
            dispatcher,
            open: HashMap::new(),
            leased: HashSet::new(),
            sender,
            outcomes,
            answered: Vec::new(),
            floors: Floors::default(),
        }
    }

    /// Takes in the outcomes that came back meanwhile; true when any did.
    fn take_answers(&mut self) -> bool {
        let mut any = false;
        while self.answered.len() < RECORD_BATCH {
            let Ok((webhook_id, record)) = self.outcomes.try_recv() else {
                break;
            };
            self.answer(&webhook_id, record);
            any = true;
        }
        any
    }

    /// The request to `webhook_id` is over: frees its slot; the outcome waits to be recorded.
    fn answer(&mut self, webhook_id: &str, record: AttemptRecord) {
        if let Some(n) = self.open.get_mut(webhook_id) {
            *n -= 1;
            if *n == 0 {
                self.open.remove(webhook_id);
            }
        }
        self.answered.push(record);
    }

    /// Records the outcomes taken in, in one transaction, retrying until it works.
    async fn record(&mut self) {
        if self.answered.is_empty() {
            return;
        }
        let mut delay = Duration::from_millis(50);
        loop {
            match record_attempts(self.dispatcher.db(), &self.answered).await {
                Ok(charged) => {
                    crate::telemetry::credits_charged("delivery", charged);
                    break;
                }
                Err(err) => {
                    // The lease keeps the rows ours for a while; keep trying rather than lose
                    // outcomes.
                    tracing::error!(error = %err, "recording delivery attempts failed; retrying");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(2));
                }
            }
        }
        for record in self.answered.drain(..) {
            self.leased.remove(&record.delivery_id);
        }
    }

    /// How long to rest instead of claiming, while an ingest is saturated and the oldest pending
    /// delivery has not waited as long as the deployment allows (`pressure::hold_back`).
    async fn held_back(&mut self) -> Option<Duration> {
        let now = now_ms();
        if !self.dispatcher.yielding(now) {
            return None;
        }
        self.floors.refresh_if_due(self.dispatcher.db(), now).await;
        self.dispatcher.hold_back(now, self.floors.oldest())
    }

    /// Claims what there is room for and starts sending it; returns how many started.
    async fn claim_round(&mut self) -> usize {
        match self.try_claim().await {
            Ok(n) => n,
            Err(err) => {
                tracing::error!(error = %err, "claiming deliveries failed");
                0
            }
        }
    }

    async fn try_claim(&mut self) -> Result<usize, crate::store::StoreError> {
        let room = IN_FLIGHT.saturating_sub(self.leased.len());
        if room == 0 {
            return Ok(0);
        }
        let dispatcher = &self.dispatcher;
        let now = now_ms();
        self.floors.refresh_if_due(dispatcher.db(), now).await;
        let claim = Claim {
            owner: dispatcher.owner(),
            now,
            lease_ms: dispatcher.lease_ms(),
            limit: room.min(256) as i64,
            per_webhook: PER_ENDPOINT as i64,
            busy: &self.open,
            floors: self.floors.get(),
        };
        let claimed = claim_due(dispatcher.db(), &claim).await?;
        let mut extra = Vec::new();
        let mut started = 0;
        for delivery in claimed {
            let n = self.open.entry(delivery.webhook_id.clone()).or_default();
            if *n >= PER_ENDPOINT {
                extra.push(delivery.id.clone());
                continue;
            }
            *n += 1;
            started += 1;
            self.leased.insert(delivery.id.clone());
            let (dispatcher, sender) = (self.dispatcher.clone(), self.sender.clone());
            tokio::spawn(async move {
                let record = dispatcher.attempt(&delivery).await;
                let _ = sender.send((delivery.webhook_id, record)).await;
            });
        }
        if !extra.is_empty() {
            let ids: Vec<&str> = extra.iter().map(String::as_str).collect();
            release(self.dispatcher.db(), &ids, self.dispatcher.owner()).await?;
        }
        Ok(started)
    }

    /// Shutting down: records the attempts still in flight as they end (they end within the
    /// webhook timeout, the lease time at most), then gives back any lease still held.
    async fn finish(mut self) {
        let until =
            tokio::time::Instant::now() + Duration::from_millis(self.dispatcher.lease_ms() as u64);
        while self.leased.len() > self.answered.len() {
            match tokio::time::timeout_at(until, self.outcomes.recv()).await {
                Ok(Some((webhook_id, record))) => self.answer(&webhook_id, record),
                _ => {
                    tracing::warn!(
                        "delivery attempts still in flight at shutdown; their leases are released"
                    );
                    break;
                }
            }
            self.take_answers();
            self.record().await;
        }
        self.record().await;
        let (db, owner) = (self.dispatcher.db(), self.dispatcher.owner());
        let ids: Vec<&str> = self.leased.iter().map(String::as_str).collect();
        match release(db, &ids, owner).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(released = n, "delivery leases released at shutdown"),
            Err(err) => tracing::error!(error = %err, "releasing delivery leases failed"),
        }
    }

    /// Extends the leases of this process's attempts still under way, so an attempt longer than
    /// a lease keeps its delivery (a dead process renews nothing, and its leases run out).
    async fn renew_leases(&self, now: i64) {
        if self.leased.is_empty() {
            return;
        }
        let until = now + self.dispatcher.lease_ms();
        let (db, owner) = (self.dispatcher.db(), self.dispatcher.owner());
        let ids: Vec<&str> = self.leased.iter().map(String::as_str).collect();
        if let Err(err) = extend_leases(db, &ids, owner, now, until).await {
            tracing::error!(error = %err, "renewing delivery leases failed");
        }
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
                Ok(heard) => {
                    if heard.payload() == BUSY {
                        dispatcher.pressure().mark(now_ms());
                    }
                    dispatcher.wake_local();
                }
                Err(err) => {
                    tracing::warn!(error = %err, "listening for queued deliveries failed");
                    tokio::time::sleep(POLL).await;
                }
            },
        }
    }
}
