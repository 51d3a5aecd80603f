//! `GET /csv-enrichment/{jobId}`: a job's status, progress, summary and results, paged by
//! cursor. Free. Another team's job, an unknown id and a malformed id are all not found; a job
//! past its 30 days is gone.

use axum::extract::State;
use axum::response::Response;

use super::errors::{in_csv_terms, job_expired, job_not_found};
use crate::http::auth::Principal;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams};
use crate::http::state::AppState;
use crate::service::enrichment::views::{JobView, row_of_cursor};
use crate::service::enrichment::{self, DEFAULT_LIMIT, JobLookup, JobRow};

const MAX_LIMIT: i64 = 100;

/// Retrieves a job and a page of its results.
#[utoipa::path(get, path = "/api/v2/csv-enrichment/{jobId}", operation_id = "getCSVEnrichmentJob", tag = "CSV enrichment",
    params(
        ("jobId" = String, Path, description = "Job id returned by POST /csv-enrichment"),
        ("cursor" = Option<String>, Query, description = "Cursor returned as data.nextCursor"),
        ("limit" = Option<i64>, Query, description = "Results per page, 1-100, default 50"),
    ),
    responses(
        (status = 200, description = "The job; `meta.endpoint` is `csv.enrichment.get`, free", body = JobView),
        (status = 400, description = "An unknown parameter, a bad limit or cursor", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "`job_not_found`", body = crate::http::openapi::ErrorBody),
        (status = 410, description = "`job_expired`: older than 30 days", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn get_job(
    State(state): State<AppState>,
    principal: Principal,
    path: Result<PathParams<String>, ApiError>,
    query: Result<QueryParams, ApiError>,
) -> Result<Response, ApiError> {
    // A query that cannot be read (a NUL in it) is a 400 in this API's own terms too.
    let query = query.map_err(in_csv_terms)?;
    let (from, limit) = page_of(&query).map_err(in_csv_terms)?;
    let PathParams(raw_id) = path.map_err(|_| job_not_found())?;
    let job = owned_job(&state, &principal, &raw_id).await?;
    let view = enrichment::read_job(&state, &job, from, limit).await?;
    Ok(ok("csv.enrichment.get", view))
}

/// The first row and the size of the page asked for.
fn page_of(query: &QueryParams) -> Result<(i64, i64), ApiError> {
    query.allow_only(&["cursor", "limit"])?;
    let limit = query
        .int_in_range("limit", 1, MAX_LIMIT)?
        .unwrap_or(DEFAULT_LIMIT);
    // An empty cursor (a client passing back a null nextCursor) asks for the first page.
    let from = match query.get("cursor").filter(|c| !c.is_empty()) {
        Some(cursor) => row_of_cursor(cursor)
            .ok_or_else(|| ApiError::bad_request("cursor is not a cursor this API returned"))?,
        None => 0,
    };
    Ok((from, limit))
}

/// The caller's job with this id, still within retention.
pub async fn owned_job(
    state: &AppState,
    principal: &Principal,
    raw_id: &str,
) -> Result<JobRow, ApiError> {
    match enrichment::find_owned_job(state, &principal.context(), raw_id).await? {
        JobLookup::Live(job) => Ok(*job),
        JobLookup::Missing => Err(job_not_found()),
        JobLookup::Expired => Err(job_expired()),
    }
}
