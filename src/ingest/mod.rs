//! Ingestion of companies and people: the same effects whether records arrive through the admin
//! API or the import command. A stored company or person resolves matching pending targets at once.

pub mod fields;
pub mod files;
pub mod records;
mod signal_company;
pub mod signals;
use serde::Serialize;

use crate::domain::company::{CompanyRecord, PersonRecord};
use crate::domain::target::{
    normalize_domain, normalize_linkedin_company, normalize_linkedin_profile, registrable_domain,
};
use crate::store::companies::{find_company_by_identifiers, upsert_company};
use crate::store::people::upsert_person;
use crate::store::search::index_company;
use crate::store::targets::{follow_person, resolve_for_company};
use crate::store::{Db, StoreError, Tx};

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

/// Stores companies (records that failed to parse are passed in as errors) in one transaction.
pub async fn ingest_companies(
    db: &Db,
    records: Vec<Result<CompanyRecord, RecordError>>,
) -> Result<UpsertReport, StoreError> {
    let mut report = UpsertReport::default();
    let mut tx = db.begin().await?;
    for record in records {
        match record {
            Ok(company) => {
                let id = store_company(&mut tx, &company).await?;
                report.ids.push(id);
            }
            Err(err) => report.invalid.push(err),
        }
    }
    tx.commit().await?;
    report.upserted = report.ids.len();
    Ok(report)
}

pub(crate) async fn store_company(
    tx: &mut Tx,
    company: &CompanyRecord,
) -> Result<String, StoreError> {
    let id = upsert_company(tx, company).await?;
    index_company(tx, &id).await?;
    let domain = company.website.as_deref().and_then(normalize_domain);
    let registrable = domain.as_deref().and_then(registrable_domain);
    let linkedin = company
        .linkedin_url
        .as_deref()
        .and_then(normalize_linkedin_company);
    resolve_for_company(
        tx,
        &id,
        domain.as_deref(),
        registrable.as_deref(),
        linkedin.as_deref(),
    )
    .await?;
    Ok(id)
}

/// Stores people at their current companies in one transaction; profile targets follow them.
pub async fn ingest_people(
    db: &Db,
    records: Vec<Result<PersonRecord, RecordError>>,
) -> Result<UpsertReport, StoreError> {
    let mut report = UpsertReport::default();
    let mut tx = db.begin().await?;
    for (index, record) in records.into_iter().enumerate() {
        let person = match record {
            Ok(person) => person,
            Err(err) => {
                report.invalid.push(err);
                continue;
            }
        };
        match store_person(&mut tx, &person).await? {
            Ok(id) => report.ids.push(id),
            Err(error) => report.invalid.push(RecordError { index, error }),
        }
    }
    tx.commit().await?;
    report.upserted = report.ids.len();
    Ok(report)
}

async fn store_person(
    tx: &mut Tx,
    person: &PersonRecord,
) -> Result<Result<String, String>, StoreError> {
    let Some(key) = normalize_linkedin_profile(&person.linkedin_url) else {
        return Ok(Err(
            "linkedinUrl must be a LinkedIn member profile URL".into()
        ));
    };
    let company = find_company_by_identifiers(
        tx,
        person.company_id.as_deref(),
        person.company_website.as_deref(),
        person.company_linkedin_url.as_deref(),
    )
    .await?;
    let Some(company_id) = company else {
        return Ok(Err(
            "no known company matches companyId, companyWebsite or companyLinkedinUrl".into(),
        ));
    };
    let id = upsert_person(tx, &key, person, &company_id).await?;
    follow_person(tx, &key, &company_id).await?;
    Ok(Ok(id))
}
