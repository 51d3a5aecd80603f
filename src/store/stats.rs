//! Monitor statistics: target counts and recent signal volume for the monitors of a team.

use std::collections::HashMap;

use super::{Db, StoreError};
use crate::on_db;

/// Counts for one monitor.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MonitorCounts {
    pub targets: i64,
    pub resolved_targets: i64,
    pub signals_since: i64,
}

/// (monitor id, targets, resolved targets)
type TargetCounts = (String, i64, i64);
/// (monitor id, signals)
type SignalCount = (String, i64);

/// Target counts and the number of signals since `since_ms` for every monitor of a team, keyed
/// by monitor id. A monitor without targets is absent (all counts zero).
pub async fn monitor_counts(
    db: &Db,
    team_id: &str,
    since_ms: i64,
) -> Result<HashMap<String, MonitorCounts>, StoreError> {
    let (targets, signals): (Vec<TargetCounts>, Vec<SignalCount>) = on_db!(db, |pool| {
        let targets = sqlx::query_as(
            "SELECT monitor_id, COUNT(*), COUNT(company_id) FROM targets \
             WHERE team_id = $1 GROUP BY monitor_id",
        )
        .bind(team_id)
        .fetch_all(pool)
        .await?;
        let signals = sqlx::query_as(
            "SELECT x.monitor_id, COUNT(DISTINCT sc.signal_id) FROM \
             (SELECT DISTINCT monitor_id, company_id FROM targets \
              WHERE team_id = $1 AND company_id IS NOT NULL) x \
             JOIN signal_companies sc ON sc.company_id = x.company_id \
             WHERE sc.occurred_at >= $2 GROUP BY x.monitor_id",
        )
        .bind(team_id)
        .bind(since_ms)
        .fetch_all(pool)
        .await?;
        Ok::<_, sqlx::Error>((targets, signals))
    })?;
    let mut counts: HashMap<String, MonitorCounts> = HashMap::new();
    for (monitor_id, total, resolved) in targets {
        let entry = counts.entry(monitor_id).or_default();
        entry.targets = total;
        entry.resolved_targets = resolved;
    }
    for (monitor_id, signals) in signals {
        counts.entry(monitor_id).or_default().signals_since = signals;
    }
    Ok(counts)
}
