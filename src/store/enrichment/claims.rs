//! The worker side of enrichment jobs: claiming a job under a lease, reading the rows still
//! without a result, and recording results chunk by chunk. Every write after the claim applies
//! only while the lease is still ours, so a worker that lost its job (it stalled past the lease
//! and another took over) changes nothing.

use sqlx::FromRow;

use crate::store::bulk::{RowStatement, Val, execute_rows};
use crate::store::{Db, StoreError, Tx};
use crate::{on_db, on_tx};

/// A job a worker now owns.
#[derive(Debug, Clone, FromRow)]
pub struct ClaimedJob {
    pub id: String,
    /// How many times the job has been claimed, this claim included.
    pub attempts: i64,
}

/// Jobs a claim can take: waiting, or running under a lease that ran out (its worker crashed or
/// stalled). Parameter: $1 now.
const CLAIMABLE: &str = "SELECT id FROM enrichment_jobs WHERE status IN ('pending', 'running') \
     AND (lease_until IS NULL OR lease_until < $1) ORDER BY created_at, id LIMIT 1";

/// Leases the oldest claimable job and marks it running. Each worker slot polls twice a second:
/// on SQLite a poll that finds nothing only reads, so it never queues for the write lock behind
/// the ingest writer; the claim itself writes in the writers' turn.
pub async fn claim_job(
    db: &Db,
    owner: &str,
    now: i64,
    lease_ms: i64,
) -> Result<Option<ClaimedJob>, StoreError> {
    let lock = match db {
        Db::Postgres(_) => " FOR UPDATE SKIP LOCKED",
        Db::Sqlite(sqlite) => {
            let pool = sqlite.pool();
            let found: Option<(String,)> = sqlx::query_as(CLAIMABLE)
                .bind(now)
                .fetch_optional(pool)
                .await?;
            if found.is_none() {
                return Ok(None);
            }
            ""
        }
    };
    let sql = format!(
        "UPDATE enrichment_jobs SET status = 'running', lease_owner = $1, lease_until = $2, \
         attempts = attempts + 1, updated_at = $3 WHERE id = ({}{lock}) RETURNING id, attempts",
        CLAIMABLE.replace("$1", "$3")
    );
    let mut tx = db.begin_write().await?;
    let claimed = on_tx!(&mut tx, |conn| sqlx::query_as::<_, ClaimedJob>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(owner)
    .bind(now + lease_ms)
    .bind(now)
    .fetch_optional(conn)
    .await)?;
    tx.commit().await?;
    Ok(claimed)
}

/// A row still without a result, with the identifiers read from it.
#[derive(Debug, Clone, FromRow)]
pub struct PendingRow {
    pub row_index: i64,
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub linkedin_url: Option<String>,
}

/// The first `limit` rows of the job without a result, in input order.
pub async fn pending_rows(
    db: &Db,
    job_id: &str,
    limit: i64,
) -> Result<Vec<PendingRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, PendingRow>(
        "SELECT row_index, company_name, website_url, linkedin_url FROM enrichment_rows \
         WHERE job_id = $1 AND matched IS NULL ORDER BY row_index LIMIT $2"
    )
    .bind(job_id)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// The result of one row.
#[derive(Debug, Clone, Default)]
pub struct RowResult {
    pub row_index: i64,
    pub company_id: Option<String>,
    pub matched_by: Option<&'static str>,
    /// JSON object: signal type → ids of the company's newest signals of that type.
    pub signals: String,
}

/// What a chunk adds to the job's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChunkCounts {
    pub processed: i64,
    pub matched: i64,
    pub with_funding: i64,
    pub with_acquisition: i64,
    pub with_hiring: i64,
    pub with_job_change: i64,
}

/// Who records, and until when the lease is renewed.
#[derive(Debug, Clone, Copy)]
pub struct Lease<'a> {
    pub job_id: &'a str,
    pub owner: &'a str,
    pub now: i64,
    pub until: i64,
}

/// Records a chunk of results with the counts they add, and renews the lease, in one
/// transaction. Returns false (and writes nothing) when the lease is no longer ours.
pub async fn record_chunk(
    db: &Db,
    lease: Lease<'_>,
    results: &[RowResult],
    counts: ChunkCounts,
) -> Result<bool, StoreError> {
    let mut tx = db.begin_write().await?;
    let owned = on_tx!(&mut tx, |conn| sqlx::query(
        "UPDATE enrichment_jobs SET processed = processed + $3, matched = matched + $4, \
         with_funding = with_funding + $5, with_acquisition = with_acquisition + $6, \
         with_hiring = with_hiring + $7, with_job_change = with_job_change + $8, \
         lease_until = $9, updated_at = $10 \
         WHERE id = $1 AND lease_owner = $2 AND status = 'running'"
    )
    .bind(lease.job_id)
    .bind(lease.owner)
    .bind(counts.processed)
    .bind(counts.matched)
    .bind(counts.with_funding)
    .bind(counts.with_acquisition)
    .bind(counts.with_hiring)
    .bind(counts.with_job_change)
    .bind(lease.until)
    .bind(lease.now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?
        == 1;
    if !owned {
        return Ok(false);
    }
    write_results(&mut tx, lease.job_id, results).await?;
    tx.commit().await?;
    Ok(true)
}

/// Writes the results of many rows in one statement per chunk of rows.
async fn write_results(tx: &mut Tx, job_id: &str, results: &[RowResult]) -> Result<(), StoreError> {
    let values: Vec<Val<'_>> = results
        .iter()
        .flat_map(|r| {
            [
                Val::text(job_id),
                Val::Int(Some(r.row_index)),
                Val::Bool(r.company_id.is_some()),
                Val::opt(&r.company_id),
                Val::Text(r.matched_by),
                Val::text(&r.signals),
            ]
        })
        .collect();
    let stmt = RowStatement {
        head: "UPDATE enrichment_rows SET matched = v.column3, company_id = v.column4, \
               matched_by = v.column5, signals = v.column6 FROM (VALUES ",
        template: "(?, ?, ?, ?, ?, ?)",
        tail: ") AS v WHERE enrichment_rows.job_id = v.column1 \
               AND enrichment_rows.row_index = v.column2",
    };
    execute_rows(tx, &stmt, &values).await?;
    Ok(())
}

/// Marks the job completed, when the lease is still ours.
pub async fn complete_job(
    db: &Db,
    job_id: &str,
    owner: &str,
    now: i64,
) -> Result<bool, StoreError> {
    finish(db, job_id, Some(owner), "completed", None, now).await
}

/// Marks the job failed with a message for the client (code `match_engine_unavailable`).
pub async fn fail_job(db: &Db, job_id: &str, message: &str, now: i64) -> Result<bool, StoreError> {
    finish(db, job_id, None, "failed", Some(message), now).await
}

async fn finish(
    db: &Db,
    job_id: &str,
    owner: Option<&str>,
    status: &str,
    message: Option<&str>,
    now: i64,
) -> Result<bool, StoreError> {
    let code = message.map(|_| "match_engine_unavailable");
    let changed = db
        .write(async |tx| {
            Ok(on_tx!(tx, |conn| sqlx::query(
                "UPDATE enrichment_jobs SET status = $3, error_code = $4, error_message = $5, \
         completed_at = $6, updated_at = $6, lease_until = NULL, lease_owner = NULL \
         WHERE id = $1 AND status IN ('pending', 'running') \
         AND ($2 IS NULL OR lease_owner = $2)"
            )
            .bind(job_id)
            .bind(owner)
            .bind(status)
            .bind(code)
            .bind(message)
            .bind(now)
            .execute(conn)
            .await
            .map(|r| r.rows_affected()))?)
        })
        .await?;
    Ok(changed == 1)
}

/// Gives the job back so any worker may take it again from `retry_at` on.
pub async fn release_job(
    db: &Db,
    job_id: &str,
    owner: &str,
    retry_at: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query(
            "UPDATE enrichment_jobs SET lease_owner = NULL, lease_until = $3 \
         WHERE id = $1 AND lease_owner = $2"
        )
        .bind(job_id)
        .bind(owner)
        .bind(retry_at)
        .execute(conn)
        .await
        .map(|_| ()))?)
    })
    .await?;
    Ok(())
}

/// Drops the rows of jobs created before `before`; the jobs themselves stay, so that fetching
/// one answers "expired" rather than "not found".
pub async fn purge_rows_before(db: &Db, before: i64) -> Result<u64, StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query(
            "DELETE FROM enrichment_rows WHERE job_id IN \
         (SELECT id FROM enrichment_jobs WHERE created_at < $1)"
        )
        .bind(before)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?)
    })
    .await
}
