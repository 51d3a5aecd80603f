//! A webhook's deliveries: the history page by page, one delivery with its attempts, a manual
//! retry sent at once, and the replay of recent failures in the background. Every use case
//! takes the id of one of the team's active webhooks; anything else is not found.

use crate::delivery::dispatch::SentDelivery;
use crate::domain::delivery_status::DeliveryStatus;
use crate::domain::time::{DAY_MS, now_ms, parse_rfc3339_ms};
use crate::service::webhooks::find_active;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::StoreError;
use crate::store::credits::balance;
use crate::store::deliveries::requeue_failed_since;
use crate::store::delivery_history::{find_delivery, list_attempts, list_deliveries};

pub use crate::store::delivery_history::{
    AttemptRow, DeliveryKey, DeliveryPage, DeliveryQuery, DeliveryRow,
};

/// Furthest back a replay of failures may reach.
pub const MAX_REPLAY_DAYS: i64 = 14;
/// Test events are free, and so is a manual retry of one.
const TEST_EVENT: &str = "system.test";

/// One delivery with every attempt, first first.
#[derive(Debug, Clone)]
pub struct DeliveryDetail {
    pub delivery: DeliveryRow,
    pub attempts: Vec<AttemptRow>,
}

/// What a manual retry came to.
#[derive(Debug, Clone)]
pub struct Retried {
    pub sent: SentDelivery,
    /// The delivery that was retried.
    pub retried_id: String,
    /// 1 when the replay succeeded and was charged, else 0.
    pub credits_used: i64,
}

/// A delivery status filter: `done`, `failed` or `pending`.
pub fn parse_status(status: &str) -> Result<DeliveryStatus, ServiceError> {
    DeliveryStatus::parse(status)
        .map_err(|_| ServiceError::invalid("status must be done, failed or pending"))
}

/// A page of the webhook's deliveries, newest first.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    webhook_id: &str,
    query: &DeliveryQuery,
) -> Result<DeliveryPage, ServiceError> {
    let webhook = find_active(services, ctx, webhook_id).await?;
    Ok(list_deliveries(&services.db, ctx.team(), &webhook.id, query).await?)
}

/// One delivery of the webhook with its attempts. `delivery_id` is taken as the client gave it:
/// one that is not an id is not found, like an unknown one, once the webhook was found.
pub async fn get(
    services: &Services,
    ctx: &TeamContext,
    webhook_id: &str,
    delivery_id: &str,
) -> Result<DeliveryDetail, ServiceError> {
    let webhook = find_active(services, ctx, webhook_id).await?;
    let delivery = find_team_delivery(services, ctx, &webhook.id, delivery_id).await?;
    let attempts = list_attempts(&services.db, ctx.team(), &delivery.id).await?;
    Ok(DeliveryDetail { delivery, attempts })
}

/// Replays a delivery that has not succeeded, inline, as a new delivery with the same event and
/// the webhook's current secret. A successful replay costs one credit (test events are free),
/// so at a balance of 0 it is refused. `delivery_id` is taken as in [`get`].
pub async fn retry(
    services: &Services,
    ctx: &TeamContext,
    webhook_id: &str,
    delivery_id: &str,
) -> Result<Retried, ServiceError> {
    let webhook = find_active(services, ctx, webhook_id).await?;
    let delivery = find_team_delivery(services, ctx, &webhook.id, delivery_id).await?;
    if delivery.status == DeliveryStatus::Done {
        return Err(ServiceError::conflict("Delivery already succeeded"));
    }
    if delivery.event_type != TEST_EVENT && balance(&services.db, ctx.team()).await? <= 0 {
        return Err(ServiceError::OutOfCredits);
    }
    let sent = services
        .dispatcher
        .retry_now(&delivery.id)
        .await
        .map_err(|err| match err {
            // The delivery vanished between the check and the send.
            StoreError::NotFound => delivery_not_found(),
            StoreError::InFlight => ServiceError::conflict(
                "Delivery is being attempted right now; retry it once that attempt has finished",
            ),
            err => err.into(),
        })?;
    let credits_used = i64::from(sent.success && sent.event_type != TEST_EVENT);
    Ok(Retried {
        sent,
        retried_id: delivery.id,
        credits_used,
    })
}

/// Queues a new delivery, sent in the background, for every failed delivery of the webhook
/// created at or after `since` — an RFC 3339 time at most 14 days back (`None`: not given or
/// not text). Returns how many were queued.
pub async fn retry_failed(
    services: &Services,
    ctx: &TeamContext,
    webhook_id: &str,
    since: Option<&str>,
) -> Result<u64, ServiceError> {
    let webhook = find_active(services, ctx, webhook_id).await?;
    let now = now_ms();
    let since = parse_since(since, now)?;
    let mut tx = services.db.begin_write().await?;
    let queued = requeue_failed_since(&mut tx, &webhook.id, since, now).await?;
    tx.commit().await?;
    if queued > 0 {
        services.dispatcher.wake();
    }
    Ok(queued)
}

/// `since`: no more than 14 days back (a future one simply matches nothing).
fn parse_since(value: Option<&str>, now: i64) -> Result<i64, ServiceError> {
    let refuse = || {
        ServiceError::invalid(format!(
            "since must be an RFC 3339 date-time within the last {MAX_REPLAY_DAYS} days"
        ))
    };
    let since = value.and_then(parse_rfc3339_ms).ok_or_else(refuse)?;
    if since < now - MAX_REPLAY_DAYS * DAY_MS {
        return Err(refuse());
    }
    Ok(since)
}

fn delivery_not_found() -> ServiceError {
    ServiceError::not_found("Delivery not found")
}

/// One delivery of the given (already checked) webhook; not found otherwise.
async fn find_team_delivery(
    services: &Services,
    ctx: &TeamContext,
    webhook_id: &str,
    delivery_id: &str,
) -> Result<DeliveryRow, ServiceError> {
    let id = uuid::Uuid::parse_str(delivery_id)
        .map_err(|_| delivery_not_found())?
        .to_string();
    find_delivery(&services.db, ctx.team(), webhook_id, &id)
        .await?
        .ok_or_else(delivery_not_found)
}

/// Measures the delivery queue and publishes it as metrics (at each scrape of `/metrics`).
pub async fn measure_queue(db: &crate::store::Db) -> Result<(), ServiceError> {
    let stats = crate::store::deliveries::queue_stats(db).await?;
    let oldest_age_ms = stats
        .oldest_created_at
        .map(|at| (now_ms() - at).max(0))
        .unwrap_or(0);
    crate::telemetry::delivery_queue(
        stats.pending,
        stats.retrying,
        std::time::Duration::from_millis(oldest_age_ms as u64),
    );
    Ok(())
}
