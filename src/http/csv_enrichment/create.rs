//! `POST /csv-enrichment`: accept a list of companies as a job, for one credit. The job and its
//! rows are stored and the credit taken in one transaction, so an accepted job is always charged
//! once and always processed (by the durable worker), and a refused one costs nothing. With
//! `wait=true` the call waits up to `timeout` seconds for the job to finish.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};

use super::body::{JobOptions, read_request};
use super::errors::in_csv_terms;
use super::read::DEFAULT_LIMIT;
use super::views::{CreatedJob, MappingView, job_view};
use crate::domain::time::now_ms;
use crate::enrichment::input::Upload;
use crate::http::auth::Principal;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::state::AppState;
use crate::store::enrichment::{NewJob, NewRow, charge_credit, find_job, insert_job};
use crate::store::new_id;

const ENDPOINT: &str = "csv.enrichment";

/// Creates an enrichment job.
#[utoipa::path(post, path = "/api/v2/csv-enrichment", operation_id = "createCSVEnrichmentJob", tag = "CSV enrichment",
    params(
        ("wait" = Option<bool>, Query, description = "For CSV and multipart uploads: wait for the results (default false)"),
        ("timeout" = Option<i64>, Query, description = "For CSV and multipart uploads: seconds to wait, 1-30 (default 30)"),
        ("fileName" = Option<String>, Query, description = "For CSV and multipart uploads: label of the job"),
    ),
    request_body(description = "The companies: JSON, a CSV file with a header row, or a multipart form with the CSV in `file`",
        content(
            (super::body::CreateJobBody = "application/json"),
            (String = "text/csv"),
            (super::body::UploadForm = "multipart/form-data"),
        )),
    responses(
        (status = 200, description = "Job accepted for 1 credit: `{jobId, detectedMapping}`, or with `wait=true` and the job done in time, the whole job with its first page of results", body = CreatedJob),
        (status = 400, description = "`invalid_company_payload` (no companies, more than 1,000, or one without identifier), or a bad option, body or content type", body = crate::http::openapi::ErrorBody),
        (status = 402, description = "`insufficient_credits`: balance 0, nothing charged", body = crate::http::openapi::ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::AuthErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn create_job(
    State(state): State<AppState>,
    principal: Principal,
    query: QueryParams,
    req: Request,
) -> Result<Response, ApiError> {
    let (upload, options) = read_request(req, &query).await.map_err(in_csv_terms)?;
    let team = principal.team_id.as_str();
    let job_id = new_id();
    let mapping = MappingView::from(upload.mapping.clone());
    let remaining = accept(&state, team, &job_id, &upload, &options).await?;
    state.enrichment_wake.notify_one();
    if options.wait {
        let deadline = Instant::now() + Duration::from_secs(options.timeout_seconds);
        if let Some(mut view) = wait_for_end(&state, team, &job_id, deadline).await? {
            view.detected_mapping = Some(mapping);
            return Ok(charged(view, remaining));
        }
    }
    let created = CreatedJob {
        job_id,
        detected_mapping: mapping,
    };
    Ok(charged(created, remaining))
}

/// Stores the job and takes its credit in one transaction; returns the balance after.
async fn accept(
    state: &AppState,
    team: &str,
    job_id: &str,
    upload: &Upload,
    options: &JobOptions,
) -> Result<i64, ApiError> {
    let rows: Vec<NewRow> = upload
        .rows
        .iter()
        .map(|row| NewRow {
            input: Value::Object(row.input.clone()).to_string(),
            company_name: row.ids.company_name.clone(),
            website_url: row.ids.website_url.clone(),
            linkedin_url: row.ids.linkedin_url.clone(),
        })
        .collect();
    let mapping = json!(MappingView::from(upload.mapping.clone())).to_string();
    let columns = json!(upload.columns).to_string();
    let job = NewJob {
        id: job_id,
        team_id: team,
        file_name: &options.file_name,
        mapping: &mapping,
        columns: &columns,
        now: now_ms(),
    };
    let mut tx = state.db.begin().await?;
    tx.lock_team(team).await?;
    let remaining = charge_credit(&mut tx, team)
        .await?
        .ok_or_else(ApiError::out_of_credits)?;
    insert_job(&mut tx, &job, &rows).await?;
    tx.commit().await?;
    Ok(remaining)
}

/// The job with its first page of results once it is completed or failed; `None` at the
/// deadline. Polls the job row, more slowly as time passes: the worker may be another process.
async fn wait_for_end(
    state: &AppState,
    team: &str,
    job_id: &str,
    deadline: Instant,
) -> Result<Option<super::views::JobView>, ApiError> {
    let mut pause = Duration::from_millis(5);
    loop {
        let job = find_job(&state.db, team, job_id)
            .await?
            .ok_or_else(|| ApiError::internal("an accepted enrichment job disappeared"))?;
        if matches!(job.status.as_str(), "completed" | "failed") {
            return Ok(Some(job_view(&state.db, &job, 0, DEFAULT_LIMIT).await?));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(pause.min(deadline - now)).await;
        pause = (pause * 2).min(Duration::from_millis(100));
    }
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
