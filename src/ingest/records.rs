//! Splitting an import payload into records: a JSON array, or NDJSON (one object per line).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::RecordError;

/// Parses a JSON array or NDJSON body into per-record results; a record that does not fit `T`
/// becomes an error carrying its index. Fails only when the payload as a whole is unreadable.
pub fn parse_records<T: DeserializeOwned>(
    body: &[u8],
) -> Result<Vec<Result<T, RecordError>>, String> {
    let text = std::str::from_utf8(body).map_err(|_| "body is not UTF-8".to_string())?;
    let trimmed = text.trim_start();
    let values: Vec<Result<Value, String>> = if trimmed.starts_with('[') {
        let array: Vec<Value> =
            serde_json::from_str(trimmed).map_err(|e| format!("malformed JSON array: {e}"))?;
        array.into_iter().map(Ok).collect()
    } else {
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}")))
            .collect()
    };
    Ok(values
        .into_iter()
        .enumerate()
        .map(|(index, value)| {
            value
                .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
                .map_err(|error| RecordError { index, error })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Row {
        name: String,
    }

    #[test]
    fn an_array_and_ndjson_give_the_same_records() {
        let array = parse_records::<Row>(br#"[{"name":"a"},{"name":"b"}]"#).expect("parses");
        let ndjson =
            parse_records::<Row>(b"{\"name\":\"a\"}\n\n{\"name\":\"b\"}\n").expect("parses");
        assert_eq!(array, ndjson);
        assert_eq!(array.len(), 2);
    }

    #[test]
    fn a_bad_record_is_reported_with_its_index_and_the_rest_kept() {
        let records =
            parse_records::<Row>(b"{\"name\":\"a\"}\n{\"nom\":1}\nnot json\n").expect("parses");
        assert!(records[0].is_ok());
        assert_eq!(records[1].as_ref().err().map(|e| e.index), Some(1));
        assert_eq!(records[2].as_ref().err().map(|e| e.index), Some(2));
    }
}
