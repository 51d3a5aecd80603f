//! The four signal record shapes the lists show, assembled from a stored signal and its
//! companies. Fields that hold JSON-encoded text (`companyCategories`, `companySpecialties`)
//! stay strings.

use serde_json::{Map, Value, json};

use crate::domain::company::shown_slug;
use crate::domain::person_name::mask_person_name;
use crate::domain::record_parts::{self, SourceShape};
use crate::domain::signal_type::SignalType;
use crate::domain::time::{format_ms, parse_rfc3339_ms};
use crate::store::StoreError;
use crate::store::matched_funding::MatchedFundingRow;
use crate::store::signal_lists::SignalListRow;

/// Builds the record of a list answer for `row`, with the given `match_confidence`. A payload
/// that is not a JSON object is corrupt: showing it empty would hide the loss.
pub fn signal_record(row: &SignalListRow, match_confidence: &str) -> Result<Value, StoreError> {
    let payload: Map<String, Value> = serde_json::from_str(&row.payload)
        .map_err(|err| StoreError::Corrupt(format!("payload of signal {}: {err}", row.id)))?;
    let field = |key: &str| payload.get(key).cloned().unwrap_or(Value::Null);
    let mut out = Map::new();
    let kind = SignalType::parse(&row.kind).unwrap_or(SignalType::FundingRound);
    if kind == SignalType::Hiring {
        out.insert("id".into(), json!(row.id));
    } else {
        out.insert("signalId".into(), json!(row.id));
        out.insert("signalType".into(), json!(row.kind));
    }
    out.insert("match_confidence".into(), json!(match_confidence));
    match kind {
        SignalType::FundingRound => funding(&mut out, row, &field),
        SignalType::Acquisition => acquisition(&mut out, row, &field),
        SignalType::Hiring => hiring(&mut out, row, &field),
        SignalType::JobChange => job_change(&mut out, row, &field),
    }
    Ok(Value::Object(out))
}

/// The `matchedFunding` of a hiring row: the funding round that satisfied its `funding_*`
/// filters, `{signalId, roundType, amount, currency, announcedDate, investors}`.
pub fn matched_funding_record(row: &MatchedFundingRow) -> Result<Value, StoreError> {
    let payload: Map<String, Value> = serde_json::from_str(&row.payload)
        .map_err(|err| StoreError::Corrupt(format!("payload of signal {}: {err}", row.id)))?;
    let field = |key: &str| payload.get(key).cloned().unwrap_or(Value::Null);
    Ok(json!({
        "signalId": row.id,
        "roundType": lower_case(field("roundType")),
        "amount": record_parts::integer(field("amount")),
        "currency": record_parts::currency_code(field("currency")),
        "announcedDate": record_parts::calendar_date(field("announcedDate")),
        "investors": record_parts::investors(field("investors")),
    }))
}

fn put(out: &mut Map<String, Value>, key: &str, value: Value) {
    out.insert(key.to_string(), value);
}

fn dates(out: &mut Map<String, Value>, row: &SignalListRow) {
    put(out, "occurredAt", json!(format_ms(row.occurred_at)));
    put(out, "discoveredAt", json!(format_ms(row.discovered_at)));
}

fn copy(out: &mut Map<String, Value>, field: &dyn Fn(&str) -> Value, keys: &[&str]) {
    for key in keys {
        put(out, key, field(key));
    }
}

/// Every list request is authenticated, and an authenticated caller sees full data: the
/// reference documents `isFreeAccess` as always true then, whatever an import stored.
fn free_access() -> Value {
    json!(true)
}

/// Company fields shared by the funding and acquisition records.
fn deal_company(out: &mut Map<String, Value>, row: &SignalListRow) {
    put(out, "companyId", json!(row.c_id));
    put(out, "companyName", json!(row.c_name));
    put(
        out,
        "companySlug",
        json!(shown_slug(row.c_slug.as_deref(), &row.c_name)),
    );
    put(out, "companyLogo", json!(row.c_logo_url));
    put(out, "companyWebsite", json!(row.c_website));
    put(out, "companyLinkedin", json!(row.c_linkedin_url));
    put(out, "companyIndustry", json!(row.c_industry));
    put(out, "companyCountry", json!(row.c_country));
    put(out, "companySubcategory", json!(row.c_subcategory));
}

/// Company fields shared by the hiring and job change records.
fn people_company(out: &mut Map<String, Value>, row: &SignalListRow) {
    put(out, "companyWebsite", json!(row.c_website));
    put(out, "companyIndustry", json!(row.c_industry));
    put(out, "companyCountry", json!(row.c_country));
    put(out, "companySubcategory", json!(row.c_subcategory));
    put(out, "companyEmployeeCount", json!(row.c_employee_count));
    put(out, "companyFoundedYear", json!(row.c_founded_year));
    put(out, "companyLogoUrl", json!(row.c_logo_url));
    put(out, "companyDescription", json!(row.c_description));
    put(out, "companySpecialties", json!(row.c_specialties));
    put(out, "companyCategories", json!(row.c_categories));
}

/// `amount`, `currency` and `announcedDate` of a funding round or an acquisition.
fn deal_facts(out: &mut Map<String, Value>, field: &dyn Fn(&str) -> Value) {
    put(out, "amount", record_parts::integer(field("amount")));
    put(
        out,
        "currency",
        record_parts::currency_code(field("currency")),
    );
    put(
        out,
        "announcedDate",
        record_parts::calendar_date(field("announcedDate")),
    );
}

fn funding(out: &mut Map<String, Value>, row: &SignalListRow, field: &dyn Fn(&str) -> Value) {
    dates(out, row);
    deal_company(out, row);
    put(out, "companyDescription", json!(row.c_description));
    put(out, "companyFoundedYear", json!(row.c_founded_year));
    put(out, "companyEmployeeCount", json!(row.c_employee_count));
    put(out, "companyCategories", json!(row.c_categories));
    for key in ["roundType", "roundFlavor"] {
        put(out, key, lower_case(field(key)));
    }
    deal_facts(out, field);
    put(
        out,
        "confidenceScore",
        record_parts::confidence_score(field("confidenceScore")),
    );
    put(
        out,
        "verificationStatus",
        record_parts::verification_status(&field("verificationStatus")),
    );
    put(out, "isFreeAccess", free_access());
    put(
        out,
        "investors",
        record_parts::investors(field("investors")),
    );
    put(
        out,
        "sources",
        record_parts::sources(field("sources"), SourceShape::Full),
    );
}

fn acquisition(out: &mut Map<String, Value>, row: &SignalListRow, field: &dyn Fn(&str) -> Value) {
    dates(out, row);
    deal_company(out, row);
    put(out, "companyFoundedYear", json!(row.c_founded_year));
    put(out, "companyCategories", json!(row.c_categories));
    put(out, "companyDescription", json!(row.c_description));
    put(out, "companyEmployeeCount", json!(row.c_employee_count));
    put(out, "acquiringCompanyId", json!(row.o_id));
    deal_facts(out, field);
    put(out, "percentage", text_value(field("percentage")));
    put(out, "isFreeAccess", free_access());
    let acquirer = row.o_id.as_ref().map(|id| {
        let slug = shown_slug(
            row.o_slug.as_deref(),
            row.o_name.as_deref().unwrap_or_default(),
        );
        json!({
            "id": id, "name": row.o_name, "slug": slug, "logo": row.o_logo_url,
            "website": row.o_website, "linkedin": row.o_linkedin_url, "industry": row.o_industry,
            "companyCountry": row.o_country, "companySubcategory": row.o_subcategory,
            "foundedYear": row.o_founded_year, "employeeCount": row.o_employee_count,
        })
    });
    put(out, "acquiringCompany", json!(acquirer));
    put(
        out,
        "sources",
        record_parts::sources(field("sources"), SourceShape::Full),
    );
}

fn hiring(out: &mut Map<String, Value>, row: &SignalListRow, field: &dyn Fn(&str) -> Value) {
    copy(
        out,
        field,
        &[
            "jobUrl",
            "title",
            "location",
            "city",
            "region",
            "jobCountry",
        ],
    );
    put(out, "jobId", text_value(field("jobId")));
    put(out, "datePosted", json!(format_ms(row.occurred_at)));
    put(out, "validThrough", timestamp_value(field("validThrough")));
    copy(
        out,
        field,
        &["employmentType", "seniorityLevel", "jobFunction"],
    );
    copy(out, field, &["industries"]);
    put(out, "numApplicants", text_value(field("numApplicants")));
    copy(out, field, &["descriptionText"]);
    put(out, "createdAt", json!(format_ms(row.discovered_at)));
    put(out, "companyId", json!(row.c_id));
    put(out, "companyName", json!(row.c_name));
    people_company(out, row);
    put(out, "isFreeAccess", free_access());
    put(out, "companyLogo", json!(row.c_logo_url));
}

fn job_change(out: &mut Map<String, Value>, row: &SignalListRow, field: &dyn Fn(&str) -> Value) {
    dates(out, row);
    let name = field("personName");
    put(
        out,
        "personName",
        json!(name.as_str().map(mask_person_name)),
    );
    copy(out, field, &["personLinkedinUrl"]);
    put(out, "companyLinkedinUrl", json!(row.c_linkedin_url));
    copy(out, field, &["newRole", "postContent", "takenFrom"]);
    put(out, "source", lower_case(field("source")));
    put(out, "companyName", json!(row.c_name));
    copy(
        out,
        field,
        &["personCurrentTitle", "personHeadline", "personLocation"],
    );
    copy(out, field, &["personCity", "personCountry"]);
    for key in ["personFollowers", "personConnections"] {
        put(out, key, record_parts::integer(field(key)));
    }
    put(out, "personPosts", json_text(field("personPosts")));
    people_company(out, row);
    put(out, "isFreeAccess", free_access());
    put(out, "companyLogo", json!(row.c_logo_url));
    put(
        out,
        "sources",
        record_parts::sources(field("sources"), SourceShape::Brief),
    );
}

/// A text value in lower case (`roundType` is shown as the lower-case round type).
fn lower_case(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.to_lowercase()),
        other => other,
    }
}

/// An RFC 3339 timestamp in the service's form (UTC, milliseconds); other values as stored.
fn timestamp_value(value: Value) -> Value {
    match value.as_str().and_then(parse_rfc3339_ms) {
        Some(ms) => json!(format_ms(ms)),
        None => value,
    }
}

/// An array or object as the JSON-encoded string the record documents; text and null as stored.
fn json_text(value: Value) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) => Value::String(value.to_string()),
        other => other,
    }
}

fn text_value(value: Value) -> Value {
    match value {
        Value::Number(n) => json!(n.to_string()),
        other => other,
    }
}
