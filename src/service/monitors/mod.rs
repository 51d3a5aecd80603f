//! Monitors: a team's named groups of targets with their signal types and, optionally, a webhook
//! subscription of their own. A team has at most 20 monitors, and its monitors' webhooks count
//! toward its 10 active webhooks.

mod recent;
mod update;
mod webhook;

use std::collections::HashMap;

pub use recent::recent_signals;
pub use update::{MonitorChanges, update};

use crate::domain::signal_type::{SIGNAL_TYPES_MESSAGE, SignalType, parse_signal_types};
use crate::domain::time::{DAY_MS, now_ms};
use crate::domain::webhook_url::WebhookUrl;
use crate::service::webhooks::{ensure_webhook_capacity, from_json_text};
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::monitors::{self as store, MonitorRow};
use crate::store::stats::{MonitorCounts, monitor_counts};
use crate::store::webhooks::retire_webhook;
use crate::store::{Db, StoreError, new_id};
use webhook::attach_new_webhook;

/// Most monitors a team may have, paused ones included.
pub const MAX_MONITORS: i64 = 20;
const MAX_NAME_CHARS: usize = 255;
/// The refusal of a name that is not 1-255 characters of text.
pub const NAME_MESSAGE: &str = "name must be a string of 1-255 characters";
/// Statistics count the signals of this many recent days.
const STATS_DAYS: i64 = 30;

/// A monitor as the use cases return it.
#[derive(Debug, Clone)]
pub struct Monitor {
    pub row: MonitorRow,
    pub signal_types: Vec<SignalType>,
    /// `None` only when an update succeeded but the statistics could not be read back.
    pub counts: Option<MonitorCounts>,
    /// The webhook's signing secret, only when this call created the webhook.
    pub secret: Option<String>,
}

/// A monitor to create, its values already checked.
#[derive(Debug, Clone)]
pub struct NewMonitor {
    pub name: String,
    pub signal_types: Vec<SignalType>,
    /// The endpoint of the monitor's own webhook; `None` for an e-mail-only monitor.
    pub webhook_url: Option<WebhookUrl>,
}

/// A monitor name, kept as sent: 1-255 characters, not only whitespace, and no control
/// characters (PostgreSQL cannot store NUL, and none belongs in a name shown in lists and
/// e-mail subjects).
pub fn parse_name(name: String) -> Result<String, ServiceError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ServiceError::invalid(NAME_MESSAGE));
    }
    if name.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "name must not contain control characters",
        ));
    }
    Ok(name)
}

/// Signal type names: a non-empty list of known values, duplicates removed.
pub fn parse_signal_type_names(names: &[&str]) -> Result<Vec<SignalType>, ServiceError> {
    parse_signal_types(names).ok_or_else(|| ServiceError::invalid(SIGNAL_TYPES_MESSAGE))
}

/// A webhook URL as sent: `None` for an empty one, which means no webhook.
pub fn requested_url(value: Option<String>) -> Option<String> {
    value.filter(|url| !url.trim().is_empty())
}

/// Refuses an unknown monitor; the check a client makes before it reads a request's body.
pub async fn check_exists(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<(), ServiceError> {
    find(&services.db, ctx, id).await.map(drop)
}

/// Creates a monitor within the team's monitor limit, with its webhook (within the active
/// webhook limit) when a URL is given.
pub async fn create(
    services: &Services,
    ctx: &TeamContext,
    input: NewMonitor,
) -> Result<Monitor, ServiceError> {
    let now = now_ms();
    let mut monitor = MonitorRow {
        id: new_id(),
        team_id: ctx.team_id.clone(),
        created_by: ctx.user_id.clone(),
        name: input.name,
        signal_types: signal_types_json(&input.signal_types),
        active: true,
        webhook_id: None,
        webhook_url: None,
        last_delivery_at: None,
        created_at: now,
        updated_at: now,
    };
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(ctx.team()).await?;
    if store::count_monitors(&mut tx, ctx.team()).await? >= MAX_MONITORS {
        return Err(ServiceError::invalid(format!(
            "Monitor limit reached: a team can have at most {MAX_MONITORS} monitors"
        )));
    }
    let mut secret = None;
    if let Some(url) = &input.webhook_url {
        ensure_webhook_capacity(&mut tx, ctx.team(), Some(&monitor.id)).await?;
        let types = &input.signal_types;
        secret = Some(attach_new_webhook(&mut tx, &mut monitor, url, types, ctx).await?);
    }
    store::insert_monitor(&mut tx, &monitor).await?;
    tx.commit().await?;
    Ok(Monitor {
        row: monitor,
        signal_types: input.signal_types,
        counts: Some(MonitorCounts::default()),
        secret,
    })
}

/// One monitor with its statistics.
pub async fn get(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<Monitor, ServiceError> {
    let row = find(&services.db, ctx, id).await?;
    let mut counts = team_counts(&services.db, ctx.team()).await?;
    with_counts(row, Some(counts.remove(id).unwrap_or_default()))
}

/// Every monitor of the team with its statistics, newest first, paused ones included.
pub async fn list(services: &Services, ctx: &TeamContext) -> Result<Vec<Monitor>, ServiceError> {
    let rows = store::list_monitors(&services.db, ctx.team()).await?;
    let counts = team_counts(&services.db, ctx.team()).await?;
    rows.into_iter()
        .map(|row| {
            let row_counts = counts.get(&row.id).copied().unwrap_or_default();
            with_counts(row, Some(row_counts))
        })
        .collect()
}

/// Deletes a monitor and all its targets; its webhook is retired, so delivery stops at once.
pub async fn delete(services: &Services, ctx: &TeamContext, id: &str) -> Result<(), ServiceError> {
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(ctx.team()).await?;
    let monitor = store::find_monitor_tx(&mut tx, ctx.team(), id)
        .await?
        .ok_or_else(monitor_not_found)?;
    if let Some(webhook_id) = &monitor.webhook_id {
        retire_webhook(&mut tx, webhook_id).await?;
    }
    store::delete_monitor(&mut tx, ctx.team(), id).await?;
    tx.commit().await?;
    Ok(())
}

/// The "not found" of every monitor use case: unknown, malformed or another team's.
pub fn monitor_not_found() -> ServiceError {
    ServiceError::not_found("Monitor not found")
}

async fn find(db: &Db, ctx: &TeamContext, id: &str) -> Result<MonitorRow, ServiceError> {
    store::find_monitor(db, ctx.team(), id)
        .await?
        .ok_or_else(monitor_not_found)
}

/// The statistics of every monitor of the team, keyed by monitor id.
async fn team_counts(db: &Db, team_id: &str) -> Result<HashMap<String, MonitorCounts>, StoreError> {
    monitor_counts(db, team_id, now_ms() - STATS_DAYS * DAY_MS).await
}

fn with_counts(row: MonitorRow, counts: Option<MonitorCounts>) -> Result<Monitor, ServiceError> {
    Ok(Monitor {
        signal_types: stored_types(&row)?,
        row,
        counts,
        secret: None,
    })
}

/// Signal types as stored: a JSON array of wire names.
fn signal_types_json(types: &[SignalType]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
}

/// The stored signal types; a row that does not decode, or names an unknown type, is corrupt.
fn stored_types(row: &MonitorRow) -> Result<Vec<SignalType>, StoreError> {
    let names: Vec<String> = from_json_text(&row.signal_types, "monitors.signal_types")?;
    names
        .iter()
        .map(|name| {
            SignalType::parse(name).ok_or_else(|| {
                StoreError::Corrupt(format!("monitors.signal_types: unknown type {name:?}"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_kept_as_sent_within_1_to_255_characters() {
        assert_eq!(parse_name(" Pipeline ".into()).unwrap(), " Pipeline ");
        assert_eq!(parse_name("é".repeat(255)).unwrap(), "é".repeat(255));
        for refused in ["", "   ", &"x".repeat(256)] {
            let err = parse_name(refused.to_string()).unwrap_err();
            assert_eq!(err.to_string(), NAME_MESSAGE);
        }
    }

    #[test]
    fn a_name_with_control_characters_is_refused() {
        let err = parse_name("a\u{0}b".into()).unwrap_err();
        assert_eq!(err.to_string(), "name must not contain control characters");
    }

    #[test]
    fn unknown_signal_type_names_are_refused_with_the_allowed_list() {
        assert!(parse_signal_type_names(&["hiring", "hiring"]).is_ok());
        let err = parse_signal_type_names(&["investor"]).unwrap_err();
        assert_eq!(err.to_string(), SIGNAL_TYPES_MESSAGE);
    }
}
