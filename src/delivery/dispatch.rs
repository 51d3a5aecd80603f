//! One delivery attempt, start to finish: sign the envelope, POST it through the SSRF-safe
//! client, and turn the outcome into what the store records. Also the inline sends of the
//! Webhooks API (the test event and a manual retry).

use std::time::Duration;

use rand::Rng;
use tokio::sync::Notify;

use super::announcer::Announcer;
use super::client::{PostOutcome, WebhookClient};
use super::event::{envelope, test_event_data};
use super::pressure::{IngestPressure, hold_back};
use crate::config::Config;
use crate::domain::delivery_status::DeliveryStatus;
use crate::domain::retry::{Attempt, Next, max_attempts, next_step, parse_retry_after};
use crate::domain::signing::{Signed, delivery_headers};
use crate::domain::time::{format_ms, now_ms};
use crate::store::deliveries::{
    AttemptRecord, ClaimedDelivery, lease_one, queue_replay, record_attempts, webhook_monitor_id,
};
use crate::store::delivery_history::attempt_excerpt;
use crate::store::outbox::{NewDelivery, NewEvent, insert_deliveries, insert_events};
use crate::store::{Db, StoreError, new_id};
use crate::telemetry;

/// Time beyond the webhook timeout a lease allows for recording the outcome.
const LEASE_SLACK_MS: i64 = 10_000;

/// The longest worker lease. The worker renews the leases of attempts still under way, so a
/// lease need not cover a whole attempt; once a worker dies its leases run out within this, which
/// keeps "in-flight deliveries are attempted again within 30 s of a restart" true whatever the
/// webhook timeout.
const MAX_LEASE_MS: i64 = 25_000;

/// The worker lease for a webhook timeout: the whole attempt plus slack, at most
/// [`MAX_LEASE_MS`].
fn lease_ms(timeout: Duration) -> i64 {
    (timeout.as_millis() as i64 + LEASE_SLACK_MS).min(MAX_LEASE_MS)
}

/// What an inline send came to (the test event, a manual retry).
#[derive(Debug, Clone)]
pub struct SentDelivery {
    pub delivery_id: String,
    pub previous_delivery_id: Option<String>,
    pub event_id: String,
    pub event_type: String,
    pub status: DeliveryStatus,
    pub response_status: Option<u16>,
    pub response_body: String,
    pub attempt_count: i64,
    pub success: bool,
}

/// Sends deliveries: shared by the worker and the Webhooks API.
pub struct Dispatcher {
    db: Db,
    client: WebhookClient,
    schedule: Vec<u64>,
    /// This process's name on the leases it takes.
    owner: String,
    lease_ms: i64,
    wake: Notify,
    /// Notifications to the other processes (they coalesce).
    announcer: Announcer,
    /// Whether an ingest of this deployment is saturated (see `pressure`).
    pressure: IngestPressure,
    /// How long a due delivery may be held back while it is, in milliseconds (0: never).
    yield_ms: i64,
}

impl Dispatcher {
    /// A dispatcher for this process.
    pub fn new(db: Db, config: &Config) -> anyhow::Result<Dispatcher> {
        let timeout = Duration::from_secs(config.webhook_timeout_seconds.max(1));
        Ok(Dispatcher {
            db,
            client: WebhookClient::new(config.allow_private_webhooks, timeout)?,
            schedule: config.retry_schedule.0.clone(),
            owner: format!("{}:{}", std::process::id(), new_id()),
            lease_ms: lease_ms(timeout),
            wake: Notify::new(),
            announcer: Announcer::default(),
            pressure: IngestPressure::default(),
            yield_ms: config.delivery_yield_seconds.saturating_mul(1000) as i64,
        })
    }

    /// How long an inline send (test event, manual retry) holds its delivery: the whole attempt,
    /// as nothing renews that lease.
    fn inline_lease_ms(&self) -> i64 {
        self.client.timeout().as_millis() as i64 + LEASE_SLACK_MS
    }

    /// The database deliveries live in.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The name this process leases deliveries under.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// How long a lease lasts.
    pub fn lease_ms(&self) -> i64 {
        self.lease_ms
    }

    /// Tells the workers that new deliveries were queued: this process's at once, and on
    /// PostgreSQL those of other processes through a notification.
    pub fn wake(&self) {
        self.wake.notify_one();
        self.announcer.announce(&self.db);
    }

    /// Wakes this process's worker only: it has room for more work, or the other processes were
    /// told already (an ingest announces its deliveries at its commit).
    pub fn wake_local(&self) {
        self.wake.notify_one();
    }

    /// The ingest pressure this process's workers heed, for its ingest writer to mark.
    pub fn pressure(&self) -> IngestPressure {
        self.pressure.clone()
    }

    /// True while an ingest of this deployment is saturated and deliveries may wait for it.
    pub fn yielding(&self, now_ms: i64) -> bool {
        self.yield_ms > 0 && self.pressure.active(now_ms)
    }

    /// How long the worker holds its next claim back at `now_ms`, given the earliest pending
    /// delivery's due time (see `pressure::hold_back`); `None` to claim now.
    pub fn hold_back(&self, now_ms: i64, oldest_pending: Option<i64>) -> Option<Duration> {
        hold_back(now_ms, self.pressure.until(), oldest_pending, self.yield_ms)
    }

    /// Waits until [`Dispatcher::wake`] is called or `timeout` passes.
    pub async fn woken(&self, timeout: Duration) {
        let _ = tokio::time::timeout(timeout, self.wake.notified()).await;
    }

    /// Makes one attempt of a leased delivery and returns what to record.
    pub async fn attempt(&self, d: &ClaimedDelivery) -> AttemptRecord {
        let body = envelope(&d.event_id, &d.event_type, d.event_created_at, &d.data);
        let attempted_at = now_ms();
        let signed = Signed {
            secret: &d.secret,
            event_id: &d.event_id,
            event_type: &d.event_type,
            timestamp: attempted_at / 1000,
            monitor_id: d.monitor_id.as_deref(),
        };
        let headers = delivery_headers(&signed, &body);
        let outcome = self.client.post(&d.endpoint_url, &headers, body).await;
        self.record_for(d, attempted_at, outcome)
    }

    fn record_for(&self, d: &ClaimedDelivery, attempted_at: i64, o: PostOutcome) -> AttemptRecord {
        let attempt = match o.status {
            Some(s) if (200..300).contains(&s) => Attempt::Delivered,
            Some(410) => Attempt::Gone,
            _ => Attempt::Failed {
                retry_after_ms: o
                    .retry_after
                    .as_deref()
                    .and_then(|v| parse_retry_after(v, chrono::Utc::now())),
            },
        };
        let made = d.attempt_count + 1;
        let max = if d.max_attempts > 0 {
            d.max_attempts
        } else {
            max_attempts(&self.schedule)
        };
        let jitter = rand::rng().random_range(-1.0..=1.0);
        let now = now_ms();
        let next = next_step(attempt, made, max, &self.schedule, now, jitter);
        observe(d, made, &o, attempt, next);
        let (status, next_attempt_at) = match next {
            Next::Done => (DeliveryStatus::Done, now),
            Next::Failed => (DeliveryStatus::Failed, now),
            Next::RetryAt(at) => (DeliveryStatus::Pending, at),
        };
        AttemptRecord {
            delivery_id: d.id.clone(),
            owner: self.owner.clone(),
            team_id: d.team_id.clone(),
            monitor_id: d.monitor_id.clone(),
            free: d.free,
            attempt: made,
            attempted_at,
            response_status: o.status.map(i64::from),
            response_excerpt: o.status.map(|_| attempt_excerpt(&o.body).to_string()),
            response_body: o.body,
            duration_ms: o.duration.as_millis() as i64,
            error: o.error,
            status,
            next_attempt_at,
        }
    }

    /// Sends a `system.test` event to webhook `webhook_id` of `team_id` now: free, one attempt,
    /// recorded as a delivery with its attempt.
    pub async fn send_test(
        &self,
        team_id: &str,
        webhook_id: &str,
    ) -> Result<SentDelivery, StoreError> {
        let now = now_ms();
        let event_id = new_id();
        let delivery_id = new_id();
        let mut tx = self.db.begin_write().await?;
        insert_events(
            &mut tx,
            &[NewEvent {
                id: event_id.clone(),
                event_type: "system.test".into(),
                signal_id: None,
                data: test_event_data(&event_id, now).to_string(),
                created_at: now,
            }],
        )
        .await?;
        let delivery = NewDelivery {
            id: delivery_id.clone(),
            webhook_id: webhook_id.to_string(),
            team_id: team_id.to_string(),
            monitor_id: webhook_monitor_id(&mut tx, webhook_id).await?,
            event_id,
            event_type: "system.test".into(),
            free: true,
            max_attempts: 1,
            attempt_count: 0,
            retry_of: None,
            created_at: now,
        };
        insert_deliveries(&mut tx, &[delivery]).await?;
        let leased = lease_one(
            &mut tx,
            &delivery_id,
            &self.owner,
            now + self.inline_lease_ms(),
        )
        .await?;
        tx.commit().await?;
        self.send_inline(leased, None).await
    }

    /// Manual retry of delivery `delivery_id`: a new delivery row with the same event, one more
    /// attempt, made now with the webhook's current secret. The caller checks ownership and that
    /// the delivery did not succeed.
    pub async fn retry_now(&self, delivery_id: &str) -> Result<SentDelivery, StoreError> {
        let now = now_ms();
        let mut tx = self.db.begin_write().await?;
        let Some(replay) = queue_replay(&mut tx, delivery_id, now).await? else {
            return Err(StoreError::NotFound);
        };
        let leased = lease_one(&mut tx, &replay, &self.owner, now + self.inline_lease_ms()).await?;
        tx.commit().await?;
        self.send_inline(leased, Some(delivery_id.to_string()))
            .await
    }

    async fn send_inline(
        &self,
        leased: Option<ClaimedDelivery>,
        previous: Option<String>,
    ) -> Result<SentDelivery, StoreError> {
        let delivery = leased.ok_or(StoreError::NotFound)?;
        let record = self.attempt(&delivery).await;
        let charged = record_attempts(&self.db, std::slice::from_ref(&record)).await?;
        telemetry::credits_charged("delivery", charged);
        let status = record.response_status.and_then(|s| u16::try_from(s).ok());
        Ok(SentDelivery {
            delivery_id: delivery.id,
            previous_delivery_id: previous,
            event_id: delivery.event_id,
            event_type: delivery.event_type,
            status: record.status,
            response_status: status,
            response_body: record.response_body,
            attempt_count: record.attempt,
            success: record.status == DeliveryStatus::Done,
        })
    }
}

/// Counts an attempt by its result and logs a warning for each one that failed, with the
/// webhook, the answer's status and the error (never the body or the secret).
fn observe(d: &ClaimedDelivery, made: i64, o: &PostOutcome, attempt: Attempt, next: Next) {
    let result = match (attempt, next) {
        (Attempt::Delivered, _) => "delivered",
        (Attempt::Gone, _) => "gone",
        (_, Next::RetryAt(_)) => "failed",
        _ => "exhausted",
    };
    telemetry::delivery_attempt(result, o.duration);
    match next {
        Next::Done => telemetry::delivery_finished("delivered"),
        Next::Failed => telemetry::delivery_finished("failed"),
        Next::RetryAt(_) => telemetry::delivery_retry_scheduled(),
    }
    if result == "delivered" {
        return;
    }
    let retry_at = match next {
        Next::RetryAt(at) => format_ms(at),
        _ => "never".to_string(),
    };
    tracing::warn!(
        webhook_id = %d.webhook_id,
        delivery_id = %d.id,
        team_id = %d.team_id,
        attempt = made,
        status = o.status.map(i64::from).unwrap_or(0),
        error = o.error.as_deref().unwrap_or("-"),
        retry_at = %retry_at,
        "webhook delivery attempt failed"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_covers_the_attempt_plus_slack_but_never_outlasts_25_seconds() {
        assert_eq!(lease_ms(Duration::from_secs(2)), 12_000);
        assert_eq!(lease_ms(Duration::from_secs(15)), 25_000);
        assert_eq!(lease_ms(Duration::from_secs(60)), 25_000);
    }
}
