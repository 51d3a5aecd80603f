//! Targets: the domains, company pages and member profiles a monitor watches, each resolved to
//! a company when one is known. Adding is idempotent and never fails on a partial problem; a
//! team has at most 1,000 targets across its monitors.

mod remove;

use std::collections::HashSet;

pub use crate::store::targets::{StatusFilter, TargetView};
pub use remove::{RemovedTargets, remove, remove_bulk};

use crate::domain::target::{TargetRef, parse_target, registrable_domain};
use crate::domain::time::now_ms;
use crate::service::monitors::monitor_not_found;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::companies::find_company_for_target;
use crate::store::monitors::{find_monitor, find_monitor_tx};
use crate::store::targets::{
    NewTarget, count_resolved_companies, count_team_targets, ids_by_value, insert_target,
    list_targets, views_by_ids,
};
use crate::store::{Tx, new_id};

/// Most targets a team may have across all its monitors.
pub const MAX_TEAM_TARGETS: i64 = 1_000;
/// Most entries one add or bulk-remove request may carry.
pub const MAX_ENTRIES: usize = 500;

/// One entry of a bulk request, as the client sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetEntry {
    /// A text entry: a domain, a URL, or a target id.
    Text(String),
    /// Anything else, shown as it was written (its JSON text); it matches nothing.
    Other(String),
}

impl TargetEntry {
    /// The entry as the client sent it, for reports of what was refused or not found.
    pub fn as_sent(&self) -> String {
        match self {
            TargetEntry::Text(text) | TargetEntry::Other(text) => text.clone(),
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            TargetEntry::Text(text) => Some(text),
            TargetEntry::Other(_) => None,
        }
    }
}

/// What adding targets came to.
#[derive(Debug, Clone)]
pub struct AddedTargets {
    /// Newly created targets only.
    pub added: Vec<TargetView>,
    /// Valid entries already in the monitor (or repeated in this request).
    pub skipped_existing: usize,
    /// Entries as sent that are none of the three kinds.
    pub invalid: Vec<String>,
    /// Normalized values of added targets not yet matched to a company.
    pub pending: Vec<String>,
    /// Distinct resolved companies in the monitor afterwards.
    pub resolved_companies: i64,
}

/// A page of a monitor's targets and how many match the filter in all.
#[derive(Debug, Clone)]
pub struct TargetPage {
    pub rows: Vec<TargetView>,
    pub total: i64,
}

/// A target status filter: `resolved` or `pending`.
pub fn parse_status(status: &str) -> Result<StatusFilter, ServiceError> {
    match status {
        "resolved" => Ok(StatusFilter::Resolved),
        "pending" => Ok(StatusFilter::Pending),
        _ => Err(ServiceError::invalid("status must be resolved or pending")),
    }
}

/// One page of the monitor's targets, newest first.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    monitor_id: &str,
    status: StatusFilter,
    limit: i64,
    offset: i64,
) -> Result<TargetPage, ServiceError> {
    find_monitor(&services.db, ctx.team(), monitor_id)
        .await?
        .ok_or_else(monitor_not_found)?;
    let (rows, total) =
        list_targets(&services.db, ctx.team(), monitor_id, status, limit, offset).await?;
    Ok(TargetPage { rows, total })
}

/// Adds targets to a monitor (1-500 entries). Entries already there are skipped, invalid ones
/// reported; the whole request is refused when no entry is valid or when it would take the team
/// past its target limit.
pub async fn add(
    services: &Services,
    ctx: &TeamContext,
    monitor_id: &str,
    entries: &[TargetEntry],
) -> Result<AddedTargets, ServiceError> {
    let sorted = sort_entries(entries);
    if sorted.valid.is_empty() {
        return Err(ServiceError::invalid(
            "No valid targets: each entry must be a company domain or website URL, a LinkedIn \
             company page URL or a LinkedIn member profile URL",
        ));
    }
    let team = ctx.team();
    let mut tx = services.db.begin_write().await?;
    tx.lock_team(team).await?;
    find_monitor_tx(&mut tx, team, monitor_id)
        .await?
        .ok_or_else(monitor_not_found)?;
    let values: Vec<String> = sorted.valid.iter().map(|t| t.value.clone()).collect();
    let existing = ids_by_value(&mut tx, monitor_id, &values).await?;
    let fresh: Vec<&TargetRef> = sorted
        .valid
        .iter()
        .filter(|t| !existing.contains_key(&t.value))
        .collect();
    let current = count_team_targets(&mut tx, team).await?;
    if current + fresh.len() as i64 > MAX_TEAM_TARGETS {
        return Err(ServiceError::invalid(format!(
            "Target limit reached: a team can have at most {MAX_TEAM_TARGETS} targets across its \
             monitors (it has {current}; this request would add {})",
            fresh.len()
        )));
    }
    let ids = insert_all(&mut tx, &fresh, monitor_id, team).await?;
    let added = views_by_ids(&mut tx, &ids).await?;
    let resolved_companies = count_resolved_companies(&mut tx, monitor_id).await?;
    tx.commit().await?;
    let pending: Vec<String> = added
        .iter()
        .filter(|t| t.company_id.is_none())
        .map(|t| t.value.clone())
        .collect();
    if !pending.is_empty() {
        services.research_wake.notify_one();
    }
    Ok(AddedTargets {
        skipped_existing: sorted.duplicates + existing.len(),
        added,
        invalid: sorted.invalid,
        pending,
        resolved_companies,
    })
}

/// Entries of one request sorted into valid (first occurrence of each value), repeated and invalid.
struct SortedEntries {
    valid: Vec<TargetRef>,
    duplicates: usize,
    invalid: Vec<String>,
}

fn sort_entries(entries: &[TargetEntry]) -> SortedEntries {
    let mut seen = HashSet::new();
    let mut sorted = SortedEntries {
        valid: Vec::new(),
        duplicates: 0,
        invalid: Vec::new(),
    };
    for entry in entries {
        match entry.text().and_then(parse_target) {
            Some(target) if seen.insert(target.value.clone()) => sorted.valid.push(target),
            Some(_) => sorted.duplicates += 1,
            None => sorted.invalid.push(entry.as_sent()),
        }
    }
    sorted
}

async fn insert_all(
    tx: &mut Tx,
    fresh: &[&TargetRef],
    monitor_id: &str,
    team_id: &str,
) -> Result<Vec<String>, ServiceError> {
    let now = now_ms();
    let mut ids = Vec::with_capacity(fresh.len());
    for target in fresh {
        let company_id = find_company_for_target(tx, target.kind, &target.value).await?;
        let new = NewTarget {
            id: new_id(),
            monitor_id: monitor_id.to_string(),
            team_id: team_id.to_string(),
            kind: target.kind,
            value: target.value.clone(),
            registrable_domain: registrable_domain(&target.value),
            company_id,
            created_at: now,
        };
        insert_target(tx, &new).await?;
        ids.push(new.id);
    }
    Ok(ids)
}
