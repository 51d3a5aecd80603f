//! `POST /csv-enrichment`: accept a list of companies as a job, for one credit. The job and its
//! rows are stored and the credit taken in one transaction, so an accepted job is always charged
//! once and always processed (by the durable worker), and a refused one costs nothing. With
//! `wait=true` the call waits up to `timeout` seconds for the job to finish.

use std::time::Duration;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

use super::body::read_request;
use super::errors::in_csv_terms;
use crate::http::auth::Principal;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::state::AppState;
use crate::service::enrichment::{self, Accepted, NewEnrichmentJob};

const ENDPOINT: &str = "csv.enrichment";

/// Creates an enrichment job.
#[utoipa::path(post, path = "/api/v2/csv-enrichment", operation_id = "createCSVEnrichmentJob", tag = "CSV enrichment",
    params(
        ("wait" = Option<bool>, Query, description = "For CSV and multipart uploads: wait for the results (default false)"),
        ("timeout" = Option<i64>, Query, description = "For CSV and multipart uploads: seconds to wait, 1-30 (default 30)"),
        ("fileName" = Option<String>, Query, description = "For CSV and multipart uploads: label of the job"),
    ),
    request_body(description = "The companies: JSON, a CSV file with a header row, or a multipart form with the CSV in `file`. A company's name, website or LinkedIn URL holds no NUL character",
        content(
            (super::body::CreateJobBody = "application/json"),
            (String = "text/csv"),
            (super::body::UploadForm = "multipart/form-data"),
        )),
    responses(
        (status = 200, description = "Job accepted for 1 credit: `{jobId, detectedMapping}`, or with `wait=true` and the job done in time, the whole job with its first page of results", body = crate::service::enrichment::views::CreatedJob),
        (status = 400, description = "`invalid_company_payload` (no companies, more than 1,000, one without identifier, or an identifier holding a NUL character), or a bad option, body or content type", body = crate::http::openapi::ErrorBody),
        (status = 402, description = "`insufficient_credits`: balance 0, nothing charged", body = crate::http::openapi::ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn create_job(
    State(state): State<AppState>,
    principal: Principal,
    query: Result<QueryParams, ApiError>,
    req: Request,
) -> Result<Response, ApiError> {
    // A query that cannot be read (a NUL in it) is a 400 in this API's own terms too.
    let query = query.map_err(in_csv_terms)?;
    let (upload, options) = read_request(req, &query).await.map_err(in_csv_terms)?;
    let input = NewEnrichmentJob {
        upload,
        file_name: options.file_name,
        wait: options
            .wait
            .then(|| Duration::from_secs(options.timeout_seconds)),
    };
    let accepted = enrichment::create_job(&state, &principal.context(), input).await?;
    let remaining = accepted.credits_remaining;
    Ok(match accepted.job {
        Accepted::Finished(view) => charged(view, remaining),
        Accepted::Created(created) => charged(created, remaining),
    })
}

/// 200 with `data` and the meta of a charged call: one credit used, the balance after.
fn charged(data: impl Serialize, remaining: i64) -> Response {
    let body = json!({
        "success": true,
        "data": data,
        "meta": { "endpoint": ENDPOINT, "creditsUsed": 1, "creditsRemaining": remaining },
    });
    (StatusCode::OK, Json(body)).into_response()
}
