//! A Form D as a funding-round record of the import format, ready for the ingest path.

use serde_json::json;

use super::feed::FeedEntry;
use super::filing::FormD;
use crate::domain::countries::{country_code, country_name};
use crate::domain::us_states::state_code;
use crate::ingest::fields::Record;

/// Where the issuer stands in the company database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssuerCompany {
    /// A known company the matcher found.
    Known(String),
    /// No known company: the record carries the issuer's fields, and ingest creates it.
    New,
}

/// The issuer's country as an alpha-2 code and, in the US, its state code. EDGAR gives US
/// issuers their state's postal code and others a code of its own with a description such as
/// `UNITED KINGDOM` or `ONTARIO, CANADA`.
pub fn issuer_country(form: &FormD) -> (Option<&'static str>, Option<&'static str>) {
    let code = form.issuer.state_or_country.as_deref().unwrap_or_default();
    if let Some(state) = state_code(code).filter(|_| code.len() == 2) {
        return (Some("US"), Some(state));
    }
    let description = form
        .issuer
        .state_or_country_description
        .as_deref()
        .unwrap_or_default();
    let country = description
        .rsplit(',')
        .next()
        .map(str::trim)
        .unwrap_or_default();
    (country_code(country), None)
}

/// Legal-form endings left out of an issuer's name, so `Acme Robotics, Inc.` is found, and
/// created, as the company `Acme Robotics`.
const LEGAL_FORMS: [&str; 16] = [
    "incorporated",
    "inc.",
    "inc",
    "l.l.c.",
    "llc",
    "corporation",
    "corp.",
    "corp",
    "limited",
    "ltd.",
    "ltd",
    "l.p.",
    "lp",
    "pbc",
    "co.",
    "plc",
];

/// An issuer's name without its legal form: `Acme Robotics, Inc.` → `Acme Robotics`.
pub fn brand_name(legal: &str) -> String {
    let mut name = legal.trim();
    for _ in 0..2 {
        let lower = name.to_ascii_lowercase();
        let Some(form) = LEGAL_FORMS.iter().find(|form| {
            lower.ends_with(&format!(" {form}")) || lower.ends_with(&format!(",{form}"))
        }) else {
            break;
        };
        name = name[..name.len() - form.len()]
            .trim_end()
            .trim_end_matches(',')
            .trim_end();
    }
    if name.is_empty() {
        legal.trim().to_string()
    } else {
        name.to_string()
    }
}

/// The funding record of a filing. `offering` is the accession number of the offering's first
/// filing (the filing itself, or the one an amendment goes back to): the signal's key, so an
/// amendment updates its offering's round instead of adding one.
pub fn funding_record(
    form: &FormD,
    entry: &FeedEntry,
    offering: &str,
    signal_id: &str,
    company: &IssuerCompany,
) -> Record {
    let announced = form.first_sale.or(entry.filed);
    let mut fields = Record::new();
    let mut set = |key: &str, value: serde_json::Value| {
        fields.insert(key.to_string(), value);
    };
    set("signalId", json!(signal_id));
    set("externalId", json!(offering));
    set("roundType", json!("undisclosed"));
    set("currency", json!("USD"));
    set(
        "announcedDate",
        json!(announced.map(|d| d.format("%Y-%m-%d").to_string())),
    );
    set(
        "sources",
        json!([{
            "url": entry.index_url,
            "sourceType": "sec_filing",
            "title": format!("Form {} filed by {}", entry.form_type, form.issuer.name),
            "isPrimary": true,
        }]),
    );
    if let Some(amount) = form.round_amount() {
        set("amount", json!(amount));
    }
    match company {
        IssuerCompany::Known(id) => set("companyId", json!(id)),
        IssuerCompany::New => {
            let (country, _) = issuer_country(form);
            set("companyName", json!(brand_name(&form.issuer.name)));
            if let Some(name) = country.and_then(country_name) {
                set("companyCountry", json!(name));
            }
            if let Some(year) = form.issuer.year_of_incorporation {
                set("companyFoundedYear", json!(year));
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests;
