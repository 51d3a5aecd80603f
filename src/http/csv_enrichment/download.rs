//! `GET /csv-enrichment/{jobId}/results.csv`: every processed row as CSV — the input columns in
//! their first-seen order, then `matched, company_id, company_name, company_domain, industry,
//! country, employee_count`. A null is an empty cell. Free.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::errors::{in_csv_terms, job_not_found};
use super::read::owned_job;
use crate::http::auth::Principal;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams};
use crate::http::state::AppState;
use crate::service::enrichment::download::results_csv as build_results_csv;

/// Downloads a job's results as CSV.
#[utoipa::path(get, path = "/api/v2/csv-enrichment/{jobId}/results.csv", operation_id = "downloadCSVEnrichmentResults", tag = "CSV enrichment",
    params(("jobId" = String, Path, description = "Job id returned by POST /csv-enrichment")),
    responses(
        (status = 200, description = "The processed rows as CSV", content_type = "text/csv", body = String),
        (status = 400, description = "A query parameter was given", body = crate::http::openapi::ErrorBody),
        (status = 404, description = "`job_not_found`", body = crate::http::openapi::ErrorBody),
        (status = 410, description = "`job_expired`: older than 30 days", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn results_csv(
    State(state): State<AppState>,
    principal: Principal,
    path: Result<PathParams<String>, ApiError>,
    query: Result<QueryParams, ApiError>,
) -> Result<Response, ApiError> {
    // A query that cannot be read (a NUL in it) is a 400 in this API's own terms too.
    let query = query.map_err(in_csv_terms)?;
    query.allow_only(&[]).map_err(in_csv_terms)?;
    let PathParams(raw_id) = path.map_err(|_| job_not_found())?;
    let job = owned_job(&state, &principal, &raw_id).await?;
    let bytes = build_results_csv(&state, &job).await?;
    Ok(results_attachment(&job.id, bytes))
}

/// A job's `results.csv` as a download named after the job (the API's and the dashboard's).
pub fn results_attachment(job_id: &str, bytes: Vec<u8>) -> Response {
    let disposition = format!("attachment; filename=\"enrichment-{job_id}.csv\"");
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}
