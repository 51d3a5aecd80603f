//! Target research: matching pending targets to companies that have become known.

use serde::Serialize;

use crate::domain::target::TargetKind;
use crate::store::companies::find_company_for_target;
use crate::store::targets::{pending_targets, resolve_target};
use crate::store::{Db, StoreError};

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
        let mut tx = db.begin().await?;
        if let Some(company_id) = find_company_for_target(&mut tx, kind, &value).await?
            && resolve_target(&mut tx, &id, &company_id).await?
        {
            report.resolved += 1;
        }
        tx.commit().await?;
    }
    Ok(report)
}
