//! A monitor's webhook subscription: attaching a new one and respecting the active-webhook limit.

use super::input::{MAX_ACTIVE_WEBHOOKS, event_types};
use crate::domain::signal_type::SignalType;
use crate::domain::webhook_secret::generate_webhook_secret;
use crate::domain::webhook_url::WebhookUrl;
use crate::http::error::ApiError;
use crate::store::monitors::MonitorRow;
use crate::store::webhooks::{NewWebhook, count_active_webhooks, insert_webhook};
use crate::store::{Tx, new_id};

/// Refuses a change that would give the team more than 10 active webhooks, counting every
/// active webhook except the one of `monitor_id`.
pub async fn ensure_webhook_capacity(
    tx: &mut Tx,
    team_id: &str,
    monitor_id: &str,
) -> Result<(), ApiError> {
    let active = count_active_webhooks(tx, team_id, Some(monitor_id)).await?;
    if active >= MAX_ACTIVE_WEBHOOKS {
        return Err(ApiError::bad_request(format!(
            "Active webhook limit reached: a team can have at most {MAX_ACTIVE_WEBHOOKS} active \
             webhooks, monitor webhooks included"
        )));
    }
    Ok(())
}

/// Creates a new subscription for the monitor and points the monitor at it. Returns the secret,
/// which is shown only in this response.
pub async fn attach_new_webhook(
    tx: &mut Tx,
    monitor: &mut MonitorRow,
    url: &WebhookUrl,
    types: &[SignalType],
    user_id: &str,
) -> Result<String, ApiError> {
    let webhook = NewWebhook {
        id: new_id(),
        team_id: monitor.team_id.clone(),
        monitor_id: Some(monitor.id.clone()),
        endpoint_url: url.as_str().to_string(),
        secret: generate_webhook_secret(),
        event_types: event_types(types),
        modified_by: user_id.to_string(),
        modified_via: "api",
    };
    insert_webhook(tx, &webhook).await?;
    monitor.webhook_id = Some(webhook.id);
    monitor.webhook_url = Some(webhook.endpoint_url);
    Ok(webhook.secret)
}
