//! Reading an upload into the rows of a job: a JSON list of company objects or a CSV file. Both
//! keep every field as sent, read the identifiers through the alias table
//! ([`crate::domain::csv_mapping`]), and refuse a list of the wrong size or a company that names
//! no identifier.

use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::domain::csv_mapping::{
    DetectedMapping, IdField, RowIdentifiers, identifier_of, normalize_header,
};

/// Most companies in one job.
pub const MAX_COMPANIES: usize = 1000;

/// Why an upload was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    /// The companies themselves are wrong: too few or too many, or one names no identifier.
    #[error("{0}")]
    Companies(String),
    /// The file is not readable CSV.
    #[error("{0}")]
    Malformed(String),
}

/// One company as sent: its fields in the order they came.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrderedObject(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for OrderedObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = OrderedObject;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<OrderedObject, A::Error> {
        let mut fields: Vec<(String, Value)> = Vec::new();
        while let Some((key, value)) = access.next_entry::<String, Value>()? {
            // A repeated name keeps its first place and its last value, as JSON readers do.
            match fields.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => fields.push((key, value)),
            }
        }
        Ok(OrderedObject(fields))
    }
}

/// One row of a job: the input as sent and the identifiers read from it.
#[derive(Debug, Clone, PartialEq)]
pub struct UploadRow {
    pub input: Map<String, Value>,
    pub ids: RowIdentifiers,
}

/// Whether `name` is one of the identifier names the OpenAPI document lists, exactly.
fn is_listed_alias(name: &str) -> bool {
    IdField::ALL
        .iter()
        .any(|field| field.aliases().contains(&name))
}

/// An accepted list of companies.
#[derive(Debug, Clone, PartialEq)]
pub struct Upload {
    pub mapping: DetectedMapping,
    /// Every input field name, in first-seen order (the leading columns of `results.csv`).
    pub columns: Vec<String>,
    pub rows: Vec<UploadRow>,
}

impl Upload {
    /// Reads a JSON list of company objects. Identifier values under their listed names must be
    /// text (numbers are read as their text) or null; another spelling of an identifier (any
    /// letter case, spaces, `_` or `-`) is read as one when it holds text or a number; other
    /// fields may hold any JSON value.
    pub fn from_objects(objects: Vec<OrderedObject>) -> Result<Upload, UploadError> {
        check_count(objects.len())?;
        let mut columns = Columns::default();
        let mut rows = Vec::with_capacity(objects.len());
        for (index, object) in objects.into_iter().enumerate() {
            let mut texts: Vec<(String, String)> = Vec::new();
            for (name, value) in &object.0 {
                columns.see(name);
                if identifier_of(name).is_none() {
                    continue;
                }
                match value {
                    // A NUL is refused under a listed name, as the document says; another
                    // spelling holding one is an ordinary field, kept as sent.
                    Value::String(text) if text.contains('\0') => {
                        if is_listed_alias(name) {
                            return Err(UploadError::Companies(format!(
                                "companies[{index}].{name} holds a NUL character"
                            )));
                        }
                    }
                    Value::String(text) => texts.push((name.clone(), text.clone())),
                    Value::Number(number) => texts.push((name.clone(), number.to_string())),
                    Value::Null => {}
                    // Under a listed name an identifier must be text; another spelling of it
                    // holding anything else is an ordinary field, kept as sent.
                    _ if !is_listed_alias(name) => {}
                    _ => {
                        return Err(UploadError::Companies(format!(
                            "companies[{index}].{name} must be a string"
                        )));
                    }
                }
            }
            let ids =
                RowIdentifiers::from_fields(texts.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            let where_ = || format!("companies[{index}]");
            rows.push(row(object.0.into_iter().collect(), ids, where_)?);
        }
        Ok(columns.into_upload(rows))
    }

    /// Reads a CSV file with a header row. Empty lines are skipped; a row shorter than the
    /// header leaves its last fields out of `input`.
    pub fn from_csv(bytes: &[u8]) -> Result<Upload, UploadError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
        let headers = csv_headers(&mut reader)?;
        if DetectedMapping::detect(headers.iter().map(String::as_str)).is_empty() {
            return Err(UploadError::Companies(format!(
                "No column maps to company_name, website_url or linkedin_url (columns: {})",
                headers.join(", ")
            )));
        }
        let mut columns = Columns::default();
        headers.iter().for_each(|h| columns.see(h));
        let mut rows = Vec::new();
        for (number, record) in reader.records().enumerate() {
            let record = record.map_err(|e| malformed(&e))?;
            if record.iter().all(|cell| cell.trim().is_empty()) {
                continue;
            }
            if record.len() > headers.len() {
                return Err(UploadError::Malformed(format!(
                    "CSV row {} has more fields than the header row",
                    number + 1
                )));
            }
            check_count(rows.len() + 1)?;
            let cells = headers.iter().zip(record.iter());
            let ids = RowIdentifiers::from_fields(cells.clone().map(|(h, c)| (h.as_str(), c)));
            let input = cells.map(|(h, c)| (h.clone(), Value::String(c.to_string())));
            rows.push(row(input.collect(), ids, || {
                format!("CSV row {}", number + 1)
            })?);
        }
        check_count(rows.len())?;
        Ok(columns.into_upload(rows))
    }
}

/// The header row: names as sent, an empty name standing as `column_<n>`; repeats refused.
fn csv_headers(reader: &mut csv::Reader<&[u8]>) -> Result<Vec<String>, UploadError> {
    let record = reader.headers().map_err(|e| malformed(&e))?;
    let mut seen = HashMap::new();
    let mut headers = Vec::with_capacity(record.len());
    for (position, name) in record.iter().enumerate() {
        let name = match name.trim() {
            "" => format!("column_{}", position + 1),
            trimmed => trimmed.to_string(),
        };
        // Headers map without regard to case, spaces, `_` or `-`, so `name` and `Name` are one.
        if let Some(first) = seen.insert(normalize_header(&name), name.clone()) {
            return Err(UploadError::Malformed(format!(
                "The CSV header names the column {name:?} twice (also as {first:?})"
            )));
        }
        headers.push(name);
    }
    Ok(headers)
}

fn malformed(err: &csv::Error) -> UploadError {
    UploadError::Malformed(format!("The file is not readable as UTF-8 CSV: {err}"))
}

fn check_count(count: usize) -> Result<(), UploadError> {
    if (1..=MAX_COMPANIES).contains(&count) {
        Ok(())
    } else {
        Err(UploadError::Companies(format!(
            "companies must hold 1 to {MAX_COMPANIES} companies"
        )))
    }
}

/// A row, refused when it names the company in no way; `where_` names it in the message.
fn row(
    input: Map<String, Value>,
    ids: RowIdentifiers,
    where_: impl Fn() -> String,
) -> Result<UploadRow, UploadError> {
    if ids.is_empty() {
        return Err(UploadError::Companies(format!(
            "Each company must include company_name, website_url, or linkedin_url ({} has none).",
            where_()
        )));
    }
    let identifiers = [&ids.company_name, &ids.website_url, &ids.linkedin_url];
    if identifiers
        .iter()
        .copied()
        .flatten()
        .any(|v| v.contains('\0'))
    {
        return Err(UploadError::Companies(format!(
            "{} holds a NUL character in a company name, website or LinkedIn URL",
            where_()
        )));
    }
    Ok(UploadRow { input, ids })
}

/// Field names in first-seen order.
#[derive(Default)]
struct Columns {
    names: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Columns {
    fn see(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.names.push(name.to_string());
        }
    }

    fn into_upload(self, rows: Vec<UploadRow>) -> Upload {
        Upload {
            mapping: DetectedMapping::detect(self.names.iter().map(String::as_str)),
            columns: self.names,
            rows,
        }
    }
}

#[cfg(test)]
mod tests;
