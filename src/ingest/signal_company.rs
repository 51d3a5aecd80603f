//! Finding (or creating) the companies a signal record names: by id, else website, else LinkedIn
//! page; when none matches, a company is created from the record's company fields.

use serde_json::Value;

use super::fields::{Record, integer, string_list, text};
use crate::domain::company::CompanyRecord;
use crate::store::companies::find_company_by_identifiers;
use crate::store::{StoreError, Tx};

/// How one company is named inside a signal record: the keys of its fields.
pub struct CompanyKeys {
    pub id: &'static [&'static str],
    pub website: &'static [&'static str],
    pub linkedin: &'static [&'static str],
    pub name: &'static [&'static str],
}

/// The signal's own company (the funded, hiring or acquired company; a job change's new company).
pub const MAIN_COMPANY: CompanyKeys = CompanyKeys {
    id: &["companyId"],
    website: &["companyWebsite"],
    linkedin: &["companyLinkedin", "companyLinkedinUrl"],
    name: &["companyName"],
};

/// The company a person left, in a job change.
pub const PREVIOUS_COMPANY: CompanyKeys = CompanyKeys {
    id: &["previousCompanyId"],
    website: &["previousCompanyWebsite"],
    linkedin: &["previousCompanyLinkedinUrl"],
    name: &["previousCompanyName"],
};

/// Finds the company the record names with `keys`; `Ok(None)` when it names none.
pub async fn find_or_create(
    tx: &mut Tx,
    record: &Record,
    keys: &CompanyKeys,
) -> Result<Option<String>, StoreError> {
    let id = text(record, keys.id);
    let website = text(record, keys.website);
    let linkedin = text(record, keys.linkedin);
    let found =
        find_company_by_identifiers(tx, id.as_deref(), website.as_deref(), linkedin.as_deref())
            .await?;
    if found.is_some() || keys.id != MAIN_COMPANY.id {
        return Ok(found);
    }
    let Some(name) = text(record, keys.name) else {
        return Ok(None);
    };
    let company = main_company_fields(record, id, name, website, linkedin);
    super::store_company(tx, &company).await.map(Some)
}

fn main_company_fields(
    record: &Record,
    id: Option<String>,
    name: String,
    website: Option<String>,
    linkedin_url: Option<String>,
) -> CompanyRecord {
    CompanyRecord {
        id,
        name,
        slug: text(record, &["companySlug"]),
        description: text(record, &["companyDescription"]),
        website,
        linkedin_url,
        twitter_url: None,
        logo_url: text(record, &["companyLogo", "companyLogoUrl"]),
        industry: text(record, &["companyIndustry"]),
        subcategory: text(record, &["companySubcategory"]),
        founded_year: integer(record, &["companyFoundedYear"]),
        headquarters_country: text(record, &["companyCountry"]),
        employee_count: integer(record, &["companyEmployeeCount"]),
        categories: string_list(record, "companyCategories"),
        keywords: None,
        specialties: string_list(record, "companySpecialties"),
        growth_info: None,
    }
}

/// The acquirer of an acquisition: `acquiringCompanyId`, or the `acquiringCompany` object.
pub async fn find_or_create_acquirer(
    tx: &mut Tx,
    record: &Record,
) -> Result<Option<String>, StoreError> {
    let nested = record.get("acquiringCompany").and_then(Value::as_object);
    let id =
        text(record, &["acquiringCompanyId"]).or_else(|| nested.and_then(|n| text(n, &["id"])));
    let website = nested.and_then(|n| text(n, &["website"]));
    let linkedin = nested.and_then(|n| text(n, &["linkedin", "linkedinUrl"]));
    let found =
        find_company_by_identifiers(tx, id.as_deref(), website.as_deref(), linkedin.as_deref())
            .await?;
    if found.is_some() {
        return Ok(found);
    }
    let Some((nested, name)) = nested.and_then(|n| text(n, &["name"]).map(|name| (n, name))) else {
        return Ok(None);
    };
    let company = CompanyRecord {
        id,
        name,
        slug: text(nested, &["slug"]),
        description: None,
        website,
        linkedin_url: linkedin,
        twitter_url: None,
        logo_url: text(nested, &["logo", "logoUrl"]),
        industry: text(nested, &["industry"]),
        subcategory: text(nested, &["companySubcategory", "subcategory"]),
        founded_year: integer(nested, &["foundedYear"]),
        headquarters_country: text(nested, &["companyCountry", "country"]),
        employee_count: integer(nested, &["employeeCount"]),
        categories: None,
        keywords: None,
        specialties: None,
        growth_info: None,
    };
    super::store_company(tx, &company).await.map(Some)
}
