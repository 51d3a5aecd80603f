//! The SEC Form D filings the collector has taken, and the lease of its pass.

use super::{Db, StoreError};
use crate::{on_db, on_tx};

/// How a taken filing ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilingOutcome {
    /// Its funding signal was stored (inserted or updated).
    Ingested,
    /// Left out on purpose (a pooled investment fund).
    Skipped,
    /// Fetching or reading it failed; it is tried again after `retry_at`.
    Failed,
}

impl FilingOutcome {
    fn as_str(self) -> &'static str {
        match self {
            FilingOutcome::Ingested => "ingested",
            FilingOutcome::Skipped => "skipped",
            FilingOutcome::Failed => "failed",
        }
    }
}

/// Takes `accession` for this worker until `lease_until`: a filing never seen, or one whose
/// last attempt failed (or whose worker died) and whose wait is over, while it has had fewer
/// than `max_attempts`. `None` when it is done, held by another worker, or given up; else the
/// number of this attempt.
pub async fn claim_filing(
    db: &Db,
    accession: &str,
    now: i64,
    lease_until: i64,
    max_attempts: i64,
) -> Result<Option<i64>, StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query_scalar(
            "INSERT INTO sec_filings (accession, offering, outcome, attempts, lease_until, \
             created_at, updated_at) VALUES ($1, $1, 'claimed', 1, $2, $3, $3) \
             ON CONFLICT (accession) DO UPDATE SET outcome = 'claimed', \
             attempts = sec_filings.attempts + 1, lease_until = excluded.lease_until, \
             updated_at = excluded.updated_at \
             WHERE sec_filings.outcome IN ('claimed', 'failed') \
             AND sec_filings.lease_until <= excluded.updated_at \
             AND sec_filings.attempts < $4 \
             RETURNING attempts"
        )
        .bind(accession)
        .bind(lease_until)
        .bind(now)
        .bind(max_attempts)
        .fetch_optional(conn)
        .await)?)
    })
    .await
}

/// The offering a filing belongs to (the one stored for it, else the filing itself) and the
/// offering's signal when any of its filings has one.
pub async fn offering_signal(
    db: &Db,
    accession: &str,
) -> Result<(String, Option<String>), StoreError> {
    let offering: Option<String> = on_db!(db, |pool| sqlx::query_scalar(
        "SELECT offering FROM sec_filings WHERE accession = $1"
    )
    .bind(accession)
    .fetch_optional(pool)
    .await)?;
    let offering = offering.unwrap_or_else(|| accession.to_string());
    let signal: Option<String> = on_db!(db, |pool| sqlx::query_scalar(
        "SELECT signal_id FROM sec_filings WHERE offering = $1 AND signal_id IS NOT NULL \
         ORDER BY created_at LIMIT 1"
    )
    .bind(&offering)
    .fetch_optional(pool)
    .await)?;
    Ok((offering, signal))
}

/// Records the offering and the signal id a claimed filing will store, before the signal is
/// ingested: a retry after a crash then updates the same signal instead of adding one.
pub async fn assign_signal(
    db: &Db,
    accession: &str,
    offering: &str,
    signal_id: &str,
    now: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE sec_filings SET offering = $2, signal_id = $3, updated_at = $4 \
             WHERE accession = $1"
        )
        .bind(accession)
        .bind(offering)
        .bind(signal_id)
        .bind(now)
        .execute(conn)
        .await
        .map(|_| ()))?;
        Ok(())
    })
    .await
}

/// The signal id a claimed filing was given by an earlier attempt.
pub async fn assigned_signal(db: &Db, accession: &str) -> Result<Option<String>, StoreError> {
    let id: Option<Option<String>> = on_db!(db, |pool| sqlx::query_scalar(
        "SELECT signal_id FROM sec_filings WHERE accession = $1"
    )
    .bind(accession)
    .fetch_optional(pool)
    .await)?;
    Ok(id.flatten())
}

/// Records how a claimed filing ended; a failed one may be claimed again from `retry_at`.
pub async fn finish_filing(
    db: &Db,
    accession: &str,
    outcome: FilingOutcome,
    error: Option<&str>,
    retry_at: i64,
    now: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE sec_filings SET outcome = $2, error = $3, lease_until = $4, updated_at = $5 \
             WHERE accession = $1"
        )
        .bind(accession)
        .bind(outcome.as_str())
        .bind(error)
        .bind(retry_at)
        .bind(now)
        .execute(conn)
        .await
        .map(|_| ()))?;
        Ok(())
    })
    .await
}

/// Takes the lease of collector `name`'s pass for `holder` until `lease_until`, when it is free
/// or its holder's lease ran out. True when taken.
pub async fn take_pass_lease(
    db: &Db,
    name: &str,
    holder: &str,
    now: i64,
    lease_until: i64,
) -> Result<bool, StoreError> {
    db.write(async |tx| {
        let taken: Option<String> = on_tx!(tx, |conn| sqlx::query_scalar(
            "INSERT INTO collector_leases (name, holder, lease_until) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
             lease_until = excluded.lease_until \
             WHERE collector_leases.lease_until <= $4 OR collector_leases.holder = excluded.holder \
             RETURNING name"
        )
        .bind(name)
        .bind(holder)
        .bind(lease_until)
        .bind(now)
        .fetch_optional(conn)
        .await)?;
        Ok(taken.is_some())
    })
    .await
}

/// Gives the lease of collector `name`'s pass back.
pub async fn release_pass_lease(db: &Db, name: &str, holder: &str) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE collector_leases SET lease_until = 0 WHERE name = $1 AND holder = $2"
        )
        .bind(name)
        .bind(holder)
        .execute(conn)
        .await
        .map(|_| ()))?;
        Ok(())
    })
    .await
}
