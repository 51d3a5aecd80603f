//! `GET /monitors/{id}/targets`: one page of a monitor's targets, newest first.

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use super::views::TargetOut;
use crate::http::auth::Principal;
use crate::http::envelope::paginated;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams, parse_path_id};
use crate::http::state::AppState;
use crate::service::targets::{self, StatusFilter};

const DEFAULT_LIMIT: i64 = 100;
const MAX_LIMIT: i64 = 200;

/// Offset pagination of the target list.
#[derive(Debug, Serialize, ToSchema)]
pub struct TargetPagination {
    pub limit: i64,
    pub offset: i64,
    /// Items on this page.
    pub count: usize,
    /// Items matching the filter.
    pub total: i64,
}

/// Lists a monitor's targets.
#[utoipa::path(get, path = "/api/v2/monitors/{id}/targets", operation_id = "listTargets", tag = "Targets",
    params(("id" = String, Path, description = "Monitor id"),
           ("status" = Option<String>, Query, description = "`resolved` or `pending`"),
           ("limit" = Option<i64>, Query, description = "Page size, 1-200, default 100"),
           ("offset" = Option<i64>, Query, description = "Items to skip, default 0")),
    responses(
        (status = 200, description = "A page of targets with `pagination` {limit, offset, count, total}", body = Vec<TargetOut>),
        (status = 400, description = "An invalid or unknown query parameter", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "Monitor not found", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list_targets(
    State(state): State<AppState>,
    principal: Principal,
    PathParams(raw_id): PathParams<String>,
    query: QueryParams,
) -> Result<Response, ApiError> {
    let monitor_id = parse_path_id(&raw_id, "Monitor")?;
    query.allow_only(&["status", "limit", "offset"])?;
    let status = match query.get("status") {
        None => StatusFilter::All,
        Some(status) => targets::parse_status(status)?,
    };
    let limit = query
        .int_in_range("limit", 1, MAX_LIMIT)?
        .unwrap_or(DEFAULT_LIMIT);
    let offset = query.int_in_range("offset", 0, i64::MAX)?.unwrap_or(0);
    let page = targets::list(
        &state,
        &principal.context(),
        &monitor_id,
        status,
        limit,
        offset,
    )
    .await?;
    let total = page.total;
    let data: Vec<TargetOut> = page.rows.into_iter().map(TargetOut::from).collect();
    let pagination = TargetPagination {
        limit,
        offset,
        count: data.len(),
        total,
    };
    Ok(paginated("monitors.targets.list", data, pagination))
}
