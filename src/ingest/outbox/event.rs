//! The `data` of the events fan-out queues, built from a stored signal and its companies as the
//! lists show them. `serde_json` keeps object keys sorted, so they are sorted at every level.

use serde_json::{Map, Value, json};

use crate::domain::person_name::mask_person_name;
use crate::domain::record_parts::{self, SourceShape};
use crate::domain::signal_type::SignalType;
use crate::domain::time::format_ms;
use crate::store::StoreError;
use crate::store::company_lists::CompanyRow;
use crate::store::signals::SignalRow;

/// The `data` of a signal's event: `signal`, `company`, `employees`, `sources` and the block of
/// its kind. A payload that does not decode is corrupt: the event is not sent without it.
pub fn signal_event_data(
    row: &SignalRow,
    company: Option<&CompanyRow>,
    other: Option<&CompanyRow>,
) -> Result<Value, StoreError> {
    let payload: Map<String, Value> =
        super::fanout::decode(&row.payload, &format!("signal {} payload", row.id))?;
    let field = |key: &str| payload.get(key).cloned().unwrap_or(Value::Null);
    let kind = SignalType::parse(row.kind).unwrap_or(SignalType::FundingRound);
    let mut data = Map::new();
    data.insert(
        "signal".into(),
        json!({
            "id": row.id,
            "type": kind.as_str(),
            "externalId": field("externalId"),
            "occurredAt": format_ms(row.occurred_at),
            "discoveredAt": format_ms(row.discovered_at),
            "active": true,
        }),
    );
    data.insert(
        "company".into(),
        company
            .map(CompanyRow::record)
            .transpose()?
            .unwrap_or(Value::Null),
    );
    data.insert("employees".into(), json!([]));
    // As the lists show them: job changes `{url, sourceType}`, other kinds the full shape.
    let shape = match kind {
        SignalType::JobChange => SourceShape::Brief,
        _ => SourceShape::Full,
    };
    data.insert(
        "sources".into(),
        record_parts::sources(field("sources"), shape),
    );
    let (key, block) = match kind {
        SignalType::FundingRound => ("fundingRound", funding_round(row, &field)),
        SignalType::Acquisition => ("acquisition", acquisition(row, other, &field)),
        SignalType::JobChange => ("jobChange", job_change(company, &field)),
        SignalType::Hiring => ("hiringDetails", hiring_details(row, &field)),
    };
    data.insert(key.into(), block);
    Ok(Value::Object(data))
}

/// The `data` of `new_company.created`.
pub fn new_company_event_data(company: &CompanyRow) -> Result<Value, StoreError> {
    Ok(json!({
        "signal": {
            "id": company.id,
            "type": "new_company",
            "externalId": null,
            "occurredAt": format_ms(company.created_at),
            "discoveredAt": format_ms(company.created_at),
            "active": true,
        },
        "company": company.record()?,
    }))
}

fn lower(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.to_lowercase()),
        other => other,
    }
}

/// Investors as `{name, type, leadInvestor}`, whether stored as objects or names.
fn investors(value: Value) -> Value {
    let Value::Array(items) = value else {
        return json!([]);
    };
    let investors: Vec<Value> = items
        .into_iter()
        .map(|item| match item {
            Value::String(name) => json!({"name": name, "type": null, "leadInvestor": false}),
            Value::Object(o) => json!({
                "name": o.get("name").cloned().unwrap_or(Value::Null),
                "type": o.get("type").cloned().unwrap_or(Value::Null),
                "leadInvestor": o.get("leadInvestor").or_else(|| o.get("isLead")).or_else(|| o.get("lead"))
                    .and_then(Value::as_bool).unwrap_or(false),
            }),
            _ => Value::Null,
        })
        .filter(|v| !v.is_null())
        .collect();
    Value::Array(investors)
}

fn funding_round(row: &SignalRow, field: &dyn Fn(&str) -> Value) -> Value {
    json!({
        "roundType": lower(field("roundType")),
        "roundFlavor": lower(field("roundFlavor")),
        "amount": row.amount,
        "currency": row.currency,
        "announcedDate": record_parts::calendar_date(field("announcedDate")),
        "confidenceScore": record_parts::confidence_score(field("confidenceScore")),
        "verificationStatus": record_parts::verification_status(&field("verificationStatus")),
        "investors": investors(field("investors")),
    })
}

fn acquisition(
    row: &SignalRow,
    acquirer: Option<&CompanyRow>,
    field: &dyn Fn(&str) -> Value,
) -> Value {
    json!({
        "acquiringCompanyId": row.other_company_id,
        "acquiringCompany": acquirer.map(|c| json!({
            "id": c.id, "name": c.name, "website": c.website, "linkedinUrl": c.linkedin_url,
            "industry": c.industry, "logoUrl": c.logo_url,
        })),
        "amount": row.amount,
        "currency": row.currency,
        // A string, as the acquisitions list shows it.
        "percentage": match field("percentage") {
            Value::Number(n) => json!(n.to_string()),
            other => other,
        },
        "announcedDate": record_parts::calendar_date(field("announcedDate")),
    })
}

fn job_change(company: Option<&CompanyRow>, field: &dyn Fn(&str) -> Value) -> Value {
    let mut block = Map::new();
    for key in [
        "personName",
        "personLinkedinUrl",
        "newRole",
        "postContent",
        "personCurrentTitle",
        "personHeadline",
        "personLocation",
        "personCity",
        "personCountry",
    ] {
        block.insert(key.into(), field(key));
    }
    // Masked as in the job-change list (first name, last initial).
    let masked = field("personName").as_str().map(mask_person_name);
    block.insert("personName".into(), json!(masked));
    block.insert("companyName".into(), json!(company.map(|c| &c.name)));
    block.insert(
        "companyLinkedinUrl".into(),
        json!(company.and_then(|c| c.linkedin_url.as_ref())),
    );
    Value::Object(block)
}

fn hiring_details(row: &SignalRow, field: &dyn Fn(&str) -> Value) -> Value {
    json!([{
        "title": field("title"),
        "jobUrl": field("jobUrl"),
        "location": field("location"),
        "city": field("city"),
        "country": field("jobCountry"),
        "employmentType": field("employmentType"),
        "seniorityLevel": field("seniorityLevel"),
        "jobFunction": field("jobFunction"),
        "datePosted": format_ms(row.occurred_at),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_funding_event_carries_its_round_block() {
        let row = SignalRow {
            id: "s1".into(),
            kind: "funding_round",
            company_id: "c1".into(),
            amount: Some(5),
            currency: Some("USD".into()),
            payload:
                r#"{"roundType":"Seed","investors":["Acme Ventures"],"sources":["https://x"]}"#
                    .into(),
            ..SignalRow::default()
        };
        let data = signal_event_data(&row, None, None).expect("a payload that decodes");
        assert_eq!(data["signal"]["type"], "funding_round");
        assert_eq!(data["fundingRound"]["roundType"], "seed");
        assert_eq!(
            data["fundingRound"]["investors"][0]["name"],
            "Acme Ventures"
        );
        assert_eq!(
            data["sources"],
            json!([{"url": "https://x", "sourceType": null, "title": null, "publishedAt": null,
                    "isPrimary": false}])
        );
        assert_eq!(data["fundingRound"]["verificationStatus"], "unverified");
        assert_eq!(data["fundingRound"]["confidenceScore"], Value::Null);
        assert_eq!(data["company"], Value::Null);
        assert_eq!(data["employees"], json!([]));
    }
}
