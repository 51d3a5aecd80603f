//! CSV enrichment jobs: accept a list of companies as a job for one credit, read a job with a
//! page of its results, and read all its results for the CSV download.

pub mod download;
pub mod results;
pub mod views;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use self::views::{CreatedJob, JobView, MappingView, job_view};
use super::{ServiceError, Services, TeamContext};
use crate::domain::time::now_ms;
use crate::enrichment::input::Upload;
use crate::enrichment::is_expired;
use crate::store::enrichment::{NewJob, NewRow, charge_credit, find_job, insert_job};
use crate::store::new_id;

pub use crate::store::enrichment::JobRow;

/// Results per page unless the caller says otherwise.
pub const DEFAULT_LIMIT: i64 = 50;

/// What a team's job id leads to.
#[derive(Debug)]
pub enum JobLookup {
    /// The team's job, within retention.
    Live(Box<JobRow>),
    /// No such job for this team (also for an id that is not a UUID).
    Missing,
    /// The job is past its retention window.
    Expired,
}

/// The team's job with this id, if it is still kept.
pub async fn find_owned_job(
    services: &Services,
    ctx: &TeamContext,
    raw_id: &str,
) -> Result<JobLookup, ServiceError> {
    let Ok(id) = uuid::Uuid::parse_str(raw_id) else {
        return Ok(JobLookup::Missing);
    };
    let Some(job) = find_job(&services.db, ctx.team(), &id.to_string()).await? else {
        return Ok(JobLookup::Missing);
    };
    if is_expired(job.created_at, services.clock.now_ms()) {
        return Ok(JobLookup::Expired);
    }
    Ok(JobLookup::Live(Box::new(job)))
}

/// The team's most recent jobs still kept, newest first.
pub async fn recent_jobs(
    services: &Services,
    ctx: &TeamContext,
    limit: i64,
) -> Result<Vec<JobRow>, ServiceError> {
    let now = services.clock.now_ms();
    let jobs = crate::store::enrichment::recent_jobs(&services.db, ctx.team(), limit).await?;
    Ok(jobs
        .into_iter()
        .filter(|job| !is_expired(job.created_at, now))
        .collect())
}

/// The job with up to `limit` of its results from row `from` on.
pub async fn read_job(
    services: &Services,
    job: &JobRow,
    from: i64,
    limit: i64,
) -> Result<JobView, ServiceError> {
    job_view(&services.db, job, from, limit).await
}

/// A job to accept: the parsed upload, its label, and how long to wait for it to finish.
#[derive(Debug)]
pub struct NewEnrichmentJob {
    pub upload: Upload,
    pub file_name: String,
    /// `Some`: wait up to this long for the job to complete or fail.
    pub wait: Option<Duration>,
}

/// An accepted job: as created, or finished within the wait.
#[derive(Debug)]
pub enum Accepted {
    Created(CreatedJob),
    Finished(Box<JobView>),
}

/// An accepted, charged job and the team's balance after.
#[derive(Debug)]
pub struct AcceptedJob {
    pub job: Accepted,
    pub credits_remaining: i64,
}

/// Accepts a job for one credit: the job, its rows and the charge are one transaction, so an
/// accepted job is always charged once and always processed, and a refused one costs nothing.
pub async fn create_job(
    services: &Services,
    ctx: &TeamContext,
    input: NewEnrichmentJob,
) -> Result<AcceptedJob, ServiceError> {
    let job_id = new_id();
    let mapping = MappingView::from(input.upload.mapping.clone());
    let credits_remaining = accept(services, ctx.team(), &job_id, &input).await?;
    services.enrichment_wake.notify_one();
    if let Some(wait) = input.wait {
        let deadline = Instant::now() + wait;
        if let Some(mut view) = wait_for_end(services, ctx.team(), &job_id, deadline).await? {
            view.detected_mapping = Some(mapping);
            return Ok(AcceptedJob {
                job: Accepted::Finished(Box::new(view)),
                credits_remaining,
            });
        }
    }
    let created = CreatedJob {
        job_id,
        detected_mapping: mapping,
    };
    Ok(AcceptedJob {
        job: Accepted::Created(created),
        credits_remaining,
    })
}

/// Stores the job and takes its credit in one transaction; returns the balance after.
async fn accept(
    services: &Services,
    team: &str,
    job_id: &str,
    input: &NewEnrichmentJob,
) -> Result<i64, ServiceError> {
    let upload = &input.upload;
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
        file_name: &input.file_name,
        mapping: &mapping,
        columns: &columns,
        now: now_ms(),
    };
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(team).await?;
    let remaining = charge_credit(&mut tx, team)
        .await?
        .ok_or(ServiceError::OutOfCredits)?;
    insert_job(&mut tx, &job, &rows).await?;
    tx.commit().await?;
    crate::telemetry::credits_charged("enrichment", 1);
    Ok(remaining)
}

/// The job with its first page of results once it is completed or failed; `None` at the
/// deadline. Polls the job row, more slowly as time passes: the worker may be another process.
async fn wait_for_end(
    services: &Services,
    team: &str,
    job_id: &str,
    deadline: Instant,
) -> Result<Option<JobView>, ServiceError> {
    let mut pause = Duration::from_millis(5);
    loop {
        let job = find_job(&services.db, team, job_id).await?.ok_or_else(|| {
            crate::store::StoreError::Corrupt("an accepted enrichment job disappeared".into())
        })?;
        if matches!(job.status.as_str(), "completed" | "failed") {
            return Ok(Some(job_view(&services.db, &job, 0, DEFAULT_LIMIT).await?));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(pause.min(deadline - now)).await;
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}
