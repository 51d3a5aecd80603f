//! Storing a batch of person records in one transaction: each person (by normalized profile URL)
//! at the company their record names; their profile targets follow them.

use std::collections::HashMap;

use super::company_index::{CompanyIndex, Identifiers};
use super::session::ImportSession;
use super::{RecordError, UpsertReport};
use crate::domain::company::PersonRecord;
use crate::domain::target::{
    normalize_domain, normalize_linkedin_company, normalize_linkedin_profile,
};
use crate::domain::time::now_ms;
use crate::store::bulk_people::{PersonRow, upsert_people};
use crate::store::bulk_targets::follow_people;
use crate::store::versions::bump_data_version;
use crate::store::{Db, StoreError};

const BAD_PROFILE: &str = "linkedinUrl must be a LinkedIn member profile URL";
const NO_COMPANY: &str = "no known company matches companyId, companyWebsite or companyLinkedinUrl";

/// One person record ready to store.
#[derive(Debug)]
struct PreparedPerson {
    index: usize,
    key: Option<String>,
    company: Identifiers,
    record: PersonRecord,
}

/// Person records with their normalized keys, ready to store.
#[derive(Debug)]
pub struct PreparedPeople {
    records: Vec<Result<PreparedPerson, RecordError>>,
}

/// Normalizes the profile URLs and company identifiers of person records (no database work).
pub fn prepare_people(records: Vec<Result<PersonRecord, RecordError>>) -> PreparedPeople {
    let records = records
        .into_iter()
        .enumerate()
        .map(|(index, record)| {
            record.map(|record| PreparedPerson {
                index,
                key: normalize_linkedin_profile(&record.linkedin_url),
                company: Identifiers {
                    id: record.company_id.clone(),
                    domain: record.company_website.as_deref().and_then(normalize_domain),
                    linkedin: record
                        .company_linkedin_url
                        .as_deref()
                        .and_then(normalize_linkedin_company),
                },
                record,
            })
        })
        .collect();
    PreparedPeople { records }
}

/// Stores people at their current companies in one transaction; profile targets follow them.
pub async fn ingest_people(
    db: &Db,
    records: Vec<Result<PersonRecord, RecordError>>,
) -> Result<UpsertReport, StoreError> {
    let mut session = ImportSession::new();
    store_people(db, &mut session, prepare_people(records)).await
}

/// Stores prepared person records in one transaction.
pub async fn store_people(
    db: &Db,
    session: &mut ImportSession,
    prepared: PreparedPeople,
) -> Result<UpsertReport, StoreError> {
    let now = now_ms();
    let mut tx = session.begin(db).await?;
    let wanted: Vec<&Identifiers> = prepared
        .records
        .iter()
        .flatten()
        .map(|p| &p.company)
        .collect();
    let index = CompanyIndex::load(&mut tx, Some(session), &wanted).await?;
    let plan = plan(&index, prepared);
    let ids: HashMap<String, String> = upsert_people(&mut tx, &plan.rows, now)
        .await?
        .into_iter()
        .map(|(id, key)| (key, id))
        .collect();
    let moves: Vec<(&str, &str)> = plan
        .rows
        .iter()
        .map(|r| (r.linkedin_key.as_str(), r.company_id.as_str()))
        .collect();
    follow_people(&mut tx, &moves, now).await?;
    bump_data_version(&mut tx).await?;
    session.commit(tx, plan.rows.len()).await?;
    session.remember_companies(plan.rows.iter().map(|r| r.company_id.as_str()));
    let ids: Vec<String> = plan
        .stored
        .iter()
        .filter_map(|key| ids.get(key).cloned())
        .collect();
    Ok(UpsertReport {
        upserted: ids.len(),
        ids,
        invalid: plan.invalid,
    })
}

/// The people a batch writes (one row per profile) and what each record came to.
struct Plan {
    rows: Vec<PersonRow>,
    /// The profile key of each stored record, in order.
    stored: Vec<String>,
    invalid: Vec<RecordError>,
}

/// Checks each record in order and merges the records of one person.
fn plan(index: &CompanyIndex, prepared: PreparedPeople) -> Plan {
    let mut plan = Plan {
        rows: Vec::new(),
        stored: Vec::new(),
        invalid: Vec::new(),
    };
    let mut positions: HashMap<String, usize> = HashMap::new();
    for record in prepared.records {
        let person = match record {
            Ok(person) => person,
            Err(err) => {
                plan.invalid.push(err);
                continue;
            }
        };
        let error = |error: &str| RecordError {
            index: person.index,
            error: error.into(),
        };
        let Some(key) = person.key else {
            plan.invalid.push(error(BAD_PROFILE));
            continue;
        };
        let Some(company_id) = index.find_any(&person.company) else {
            plan.invalid.push(error(NO_COMPANY));
            continue;
        };
        plan.stored.push(key.clone());
        match positions.get(&key) {
            Some(&position) => plan.rows[position].merge(person.record, company_id),
            None => {
                positions.insert(key.clone(), plan.rows.len());
                plan.rows.push(PersonRow {
                    linkedin_key: key,
                    record: person.record,
                    company_id,
                });
            }
        }
    }
    plan
}
