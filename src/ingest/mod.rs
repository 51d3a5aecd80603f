//! Ingestion of companies, people and signals: the same effects whether records arrive through
//! the admin API or the import command. Records are stored a batch at a time, set-wise (one
//! look-up per kind of identifier, multi-row writes), with the effects of storing them one by one
//! in order. A stored company or person resolves matching pending targets at once.

mod companies;
mod company_index;
pub mod fields;
pub mod files;
pub mod group;
mod people;
pub mod records;
pub mod session;
mod signal_batch;
mod signal_company;
pub mod signals;
#[cfg(test)]
mod tests;

use serde::Serialize;

pub use companies::{PreparedCompanies, ingest_companies, prepare_companies, store_companies};
pub use people::{PreparedPeople, ingest_people, prepare_people, store_people};
pub use signal_batch::{PreparedSignals, SignalReport, prepare_signals, store_signals};

use crate::delivery::fanout::fan_out_new_companies;
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
    insert_companies(tx, new, now).await?;
    update_companies(tx, stored, now).await?;
    let new_ids: Vec<&str> = new.iter().map(|c| c.id.as_str()).collect();
    index_companies(tx, &new_ids, false).await?;
    let stored_ids: Vec<&str> = stored.iter().map(|c| c.id.as_str()).collect();
    index_companies(tx, &stored_ids, true).await?;
    resolve_for_companies(tx, order, now).await?;
    fan_out_new_companies(tx, &new_ids, now).await?;
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
