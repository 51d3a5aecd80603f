//! Target research: matching pending targets to companies that have become known, looking
//! pending domains up on their websites (and, on request, domains the company list missed), and
//! keeping member-profile targets at the company where the person works now.

pub mod lookup;
pub mod on_demand;
pub mod website;
pub mod worker;

use serde::Serialize;

use crate::domain::target::TargetKind;
use crate::store::companies::find_company_for_target;
use crate::store::targets::{follow_person, pending_targets, resolve_target, watched_profiles};
use crate::store::{Db, StoreError, Tx};

/// Outcome of one sweep over pending targets.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct SweepReport {
    pub checked: usize,
    pub resolved: usize,
}

/// Re-checks every pending target against the known companies and people.
pub async fn sweep_pending_targets(db: &Db) -> Result<SweepReport, StoreError> {
    let pending = pending_targets(db).await?;
    let mut report = SweepReport {
        checked: pending.len(),
        resolved: 0,
    };
    for (id, kind, value) in pending {
        let Some(kind) = TargetKind::parse(&kind) else {
            continue;
        };
        let mut tx = db.begin_write().await?;
        if let Some(company_id) = find_company_for_target(&mut tx, kind, &value).await?
            && resolve_target(&mut tx, &id, &company_id).await?
        {
            report.resolved += 1;
        }
        tx.commit().await?;
    }
    Ok(report)
}

/// Points the profile targets of the given people (profile keys) at the company each works at
/// now: the one their latest job change *by date* took them to (unless a person record written
/// after it says otherwise). A job change that is older than one already known — a backfill —
/// therefore leaves them where they are, whatever order the changes were ingested in. Returns how
/// many targets moved. Runs in the ingest transaction that stored the changes (which holds the
/// ingest lock), so no job change lands between the read and the move.
pub async fn follow_latest_job_changes(
    tx: &mut Tx,
    person_keys: &[String],
) -> Result<u64, StoreError> {
    if person_keys.is_empty() {
        return Ok(0);
    }
    let mut moved = 0;
    for key in watched_profiles(tx, person_keys).await? {
        if let Some(company_id) =
            find_company_for_target(tx, TargetKind::LinkedinProfile, &key).await?
        {
            moved += follow_person(tx, &key, &company_id).await?;
        }
    }
    Ok(moved)
}
