//! Signal records of the four kinds as rows: the columns the list filters need, tags from job
//! titles, investors and keywords, the record's own fields as payload, and its searchable text.
//! Storing them is `signal_batch`'s work.

use serde_json::Value;

use super::fields::{Record, applicant_count, integer, string_list, text, timestamp};
use crate::domain::record_parts::DEFAULT_CURRENCY;
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_linkedin_profile;
use crate::domain::us_states::posting_region;
use crate::store::companies::normalize_country;
use crate::store::signals::SignalRow;

pub use super::signal_batch::{SignalReport, ingest_signals};

/// The row of a signal record (its companies not set yet), with its tags and search text; `Err`
/// names what is wrong with the record.
pub fn build_row(kind: SignalType, record: &Record) -> Result<SignalRow, String> {
    let mut row = base_row(kind, record)?;
    let text = search_text(kind, record);
    row.search_body = text.body.into();
    row.search_description = text.description.into();
    row.search_substrings = substring_texts(kind, record, row.title.as_deref());
    Ok(row)
}

/// The place and role texts of the substring filters, for the kinds they serve: a posting's
/// place (its role is not searched by substring), a job change's place and new role, the role
/// lower-cased as SQLite's `lower()` does, as the short needles' row test reads it.
fn substring_texts(
    kind: SignalType,
    record: &Record,
    title: Option<&str>,
) -> Option<(String, String)> {
    match kind {
        SignalType::Hiring => Some((place_text(record), String::new())),
        SignalType::JobChange => Some((
            place_text(record),
            title.unwrap_or_default().to_ascii_lowercase(),
        )),
        SignalType::FundingRound | SignalType::Acquisition => None,
    }
}

/// The payload fields the place filters (`city`, `job_locations`) read: a posting's city,
/// location and region, a person's city and location (a record has its own kind's).
const PLACE_FIELDS: [&str; 5] = ["city", "location", "region", "personCity", "personLocation"];

/// The text the place filters search, as the substring documents hold it: the place fields
/// joined by single spaces (an absent one empty), each as SQLite's `json_extract` reads it from
/// the payload, lower-cased as SQLite's `lower()` does (ASCII letters only). The short needles'
/// row test and PostgreSQL's trigram index compute the same text from the stored payload
/// (`store::search`), so the documents and the rows agree.
fn place_text(record: &Record) -> String {
    let fields: Vec<String> = PLACE_FIELDS
        .iter()
        .map(|key| match record.get(*key) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(Value::Bool(flag)) => u8::from(*flag).to_string(),
            Some(other) => other.to_string(),
        })
        .collect();
    fields.join(" ").to_ascii_lowercase()
}

fn base_row(kind: SignalType, record: &Record) -> Result<SignalRow, String> {
    let date_keys: &[&str] = match kind {
        SignalType::Hiring => &["datePosted", "createdAt"],
        _ => &["occurredAt", "announcedDate"],
    };
    let occurred_at =
        timestamp(record, date_keys).ok_or_else(|| match present(record, date_keys) {
            Some((key, value)) => format!(
                "field `{key}`: expected an RFC 3339 timestamp or a YYYY-MM-DD date, got {value}"
            ),
            None => format!("{} is required (RFC 3339 or YYYY-MM-DD)", date_keys[0]),
        })?;
    let discovered_keys: &[&str] = match kind {
        SignalType::Hiring => &["createdAt"],
        _ => &["discoveredAt"],
    };
    let mut row = SignalRow {
        // Set once the companies are known (`SignalKey`).
        id: String::new(),
        kind: kind.as_str(),
        occurred_at,
        discovered_at: timestamp(record, discovered_keys).unwrap_or(occurred_at),
        payload: payload(record).into(),
        ..SignalRow::default()
    };
    match kind {
        SignalType::FundingRound => funding_columns(&mut row, record),
        SignalType::Acquisition => deal_columns(&mut row, record),
        SignalType::Hiring => hiring_columns(&mut row, record),
        SignalType::JobChange => job_change_columns(&mut row, record),
    }
    Ok(row)
}

/// The first of `keys` the record gives a non-null value for, with that value as JSON.
fn present(record: &Record, keys: &[&str]) -> Option<(String, String)> {
    keys.iter().find_map(|key| match record.get(*key) {
        None | Some(Value::Null) => None,
        Some(value) => Some((key.to_string(), value.to_string())),
    })
}

fn lower(record: &Record, keys: &[&str]) -> Option<String> {
    text(record, keys).map(|s| s.to_lowercase())
}

fn deal_columns(row: &mut SignalRow, record: &Record) {
    row.amount = integer(record, &["amount"]);
    // As the record shows it: a deal imported without a currency is in US dollars.
    row.currency = Some(
        text(record, &["currency"])
            .map(|c| c.to_uppercase())
            .unwrap_or_else(|| DEFAULT_CURRENCY.to_string()),
    );
    row.verification_status = lower(record, &["verificationStatus"]);
}

fn funding_columns(row: &mut SignalRow, record: &Record) {
    deal_columns(row, record);
    row.round_type = lower(record, &["roundType"]);
    row.round_flavor = lower(record, &["roundFlavor"]);
    if let Some(Value::Array(investors)) = record.get("investors") {
        // An investor is an object with a name, or (as the record shows it) a bare name.
        row.tags.extend(
            investors
                .iter()
                .filter_map(|i| i.as_str().or_else(|| i.get("name").and_then(Value::as_str)))
                .map(|name| format!("investor:{}", name.trim().to_lowercase())),
        );
    }
}

fn hiring_columns(row: &mut SignalRow, record: &Record) {
    row.country = text(record, &["jobCountry"]).map(|c| normalize_country(&c));
    row.region = posting_region(
        text(record, &["region"]).as_deref(),
        text(record, &["location"]).as_deref(),
        row.country.as_deref(),
    );
    row.city = text(record, &["city"]);
    row.applicants = applicant_count(record, "numApplicants");
    row.title = text(record, &["title"]);
    // The hiring list sorts `location` on this: the posting's location, else its city.
    row.sort_text = text(record, &["location"]).or_else(|| row.city.clone());
    if let Some(title) = &row.title {
        row.tags.extend(title_tags(title));
    }
}

fn job_change_columns(row: &mut SignalRow, record: &Record) {
    row.country = text(record, &["personCountry"]).map(|c| normalize_country(&c));
    row.city = text(record, &["personCity"]);
    row.source = lower(record, &["source"]);
    row.sort_text = text(record, &["personName"]);
    row.person_key =
        text(record, &["personLinkedinUrl"]).and_then(|u| normalize_linkedin_profile(&u));
    row.title = text(record, &["newRole"]);
    if let Some(role) = &row.title {
        row.tags.extend(title_tags(role));
    }
    if let Some(keywords) = string_list(record, "keywords") {
        row.tags.extend(
            keywords
                .iter()
                .map(|k| format!("keyword:{}", k.trim().to_lowercase())),
        );
    }
}

/// Position, department and seniority tags of a job title.
fn title_tags(title: &str) -> Vec<String> {
    let tags = crate::domain::job_tags::tags(title);
    let positions = tags.positions.iter().map(|p| format!("position:{p}"));
    let departments = tags.departments.iter().map(|d| format!("department:{d}"));
    let seniorities = tags.seniorities.iter().map(|s| format!("seniority:{s}"));
    positions.chain(departments).chain(seniorities).collect()
}

/// The record's own fields, without the company fields that are read from the company.
fn payload(record: &Record) -> String {
    /// The record seen through the filter, serialized without copying it.
    struct Own<'a>(&'a Record);
    impl serde::Serialize for Own<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().filter(|(k, _)| !is_company_field(k)))
        }
    }
    serde_json::to_string(&Own(record)).unwrap_or_else(|_| "{}".into())
}

fn is_company_field(key: &str) -> bool {
    (key.starts_with("company") && key != "companyLinkedinUrl")
        || key.starts_with("previousCompany")
        || key.starts_with("acquiringCompany")
        || matches!(key, "signalId" | "signalType" | "match_confidence")
}

/// The searchable words of a signal, each document for the filters that read it.
#[derive(Debug, Default, PartialEq)]
struct SearchText {
    /// Its own words (job title and place, or person, role and place) for `search`. Company
    /// words are searched on the company itself.
    body: String,
    /// A job's description, for `description`.
    description: String,
}

fn search_text(kind: SignalType, record: &Record) -> SearchText {
    let body_keys: &[&str] = match kind {
        SignalType::Hiring => &["title", "location", "city", "region", "jobCountry"],
        SignalType::JobChange => &[
            "personName",
            "newRole",
            "personLocation",
            "personCity",
            "personCountry",
        ],
        _ => &[],
    };
    let mut out = SearchText {
        body: words_of(record, body_keys),
        ..SearchText::default()
    };
    if let Some(name) = text(record, &["personCountry", "jobCountry"])
        .and_then(|c| crate::domain::countries::country_code(&c))
        .and_then(crate::domain::countries::country_name)
    {
        push_words(&mut out.body, name);
    }
    // Only a posting's description is searched (the hiring list's `description`), and counts
    // of that filter rely on no other kind of signal having a description document.
    if kind == SignalType::Hiring
        && let Some(text) = record.get("descriptionText").and_then(Value::as_str)
    {
        push_words(&mut out.description, text);
    }
    out
}

/// The words of the text fields `keys` of `record`, in order.
fn words_of(record: &Record, keys: &[&str]) -> String {
    let mut words = String::new();
    for key in keys {
        if let Some(value) = text(record, &[key]) {
            push_words(&mut words, &value);
        }
    }
    words
}

/// Appends the lower-case words of `text` to `out`, space-separated: `words(text).join(" ")`
/// (runs of letters and digits, each lower-cased), without a vector of words.
fn push_words(out: &mut String, text: &str) {
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        if word.is_ascii() {
            out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
        } else {
            out.push_str(&word.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests;
