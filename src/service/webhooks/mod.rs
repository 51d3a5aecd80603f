//! Webhook subscriptions: standalone ones, and (for reading, testing and secret rotation) the
//! webhooks of monitors. A soft-deleted webhook is found only by [`find`] and [`update`], which
//! is how it is re-enabled; every other use case treats it as unknown.

mod input;
mod update;

use std::collections::BTreeMap;

pub use input::{
    EVENT_TYPES, check_webhook_url, event_types_refused, parse_event_types, parse_filters,
};
pub use update::{WebhookChanges, refuse_monitor_change, update};

use crate::delivery::dispatch::SentDelivery;
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::domain::webhook_url::WebhookUrl;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::delivery_history::{WebhookStats, webhook_stats};
use crate::store::webhooks::{self as store, WebhookRow};
use crate::store::{StoreError, Tx, new_id};
pub(crate) use input::{from_json_text, to_json_text};

/// Most active webhooks a team may have; an active monitor's webhook counts.
pub const MAX_ACTIVE_WEBHOOKS: i64 = 10;

/// A webhook as the use cases return it: its row, its stored lists decoded, and its delivery
/// statistics.
#[derive(Debug, Clone)]
pub struct Webhook {
    pub row: WebhookRow,
    pub event_types: Vec<String>,
    pub filters: BTreeMap<String, String>,
    pub stats: WebhookStats,
    /// True when this call minted the signing secret, which is then shown once.
    pub secret_minted: bool,
}

/// A standalone webhook to create, its values already checked.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    pub endpoint_url: WebhookUrl,
    pub event_types: Vec<String>,
    pub filters: BTreeMap<String, String>,
}

/// The "not found" of every webhook use case: unknown, another team's, retired or soft-deleted.
pub fn webhook_not_found() -> ServiceError {
    ServiceError::not_found("Webhook not found")
}

/// The refusal of a change that may only be made through the webhook's monitor.
pub fn owned_by_monitor(monitor_id: &str) -> ServiceError {
    ServiceError::conflict(format!(
        "This webhook belongs to monitor {monitor_id}; change or delete it through \
         /monitors/{monitor_id}. Only rotate_secret is accepted here."
    ))
}

/// Refuses a change that would give the team more than 10 active webhooks, counting every
/// active webhook except the one of `except_monitor`. Call it in a transaction that holds the
/// team lock, so concurrent requests cannot both pass.
pub async fn ensure_webhook_capacity(
    tx: &mut Tx,
    team_id: &str,
    except_monitor: Option<&str>,
) -> Result<(), ServiceError> {
    if store::count_active_webhooks(tx, team_id, except_monitor).await? >= MAX_ACTIVE_WEBHOOKS {
        return Err(ServiceError::invalid(format!(
            "Active webhook limit reached: a team can have at most {MAX_ACTIVE_WEBHOOKS} active \
             webhooks, monitor webhooks included"
        )));
    }
    Ok(())
}

/// The team's webhook `id`, active or soft-deleted.
pub async fn find(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<WebhookRow, ServiceError> {
    store::find_webhook(&services.db, ctx.team(), id)
        .await?
        .ok_or_else(webhook_not_found)
}

/// The team's active webhook `id`, without statistics.
pub async fn find_active(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<WebhookRow, ServiceError> {
    let row = find(services, ctx, id).await?;
    if row.active {
        Ok(row)
    } else {
        Err(webhook_not_found())
    }
}

/// One active webhook with its statistics.
pub async fn get(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<Webhook, ServiceError> {
    let row = find_active(services, ctx, id).await?;
    with_stats(services, row, false).await
}

/// A page of the team's active webhooks, newest first: standalone ones and those of active
/// monitors.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    limit: i64,
    offset: i64,
) -> Result<Vec<Webhook>, ServiceError> {
    let rows = store::list_active_webhooks(&services.db, ctx.team(), limit, offset).await?;
    let ids: Vec<String> = rows.iter().map(|row| row.id.clone()).collect();
    let mut stats = webhook_stats(&services.db, ctx.team(), &ids).await?;
    let webhooks = rows.into_iter().map(|row| {
        let row_stats = stats.remove(&row.id).unwrap_or_default();
        decode(row, row_stats, false)
    });
    Ok(webhooks.collect::<Result<_, _>>()?)
}

/// Creates a standalone webhook within the active-webhook limit. Its secret is minted here.
pub async fn create(
    services: &Services,
    ctx: &TeamContext,
    input: NewWebhook,
) -> Result<Webhook, ServiceError> {
    let webhook = store::NewWebhook {
        id: new_id(),
        team_id: ctx.team_id.clone(),
        monitor_id: None,
        endpoint_url: input.endpoint_url.into_string(),
        secret: generate_webhook_secret(),
        event_types: input.event_types,
        modified_by: ctx.modified_by().to_string(),
        modified_via: ctx.via.as_str(),
    };
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(ctx.team()).await?;
    ensure_webhook_capacity(&mut tx, ctx.team(), None).await?;
    store::insert_webhook_with_filters(&mut tx, &webhook, &to_json_text(&input.filters)).await?;
    // Read back inside the transaction so the answer shows exactly what was stored.
    let row = store::find_webhook_tx(&mut tx, ctx.team(), &webhook.id)
        .await?
        .ok_or_else(|| StoreError::Corrupt("a created webhook could not be read back".into()))?;
    tx.commit().await?;
    Ok(decode(row, WebhookStats::default(), true)?)
}

/// Soft-deletes a standalone webhook: it stops receiving events and keeps its history. A
/// monitor's webhook is refused; it goes with its monitor.
pub async fn delete(services: &Services, ctx: &TeamContext, id: &str) -> Result<(), ServiceError> {
    let mut tx = services.db.begin_write().await?;
    let row = store::find_webhook_tx(&mut tx, ctx.team(), id)
        .await?
        .filter(|row| row.active)
        .ok_or_else(webhook_not_found)?;
    if let Some(monitor_id) = &row.monitor_id {
        return Err(owned_by_monitor(monitor_id));
    }
    if !store::soft_delete_webhook(&mut tx, ctx.team(), id, ctx.modified_by(), ctx.via.as_str())
        .await?
    {
        return Err(webhook_not_found());
    }
    tx.commit().await?;
    Ok(())
}

/// Sends a signed `system.test` event to the active webhook `id` now, recorded as a free
/// delivery.
pub async fn send_test(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<SentDelivery, ServiceError> {
    let webhook = find_active(services, ctx, id).await?;
    Ok(services
        .dispatcher
        .send_test(ctx.team(), &webhook.id)
        .await?)
}

/// A webhook with its statistics read now.
async fn with_stats(
    services: &Services,
    row: WebhookRow,
    secret_minted: bool,
) -> Result<Webhook, ServiceError> {
    let stats = webhook_stats(&services.db, &row.team_id, std::slice::from_ref(&row.id))
        .await?
        .remove(&row.id)
        .unwrap_or_default();
    Ok(decode(row, stats, secret_minted)?)
}

fn decode(
    row: WebhookRow,
    stats: WebhookStats,
    secret_minted: bool,
) -> Result<Webhook, StoreError> {
    Ok(Webhook {
        event_types: from_json_text(&row.event_types, "webhooks.event_types")?,
        filters: from_json_text(&row.filters, "webhooks.filters")?,
        row,
        stats,
        secret_minted,
    })
}
