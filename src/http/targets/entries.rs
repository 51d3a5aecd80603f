//! The entry lists of bulk target requests.

use serde_json::Value;

use crate::http::error::ApiError;
use crate::service::targets::{MAX_ENTRIES, TargetEntry};

/// Unpacks a required array field of 1-500 entries.
pub fn entries_array(value: Option<Value>, field: &str) -> Result<Vec<TargetEntry>, ApiError> {
    match value {
        Some(Value::Array(items)) if (1..=MAX_ENTRIES).contains(&items.len()) => {
            Ok(items.into_iter().map(target_entry).collect())
        }
        Some(Value::Array(items)) if items.len() > MAX_ENTRIES => Err(ApiError::bad_request(
            format!("{field} may hold at most {MAX_ENTRIES} entries per request"),
        )),
        _ => Err(ApiError::bad_request(format!(
            "{field} must be an array of 1 to {MAX_ENTRIES} strings"
        ))),
    }
}

/// Unpacks an optional array field; absent or `null` is empty.
pub fn optional_list(value: Option<Value>, field: &str) -> Result<Vec<TargetEntry>, ApiError> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items.into_iter().map(target_entry).collect()),
        Some(_) => Err(ApiError::bad_request(format!("{field} must be an array"))),
    }
}

/// An entry as the client sent it: a string, or the JSON text of anything else.
fn target_entry(entry: Value) -> TargetEntry {
    match entry {
        Value::String(s) => TargetEntry::Text(s),
        other => TargetEntry::Other(other.to_string()),
    }
}
