//! Rendering processed rows: each matched company and the signals of its snapshot, read for a
//! whole page at once (one statement for the companies, one for the signals).

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::views::{ResultView, SignalsView};
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_domain;
use crate::service::companies::company_record;
use crate::service::signals::signal_record;
use crate::store::StoreError;
use crate::store::company_lists::{CompanyRow, companies_by_id};
use crate::store::enrichment::ResultRow;
use crate::store::enrichment::lookup::{begin_read, signals_by_id};
use crate::store::signal_lists::SignalListRow;
use crate::store::{Db, Tx};

/// The companies of these rows, by id.
pub async fn row_companies(
    tx: &mut Tx,
    rows: &[ResultRow],
) -> Result<HashMap<String, CompanyRow>, StoreError> {
    let mut ids: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.company_id.as_deref())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let companies = companies_by_id(tx, &ids).await?;
    Ok(companies.into_iter().map(|c| (c.id.clone(), c)).collect())
}

/// The bare domain of a company's website.
pub fn company_domain(company: &CompanyRow) -> Option<String> {
    company.website.as_deref().and_then(normalize_domain)
}

/// The results of `rows`, in their order.
pub async fn result_views(db: &Db, rows: &[ResultRow]) -> Result<Vec<ResultView>, StoreError> {
    let snapshots = rows
        .iter()
        .map(|row| match row.signals.as_deref() {
            Some(text) => decode_object(text, "signals", row.row_index),
            None => Ok(Map::new()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut signal_ids: Vec<&str> = snapshots
        .iter()
        .flat_map(|snapshot| snapshot.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    signal_ids.sort_unstable();
    signal_ids.dedup();

    let mut tx = begin_read(db).await?;
    let companies = row_companies(&mut tx, rows).await?;
    let signals: HashMap<String, SignalListRow> = signals_by_id(&mut tx, &signal_ids)
        .await?
        .into_iter()
        .map(|s| (s.id.clone(), s))
        .collect();
    drop(tx);

    rows.iter()
        .zip(&snapshots)
        .map(|(row, snapshot)| {
            let company = row.company_id.as_ref().and_then(|id| companies.get(id));
            let confidence = match row.matched_by.as_deref() {
                Some("name") => "fuzzy",
                _ => "exact",
            };
            Ok(ResultView {
                input: input_view(&input_of(row)?),
                matched: row.matched,
                company_id: row.company_id.clone(),
                company: company.map(company_view).transpose()?,
                signals: signals_view(snapshot, &signals, confidence)?,
            })
        })
        .collect()
}

/// The input object a row was sent with.
pub fn input_of(row: &ResultRow) -> Result<Map<String, Value>, StoreError> {
    decode_object(&row.input, "input", row.row_index)
}

/// A stored JSON object of an enrichment row; anything else is corrupt.
fn decode_object(
    text: &str,
    column: &str,
    row_index: i64,
) -> Result<Map<String, Value>, StoreError> {
    serde_json::from_str(text).map_err(|err| {
        StoreError::Corrupt(format!("{column} of enrichment row {row_index}: {err}"))
    })
}

/// The row as sent, every value a string as the contract's `input` map has them: numbers and
/// booleans in their JSON text, nulls left out.
fn input_view(fields: &Map<String, Value>) -> Value {
    fields
        .clone()
        .into_iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(key, value)| match value {
            Value::String(text) => (key, Value::String(text)),
            other => (key, Value::String(other.to_string())),
        })
        .collect()
}

/// The Company record, with the short fields of the contract's result (`domain`, `country`).
fn company_view(company: &CompanyRow) -> Result<Value, StoreError> {
    let mut record = company_record(company)?;
    record["domain"] = json!(company_domain(company));
    record["country"] = json!(company.headquarters_country);
    Ok(record)
}

/// The snapshot's signals as the lists show them, and the investors of its funding rounds.
fn signals_view(
    snapshot: &Map<String, Value>,
    signals: &HashMap<String, SignalListRow>,
    confidence: &str,
) -> Result<SignalsView, StoreError> {
    let records = |kind: SignalType| -> Result<Vec<Value>, StoreError> {
        snapshot
            .get(kind.as_str())
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|id| signals.get(id.as_str()?))
            .map(|row| signal_record(row, confidence))
            .collect()
    };
    let funding = records(SignalType::FundingRound)?;
    let investors = investors_of(&funding);
    Ok(SignalsView {
        acquisition: records(SignalType::Acquisition)?,
        hiring: records(SignalType::Hiring)?,
        job_change: records(SignalType::JobChange)?,
        funding,
        investors,
    })
}

/// Every investor named by the funding records, once (by id, else by name), newest round first.
fn investors_of(funding: &[Value]) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    funding
        .iter()
        .filter_map(|record| record["investors"].as_array())
        .flatten()
        .filter(|investor| {
            let key = investor["id"]
                .as_str()
                .or_else(|| investor["name"].as_str())
                .unwrap_or_default()
                .to_lowercase();
            !key.is_empty() && seen.insert(key)
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_values_are_strings_and_nulls_are_left_out() {
        let fields = serde_json::from_str(r#"{"a":"x","b":1.5,"c":false,"d":null,"e":[1]}"#);
        assert_eq!(
            input_view(&fields.expect("object")),
            json!({"a": "x", "b": "1.5", "c": "false", "e": "[1]"})
        );
    }

    #[test]
    fn investors_are_listed_once_newest_round_first() {
        let funding = vec![
            json!({ "investors": [{ "id": "i1", "name": "Index", "isLead": true }] }),
            json!({ "investors": [{ "id": "i1", "name": "Index", "isLead": false },
                                  { "name": "Angel Al" }, { "name": "" }] }),
        ];
        assert_eq!(
            investors_of(&funding),
            vec![
                json!({ "id": "i1", "name": "Index", "isLead": true }),
                json!({ "name": "Angel Al" })
            ]
        );
    }
}
