//! Signal records of the four kinds as rows: the columns the list filters need, tags from job
//! titles, investors and keywords, the record's own fields as payload, and its searchable text.
//! Storing them is `signal_batch`'s work.

use serde_json::Value;

use super::fields::{Record, applicant_count, integer, string_list, text, timestamp};
use crate::domain::keyword_query::words;
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_linkedin_profile;
use crate::store::companies::normalize_country;
use crate::store::new_id;
use crate::store::signals::SignalRow;

pub use super::signal_batch::{SignalReport, ingest_signals};

/// The row of a signal record (its companies not set yet), with its tags and search text; `Err`
/// names what is wrong with the record.
pub fn build_row(kind: SignalType, record: &Record) -> Result<SignalRow, String> {
    let mut row = base_row(kind, record)?;
    let (body, description) = search_text(kind, record);
    row.search_body = body;
    row.search_description = description;
    Ok(row)
}

fn base_row(kind: SignalType, record: &Record) -> Result<SignalRow, String> {
    let date_keys: &[&str] = match kind {
        SignalType::Hiring => &["datePosted", "createdAt"],
        _ => &["occurredAt", "announcedDate"],
    };
    let occurred_at = timestamp(record, date_keys)
        .ok_or_else(|| format!("{} is required (RFC 3339 or YYYY-MM-DD)", date_keys[0]))?;
    let discovered_keys: &[&str] = match kind {
        SignalType::Hiring => &["createdAt"],
        _ => &["discoveredAt"],
    };
    let mut row = SignalRow {
        id: text(record, &["signalId", "id"]).unwrap_or_else(new_id),
        kind: kind.as_str(),
        occurred_at,
        discovered_at: timestamp(record, discovered_keys).unwrap_or(occurred_at),
        payload: payload(record),
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

fn lower(record: &Record, keys: &[&str]) -> Option<String> {
    text(record, keys).map(|s| s.to_lowercase())
}

fn deal_columns(row: &mut SignalRow, record: &Record) {
    row.amount = integer(record, &["amount"]);
    row.currency = text(record, &["currency"]).map(|c| c.to_uppercase());
    row.verification_status = lower(record, &["verificationStatus"]);
}

fn funding_columns(row: &mut SignalRow, record: &Record) {
    deal_columns(row, record);
    row.round_type = lower(record, &["roundType"]);
    row.round_flavor = lower(record, &["roundFlavor"]);
    if let Some(Value::Array(investors)) = record.get("investors") {
        row.tags.extend(
            investors
                .iter()
                .filter_map(|i| i.get("name").and_then(Value::as_str))
                .map(|name| format!("investor:{}", name.trim().to_lowercase())),
        );
    }
}

fn hiring_columns(row: &mut SignalRow, record: &Record) {
    row.country = text(record, &["jobCountry"]).map(|c| normalize_country(&c));
    row.region = text(record, &["region"]).map(|r| r.to_uppercase());
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
    use crate::domain::job_tags::{departments, positions, seniorities};
    let positions = positions(title)
        .into_iter()
        .map(|p| format!("position:{p}"));
    let departments = departments(title)
        .into_iter()
        .map(|d| format!("department:{d}"));
    let seniorities = seniorities(title)
        .into_iter()
        .map(|s| format!("seniority:{s}"));
    positions.chain(departments).chain(seniorities).collect()
}

/// The record's own fields, without the company fields that are read from the company.
fn payload(record: &Record) -> String {
    let own: Record = record
        .iter()
        .filter(|(k, _)| !is_company_field(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Value::Object(own).to_string()
}

fn is_company_field(key: &str) -> bool {
    (key.starts_with("company") && key != "companyLinkedinUrl")
        || key.starts_with("previousCompany")
        || key.starts_with("acquiringCompany")
        || matches!(key, "signalId" | "signalType" | "match_confidence")
}

/// The searchable text of a signal: its own words (job title and place, or person, role and
/// place), and a job's description. Company words are searched on the company itself.
fn search_text(kind: SignalType, record: &Record) -> (String, String) {
    let keys: &[&str] = match kind {
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
    let mut body: Vec<String> = keys.iter().filter_map(|k| text(record, &[k])).collect();
    if let Some(name) = text(record, &["personCountry", "jobCountry"])
        .and_then(|c| crate::domain::countries::country_code(&c))
        .and_then(crate::domain::countries::country_name)
    {
        body.push(name.to_string());
    }
    let description = text(record, &["descriptionText"]).unwrap_or_default();
    (
        words(&body.join(" ")).join(" "),
        words(&description).join(" "),
    )
}
