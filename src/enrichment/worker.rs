//! The enrichment worker (docs/ARCHITECTURE.md, "Enrichment"). Claims a waiting job under a lease,
//! processes its rows chunk by chunk (each chunk's results and counts committed with a renewed
//! lease), and marks it completed. A worker that crashes loses nothing: its job's lease runs out,
//! another worker claims it and carries on with the rows that have no result yet. A job that keeps
//! failing is marked failed after [`MAX_ATTEMPTS`] claims.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::RETENTION_MS;
use super::process::process_chunk;
use crate::domain::time::now_ms;
use crate::store::enrichment::claims::{
    ClaimedJob, Lease, claim_job, complete_job, fail_job, pending_rows, purge_rows_before,
    record_chunk, release_job,
};
use crate::store::{Db, new_id};

/// How long a claim or a recorded chunk keeps a job ours.
pub const LEASE_MS: i64 = 30_000;

/// Claims of one job before it is marked failed.
pub const MAX_ATTEMPTS: i64 = 5;

/// Rows matched and recorded together; also the step in which progress moves.
const CHUNK_ROWS: i64 = 250;

/// Jobs processed at once by one process.
const SLOTS: usize = 2;

/// Longest wait between claims when nothing wakes the worker (jobs accepted by other processes).
const POLL: Duration = Duration::from_millis(500);

/// Period of the purge of expired jobs' rows.
const PURGE_EVERY: Duration = Duration::from_secs(3600);

/// Runs until `shutdown`. `wake` is notified when a job is accepted in this process. A job in
/// progress at shutdown is given back at once, so the next worker need not wait for its lease.
pub async fn enrichment_loop(db: Db, wake: Arc<Notify>, shutdown: CancellationToken) {
    let mut slots = JoinSet::new();
    for _ in 0..SLOTS {
        slots.spawn(slot_loop(db.clone(), wake.clone(), shutdown.clone()));
    }
    loop {
        match purge_rows_before(&db, now_ms() - RETENTION_MS).await {
            Ok(0) => {}
            Ok(purged) => tracing::info!(purged, "rows of expired enrichment jobs purged"),
            Err(err) => tracing::error!(error = %err, "purging expired enrichment rows failed"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = tokio::time::sleep(PURGE_EVERY) => {}
        }
    }
    while slots.join_next().await.is_some() {}
}

/// One job at a time: claim, process, repeat; wait for a wake-up or the poll period when idle.
async fn slot_loop(db: Db, wake: Arc<Notify>, shutdown: CancellationToken) {
    let owner = new_id();
    while !shutdown.is_cancelled() {
        match claim_job(&db, &owner, now_ms(), LEASE_MS).await {
            Ok(Some(job)) => {
                run_claimed(&db, &owner, job, &shutdown).await;
                continue;
            }
            Ok(None) => {}
            Err(err) => tracing::error!(error = %err, "claiming an enrichment job failed"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = wake.notified() => {}
            _ = tokio::time::sleep(POLL) => {}
        }
    }
}

/// Runs a claimed job; on an error gives it back to be tried again a little later.
async fn run_claimed(db: &Db, owner: &str, job: ClaimedJob, shutdown: &CancellationToken) {
    if job.attempts > MAX_ATTEMPTS {
        let message = "The job could not be processed; please submit it again.";
        if let Err(err) = fail_job(db, &job.id, message, now_ms()).await {
            tracing::error!(job = %job.id, error = %err, "marking an enrichment job failed failed");
        }
        return;
    }
    if let Err(err) = run_job(db, owner, &job.id, shutdown).await {
        tracing::error!(job = %job.id, attempt = job.attempts, error = %err, "enrichment job failed");
        let retry_at = now_ms() + 1_000 * job.attempts;
        if let Err(err) = release_job(db, &job.id, owner, retry_at).await {
            // The lease runs out on its own; the job is claimed again then.
            tracing::error!(job = %job.id, error = %err, "releasing an enrichment job failed");
        }
    }
}

/// Processes the rows still without a result, chunk by chunk, then completes the job. Stops
/// quietly when the lease was lost, and gives the job back at shutdown.
async fn run_job(
    db: &Db,
    owner: &str,
    job_id: &str,
    shutdown: &CancellationToken,
) -> anyhow::Result<()> {
    loop {
        if shutdown.is_cancelled() {
            release_job(db, job_id, owner, now_ms()).await?;
            return Ok(());
        }
        let rows = pending_rows(db, job_id, CHUNK_ROWS).await?;
        if rows.is_empty() {
            complete_job(db, job_id, owner, now_ms()).await?;
            return Ok(());
        }
        let outcome = process_chunk(db, &rows).await?;
        let now = now_ms();
        let lease = Lease {
            job_id,
            owner,
            now,
            until: now + LEASE_MS,
        };
        if !record_chunk(db, lease, &outcome.results, outcome.counts).await? {
            tracing::warn!(job = %job_id, "enrichment job lease lost; another worker has it");
            return Ok(());
        }
    }
}
