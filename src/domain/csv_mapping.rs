//! Which input field of an enrichment upload names a company, and how.
//!
//! An upload (a JSON list of companies or a CSV file) identifies each company by up to three
//! fields: its name, its website (URL or domain) and its LinkedIn company page. Clients spell
//! those fields many ways (`company_name`, `Company Name`, `companyName`, `name`…), so field names
//! are compared after [`normalize_header`], and each identifier has a list of aliases in order of
//! preference. Every other field is kept with the row as sent.

use serde::Serialize;

/// One of the three identifiers of a company in an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdField {
    CompanyName,
    WebsiteUrl,
    LinkedinUrl,
}

impl IdField {
    /// All identifiers, in the order `detectedMapping` lists them.
    pub const ALL: [IdField; 3] = [
        IdField::CompanyName,
        IdField::WebsiteUrl,
        IdField::LinkedinUrl,
    ];

    /// The recognised field names, best first, as the contract spells them.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            IdField::CompanyName => &["company_name", "companyName", "name"],
            IdField::WebsiteUrl => &["website_url", "websiteUrl", "website", "domain"],
            IdField::LinkedinUrl => &[
                "linkedin_url",
                "linkedinUrl",
                "linkedin",
                "company_linkedin_url",
            ],
        }
    }
}

/// A field name compared the way uploads are read: case-insensitively, with spaces, `_` and `-`
/// ignored, so `Company Name`, `company_name`, `company-name` and `companyName` are one name.
pub fn normalize_header(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The identifier a field name stands for, with its rank among that identifier's aliases
/// (0 = the canonical name).
pub fn identifier_of(name: &str) -> Option<(IdField, usize)> {
    let wanted = normalize_header(name);
    IdField::ALL.into_iter().find_map(|field| {
        field
            .aliases()
            .iter()
            .position(|alias| normalize_header(alias) == wanted)
            .map(|rank| (field, rank))
    })
}

/// The input field chosen for each identifier, named as sent; `None` when none was recognised.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetectedMapping {
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub linkedin_url: Option<String>,
}

impl DetectedMapping {
    /// Picks, for each identifier, the best-ranked of `names` (the first seen among equals).
    pub fn detect<'a>(names: impl IntoIterator<Item = &'a str>) -> DetectedMapping {
        let mut best: [Option<(usize, &str)>; 3] = [None; 3];
        for name in names {
            let Some((field, rank)) = identifier_of(name) else {
                continue;
            };
            let slot = &mut best[field as usize];
            if slot.is_none_or(|(current, _)| rank < current) {
                *slot = Some((rank, name));
            }
        }
        let pick = |field: IdField| best[field as usize].map(|(_, name)| name.to_string());
        DetectedMapping {
            company_name: pick(IdField::CompanyName),
            website_url: pick(IdField::WebsiteUrl),
            linkedin_url: pick(IdField::LinkedinUrl),
        }
    }

    /// True when no identifier was recognised.
    pub fn is_empty(&self) -> bool {
        self.company_name.is_none() && self.website_url.is_none() && self.linkedin_url.is_none()
    }
}

/// The identifiers one row gives, trimmed; empty values count as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowIdentifiers {
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub linkedin_url: Option<String>,
}

impl RowIdentifiers {
    /// Reads a row's `(field, value)` pairs: for each identifier the best-ranked alias with a
    /// non-empty value wins.
    pub fn from_fields<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> RowIdentifiers {
        let mut best: [Option<(usize, &str)>; 3] = [None; 3];
        for (name, value) in fields {
            let value = value.trim();
            let Some((field, rank)) = identifier_of(name).filter(|_| !value.is_empty()) else {
                continue;
            };
            let slot = &mut best[field as usize];
            if slot.is_none_or(|(current, _)| rank < current) {
                *slot = Some((rank, value));
            }
        }
        let take = |field: IdField| best[field as usize].map(|(_, value)| value.to_string());
        RowIdentifiers {
            company_name: take(IdField::CompanyName),
            website_url: take(IdField::WebsiteUrl),
            linkedin_url: take(IdField::LinkedinUrl),
        }
    }

    /// True when the row names the company in no way at all.
    pub fn is_empty(&self) -> bool {
        self.company_name.is_none() && self.website_url.is_none() && self.linkedin_url.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_compare_without_case_spaces_underscores_or_hyphens() {
        for spelling in [
            "Company Name",
            "company_name",
            "COMPANY-NAME",
            "companyName",
            " name ",
        ] {
            let expected = if spelling.trim() == "name" { 2 } else { 0 };
            assert_eq!(
                identifier_of(spelling),
                Some((IdField::CompanyName, expected)),
                "{spelling}"
            );
        }
        assert_eq!(normalize_header("Website  URL"), "websiteurl");
    }

    #[test]
    fn every_alias_of_the_contract_is_recognised() {
        let cases = [
            ("companyName", IdField::CompanyName),
            ("website", IdField::WebsiteUrl),
            ("Domain", IdField::WebsiteUrl),
            ("websiteUrl", IdField::WebsiteUrl),
            ("LinkedIn", IdField::LinkedinUrl),
            ("linkedinUrl", IdField::LinkedinUrl),
            ("Company LinkedIn URL", IdField::LinkedinUrl),
        ];
        for (name, field) in cases {
            assert_eq!(identifier_of(name).map(|(f, _)| f), Some(field), "{name}");
        }
        assert_eq!(identifier_of("external_id"), None);
        assert_eq!(identifier_of("company"), None);
    }

    #[test]
    fn the_mapping_names_the_best_alias_as_it_was_sent() {
        let mapping = DetectedMapping::detect(["Name", "Website", "Company Name", "external_id"]);
        assert_eq!(
            mapping,
            DetectedMapping {
                company_name: Some("Company Name".into()),
                website_url: Some("Website".into()),
                linkedin_url: None,
            }
        );
        assert!(DetectedMapping::detect(["id", "notes"]).is_empty());
    }

    #[test]
    fn the_mapping_serializes_with_the_contract_names_and_nulls() {
        let mapping = DetectedMapping::detect(["domain"]);
        assert_eq!(
            serde_json::to_value(&mapping).unwrap(),
            serde_json::json!({ "companyName": null, "websiteUrl": "domain", "linkedinUrl": null })
        );
    }

    #[test]
    fn a_row_takes_the_best_alias_that_has_a_value() {
        let ids = RowIdentifiers::from_fields([
            ("company_name", "  "),
            ("name", " Mollie "),
            ("website", "mollie.com"),
            ("domain", "other.com"),
        ]);
        assert_eq!(ids.company_name.as_deref(), Some("Mollie"));
        assert_eq!(ids.website_url.as_deref(), Some("mollie.com"));
        assert_eq!(ids.linkedin_url, None);
        assert!(RowIdentifiers::from_fields([("external_id", "x")]).is_empty());
    }
}
