//! Companies and people as the import format (NDJSON or JSON arrays) carries them.

use serde::Deserialize;

use super::job_board::JobBoard;

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
    /// The public job boards the company publishes its positions on.
    pub job_boards: Option<Vec<JobBoard>>,
}

impl CompanyRecord {
    /// Gives a record without a slug the one made from its name ([`slug_from_name`]); for a
    /// company about to be created (an update leaves a stored slug as it is).
    pub fn fill_slug(&mut self) {
        if self.slug.as_deref().is_none_or(|s| s.trim().is_empty()) {
            let slug = slug_from_name(&self.name);
            self.slug = (!slug.is_empty()).then_some(slug);
        }
    }
}

/// A company's slug made from its name: lower case, every run of characters other than letters
/// and digits one `-`, none at either end (`"Acme Corp."` → `"acme-corp"`). Empty when the name
/// has no letter or digit.
pub fn slug_from_name(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for word in name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.extend(word.chars().flat_map(char::to_lowercase));
    }
    slug
}

/// The slug a company shows: the stored one, else the one its name gives (companies stored
/// before slugs were made at import have none).
pub fn shown_slug(stored: Option<&str>, name: &str) -> String {
    match stored.map(str::trim) {
        Some(slug) if !slug.is_empty() => slug.to_string(),
        _ => slug_from_name(name),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_is_the_lower_case_name_with_runs_of_other_characters_as_one_dash() {
        for (name, slug) in [
            ("Acme Corporation", "acme-corporation"),
            ("  Acme   Corp. ", "acme-corp"),
            ("HealthTech Solutions, Inc.", "healthtech-solutions-inc"),
            ("AT&T", "at-t"),
            ("--Nowhere__Labs--", "nowhere-labs"),
            ("Société Générale", "société-générale"),
            ("3M", "3m"),
            ("!!!", ""),
            ("", ""),
        ] {
            assert_eq!(slug_from_name(name), slug, "{name}");
        }
    }

    fn record(name: &str, slug: Option<&str>) -> CompanyRecord {
        let value = serde_json::json!({ "name": name, "slug": slug });
        serde_json::from_value(value).expect("a company record")
    }

    #[test]
    fn a_record_without_a_slug_gets_the_one_its_name_gives_and_keeps_its_own() {
        let mut bare = record("Hooli XYZ", None);
        bare.fill_slug();
        assert_eq!(bare.slug.as_deref(), Some("hooli-xyz"));
        let mut blank = record("Hooli", Some(" "));
        blank.fill_slug();
        assert_eq!(blank.slug.as_deref(), Some("hooli"));
        let mut given = record("Hooli", Some("hooli-inc"));
        given.fill_slug();
        assert_eq!(given.slug.as_deref(), Some("hooli-inc"));
        let mut nameless = record("???", None);
        nameless.fill_slug();
        assert_eq!(nameless.slug, None);
    }

    #[test]
    fn a_company_shows_its_stored_slug_else_the_one_of_its_name() {
        assert_eq!(shown_slug(Some("acme"), "Acme Corporation"), "acme");
        assert_eq!(shown_slug(None, "Acme Corporation"), "acme-corporation");
        assert_eq!(shown_slug(Some(""), "Globex"), "globex");
    }
}
