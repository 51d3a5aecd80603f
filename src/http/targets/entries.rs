//! The entry lists of bulk target requests.

use serde_json::Value;

use crate::http::error::ApiError;

/// Most entries one add or bulk-remove request may carry.
pub const MAX_ENTRIES: usize = 500;

/// Unpacks a required array field of 1-500 entries.
pub fn entries_array(value: Option<Value>, field: &str) -> Result<Vec<Value>, ApiError> {
    match value {
        Some(Value::Array(items)) if (1..=MAX_ENTRIES).contains(&items.len()) => Ok(items),
        Some(Value::Array(items)) if items.len() > MAX_ENTRIES => Err(ApiError::bad_request(
            format!("{field} may hold at most {MAX_ENTRIES} entries per request"),
        )),
        _ => Err(ApiError::bad_request(format!(
            "{field} must be an array of 1 to {MAX_ENTRIES} strings"
        ))),
    }
}

/// An entry as the client sent it: the string itself, or the JSON text of a non-string.
pub fn entry_as_sent(entry: &Value) -> String {
    match entry {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
