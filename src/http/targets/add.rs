//! `POST /monitors/{id}/targets`: add targets. Idempotent, partial problems never fail the call,
//! and the 1,000-target team limit rejects the whole request.

use std::collections::HashSet;

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::entries::{MAX_ENTRIES, entries_array, entry_as_sent};
use super::views::TargetOut;
use crate::domain::target::{TargetRef, parse_target, registrable_domain};
use crate::domain::time::now_ms;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::store::companies::find_company_for_target;
use crate::store::monitors::{find_monitor, find_monitor_tx};
use crate::store::targets::{
    NewTarget, count_resolved_companies, count_team_targets, ids_by_value, insert_target,
    views_by_ids,
};
use crate::store::{Tx, new_id};

/// Most targets a team may have across all its monitors.
pub const MAX_TEAM_TARGETS: i64 = 1_000;

/// Body of Add Targets.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddTargetsBody {
    /// 1-500 entries: domains or website URLs, company page URLs, member profile URLs.
    #[schema(value_type = Vec<String>, required = true)]
    pub targets: Option<Value>,
}

/// Result of Add Targets.
#[derive(Debug, Serialize, ToSchema)]
pub struct AddTargetsResult {
    /// Newly created targets only.
    pub added: Vec<TargetOut>,
    /// Valid entries already in the monitor (or repeated in this request).
    pub skipped_existing: usize,
    /// Entries as sent that are none of the three kinds.
    pub invalid: Vec<String>,
    /// Normalized values of added targets not yet matched to a company.
    pub pending: Vec<String>,
    /// Distinct resolved companies in the monitor after this request.
    pub resolved_companies: i64,
}

/// Adds targets to a monitor.
#[utoipa::path(post, path = "/api/v2/monitors/{id}/targets", operation_id = "addTargets", tag = "Targets",
    params(("id" = String, Path, description = "Monitor id")),
    request_body = AddTargetsBody,
    responses(
        (status = 200, description = "Entries added, skipped and refused", body = AddTargetsResult),
        (status = 400, description = "No valid entry, more than 500 entries, or the 1,000-target team limit", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn add_targets(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
    body: RawJson,
) -> Result<Response, ApiError> {
    query.allow_only(&[])?;
    let monitor_id = parse_path_id(&raw_id, "Monitor")?;
    let team = principal.team_id.as_str();
    find_monitor(&state.db, team, &monitor_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    let body: AddTargetsBody = body.parse()?;
    let entries = entries_array(body.targets, "targets")?;
    let sorted = sort_entries(&entries);
    if sorted.valid.is_empty() {
        return Err(ApiError::bad_request(
            "No valid targets: each entry must be a company domain or website URL, a LinkedIn \
             company page URL or a LinkedIn member profile URL",
        ));
    }

    let mut tx = state.db.begin().await?;
    tx.lock_team(team).await?;
    find_monitor_tx(&mut tx, team, &monitor_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Monitor not found"))?;
    let values: Vec<String> = sorted.valid.iter().map(|t| t.value.clone()).collect();
    let existing = ids_by_value(&mut tx, &monitor_id, &values).await?;
    let fresh: Vec<&TargetRef> = sorted
        .valid
        .iter()
        .filter(|t| !existing.contains_key(&t.value))
        .collect();
    let current = count_team_targets(&mut tx, team).await?;
    if current + fresh.len() as i64 > MAX_TEAM_TARGETS {
        return Err(ApiError::bad_request(format!(
            "Target limit reached: a team can have at most {MAX_TEAM_TARGETS} targets across its \
             monitors (it has {current}; this request would add {})",
            fresh.len()
        )));
    }
    let ids = insert_all(&mut tx, &fresh, &monitor_id, team).await?;
    let added: Vec<TargetOut> = views_by_ids(&mut tx, &ids)
        .await?
        .into_iter()
        .map(TargetOut::from)
        .collect();
    let resolved_companies = count_resolved_companies(&mut tx, &monitor_id).await?;
    tx.commit().await?;

    let pending = added
        .iter()
        .filter(|t| t.company.is_none())
        .map(|t| t.value.clone())
        .collect();
    let result = AddTargetsResult {
        skipped_existing: sorted.duplicates + existing.len(),
        added,
        invalid: sorted.invalid,
        pending,
        resolved_companies,
    };
    Ok(ok("monitors.targets.add", result))
}

/// Entries of one request sorted into valid (first occurrence of each value), repeated and invalid.
struct SortedEntries {
    valid: Vec<TargetRef>,
    duplicates: usize,
    invalid: Vec<String>,
}

fn sort_entries(entries: &[Value]) -> SortedEntries {
    let mut seen = HashSet::new();
    let mut sorted = SortedEntries {
        valid: Vec::new(),
        duplicates: 0,
        invalid: Vec::new(),
    };
    for entry in entries {
        match entry.as_str().and_then(parse_target) {
            Some(target) if seen.insert(target.value.clone()) => sorted.valid.push(target),
            Some(_) => sorted.duplicates += 1,
            None => sorted.invalid.push(entry_as_sent(entry)),
        }
    }
    debug_assert!(sorted.valid.len() <= MAX_ENTRIES);
    sorted
}

async fn insert_all(
    tx: &mut Tx,
    fresh: &[&TargetRef],
    monitor_id: &str,
    team_id: &str,
) -> Result<Vec<String>, ApiError> {
    let now = now_ms();
    let mut ids = Vec::with_capacity(fresh.len());
    for target in fresh {
        let company_id = find_company_for_target(tx, target.kind, &target.value).await?;
        let new = NewTarget {
            id: new_id(),
            monitor_id: monitor_id.to_string(),
            team_id: team_id.to_string(),
            kind: target.kind,
            value: target.value.clone(),
            registrable_domain: registrable_domain(&target.value),
            company_id,
            created_at: now,
        };
        insert_target(tx, &new).await?;
        ids.push(new.id);
    }
    Ok(ids)
}
