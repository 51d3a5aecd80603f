//! Ingestion of companies, people and signals: the same effects whether records arrive through
//! the admin API or the import command. Records are stored a batch at a time, set-wise (one
//! look-up per kind of identifier, multi-row writes), with the effects of storing them one by one
//! in order. A stored company or person resolves matching pending targets at once.

mod attempts;
mod companies;
mod company_index;
pub mod fields;
pub mod files;
pub mod group;
mod outbox;
mod people;
pub mod records;
mod rehearsal;
pub mod session;
mod signal_batch;
mod signal_company;
mod signal_key;
pub mod signals;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use serde::Serialize;

pub use companies::{PreparedCompanies, ingest_companies, prepare_companies, store_companies};
pub use people::{PreparedPeople, ingest_people, prepare_people, store_people};
pub use signal_batch::{PreparedSignals, SignalReport, accept_signals, prepare_signals};

use self::outbox::{Outbox, fan_out_new_companies};
use crate::store::bulk_companies::{CompanyRow, insert_companies, update_companies};
use crate::store::bulk_targets::{StoredCompany, resolve_for_companies};
use crate::store::search::index_companies;
use crate::store::{StoreError, Tx};

/// A record that could not be stored, with its position in the input.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RecordError {
    pub index: usize,
    pub error: String,
}

/// What an ingest call stored and refused.
#[derive(Debug, Clone, Default, Serialize)]
pub struct UpsertReport {
    pub upserted: usize,
    pub ids: Vec<String>,
    pub invalid: Vec<RecordError>,
}

/// Writes companies (`new` inserted, `stored` updated by the merge rule) with their search
/// documents, then resolves the pending targets they match (`order` lists the companies as the
/// records stored them: the first that matches a target takes it) and announces the new ones.
pub(crate) async fn write_companies(
    tx: &mut Tx,
    new: &[CompanyRow],
    stored: &[CompanyRow],
    order: &[StoredCompany<'_>],
    now: i64,
) -> Result<(), StoreError> {
    if new.is_empty() && stored.is_empty() {
        return Ok(());
    }
    let new_ids = store_company_rows(tx, new, stored, now).await?;
    resolve_for_companies(tx, order, now).await?;
    let mut outbox = Outbox::new(now);
    fan_out_new_companies(tx, &new_ids, &mut outbox).await?;
    outbox.enqueue(tx).await?;
    Ok(())
}

/// Writes companies (`new` inserted, `stored` updated) with their search documents; returns the
/// ids of the new ones this transaction created (not one a concurrent ingest created first).
pub(crate) async fn store_company_rows<'a>(
    tx: &mut Tx,
    new: &'a [CompanyRow],
    stored: &[CompanyRow],
    now: i64,
) -> Result<Vec<&'a str>, StoreError> {
    if new.is_empty() && stored.is_empty() {
        return Ok(Vec::new());
    }
    let inserted: HashSet<String> = insert_companies(tx, new, now).await?.into_iter().collect();
    update_companies(tx, stored, now).await?;
    let (created, raced): (Vec<&str>, Vec<&str>) = new
        .iter()
        .map(|c| c.id.as_str())
        .partition(|id| inserted.contains(*id));
    index_companies(tx, &created, false).await?;
    let mut stored_ids: Vec<&str> = stored.iter().map(|c| c.id.as_str()).collect();
    stored_ids.extend(raced);
    index_companies(tx, &stored_ids, true).await?;
    Ok(created)
}

/// Research: resolves the pending targets the companies just stored match (`order` as the
/// records stored them: the first that matches a target takes it); nothing without companies.
pub(crate) async fn resolve_targets(
    tx: &mut Tx,
    order: &[StoredCompany<'_>],
    now: i64,
) -> Result<(), StoreError> {
    if !order.is_empty() {
        resolve_for_companies(tx, order, now).await?;
    }
    Ok(())
}

/// How a newly created company resolves targets: by its own identifiers.
pub(crate) fn stored_company(row: &CompanyRow) -> StoredCompany<'_> {
    StoredCompany {
        id: &row.id,
        domain: row.keys.domain.as_deref(),
        registrable: row.keys.registrable.as_deref(),
        linkedin_key: row.keys.linkedin_key.as_deref(),
    }
}
