//! The Webhooks API: standalone webhook subscriptions (and, for reading, testing, delivery history
//! and secret rotation, the webhooks of monitors), their deliveries and manual retries.

pub mod create;
pub mod deliveries;
pub mod input;
pub mod read;
pub mod send;
pub mod update;
pub mod views;

use crate::http::error::ApiError;
use crate::http::extract::parse_path_id;
use crate::http::monitors::input::MAX_ACTIVE_WEBHOOKS;
use crate::store::webhooks::{WebhookRow, count_active_webhooks, find_webhook};
use crate::store::{Db, Tx};

/// `last_modified_via` of every change made through this API.
pub const VIA_API: &str = "api";

/// Refuses a change that would give the team more than 10 active webhooks. Call it in a
/// transaction that holds the team lock, so concurrent requests cannot both pass.
pub async fn ensure_webhook_capacity(tx: &mut Tx, team_id: &str) -> Result<(), ApiError> {
    if count_active_webhooks(tx, team_id, None).await? >= MAX_ACTIVE_WEBHOOKS {
        return Err(ApiError::bad_request(format!(
            "Active webhook limit reached: a team can have at most {MAX_ACTIVE_WEBHOOKS} active \
             webhooks, monitor webhooks included"
        )));
    }
    Ok(())
}

/// The 404 of every webhook route: unknown, malformed, another team's, retired or soft-deleted.
pub fn webhook_not_found() -> ApiError {
    ApiError::not_found("Webhook not found")
}

/// The team's active webhook named by a path id; anything else is not found.
pub async fn find_active_webhook(
    db: &Db,
    team_id: &str,
    raw_id: &str,
) -> Result<WebhookRow, ApiError> {
    let id = parse_path_id(raw_id, "Webhook")?;
    find_webhook(db, team_id, &id)
        .await?
        .filter(|row| row.active)
        .ok_or_else(webhook_not_found)
}

/// The 409 for a change the Webhooks API may not make to a monitor's webhook.
pub fn owned_by_monitor(monitor_id: &str) -> ApiError {
    ApiError::conflict(format!(
        "This webhook belongs to monitor {monitor_id}; change or delete it through \
         /monitors/{monitor_id}. Only rotate_secret is accepted here."
    ))
}
