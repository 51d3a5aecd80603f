//! Reading loosely typed import records: optional strings, numbers and timestamps by key.

use serde_json::{Map, Value};

use crate::domain::time::{Millis, parse_rfc3339_ms};

/// A JSON object as it arrived in an import.
pub type Record = Map<String, Value>;

/// The first non-empty string among `keys`.
pub fn text(record: &Record, keys: &[&str]) -> Option<String> {
    keys.iter()
        .filter_map(|k| record.get(*k))
        .filter_map(Value::as_str)
        .map(str::trim)
        .find(|s| !s.is_empty())
        .map(str::to_string)
}

/// The first integer among `keys` (numbers, or strings holding digits).
pub fn integer(record: &Record, keys: &[&str]) -> Option<i64> {
    keys.iter()
        .filter_map(|k| record.get(*k))
        .find_map(|v| match v {
            Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
}

/// A timestamp given as RFC 3339 or as a `YYYY-MM-DD` date (midnight UTC).
pub fn timestamp(record: &Record, keys: &[&str]) -> Option<Millis> {
    let raw = text(record, keys)?;
    parse_rfc3339_ms(&raw).or_else(|| {
        chrono::NaiveDate::parse_from_str(&raw, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| t.and_utc().timestamp_millis())
    })
}

/// A list of strings given as a JSON array or as a string holding a JSON array.
pub fn string_list(record: &Record, key: &str) -> Option<Vec<String>> {
    let value = record.get(key)?;
    let parsed;
    let array = match value {
        Value::Array(items) => items,
        Value::String(s) => {
            parsed = serde_json::from_str::<Vec<Value>>(s).ok()?;
            &parsed
        }
        _ => return None,
    };
    Some(
        array
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    )
}

/// Applicant count of a posting field: a JSON number, or text as the `applicants` filter reads
/// it (`"42"`, `"1,204 applicants"`; `"Over 200 applicants"` and `"200+"` mean 201).
pub fn applicant_count(record: &Record, key: &str) -> Option<i64> {
    match record.get(key)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => crate::domain::vocabulary::parse_applicant_count(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn dates_and_timestamps_both_read_as_instants() {
        let r = record(json!({ "a": "2026-05-29", "b": "2026-05-29T10:30:00.000Z" }));
        assert_eq!(timestamp(&r, &["a"]), Some(1_780_012_800_000));
        assert_eq!(timestamp(&r, &["b"]), Some(1_780_050_600_000));
    }

    #[test]
    fn lists_may_arrive_as_arrays_or_json_text() {
        let r = record(json!({ "a": ["x", "y"], "b": "[\"x\",\"y\"]" }));
        assert_eq!(string_list(&r, "a"), string_list(&r, "b"));
    }

    #[test]
    fn applicant_counts_are_read_from_numbers_and_free_text() {
        let r = record(json!({
            "n": 42, "s": "42", "over": "Over 200 applicants", "plus": "200+", "many": "many"
        }));
        assert_eq!(applicant_count(&r, "n"), Some(42));
        assert_eq!(applicant_count(&r, "s"), Some(42));
        assert_eq!(applicant_count(&r, "over"), Some(201));
        assert_eq!(applicant_count(&r, "plus"), Some(201));
        assert_eq!(applicant_count(&r, "many"), None);
        assert_eq!(applicant_count(&r, "absent"), None);
    }
}
