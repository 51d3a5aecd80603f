//! Storing a batch of company records in one transaction: each record upserts the company with
//! its id, else its website domain, else its LinkedIn page; several records for one company
//! merge as consecutive upserts would.

use std::collections::HashMap;

use super::attempts::Attempt;
use super::company_index::{CompanyIndex, Identifiers};
use super::session::ImportSession;
use super::{RecordError, UpsertReport, write_companies};
use crate::domain::company::CompanyRecord;
use crate::domain::time::now_ms;
use crate::store::bulk_companies::{CompanyRow, DerivedKeys};
use crate::store::bulk_targets::StoredCompany;
use crate::store::company_keys::{KeyClaim, claim_keys};
use crate::store::job_boards::{BoardSource, upsert_boards};
use crate::store::versions::bump_data_version;
use crate::store::{Db, StoreError, new_id};

/// Company records with their derived keys, ready to store.
#[derive(Debug)]
pub struct PreparedCompanies {
    records: Vec<Result<(CompanyRecord, DerivedKeys), RecordError>>,
    /// Who named the records' job boards.
    boards: BoardSource,
}

impl PreparedCompanies {
    /// Records found by research, not given by the operator: a job board they name that is
    /// already known stays with its company.
    pub fn discovered(mut self) -> PreparedCompanies {
        self.boards = BoardSource::Discovered;
        self
    }
}

/// Derives the lookup keys of company records (no database work).
pub fn prepare_companies(records: Vec<Result<CompanyRecord, RecordError>>) -> PreparedCompanies {
    let records = records
        .into_iter()
        .map(|r| {
            r.map(|record| {
                let keys = DerivedKeys::of(&record);
                (record, keys)
            })
        })
        .collect();
    PreparedCompanies {
        records,
        boards: BoardSource::Operator,
    }
}

/// Stores companies (records that failed to parse are passed in as errors) in one transaction.
pub async fn ingest_companies(
    db: &Db,
    records: Vec<Result<CompanyRecord, RecordError>>,
) -> Result<UpsertReport, StoreError> {
    let mut session = ImportSession::new();
    store_companies(db, &mut session, prepare_companies(records)).await
}

/// The companies a batch writes, one row per company, and each record's company in order.
struct Plan {
    rows: Vec<CompanyRow>,
    /// Per stored record: its company's position in `rows`, and the record's own keys.
    order: Vec<(usize, DerivedKeys)>,
}

/// Stores prepared company records in one transaction. On PostgreSQL a company the batch
/// creates by its domain or page (no id given) claims that key first; when an ingest in
/// another process created it meanwhile, the batch runs again and updates that one instead.
pub async fn store_companies(
    db: &Db,
    session: &mut ImportSession,
    prepared: PreparedCompanies,
) -> Result<UpsertReport, StoreError> {
    let mut report = UpsertReport::default();
    let board_source = prepared.boards;
    let mut valid = Vec::new();
    for record in prepared.records {
        match record {
            Ok(record) => valid.push(record),
            Err(err) => report.invalid.push(err),
        }
    }
    let mut attempt = Attempt::FIRST;
    let ids = loop {
        match store_once(db, session, valid.clone(), board_source).await {
            Err(err) if err.is_contention() && attempt.may_retry() && session.may_run_again() => {
                attempt = attempt.next()
            }
            other => break other?,
        }
    };
    report.upserted = ids.len();
    report.ids = ids;
    Ok(report)
}

/// One run of [`store_companies`]'s transaction; returns each record's company id.
async fn store_once(
    db: &Db,
    session: &mut ImportSession,
    valid: Vec<(CompanyRecord, DerivedKeys)>,
    board_source: BoardSource,
) -> Result<Vec<String>, StoreError> {
    let now = now_ms();
    let identifiers: Vec<Identifiers> = valid.iter().map(|(r, k)| identifiers(r, k)).collect();
    let mut tx = session.begin(db).await?;
    let wanted: Vec<&Identifiers> = identifiers.iter().collect();
    let mut index = CompanyIndex::load(&mut tx, None, &wanted).await?;
    let plan = plan(&mut index, valid, &identifiers, now);
    let (stored, mut new): (Vec<CompanyRow>, Vec<CompanyRow>) = plan
        .rows
        .iter()
        .cloned()
        .partition(|row| index.was_stored(&row.id));
    for row in &mut new {
        row.record.fill_slug();
    }
    if !claim_keys(&mut tx, &claims(&new), now).await? {
        return Err(StoreError::Contended);
    }
    let order: Vec<StoredCompany<'_>> = plan
        .order
        .iter()
        .map(|(position, keys)| StoredCompany {
            id: &plan.rows[*position].id,
            domain: keys.domain.as_deref(),
            registrable: keys.registrable.as_deref(),
            linkedin_key: keys.linkedin_key.as_deref(),
        })
        .collect();
    write_companies(&mut tx, &new, &stored, &order, now).await?;
    for row in &plan.rows {
        if let Some(boards) = row.record.job_boards.as_deref() {
            upsert_boards(&mut tx, &row.id, boards, board_source, now).await?;
        }
    }
    bump_data_version(&mut tx).await?;
    session.commit(tx, plan.rows.len()).await?;
    session.remember_companies(plan.rows.iter().map(|r| r.id.as_str()));
    Ok(order.iter().map(|c| c.id.to_string()).collect())
}

/// The key by which each new company without an id of its own would be found by the next
/// record naming it: its domain, else its LinkedIn page.
fn claims(new: &[CompanyRow]) -> Vec<KeyClaim> {
    new.iter()
        .filter(|row| row.record.id.as_deref() != Some(row.id.as_str()))
        .filter_map(|row| match (&row.keys.domain, &row.keys.linkedin_key) {
            (Some(domain), _) => Some(KeyClaim::domain(domain, &row.id)),
            (None, Some(page)) => Some(KeyClaim::linkedin(page, &row.id)),
            (None, None) => None,
        })
        .collect()
}

fn identifiers(record: &CompanyRecord, keys: &DerivedKeys) -> Identifiers {
    Identifiers {
        id: record.id.clone(),
        domain: keys.domain.clone(),
        linkedin: keys.linkedin_key.clone(),
    }
}

/// Decides, record by record, which company each one upserts.
fn plan(
    index: &mut CompanyIndex,
    valid: Vec<(CompanyRecord, DerivedKeys)>,
    identifiers: &[Identifiers],
    now: i64,
) -> Plan {
    let mut plan = Plan {
        rows: Vec::new(),
        order: Vec::new(),
    };
    let mut positions: HashMap<String, usize> = HashMap::new();
    for ((record, keys), ids) in valid.into_iter().zip(identifiers) {
        let id = index
            .find_for_upsert(ids)
            .or_else(|| record.id.clone())
            .unwrap_or_else(new_id);
        index.record_write(&id, ids.domain.as_deref(), ids.linkedin.as_deref(), now);
        let position = match positions.get(&id) {
            Some(&position) => {
                plan.rows[position].merge(record, keys.clone());
                position
            }
            None => {
                positions.insert(id.clone(), plan.rows.len());
                plan.rows.push(CompanyRow {
                    id,
                    record,
                    keys: keys.clone(),
                });
                plan.rows.len() - 1
            }
        };
        plan.order.push((position, keys));
    }
    plan
}
