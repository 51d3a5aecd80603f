//! The Enrichment pages: upload a CSV (field `CSV file`), follow the job's progress, read its
//! results and `Download results` (the API's `results.csv`).

use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::page::{Layout, PageError, render, render_with, see_other, when};
use crate::enrichment::input::Upload;
use crate::http::csv_enrichment::download::results_attachment;
use crate::http::state::AppState;
use crate::service::ServiceError;
use crate::service::enrichment::download::results_csv;
use crate::service::enrichment::views::ResultView;
use crate::service::enrichment::{
    self, DEFAULT_LIMIT, JobLookup, JobRow, NewEnrichmentJob, read_job,
};
use crate::service::sessions::Session;

/// Jobs the page lists.
const JOBS_SHOWN: i64 = 20;

/// One row of the jobs table.
pub struct JobItem {
    pub id: String,
    pub file_name: String,
    pub status: String,
    pub processed: i64,
    pub total: i64,
    pub matched: i64,
    pub submitted: String,
}

#[derive(Template)]
#[template(path = "dashboard/enrichment.html")]
struct EnrichmentPage {
    layout: Layout,
    jobs: Vec<JobItem>,
    error: Option<String>,
}

/// One row of a job's results table.
pub struct ResultItem {
    pub input: String,
    pub matched: bool,
    pub company: String,
    pub domain: String,
    pub signals: usize,
}

#[derive(Template)]
#[template(path = "dashboard/enrichment_job.html")]
struct JobPage {
    layout: Layout,
    job: JobItem,
    running: bool,
    failed: String,
    results: Vec<ResultItem>,
    more: bool,
}

fn job_item(job: &JobRow) -> JobItem {
    JobItem {
        id: job.id.clone(),
        file_name: job.file_name.clone(),
        status: job.status.clone(),
        processed: job.processed,
        total: job.total,
        matched: job.matched,
        submitted: when(Some(job.created_at)),
    }
}

async fn list_page(
    state: &AppState,
    session: &Session,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let jobs = enrichment::recent_jobs(state, &session.context(), JOBS_SHOWN).await?;
    let page = EnrichmentPage {
        layout: Layout::new(session, "enrichment", "Enrichment"),
        jobs: jobs.iter().map(job_item).collect(),
        error,
    };
    Ok(render_with(status, &page))
}

/// `GET /app/enrichment`.
pub async fn list(State(state): State<AppState>, session: Session) -> Result<Response, PageError> {
    list_page(&state, &session, None, StatusCode::OK).await
}

/// `POST /app/enrichment`: accepts the uploaded CSV as a job (one credit, like the API) and
/// opens its page.
pub async fn upload(
    State(state): State<AppState>,
    session: Session,
    multipart: Multipart,
) -> Result<Response, PageError> {
    let (name, bytes) = match read_file(multipart).await {
        Ok(file) => file,
        Err(message) => {
            return list_page(&state, &session, Some(message), StatusCode::BAD_REQUEST).await;
        }
    };
    let upload = match Upload::from_csv(&bytes) {
        Ok(upload) => upload,
        Err(err) => {
            let message = err.to_string();
            return list_page(&state, &session, Some(message), StatusCode::BAD_REQUEST).await;
        }
    };
    let input = NewEnrichmentJob {
        upload,
        file_name: name,
        wait: None,
    };
    match enrichment::create_job(&state, &session.context(), input).await {
        Ok(accepted) => {
            let id = match accepted.job {
                enrichment::Accepted::Created(created) => created.job_id,
                enrichment::Accepted::Finished(view) => view.job_id,
            };
            Ok(see_other(&format!("/app/enrichment/{id}")))
        }
        Err(ServiceError::OutOfCredits) => {
            let message = "Your team is out of credits: an enrichment job costs 1 credit. \
                           Nothing was charged."
                .to_string();
            list_page(
                &state,
                &session,
                Some(message),
                StatusCode::PAYMENT_REQUIRED,
            )
            .await
        }
        Err(ServiceError::Invalid(message)) => {
            list_page(&state, &session, Some(message), StatusCode::BAD_REQUEST).await
        }
        Err(err) => Err(err.into()),
    }
}

/// The `file` part of the form: its file name and bytes.
async fn read_file(mut multipart: Multipart) -> Result<(String, Vec<u8>), String> {
    let refused = |_| "The upload could not be read; choose a CSV file and try again.".to_string();
    while let Some(field) = multipart.next_field().await.map_err(refused)? {
        if field.name() != Some("file") {
            continue;
        }
        let name = field
            .file_name()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or("upload.csv")
            .chars()
            .filter(|c| !c.is_control())
            .take(500)
            .collect::<String>();
        let bytes = field.bytes().await.map_err(refused)?;
        if bytes.is_empty() {
            return Err("Choose a CSV file to upload.".into());
        }
        return Ok((name, bytes.to_vec()));
    }
    Err("Choose a CSV file to upload.".into())
}

async fn owned(state: &AppState, session: &Session, id: &str) -> Result<JobRow, PageError> {
    match enrichment::find_owned_job(state, &session.context(), id).await? {
        JobLookup::Live(job) => Ok(*job),
        JobLookup::Missing => Err(PageError::NotFound("Enrichment job not found".into())),
        JobLookup::Expired => Err(PageError::NotFound(
            "This enrichment job is older than 30 days and was removed.".into(),
        )),
    }
}

/// `GET /app/enrichment/{id}`.
pub async fn show(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let job = owned(&state, &session, &id).await?;
    let view = read_job(&state, &job, 0, DEFAULT_LIMIT).await?;
    let page = JobPage {
        layout: Layout::new(&session, "enrichment", job.file_name.clone()),
        running: matches!(job.status.as_str(), "pending" | "running"),
        failed: job.error_message.clone().unwrap_or_default(),
        job: job_item(&job),
        more: view.next_cursor.is_some(),
        results: view.results.iter().map(result_item).collect(),
    };
    Ok(render(&page))
}

fn result_item(result: &ResultView) -> ResultItem {
    let input = result
        .input
        .as_object()
        .map(|fields| {
            fields
                .values()
                .filter_map(|v| v.as_str())
                .filter(|v| !v.is_empty())
                .take(2)
                .collect::<Vec<_>>()
                .join(" · ")
        })
        .unwrap_or_default();
    let company = |key: &str| {
        result
            .company
            .as_ref()
            .and_then(|c| c.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let s = &result.signals;
    ResultItem {
        input,
        matched: result.matched,
        company: company("name"),
        domain: company("domain"),
        signals: s.funding.len() + s.acquisition.len() + s.hiring.len() + s.job_change.len(),
    }
}

/// `GET /app/enrichment/{id}/results.csv`: the same file as the API's download.
pub async fn download(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let job = owned(&state, &session, &id).await?;
    let bytes = results_csv(&state, &job).await?;
    Ok(results_attachment(&job.id, bytes))
}
