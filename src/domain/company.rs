//! Companies and people as the import format (NDJSON or JSON arrays) carries them.

use serde::Deserialize;

/// Growth figures of a company, as fractions over the named periods.
pub type GrowthInfo = serde_json::Value;

/// One company record of an import. Only `name` is required; `id` is generated when absent.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyRecord {
    pub id: Option<String>,
    pub name: String,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub website: Option<String>,
    #[serde(alias = "linkedin")]
    pub linkedin_url: Option<String>,
    pub twitter_url: Option<String>,
    #[serde(alias = "logo")]
    pub logo_url: Option<String>,
    pub industry: Option<String>,
    pub subcategory: Option<String>,
    pub founded_year: Option<i64>,
    #[serde(alias = "country")]
    pub headquarters_country: Option<String>,
    pub employee_count: Option<i64>,
    pub categories: Option<Vec<String>>,
    pub keywords: Option<Vec<String>>,
    pub specialties: Option<Vec<String>>,
    pub growth_info: Option<GrowthInfo>,
}

/// One person record of an import: who they are and where they currently work.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonRecord {
    pub linkedin_url: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub location: Option<String>,
    pub city: Option<String>,
    pub country: Option<String>,
    pub company_id: Option<String>,
    pub company_linkedin_url: Option<String>,
    pub company_website: Option<String>,
}
