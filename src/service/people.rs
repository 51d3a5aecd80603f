//! The people list: everyone the service knows by a profile URL (people records and the
//! subjects of job changes), each with the newest of their signals that matches the filters
//! (their own job change, or a funding round or acquisition of their current company), counted,
//! paged and charged like the signal lists. It never starts research.
//!
//! Titles, functions and seniorities are matched as whole words of the person's title (`COO`
//! never matches `Cook`; an "assistant to" a title is not that title), with the usual
//! abbreviations read both ways (`CTO` = `Chief Technology Officer`, `VP` = `Vice President`).

use std::collections::HashMap;

use chrono::NaiveDate;
use serde_json::{Value, json};

use super::credits::{ChargedPage, charged_page};
use super::lists::{Paging, strict_company_ids};
use super::{ServiceError, Services, TeamContext};
use crate::domain::person_name::mask_person_name;
use crate::domain::time::format_ms;
use crate::store::StoreError;
use crate::store::people_list::{
    MatchedSignalRow, PersonRow, count_people, list_people, matched_signals,
};

pub use crate::store::people_list::PeopleQuery;

/// Function ids and the words of a title that show them.
pub const FUNCTIONS: &[(&str, &[&str])] = &[
    (
        "marketing",
        &[
            "marketing",
            "cmo",
            "brand",
            "content",
            "seo",
            "communications",
        ],
    ),
    (
        "sales",
        &[
            "sales",
            "account executive",
            "business development",
            "bdr",
            "sdr",
            "cro",
            "account manager",
        ],
    ),
    (
        "engineering",
        &[
            "engineer",
            "engineering",
            "developer",
            "technology",
            "technical",
            "cto",
            "devops",
            "software",
            "sre",
            "architect",
        ],
    ),
    ("product", &["product", "cpo"]),
    ("design", &["design", "designer", "ux", "ui"]),
    ("operations", &["operations", "coo", "ops"]),
    (
        "finance",
        &[
            "finance",
            "financial",
            "cfo",
            "accounting",
            "accountant",
            "controller",
            "treasury",
        ],
    ),
    (
        "people",
        &[
            "people",
            "hr",
            "human resources",
            "talent",
            "recruiter",
            "recruiting",
            "chro",
        ],
    ),
    (
        "data",
        &[
            "data",
            "analytics",
            "analyst",
            "machine learning",
            "ml",
            "scientist",
        ],
    ),
    (
        "customer_success",
        &["customer success", "customer", "support", "cx"],
    ),
    ("growth", &["growth"]),
    (
        "legal",
        &[
            "legal",
            "counsel",
            "lawyer",
            "attorney",
            "clo",
            "compliance",
        ],
    ),
];

/// Seniority ids and the words of a title that show them.
pub const SENIORITIES: &[(&str, &[&str])] = &[
    ("founder", &["founder", "cofounder"]),
    (
        "c_level",
        &[
            "ceo", "cto", "cfo", "coo", "cmo", "cpo", "cro", "chro", "clo", "cio", "ciso", "chief",
        ],
    ),
    ("vp", &["vp", "vice president", "svp", "evp"]),
    ("director", &["director"]),
    ("head", &["head"]),
    ("lead", &["lead", "principal", "staff"]),
    ("manager", &["manager"]),
];

/// Company size bands and their inclusive employee-count ranges.
pub const SIZE_BANDS: &[(&str, i64, Option<i64>)] = &[
    ("1-10", 1, Some(10)),
    ("11-50", 11, Some(50)),
    ("51-100", 51, Some(100)),
    ("101-250", 101, Some(250)),
    ("251-500", 251, Some(500)),
    ("501-1000", 501, Some(1000)),
    ("1000-plus", 1001, None),
];

/// The signal kinds a matched signal may have.
pub const SIGNAL_TYPES: &[&str] = &["funding_round", "acquisition", "job_change"];

/// Abbreviations of titles and what they stand for.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("ceo", "chief executive officer"),
    ("cto", "chief technology officer"),
    ("cto", "chief technical officer"),
    ("cfo", "chief financial officer"),
    ("coo", "chief operating officer"),
    ("cmo", "chief marketing officer"),
    ("cpo", "chief product officer"),
    ("cro", "chief revenue officer"),
    ("vp", "vice president"),
];

/// Lower case with punctuation read as spaces and single spaces, as titles are compared.
pub fn spaced(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .map(|c| if ",-/().".contains(c) { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The word patterns a title asked for matches: the title itself and its abbreviations read
/// both ways.
pub fn title_patterns(title: &str) -> Vec<String> {
    let title = spaced(title);
    let mut variants = vec![title.clone()];
    for (short, long) in ABBREVIATIONS {
        let padded = format!(" {title} ");
        if padded.contains(&format!(" {short} ")) {
            variants.push(
                padded
                    .replace(&format!(" {short} "), &format!(" {long} "))
                    .trim()
                    .to_string(),
            );
        }
        if padded.contains(&format!(" {long} ")) {
            variants.push(
                padded
                    .replace(&format!(" {long} "), &format!(" {short} "))
                    .trim()
                    .to_string(),
            );
        }
    }
    variants.sort();
    variants.dedup();
    variants.iter().map(|v| word_pattern(v)).collect()
}

/// The word patterns of the named ids of `vocabulary`.
pub fn vocabulary_patterns(vocabulary: &[(&str, &[&str])], ids: &[&str]) -> Vec<String> {
    vocabulary
        .iter()
        .filter(|(id, _)| ids.contains(id))
        .flat_map(|(_, words)| words.iter().map(|w| word_pattern(w)))
        .collect()
}

/// A `LIKE` pattern matching `words` as whole words of a spaced, padded title (`_` and `%` in
/// them cannot occur: titles asked for are spaced first, and vocabularies hold plain words).
fn word_pattern(words: &str) -> String {
    format!("% {} %", words.replace(['%', '_'], " "))
}

/// A validated people list request. The query's company ids come from the strict identifiers;
/// its limit and offset follow `paging`.
#[derive(Debug, Clone)]
pub struct PeopleListRequest {
    pub query: PeopleQuery,
    /// Normalized company domains the list is limited to.
    pub domains: Vec<String>,
    /// Normalized LinkedIn company keys the list is limited to.
    pub linkedin_pages: Vec<String>,
    pub paging: Paging,
}

/// One page of the people list with the number of matching people.
#[derive(Debug, Clone)]
pub struct PeoplePage {
    pub total: i64,
    pub page: ChargedPage<Value>,
}

/// Lists one page of people, charging one credit unless only the count is asked.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    request: PeopleListRequest,
) -> Result<PeoplePage, ServiceError> {
    let PeopleListRequest {
        mut query,
        domains,
        linkedin_pages,
        paging,
    } = request;
    query.limit = paging.limit;
    query.offset = paging.offset();
    query.company_ids = strict_company_ids(&services.db, &domains, &linkedin_pages).await?;
    let cache = services.counts.for_answer();
    let total = count_people(&services.db, &cache, &query).await?;
    let page = charged_page(services, ctx.team(), paging.count_only, || async {
        let rows = list_people(&services.db, &query).await?;
        let ids: Vec<String> = rows.iter().map(|r| r.signal_id.clone()).collect();
        let signals: HashMap<String, MatchedSignalRow> = matched_signals(&services.db, &ids)
            .await?
            .into_iter()
            .map(|s| (s.id.clone(), s))
            .collect();
        Ok(rows
            .iter()
            .map(|row| person_record(row, signals.get(&row.signal_id)))
            .collect::<Result<_, _>>()?)
    })
    .await?;
    Ok(PeoplePage { total, page })
}

/// The Person record of a listed person with their matched signal.
pub fn person_record(
    row: &PersonRow,
    signal: Option<&MatchedSignalRow>,
) -> Result<Value, StoreError> {
    let payload: Value = match signal {
        Some(s) => serde_json::from_str(&s.payload)
            .map_err(|e| StoreError::Corrupt(format!("signal {} payload: {e}", s.id)))?,
        None => Value::Null,
    };
    let summary = signal
        .map(|s| summary(&row.signal_kind, &payload, s))
        .unwrap_or_default();
    Ok(json!({
        "name": row.name.as_deref().map(mask_person_name),
        "linkedin_url": row.linkedin_url,
        "title": row.title,
        "status": "active",
        "city": row.city,
        "company": {
            "name": row.c_name,
            "domain": row.c_domain,
            "linkedin_url": row.c_linkedin_url,
            "country": row.c_country,
            "city": Value::Null,
            "size_band": row.c_employee_count.and_then(size_band),
            "industry": row.c_industry,
        },
        "is_latest_signal": row.overall == 1,
        "matched_signal": {
            "type": row.signal_kind,
            "date": format_ms(row.signal_at).get(..10),
            "summary": summary,
            "source_url": source_url(&row.signal_kind, &payload),
        },
    }))
}

/// The size band of an employee count; none below 1.
pub fn size_band(employees: i64) -> Option<&'static str> {
    SIZE_BANDS
        .iter()
        .find(|(_, min, max)| employees >= *min && max.is_none_or(|max| employees <= max))
        .map(|(name, _, _)| *name)
}

fn field<'a>(payload: &'a Value, names: &[&str]) -> Option<&'a str> {
    names
        .iter()
        .find_map(|n| payload.get(*n).and_then(Value::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A one-line account of the signal: "Series B, USD 40,000,000 led by Accel", "Acquired by
/// Globex", "Jane D. started as CTO at Acme".
fn summary(kind: &str, payload: &Value, signal: &MatchedSignalRow) -> String {
    match kind {
        "funding_round" => {
            let mut text = field(payload, &["roundType", "round_type"])
                .unwrap_or("Funding round")
                .to_string();
            if let Some(amount) = amount(payload) {
                text.push_str(&format!(", {amount}"));
            }
            if let Some(lead) = lead_investor(payload) {
                text.push_str(&format!(" led by {lead}"));
            }
            text
        }
        "acquisition" => {
            let mut text = match &signal.other_name {
                Some(acquirer) => format!("{} acquired by {acquirer}", signal.company_name),
                None => format!("{} acquired", signal.company_name),
            };
            if let Some(amount) = amount(payload) {
                text.push_str(&format!(" for {amount}"));
            }
            text
        }
        _ => {
            let person = field(payload, &["personName"])
                .map(mask_person_name)
                .unwrap_or_else(|| "Someone".into());
            match field(payload, &["newRole"]) {
                Some(role) => format!("{person} started as {role} at {}", signal.company_name),
                None => format!("{person} joined {}", signal.company_name),
            }
        }
    }
}

/// `USD 40,000,000` from the record's amount and currency.
fn amount(payload: &Value) -> Option<String> {
    let value = crate::domain::record_parts::integer(payload.get("amount")?.clone()).as_i64()?;
    let currency = field(payload, &["currency"])
        .unwrap_or("USD")
        .to_uppercase();
    let digits = value.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 && c.is_ascii_digit() {
            grouped.push(',');
        }
        grouped.push(c);
    }
    Some(format!("{currency} {grouped}"))
}

fn lead_investor(payload: &Value) -> Option<String> {
    let investors = payload.get("investors")?.as_array()?;
    let lead = investors.iter().find(|i| {
        ["isLead", "is_lead", "leadInvestor", "lead"]
            .iter()
            .any(|k| i.get(*k).and_then(Value::as_bool) == Some(true))
    })?;
    field(lead, &["name"]).map(str::to_string)
}

/// The signal's primary source (else its first), and for a job change the person's profile.
fn source_url(kind: &str, payload: &Value) -> Value {
    let sources = payload.get("sources").and_then(Value::as_array);
    let url_of = |s: &Value| -> Option<String> {
        match s {
            Value::String(url) => Some(url.clone()),
            other => field(other, &["url"]).map(str::to_string),
        }
    };
    let primary = sources.and_then(|list| {
        list.iter()
            .find(|s| s.get("isPrimary").and_then(Value::as_bool) == Some(true))
            .and_then(url_of)
            .or_else(|| list.iter().find_map(url_of))
    });
    let fallback = (kind == "job_change")
        .then(|| field(payload, &["personLinkedinUrl"]).map(str::to_string))
        .flatten();
    json!(primary.or(fallback))
}

/// The first day of a `signal_date_range` window ending today: `n` days, weeks, months or
/// years back.
pub fn window_start(today: NaiveDate, n: u32, unit: char) -> Option<NaiveDate> {
    use chrono::{Days, Months};
    match unit {
        'd' => today.checked_sub_days(Days::new(n.into())),
        'w' => today.checked_sub_days(Days::new(u64::from(n) * 7)),
        'm' => today.checked_sub_months(Months::new(n)),
        'y' => today.checked_sub_months(Months::new(n.checked_mul(12)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_abbreviated_title_matches_its_long_form_and_back() {
        let patterns = title_patterns("VP of Engineering");
        assert!(patterns.contains(&"% vp of engineering %".to_string()));
        assert!(patterns.contains(&"% vice president of engineering %".to_string()));
        assert!(title_patterns("Chief Technology Officer").contains(&"% cto %".to_string()));
    }

    #[test]
    fn size_bands_cover_every_positive_count() {
        assert_eq!(size_band(1), Some("1-10"));
        assert_eq!(size_band(1000), Some("501-1000"));
        assert_eq!(size_band(1001), Some("1000-plus"));
        assert_eq!(size_band(0), None);
    }

    #[test]
    fn a_window_reaches_back_from_today() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 31).unwrap();
        assert_eq!(
            window_start(today, 3, 'm'),
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        assert_eq!(
            window_start(today, 2, 'w'),
            NaiveDate::from_ymd_opt(2026, 5, 17)
        );
    }
}
