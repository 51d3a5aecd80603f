//! The companies a signal record names: the identifiers to find each by (id, else website, else
//! LinkedIn page) and, when none matches, the company to create from the record's company fields
//! (its slug made from its name when the record gives none).

use serde_json::Value;

use super::company_index::Identifiers;
use super::fields::{Record, integer, string_list, text};
use crate::domain::company::CompanyRecord;
use crate::domain::target::{normalize_domain, normalize_linkedin_company};

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

/// One company as a signal record names it.
#[derive(Debug, Clone, Default)]
pub struct CompanyRef {
    /// How to find it among known companies.
    pub ids: Identifiers,
    /// What to create when none matches (absent: nothing is created).
    pub create: Option<CompanyRecord>,
}

fn identifiers(id: Option<String>, website: Option<&str>, linkedin: Option<&str>) -> Identifiers {
    Identifiers {
        id,
        domain: website.and_then(normalize_domain),
        linkedin: linkedin.and_then(normalize_linkedin_company),
    }
}

/// The company the record names with `keys`; only the main company is created when unknown
/// (it needs a name).
pub fn company_ref(record: &Record, keys: &CompanyKeys) -> CompanyRef {
    let id = text(record, keys.id);
    let website = text(record, keys.website);
    let linkedin = text(record, keys.linkedin);
    let ids = identifiers(id.clone(), website.as_deref(), linkedin.as_deref());
    let create = match text(record, keys.name) {
        Some(name) if keys.id == MAIN_COMPANY.id => {
            Some(main_company_fields(record, id, name, website, linkedin))
        }
        _ => None,
    };
    CompanyRef { ids, create }
}

fn main_company_fields(
    record: &Record,
    id: Option<String>,
    name: String,
    website: Option<String>,
    linkedin_url: Option<String>,
) -> CompanyRecord {
    let mut company = CompanyRecord {
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
        job_boards: None,
    };
    company.fill_slug();
    company
}

/// The acquirer of an acquisition: `acquiringCompanyId`, or the `acquiringCompany` object.
pub fn acquirer_ref(record: &Record) -> CompanyRef {
    let nested = record.get("acquiringCompany").and_then(Value::as_object);
    let id =
        text(record, &["acquiringCompanyId"]).or_else(|| nested.and_then(|n| text(n, &["id"])));
    let website = nested.and_then(|n| text(n, &["website"]));
    let linkedin = nested.and_then(|n| text(n, &["linkedin", "linkedinUrl"]));
    let ids = identifiers(id.clone(), website.as_deref(), linkedin.as_deref());
    let Some((nested, name)) = nested.and_then(|n| text(n, &["name"]).map(|name| (n, name))) else {
        return CompanyRef { ids, create: None };
    };
    let mut company = CompanyRecord {
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
        job_boards: None,
    };
    company.fill_slug();
    CompanyRef {
        ids,
        create: Some(company),
    }
}
