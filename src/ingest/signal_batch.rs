//! Storing a batch of signal records of one kind in one transaction, set-wise. The pure work
//! (rows, tags, search text, company identifiers) is done first and apart from the database
//! ([`prepare_signals`]); then the batch's companies are looked up together, the companies
//! records name but nobody knows are created, and every row is written with multi-row
//! statements. Each record sees what it would have seen had the records been stored one at a
//! time: a record finds a company created by an earlier one, a repeated id is inserted once and
//! then updated.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::RecordError;
use super::attempts::Attempt;
use super::company_index::{CompanyIndex, Identifiers};
use super::fields::Record;
use super::outbox::{Outbox, fan_out_new_companies, fan_out_signals};
use super::session::ImportSession;
use super::signal_company::{
    CompanyRef, MAIN_COMPANY, PREVIOUS_COMPANY, acquirer_ref, company_ref,
};
use super::signal_key::SignalKey;
use super::signals::build_row;
use super::{resolve_targets, store_company_rows, stored_company};
use crate::domain::signal_type::SignalType;
use crate::domain::time::now_ms;
use crate::research::follow_latest_job_changes;
use crate::store::bulk_chain::Chain;
use crate::store::bulk_companies::{CompanyRow, DerivedKeys};
use crate::store::bulk_links::LinkRows;
use crate::store::bulk_stage::StagedWrites;
use crate::store::bulk_targets::follow_people;
use crate::store::company_keys::{KeyClaim, claim_keys};
use crate::store::signals::{SignalRow, write_signals};
use crate::store::{Db, StoreError, Tx, new_id};

/// What a signal ingest call stored and refused.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SignalReport {
    pub inserted: usize,
    pub updated: usize,
    pub ids: Vec<String>,
    pub invalid: Vec<RecordError>,
    /// Per id of `ids`: true when that record inserted its row (not reported).
    #[serde(skip)]
    pub fresh: Vec<bool>,
}

const NO_COMPANY: &str =
    "no company: give companyId, companyWebsite, companyLinkedin or companyName";

/// One signal record ready to store.
#[derive(Debug, Clone)]
pub struct PreparedSignal {
    index: usize,
    main: CompanyRef,
    other: Option<CompanyRef>,
    key: SignalKey,
    row: Result<SignalRow, String>,
}

/// Signal records of one kind turned into rows, ready to store.
#[derive(Debug, Clone)]
pub struct PreparedSignals {
    kind: SignalType,
    records: Vec<Result<PreparedSignal, RecordError>>,
}

/// Turns signal records into rows and company references (no database work).
pub fn prepare_signals(
    kind: SignalType,
    records: Vec<Result<Record, RecordError>>,
) -> PreparedSignals {
    let records = records
        .into_iter()
        .enumerate()
        .map(|(index, record)| {
            let record = record?;
            let other = match kind {
                SignalType::Acquisition => Some(acquirer_ref(&record)),
                SignalType::JobChange => Some(company_ref(&record, &PREVIOUS_COMPANY)),
                _ => None,
            };
            Ok(PreparedSignal {
                index,
                main: company_ref(&record, &MAIN_COMPANY),
                other,
                key: SignalKey::of(kind, &record),
                row: build_row(kind, &record),
            })
        })
        .collect();
    PreparedSignals { kind, records }
}

/// Accepts signal records of one kind in one transaction; bad records are reported by index.
pub async fn ingest_signals(
    db: &Db,
    kind: SignalType,
    records: Vec<Result<Record, RecordError>>,
) -> Result<SignalReport, StoreError> {
    ingest_signals_as(db, kind, records, false).await
}

/// As [`ingest_signals`], for a group of the ingest writer, saturated or not (`busy`): the
/// announcement of its deliveries says so (see `delivery::pressure`).
pub async fn ingest_signals_as(
    db: &Db,
    kind: SignalType,
    records: Vec<Result<Record, RecordError>>,
    busy: bool,
) -> Result<SignalReport, StoreError> {
    let mut session = ImportSession::grouped(busy);
    accept_signals(db, &mut session, prepare_signals(kind, records)).await
}

/// Accepts a batch of prepared signal records, every step in one transaction (one commit, and
/// nothing of the batch is seen, queued or moved unless all of it is):
///
/// 1. store companies: find each record's companies, create the ones they name but nobody
///    knows (claiming their domains and pages first, see `store::company_keys`);
/// 2. research: resolve the pending targets the new companies match, before fan-out, so that
///    their monitors hear of this batch's signals;
/// 3. store signals (a repeated id, given or derived from the record's natural key: the last
///    record wins, and a stored one is updated);
/// 4. fan out: who hears of the new companies and signals (an update never delivers again);
/// 5. enqueue their events, deliveries and alert items;
/// 6. move job changes: profile targets follow each person to the company of their latest
///    change by date, so a backfilled (older) change moves nobody back.
///
/// No lock serializes ingests: on PostgreSQL, ingests in other processes may store the same
/// companies and signals at the same moment. Unique keys decide: a company or signal another
/// transaction inserted first is found, or updated, never created or announced twice. When
/// another transaction created a company this batch was about to create (or PostgreSQL broke a
/// deadlock), the batch runs again from its start and finds it.
pub async fn accept_signals(
    db: &Db,
    session: &mut ImportSession,
    prepared: PreparedSignals,
) -> Result<SignalReport, StoreError> {
    let started = std::time::Instant::now();
    let kind = prepared.kind;
    let mut attempt = Attempt::FIRST;
    let report = loop {
        match accept_once(db, session, &prepared).await {
            Err(err) if err.is_contention() && attempt.may_retry() && session.may_run_again() => {
                tracing::debug!(error = %err, "signal batch contended; running it again");
                attempt = attempt.next();
            }
            other => break other?,
        }
    };
    let stored = report.inserted + report.updated;
    crate::telemetry::ingest_batch(
        kind.as_str(),
        stored,
        report.invalid.len(),
        started.elapsed(),
    );
    Ok(report)
}

/// Runs [`accept_signals`]'s transaction for `prepared` once and rolls it back: every
/// statement of an ingest of this kind runs (and is planned) on `db`'s connection, nothing is
/// kept (see `ingest::rehearsal`).
pub async fn rehearse_signals(db: &Db, prepared: &PreparedSignals) -> Result<(), StoreError> {
    accept_once(db, &mut ImportSession::rehearsal(), prepared)
        .await
        .map(|_| ())
}

/// One run of [`accept_signals`]'s transaction.
async fn accept_once(
    db: &Db,
    session: &mut ImportSession,
    prepared: &PreparedSignals,
) -> Result<SignalReport, StoreError> {
    let now = now_ms();
    let mut tx = session.begin(db).await?;
    let Resolved {
        rows,
        created,
        mut report,
    } = resolve_companies(&mut tx, session, prepared, now).await?;
    claim_companies(&mut tx, &created, now).await?;
    let new_companies = store_company_rows(&mut tx, &created, &[], now).await?;
    let order: Vec<_> = created.iter().map(stored_company).collect();
    resolve_targets(&mut tx, &order, now).await?;
    let links = session.link_rows(&tx);
    let mut search = session.search_writes(&tx);
    // The rows nothing in this transaction reads again, written by its last statement.
    let mut chain = Chain::new();
    let new_signals = write_rows(
        &mut tx,
        &rows,
        (links, &mut search),
        now,
        &mut report,
        &mut chain,
    )
    .await?;
    let mut outbox = Outbox::new(now);
    fan_out_new_companies(&mut tx, &new_companies, &mut outbox).await?;
    fan_out_signals(&mut tx, &new_signals, &mut outbox).await?;
    move_job_changes(&mut tx, &rows, &new_signals, now).await?;
    // In the same transaction: no list answer can be cached under the old version from the
    // new rows, and the writer commits once instead of twice. The other processes' workers
    // hear of the deliveries at the commit.
    outbox
        .enqueue_and_mark_changed(&mut tx, chain, session.busy())
        .await?;
    session.commit(tx, rows.len()).await?;
    session.hand_to_stage(search).await?;
    session.remember_companies(created.iter().map(|c| c.id.as_str()));
    session.remember_companies(rows.iter().map(|r| r.company_id.as_str()));
    session.remember_companies(rows.iter().filter_map(|r| r.other_company_id.as_deref()));
    Ok(report)
}

/// Claims the domains and pages of the companies the batch creates (by them a later record
/// would find each); a key another ingest claimed first ends the attempt as contended.
async fn claim_companies(tx: &mut Tx, created: &[CompanyRow], now: i64) -> Result<(), StoreError> {
    let claims: Vec<KeyClaim> = created
        .iter()
        .flat_map(|c| {
            let domain = c.keys.domain.as_deref().map(|d| KeyClaim::domain(d, &c.id));
            let page = c.keys.linkedin_key.as_deref();
            domain
                .into_iter()
                .chain(page.map(|l| KeyClaim::linkedin(l, &c.id)))
        })
        .collect();
    if claim_keys(tx, &claims, now).await? {
        Ok(())
    } else {
        Err(StoreError::Contended)
    }
}

/// The batch's rows with their companies, the companies to create, and the records refused.
struct Resolved {
    rows: Vec<SignalRow>,
    created: Vec<CompanyRow>,
    report: SignalReport,
}

/// Looks the batch's companies up together and resolves each record's, creating (in memory)
/// the unknown ones records name.
async fn resolve_companies(
    tx: &mut Tx,
    session: &ImportSession,
    prepared: &PreparedSignals,
    now: i64,
) -> Result<Resolved, StoreError> {
    let wanted: Vec<&Identifiers> = prepared
        .records
        .iter()
        .flatten()
        .flat_map(|p| std::iter::once(&p.main).chain(&p.other))
        .map(|r| &r.ids)
        .collect();
    let mut index = CompanyIndex::load(tx, Some(session), &wanted).await?;
    let mut resolved = Resolved {
        rows: Vec::new(),
        created: Vec::new(),
        report: SignalReport::default(),
    };
    for record in &prepared.records {
        match record
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|p| resolve(&mut index, &mut resolved.created, now, p))
        {
            Ok(row) => resolved.rows.push(row),
            Err(err) => resolved.report.invalid.push(err),
        }
    }
    Ok(resolved)
}

/// Moves member-profile targets with the batch's job changes: first in date order, so a
/// person's latest change in the batch is the one that counts, then to each person's latest
/// change of all, which an older change ingested late must not undo.
async fn move_job_changes(
    tx: &mut Tx,
    rows: &[SignalRow],
    new: &[&SignalRow],
    now: i64,
) -> Result<(), StoreError> {
    let job_change = SignalType::JobChange.as_str();
    let mut changes: Vec<&SignalRow> = new
        .iter()
        .filter(|r| r.kind == job_change)
        .copied()
        .collect();
    changes.sort_by_key(|row| row.occurred_at);
    let moves: Vec<(&str, &str)> = changes
        .iter()
        .filter_map(|row| Some((row.person_key.as_deref()?, row.company_id.as_str())))
        .collect();
    follow_people(tx, &moves, now).await?;
    let mut people: Vec<String> = rows
        .iter()
        .filter(|r| r.kind == job_change)
        .filter_map(|r| r.person_key.clone())
        .collect();
    people.sort_unstable();
    people.dedup();
    follow_latest_job_changes(tx, &people).await?;
    Ok(())
}

/// The record's row with its companies, creating the unknown ones it names.
fn resolve(
    index: &mut CompanyIndex,
    created: &mut Vec<CompanyRow>,
    now: i64,
    prepared: &PreparedSignal,
) -> Result<SignalRow, RecordError> {
    let error = |error: String| RecordError {
        index: prepared.index,
        error,
    };
    let Some(company_id) = find_or_create(index, created, now, &prepared.main) else {
        return Err(error(NO_COMPANY.into()));
    };
    let other = prepared
        .other
        .as_ref()
        .and_then(|other| find_or_create(index, created, now, other));
    let mut row = prepared.row.clone().map_err(error)?;
    row.company_id = company_id;
    row.other_company_id = other;
    row.id = prepared.key.id(&row);
    Ok(row)
}

/// The company `company` designates; else, when it carries the fields, a new one.
fn find_or_create(
    index: &mut CompanyIndex,
    created: &mut Vec<CompanyRow>,
    now: i64,
    company: &CompanyRef,
) -> Option<String> {
    if let Some(id) = index.find_any(&company.ids) {
        return Some(id);
    }
    let record = company.create.clone()?;
    let keys = DerivedKeys::of(&record);
    let id = record.id.clone().unwrap_or_else(new_id);
    let (domain, linkedin) = (keys.domain.as_deref(), keys.linkedin_key.as_deref());
    index.record_write(&id, domain, linkedin, now);
    created.push(CompanyRow {
        id: id.clone(),
        record,
        keys,
    });
    Some(id)
}

/// Writes the rows (a repeated id: the last record wins), counts each record as inserted (its
/// id's first appearance, and its row inserted by this write, not found stored) or updated, and
/// returns the new signals.
async fn write_rows<'a>(
    tx: &mut Tx,
    rows: &'a [SignalRow],
    (links, search): (LinkRows, &mut StagedWrites),
    now: i64,
    report: &mut SignalReport,
    chain: &mut Chain<'a>,
) -> Result<Vec<&'a SignalRow>, StoreError> {
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (position, row) in rows.iter().enumerate() {
        last.insert(row.id.as_str(), position);
    }
    let written: Vec<&SignalRow> = rows
        .iter()
        .enumerate()
        .filter(|(position, row)| last.get(row.id.as_str()) == Some(position))
        .map(|(_, row)| row)
        .collect();
    // A signal another ingest inserted meanwhile (PostgreSQL) was updated here, not inserted:
    // its records count as updates, and it is announced by that ingest alone.
    let inserted = write_signals(tx, &written, links, search, now, chain).await?;
    let mut seen = HashSet::new();
    for row in rows {
        let fresh = seen.insert(row.id.as_str()) && inserted.contains(&row.id);
        if fresh {
            report.inserted += 1;
        } else {
            report.updated += 1;
        }
        report.ids.push(row.id.clone());
        report.fresh.push(fresh);
    }
    Ok(written
        .into_iter()
        .filter(|row| inserted.contains(&row.id))
        .collect())
}
