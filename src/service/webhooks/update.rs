//! Changing a webhook: endpoint, event types, filters, pause or re-enable, and rotating the
//! signing secret. A monitor's webhook accepts only the rotation.

use std::collections::BTreeMap;

use super::input::to_json_text;
use super::{Webhook, ensure_webhook_capacity, owned_by_monitor, webhook_not_found, with_stats};
use crate::domain::time::now_ms;
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::domain::webhook_url::WebhookUrl;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::webhooks::{self as store, WebhookRow};

/// The checked changes of one update; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct WebhookChanges {
    pub endpoint_url: Option<WebhookUrl>,
    pub event_types: Option<Vec<String>>,
    pub filters: Option<BTreeMap<String, String>>,
    /// `false` pauses (soft-deletes), `true` re-enables within the active-webhook limit.
    pub active: Option<bool>,
    /// Mints a new secret; the old one stops being used at once.
    pub rotate_secret: bool,
}

impl WebhookChanges {
    /// True when the changes go beyond a secret rotation.
    pub fn more_than_the_secret(&self) -> bool {
        self.endpoint_url.is_some()
            || self.event_types.is_some()
            || self.filters.is_some()
            || self.active.is_some()
    }
}

/// Refuses, on a monitor's webhook, a change beyond the secret rotation. A client checks this
/// before the values whose checks are slow (the endpoint's DNS); [`update`] checks it again.
pub fn refuse_monitor_change(
    webhook: &WebhookRow,
    more_than_the_secret: bool,
) -> Result<(), ServiceError> {
    match &webhook.monitor_id {
        Some(monitor_id) if more_than_the_secret => Err(owned_by_monitor(monitor_id)),
        _ => Ok(()),
    }
}

/// Updates the team's webhook `id`, active or soft-deleted. After a rotation the result shows
/// the new secret.
pub async fn update(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
    changes: WebhookChanges,
) -> Result<Webhook, ServiceError> {
    let team = ctx.team();
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(team).await?;
    let mut row = store::find_webhook_tx(&mut tx, team, id)
        .await?
        .ok_or_else(webhook_not_found)?;
    refuse_monitor_change(&row, changes.more_than_the_secret())?;
    if changes.active == Some(true) && !row.active {
        ensure_webhook_capacity(&mut tx, team, None).await?;
    }
    let rotated = changes.rotate_secret;
    apply(&mut row, changes, ctx);
    store::update_webhook(&mut tx, &row).await?;
    tx.commit().await?;
    with_stats(services, row, rotated).await
}

fn apply(row: &mut WebhookRow, changes: WebhookChanges, ctx: &TeamContext) {
    if let Some(url) = changes.endpoint_url {
        row.endpoint_url = url.into_string();
    }
    if let Some(types) = &changes.event_types {
        row.event_types = to_json_text(types);
    }
    if let Some(filters) = &changes.filters {
        row.filters = to_json_text(filters);
    }
    if let Some(active) = changes.active {
        row.active = active;
    }
    if changes.rotate_secret {
        row.secret = generate_webhook_secret();
    }
    row.last_modified_by = Some(ctx.modified_by().to_string());
    row.last_modified_via = Some(ctx.via.as_str().to_string());
    row.updated_at = now_ms();
}
