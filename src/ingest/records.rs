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
    if trimmed.starts_with('[') {
        let array: Vec<Value> =
            serde_json::from_str(trimmed).map_err(|e| format!("malformed JSON array: {e}"))?;
        return Ok(array
            .into_iter()
            .enumerate()
            .map(|(index, value)| {
                serde_json::from_value(value).map_err(|e| RecordError {
                    index,
                    error: e.to_string(),
                })
            })
            .collect());
    }
    Ok(text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(index, line)| parse_line(line).map_err(|error| RecordError { index, error }))
        .collect())
}

/// One NDJSON line as a `T`, read in one pass. The error says "malformed JSON" for text that is
/// not JSON, else (rare: read again through a `Value`) what does not fit `T`, without positions.
fn parse_line<T: DeserializeOwned>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => serde_json::from_str::<Value>(line)
            .map_err(|e| format!("malformed JSON: {e}"))
            .and_then(|v| {
                serde_json::from_value::<T>(v)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
            .err()
            .unwrap_or_else(|| e.to_string()),
        _ => format!("malformed JSON: {e}"),
    })
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
    fn a_record_that_does_not_fit_is_described_without_a_position() {
        let records =
            parse_records::<Row>(b"{\"nom\":1}\n{\"name\":2}\n{\"name\":\n").expect("parses");
        let errors: Vec<String> = records
            .into_iter()
            .map(|r| r.err().map(|e| e.error).unwrap_or_default())
            .collect();
        assert_eq!(errors[0], "missing field `name`");
        assert_eq!(errors[1], "invalid type: integer `2`, expected a string");
        assert!(errors[2].starts_with("malformed JSON: "), "{}", errors[2]);
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
