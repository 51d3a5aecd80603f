//! Removing targets: one by id, or in bulk by value or id. Unmatched bulk entries are reported,
//! never fatal.

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::entries::optional_list;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::{monitors, targets};

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
    targets::remove(&state, &principal.context(), &monitor_id, &target_id).await?;
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
    let ctx = principal.context();
    // The monitor first: an unknown one is 404 whatever the body says.
    monitors::check_exists(&state, &ctx, &monitor_id).await?;
    let body: RemoveTargetsBody = body.parse()?;
    let values = optional_list(body.targets, "targets")?;
    let ids = optional_list(body.target_ids, "target_ids")?;
    let removed = targets::remove_bulk(&state, &ctx, &monitor_id, &values, &ids).await?;
    let result = RemoveTargetsResult {
        removed_count: removed.removed.len(),
        removed: removed.removed,
        not_found: removed.not_found,
    };
    Ok(ok("monitors.targets.remove_bulk", result))
}
