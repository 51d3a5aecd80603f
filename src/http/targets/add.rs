//! `POST /monitors/{id}/targets`: add targets. Idempotent, partial problems never fail the call,
//! and the 1,000-target team limit rejects the whole request.

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::entries::entries_array;
use super::views::TargetOut;
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::{monitors, targets};

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
    let ctx = principal.context();
    // The monitor first: an unknown one is 404 whatever the body says.
    monitors::check_exists(&state, &ctx, &monitor_id).await?;
    let body: AddTargetsBody = body.parse()?;
    let entries = entries_array(body.targets, "targets")?;
    let added = targets::add(&state, &ctx, &monitor_id, &entries).await?;
    let result = AddTargetsResult {
        added: added.added.into_iter().map(TargetOut::from).collect(),
        skipped_existing: added.skipped_existing,
        invalid: added.invalid,
        pending: added.pending,
        resolved_companies: added.resolved_companies,
    };
    Ok(ok("monitors.targets.add", result))
}
