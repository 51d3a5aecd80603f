//! A list page's records as finished JSON: made once from a cached page's rows and kept beside
//! them, so that a repeated page is answered by copying bytes instead of parsing payloads and
//! building objects again.

use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::store::StoreError;
use crate::store::count_cache::CountCache;
use crate::store::query::CachedRows;

/// One record of a list answer, as the JSON text it is written with.
pub type Record = Arc<RawValue>;

/// The records made from `rows` the same way (`how` names everything the making reads besides
/// a row) while the list data is unchanged, if they were kept.
pub fn cached<R>(cache: &CountCache, rows: &CachedRows<R>, how: &str) -> Option<Vec<Record>> {
    rows.records::<Record>(cache, how)
        .map(|records| records.as_ref().clone())
}

/// Writes the records made from `rows` as JSON text and keeps them for [`cached`].
pub fn keep<R>(
    cache: &CountCache,
    rows: &CachedRows<R>,
    how: &str,
    values: &[Value],
) -> Result<Vec<Record>, StoreError> {
    let records = values.iter().map(finished).collect::<Result<Vec<_>, _>>()?;
    let kept = rows.keep_records(cache, how, records, |r| r.get().len());
    Ok(kept.as_ref().clone())
}

/// The JSON text of a record.
fn finished(value: &Value) -> Result<Record, StoreError> {
    serde_json::value::to_raw_value(value)
        .map(Arc::from)
        .map_err(|err| StoreError::Corrupt(format!("a record could not be written: {err}")))
}

/// A record as a JSON value again (for the pages that read its fields).
pub fn value(record: &Record) -> Value {
    serde_json::from_str(record.get()).unwrap_or(Value::Null)
}
