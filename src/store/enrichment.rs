//! CSV enrichment jobs and their rows: accepting a job (its credit charged in the same
//! transaction), and the team-scoped reads of the API. The worker's side (claims, leases,
//! results) is in [`claims`]; the set-wise company and signal lookups of matching in [`lookup`].

pub mod claims;
pub mod lookup;

use sqlx::FromRow;

use super::bulk::{RowStatement, Val, execute_rows};
use super::credits::{day_of, record_usage};
use super::{Db, StoreError, Tx};
use crate::domain::time::now_ms;
use crate::{on_db, on_tx};

/// A job about to be accepted.
#[derive(Debug, Clone)]
pub struct NewJob<'a> {
    pub id: &'a str,
    pub team_id: &'a str,
    pub file_name: &'a str,
    /// `detectedMapping` as JSON.
    pub mapping: &'a str,
    /// Input column names in first-seen order, as a JSON array.
    pub columns: &'a str,
    pub now: i64,
}

/// One company of a job as sent: the input object (JSON) and the identifiers read from it.
#[derive(Debug, Clone, Default)]
pub struct NewRow {
    pub input: String,
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub linkedin_url: Option<String>,
}

/// Takes one credit from the team when its balance covers it; returns the balance after, or
/// `None` (nothing taken). One conditional update, so the balance never goes below zero.
pub async fn charge_credit(tx: &mut Tx, team_id: &str) -> Result<Option<i64>, StoreError> {
    let left = on_tx!(tx, |conn| {
        sqlx::query_scalar::<_, i64>(
        "UPDATE teams SET credits = credits - 1 WHERE id = $1 AND credits >= 1 RETURNING credits"
    )
    .bind(team_id)
    .fetch_optional(conn)
    .await
    })?;
    if left.is_some() {
        record_usage(tx, team_id, 1, day_of(now_ms())).await?;
    }
    Ok(left)
}

/// Stores a pending job with all its rows.
pub async fn insert_job(tx: &mut Tx, job: &NewJob<'_>, rows: &[NewRow]) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO enrichment_jobs (id, team_id, status, file_name, mapping, columns, total, \
         created_at, updated_at) VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $7)"
    )
    .bind(job.id)
    .bind(job.team_id)
    .bind(job.file_name)
    .bind(job.mapping)
    .bind(job.columns)
    .bind(rows.len() as i64)
    .bind(job.now)
    .execute(conn)
    .await
    .map(|_| ()))?;
    let values: Vec<Val<'_>> = rows
        .iter()
        .enumerate()
        .flat_map(|(index, row)| {
            [
                Val::text(job.id),
                Val::Int(Some(index as i64)),
                Val::text(&row.input),
                Val::opt(&row.company_name),
                Val::opt(&row.website_url),
                Val::opt(&row.linkedin_url),
            ]
        })
        .collect();
    let stmt = RowStatement {
        head: "INSERT INTO enrichment_rows (job_id, row_index, input, company_name, website_url, \
               linkedin_url) VALUES ",
        template: "(?, ?, ?, ?, ?, ?)",
        tail: "",
    };
    execute_rows(tx, &stmt, &values).await?;
    Ok(())
}

/// A job as the API shows it.
#[derive(Debug, Clone, FromRow)]
pub struct JobRow {
    pub id: String,
    pub team_id: String,
    pub status: String,
    pub file_name: String,
    pub mapping: String,
    pub columns: String,
    pub total: i64,
    pub processed: i64,
    pub matched: i64,
    pub with_funding: i64,
    pub with_acquisition: i64,
    pub with_hiring: i64,
    pub with_job_change: i64,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub created_at: i64,
    pub completed_at: Option<i64>,
}

/// The team's job with this id; another team's job is not found.
pub async fn find_job(db: &Db, team_id: &str, job_id: &str) -> Result<Option<JobRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, JobRow>(
        "SELECT id, team_id, status, file_name, mapping, columns, total, processed, matched, \
         with_funding, with_acquisition, with_hiring, with_job_change, error_code, \
         error_message, created_at, completed_at FROM enrichment_jobs \
         WHERE id = $1 AND team_id = $2"
    )
    .bind(job_id)
    .bind(team_id)
    .fetch_optional(pool)
    .await)?)
}

/// The team's most recent jobs, newest first.
pub async fn recent_jobs(db: &Db, team_id: &str, limit: i64) -> Result<Vec<JobRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, JobRow>(
        "SELECT id, team_id, status, file_name, mapping, columns, total, processed, matched, \
         with_funding, with_acquisition, with_hiring, with_job_change, error_code, \
         error_message, created_at, completed_at FROM enrichment_jobs \
         WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"
    )
    .bind(team_id)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// A processed row of a job.
#[derive(Debug, Clone, FromRow)]
pub struct ResultRow {
    pub row_index: i64,
    /// The input object as sent (JSON).
    pub input: String,
    pub matched: bool,
    pub company_id: Option<String>,
    /// `linkedin`, `domain` or `name`, for a matched row.
    pub matched_by: Option<String>,
    /// JSON object: signal type → ids of the company's newest signals of that type.
    pub signals: Option<String>,
}

/// Up to `limit` processed rows of a job from `from_index` on, in input order.
pub async fn processed_rows(
    db: &Db,
    job_id: &str,
    from_index: i64,
    limit: i64,
) -> Result<Vec<ResultRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, ResultRow>(
        "SELECT row_index, input, matched, company_id, matched_by, signals FROM enrichment_rows \
         WHERE job_id = $1 AND row_index >= $2 AND matched IS NOT NULL \
         ORDER BY row_index LIMIT $3"
    )
    .bind(job_id)
    .bind(from_index)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}
