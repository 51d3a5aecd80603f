//! A monitor's own webhook subscription.

use crate::domain::signal_type::SignalType;
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::domain::webhook_url::WebhookUrl;
use crate::service::{ServiceError, TeamContext};
use crate::store::monitors::MonitorRow;
use crate::store::webhooks::{NewWebhook, insert_webhook};
use crate::store::{Tx, new_id};

/// The webhook event types that carry the given signal types.
pub fn event_types(types: &[SignalType]) -> Vec<String> {
    types.iter().map(|t| t.event_type().to_string()).collect()
}

/// Creates a new subscription for the monitor and points the monitor at it. Returns the secret,
/// which is shown only once.
pub async fn attach_new_webhook(
    tx: &mut Tx,
    monitor: &mut MonitorRow,
    url: &WebhookUrl,
    types: &[SignalType],
    ctx: &TeamContext,
) -> Result<String, ServiceError> {
    let webhook = NewWebhook {
        id: new_id(),
        team_id: monitor.team_id.clone(),
        monitor_id: Some(monitor.id.clone()),
        endpoint_url: url.as_str().to_string(),
        secret: generate_webhook_secret(),
        event_types: event_types(types),
        modified_by: ctx.modified_by().to_string(),
        modified_via: ctx.via.as_str(),
    };
    insert_webhook(tx, &webhook).await?;
    monitor.webhook_id = Some(webhook.id);
    monitor.webhook_url = Some(webhook.endpoint_url);
    Ok(webhook.secret)
}
