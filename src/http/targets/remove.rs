//! Removing targets: one by id, or in bulk by value or id. Unmatched bulk entries are reported,
//! never fatal.

use std::collections::HashSet;

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::entries::{MAX_ENTRIES, entry_as_sent};
use crate::domain::target::parse_target;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::store::Tx;
use crate::store::monitors::find_monitor_tx;
use crate::store::targets::{delete_targets, existing_ids, ids_by_value};

/// Removes one target of a monitor.
#[utoipa::path(delete, path = "/api/v2/monitors/{id}/targets/{targetId}", operation_id = "removeTarget", tag = "Targets",
    params(("id" = String, Path, description = "Monitor id"),
           ("targetId" = String, Path, description = "Target id")),
    responses(
        (status = 200, description = "`data` is `{id, deleted: true}`", body = crate::http::openapi::DeletedBody),
        (status = 400, description = "An unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found, or the target is not in that monitor", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn remove_target(
    State(state): State<AppState>,
    principal: Principal,
    PathParams((raw_monitor, raw_target)): PathParams<(String, String)>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let monitor_id = parse_path_id(&raw_monitor, "Monitor")?;
    let target_id = parse_path_id(&raw_target, "Target")?;
    let mut tx = open_monitor(&state, &principal, &monitor_id).await?;
    let removed = delete_targets(
        &mut tx,
        &principal.team_id,
        &monitor_id,
        std::slice::from_ref(&target_id),
    )
    .await?;
    if removed == 0 {
        return Err(ApiError::not_found("Target not found in this monitor"));
    }
    tx.commit().await?;
    Ok(ok(
        "monitors.targets.remove",
        json!({ "id": target_id, "deleted": true }),
    ))
}

/// Body of the bulk remove: values (as sent or normalized) and/or target ids, 1-500 in all.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveTargetsBody {
    #[schema(value_type = Option<Vec<String>>)]
    pub targets: Option<Value>,
    /// Target ids; also read as `targetIds`, and as `ids`, the name the commercial service's
    /// public monitors API gives it.
    #[serde(alias = "targetIds", alias = "ids")]
    #[schema(value_type = Option<Vec<String>>)]
    pub target_ids: Option<Value>,
}

/// Result of the bulk remove.
#[derive(Debug, Serialize, ToSchema)]
pub struct RemoveTargetsResult {
    /// Ids of the removed targets.
    pub removed: Vec<String>,
    pub removed_count: usize,
    /// Entries as sent that matched no target of the monitor.
    pub not_found: Vec<String>,
}

/// Removes targets in bulk.
#[utoipa::path(post, path = "/api/v2/monitors/{id}/targets/remove", operation_id = "removeTargetsBulk", tag = "Targets",
    params(("id" = String, Path, description = "Monitor id")),
    request_body = RemoveTargetsBody,
    responses(
        (status = 200, description = "Removed targets and unmatched entries", body = RemoveTargetsResult),
        (status = 400, description = "No entries, or more than 500", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn remove_targets_bulk(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let monitor_id = parse_path_id(&raw_id, "Monitor")?;
    // The monitor first: an unknown one is 404 whatever the body says.
    let mut tx = open_monitor(&state, &principal, &monitor_id).await?;
    let body: RemoveTargetsBody = body.parse()?;
    let values = optional_list(body.targets, "targets")?;
    let ids = optional_list(body.target_ids, "target_ids")?;
    let total = values.len() + ids.len();
    if total == 0 || total > MAX_ENTRIES {
        return Err(ApiError::bad_request(format!(
            "targets and target_ids must hold 1 to {MAX_ENTRIES} entries in all"
        )));
    }
    let mut not_found = Vec::new();
    let mut to_remove: Vec<String> = Vec::new();
    let normalized: Vec<Option<String>> = values
        .iter()
        .map(|v| v.as_str().and_then(parse_target).map(|t| t.value))
        .collect();
    let known_values: Vec<String> = normalized.iter().flatten().cloned().collect();
    let by_value = ids_by_value(&mut tx, &monitor_id, &known_values).await?;
    for (entry, value) in values.iter().zip(&normalized) {
        match value.as_ref().and_then(|v| by_value.get(v)) {
            Some(id) => to_remove.push(id.clone()),
            None => not_found.push(entry_as_sent(entry)),
        }
    }
    let candidate_ids: Vec<String> = ids.iter().filter_map(canonical_uuid).collect();
    let found: HashSet<String> = existing_ids(&mut tx, &monitor_id, &candidate_ids)
        .await?
        .into_iter()
        .collect();
    for entry in &ids {
        match canonical_uuid(entry).filter(|id| found.contains(id)) {
            Some(id) => to_remove.push(id),
            None => not_found.push(entry_as_sent(entry)),
        }
    }
    let mut seen = HashSet::new();
    to_remove.retain(|id| seen.insert(id.clone()));
    delete_targets(&mut tx, &principal.team_id, &monitor_id, &to_remove).await?;
    tx.commit().await?;
    let result = RemoveTargetsResult {
        removed_count: to_remove.len(),
        removed: to_remove,
        not_found,
    };
    Ok(ok("monitors.targets.remove_bulk", result))
}

fn optional_list(value: Option<Value>, field: &str) -> Result<Vec<Value>, ApiError> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(ApiError::bad_request(format!("{field} must be an array"))),
    }
}

fn canonical_uuid(entry: &Value) -> Option<String> {
    entry
        .as_str()
        .and_then(|s| uuid::Uuid::parse_str(s.trim()).ok())
        .map(|id| id.to_string())
}

/// Opens a write transaction on one of the team's monitors, or answers 404.
async fn open_monitor(
    state: &AppState,
    principal: &Principal,
    monitor_id: &str,
) -> Result<Tx, ApiError> {
    let mut tx = state.db.begin().await?;
    find_monitor_tx(&mut tx, &principal.team_id, monitor_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    Ok(tx)
}
