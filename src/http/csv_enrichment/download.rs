//! `GET /csv-enrichment/{jobId}/results.csv`: every processed row as CSV — the input columns in
//! their first-seen order, then `matched, company_id, company_name, company_domain, industry,
//! country, employee_count`. A null is an empty cell. Free.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::errors::{in_csv_terms, job_not_found};
use super::read::owned_job;
use crate::http::auth::Principal;
use crate::http::error::ApiError;
use crate::http::extract::{PathParams, QueryParams};
use crate::http::state::AppState;
use crate::service::enrichment::download::{download_rows, input_columns};

const RESULT_COLUMNS: [&str; 7] = [
    "matched",
    "company_id",
    "company_name",
    "company_domain",
    "industry",
    "country",
    "employee_count",
];

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
    let columns = input_columns(&job)?;
    let rows = download_rows(&state, &job).await?;
    let mut out = csv::Writer::from_writer(Vec::new());
    let header = columns.iter().map(String::as_str).chain(RESULT_COLUMNS);
    out.write_record(header).map_err(ApiError::internal)?;
    for row in rows {
        let mut record: Vec<String> = columns.iter().map(|c| cell(row.input.get(c))).collect();
        record.push(row.matched.to_string());
        record.push(row.company_id.unwrap_or_default());
        record.push(row.company_name.unwrap_or_default());
        record.push(row.company_domain.unwrap_or_default());
        record.push(text(row.industry));
        record.push(text(row.country));
        record.push(text(row.employee_count));
        out.write_record(&record).map_err(ApiError::internal)?;
    }
    let bytes = out.into_inner().map_err(ApiError::internal)?;
    let disposition = format!("attachment; filename=\"enrichment-{}.csv\"", job.id);
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response())
}

/// A cell for an input value: text as is, other values as JSON, null or absent as empty.
fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

fn text<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
