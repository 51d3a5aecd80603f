//! Parts of a signal record in their documented shapes, whatever subset or spelling an import
//! stored, shared by the list records and the webhook events: the nested arrays (`investors`,
//! `sources`) with every documented key present, absent ones as `null` (booleans as `false`) and
//! timestamps in the service's form; a deal's `amount` as an integer, `currency` in capitals (US
//! dollars when left out) and `announcedDate` as a date; a funding round's `confidenceScore` as a
//! number and its `verificationStatus` as one of its three values.

use chrono::NaiveDate;
use serde_json::{Map, Value, json};

use super::time::{format_ms, parse_rfc3339_ms};
use super::vocabulary::shown_verification_status;

/// Which `sources` shape a record carries: funding and acquisitions show the full one, job
/// changes only `{url, sourceType}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceShape {
    Full,
    Brief,
}

/// `investors` as `[{id, name, type, website, linkedin, isLead}]`; a bare string is a name.
pub fn investors(value: Value) -> Value {
    objects(value, "name")
        .map(|o| {
            json!({
                "id": text(&o, &["id"]),
                "name": text(&o, &["name"]),
                "type": text(&o, &["type"]),
                "website": text(&o, &["website", "websiteUrl"]),
                "linkedin": text(&o, &["linkedin", "linkedinUrl", "linkedin_url"]),
                "isLead": flag(&o, &["isLead", "is_lead", "leadInvestor", "lead"]),
            })
        })
        .collect()
}

/// `sources` in the given shape; a bare string is a URL.
pub fn sources(value: Value, shape: SourceShape) -> Value {
    objects(value, "url")
        .map(|o| match shape {
            SourceShape::Brief => json!({
                "url": text(&o, &["url"]),
                "sourceType": text(&o, &["sourceType", "source_type"]),
            }),
            SourceShape::Full => json!({
                "url": text(&o, &["url"]),
                "sourceType": text(&o, &["sourceType", "source_type"]),
                "title": text(&o, &["title"]),
                "publishedAt": timestamp(text(&o, &["publishedAt", "published_at"])),
                "isPrimary": flag(&o, &["isPrimary", "is_primary"]),
            }),
        })
        .collect()
}

/// An integer field (a deal's `amount` in whole units, a person's follower count): an integer,
/// also when stored as numeric text (as the amount filters read it); null when absent or not a
/// number.
pub fn integer(value: Value) -> Value {
    let amount = match &value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    json!(amount)
}

/// The currency of a deal imported without one: acquisitions are in whole US dollars by
/// convention, and most funding rounds are too.
pub const DEFAULT_CURRENCY: &str = "USD";

/// A deal's `currency`: the ISO 4217 code in capitals (as the currency filters read it), and
/// [`DEFAULT_CURRENCY`] when the import left it out (as it is stored then).
pub fn currency_code(value: Value) -> Value {
    match value {
        Value::String(s) if !s.trim().is_empty() => Value::String(s.trim().to_uppercase()),
        _ => json!(DEFAULT_CURRENCY),
    }
}

/// `announcedDate`: a `YYYY-MM-DD` date, also when stored as a timestamp (its UTC day); other
/// text as stored.
pub fn calendar_date(value: Value) -> Value {
    let Value::String(text) = &value else {
        return Value::Null;
    };
    let text = text.trim();
    if NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok() {
        return json!(text);
    }
    match parse_rfc3339_ms(text) {
        Some(ms) => json!(format_ms(ms)[..10]),
        None => value,
    }
}

/// `confidenceScore`: a number, also when stored as numeric text; null when absent.
pub fn confidence_score(value: Value) -> Value {
    match value {
        Value::Number(_) => value,
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        _ => Value::Null,
    }
}

/// `verificationStatus`: `verified`, `unverified` or `pending`, never null (see
/// [`shown_verification_status`]).
pub fn verification_status(value: &Value) -> Value {
    json!(shown_verification_status(value.as_str()))
}

/// The objects of an array; a string item becomes `{key: string}`, anything else is dropped.
fn objects(value: Value, key: &'static str) -> impl Iterator<Item = Map<String, Value>> {
    let items = match value {
        Value::Array(items) => items,
        _ => Vec::new(),
    };
    items.into_iter().filter_map(move |item| match item {
        Value::Object(o) => Some(o),
        Value::String(s) => Some(Map::from_iter([(key.to_string(), Value::String(s))])),
        _ => None,
    })
}

fn text(o: &Map<String, Value>, keys: &[&str]) -> Value {
    keys.iter()
        .find_map(|k| o.get(*k).filter(|v| !v.is_null()).cloned())
        .unwrap_or(Value::Null)
}

fn flag(o: &Map<String, Value>, keys: &[&str]) -> Value {
    json!(
        keys.iter()
            .find_map(|k| o.get(*k).and_then(Value::as_bool))
            .unwrap_or(false)
    )
}

fn timestamp(value: Value) -> Value {
    match value.as_str().and_then(parse_rfc3339_ms) {
        Some(ms) => json!(format_ms(ms)),
        None => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_investor_stored_by_name_only_gets_every_documented_field() {
        assert_eq!(
            investors(json!(["Acme VC", {"name": "B", "leadInvestor": true}])),
            json!([
                {"id": null, "name": "Acme VC", "type": null, "website": null, "linkedin": null,
                 "isLead": false},
                {"id": null, "name": "B", "type": null, "website": null, "linkedin": null,
                 "isLead": true}
            ])
        );
    }

    #[test]
    fn deal_facts_come_back_in_their_documented_types() {
        assert_eq!(integer(json!("2000000")), json!(2_000_000));
        assert_eq!(integer(json!(1500000.0)), json!(1_500_000));
        assert_eq!(integer(json!("lots")), Value::Null);
        assert_eq!(currency_code(json!(" usd")), json!("USD"));
        assert_eq!(currency_code(json!(3)), json!("USD"));
        assert_eq!(currency_code(Value::Null), json!("USD"));
        assert_eq!(currency_code(json!(" ")), json!("USD"));
        assert_eq!(calendar_date(json!("2026-03-17")), json!("2026-03-17"));
        assert_eq!(
            calendar_date(json!("2026-03-17T23:30:00-02:00")),
            json!("2026-03-18")
        );
        assert_eq!(calendar_date(json!("spring")), json!("spring"));
        assert_eq!(calendar_date(Value::Null), Value::Null);
    }

    #[test]
    fn a_round_without_verification_details_shows_unverified_and_no_score() {
        assert_eq!(verification_status(&Value::Null), json!("unverified"));
        assert_eq!(verification_status(&json!("Verified")), json!("verified"));
        assert_eq!(verification_status(&json!("pending")), json!("pending"));
        assert_eq!(verification_status(&json!("checked")), json!("unverified"));
        assert_eq!(confidence_score(Value::Null), Value::Null);
        assert_eq!(confidence_score(json!(0.8)), json!(0.8));
        assert_eq!(confidence_score(json!("0.5")), json!(0.5));
        assert_eq!(confidence_score(json!("high")), Value::Null);
    }

    #[test]
    fn a_source_keeps_only_its_documented_fields_in_each_shape() {
        let stored = json!([{"url": "https://x.example", "publishedAt": "2025-01-02T03:04:05Z",
                             "extra": 1}]);
        assert_eq!(
            sources(stored.clone(), SourceShape::Full),
            json!([{"url": "https://x.example", "sourceType": null, "title": null,
                    "publishedAt": "2025-01-02T03:04:05.000Z", "isPrimary": false}])
        );
        assert_eq!(
            sources(stored, SourceShape::Brief),
            json!([{"url": "https://x.example", "sourceType": null}])
        );
    }
}
