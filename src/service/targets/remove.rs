//! Removing targets: one by id, or in bulk by value or id. Unmatched bulk entries are reported,
//! never fatal.

use std::collections::HashSet;

use super::{MAX_ENTRIES, TargetEntry};
use crate::domain::target::parse_target;
use crate::service::monitors::monitor_not_found;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::Tx;
use crate::store::monitors::find_monitor_tx;
use crate::store::targets::{delete_targets, existing_ids, ids_by_value};

/// What a bulk remove came to.
#[derive(Debug, Clone)]
pub struct RemovedTargets {
    /// Ids of the removed targets.
    pub removed: Vec<String>,
    /// Entries as sent that matched no target of the monitor.
    pub not_found: Vec<String>,
}

/// Removes one target of a monitor; a target of another monitor is not found.
pub async fn remove(
    services: &Services,
    ctx: &TeamContext,
    monitor_id: &str,
    target_id: &str,
) -> Result<(), ServiceError> {
    let mut tx = open_monitor(services, ctx, monitor_id).await?;
    let ids = [target_id.to_string()];
    if delete_targets(&mut tx, ctx.team(), monitor_id, &ids).await? == 0 {
        return Err(ServiceError::not_found("Target not found in this monitor"));
    }
    tx.commit().await?;
    Ok(())
}

/// Removes targets by value (as sent or normalized) and by id, 1-500 entries in all.
pub async fn remove_bulk(
    services: &Services,
    ctx: &TeamContext,
    monitor_id: &str,
    values: &[TargetEntry],
    ids: &[TargetEntry],
) -> Result<RemovedTargets, ServiceError> {
    let total = values.len() + ids.len();
    if total == 0 || total > MAX_ENTRIES {
        return Err(ServiceError::invalid(format!(
            "targets and target_ids must hold 1 to {MAX_ENTRIES} entries in all"
        )));
    }
    let mut tx = open_monitor(services, ctx, monitor_id).await?;
    let mut not_found = Vec::new();
    let mut to_remove: Vec<String> = Vec::new();
    let normalized: Vec<Option<String>> = values
        .iter()
        .map(|v| v.text().and_then(parse_target).map(|t| t.value))
        .collect();
    let known_values: Vec<String> = normalized.iter().flatten().cloned().collect();
    let by_value = ids_by_value(&mut tx, monitor_id, &known_values).await?;
    for (entry, value) in values.iter().zip(&normalized) {
        match value.as_ref().and_then(|v| by_value.get(v)) {
            Some(id) => to_remove.push(id.clone()),
            None => not_found.push(entry.as_sent()),
        }
    }
    let candidate_ids: Vec<String> = ids.iter().filter_map(canonical_uuid).collect();
    let found: HashSet<String> = existing_ids(&mut tx, monitor_id, &candidate_ids)
        .await?
        .into_iter()
        .collect();
    for entry in ids {
        match canonical_uuid(entry).filter(|id| found.contains(id)) {
            Some(id) => to_remove.push(id),
            None => not_found.push(entry.as_sent()),
        }
    }
    let mut seen = HashSet::new();
    to_remove.retain(|id| seen.insert(id.clone()));
    delete_targets(&mut tx, ctx.team(), monitor_id, &to_remove).await?;
    tx.commit().await?;
    Ok(RemovedTargets {
        removed: to_remove,
        not_found,
    })
}

fn canonical_uuid(entry: &TargetEntry) -> Option<String> {
    entry
        .text()
        .and_then(|s| uuid::Uuid::parse_str(s.trim()).ok())
        .map(|id| id.to_string())
}

/// Opens a write transaction on one of the team's monitors, or refuses an unknown monitor.
async fn open_monitor(
    services: &Services,
    ctx: &TeamContext,
    monitor_id: &str,
) -> Result<Tx, ServiceError> {
    let mut tx = services.db.begin_write().await?;
    find_monitor_tx(&mut tx, ctx.team(), monitor_id)
        .await?
        .ok_or_else(monitor_not_found)?;
    Ok(tx)
}
