//! Splitting an import payload into records: a JSON array, or NDJSON (one object per line).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::RecordError;

/// Why a record holding a NUL character is refused: PostgreSQL text cannot store one, and one
/// such record must not fail the whole import.
const NUL_MESSAGE: &str = "text must not contain NUL (\\u0000) characters";

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
                if holds_nul(&value) {
                    return Err(RecordError {
                        index,
                        error: NUL_MESSAGE.to_string(),
                    });
                }
                from_value(value).map_err(|error| RecordError { index, error })
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
/// not JSON, else (rare: read again through a `Value`) which field does not fit `T` and what it
/// should be, without positions.
fn parse_line<T: DeserializeOwned>(line: &str) -> Result<T, String> {
    // Only an escape puts a NUL into JSON text, so most lines are never read twice.
    if line.contains("\\u0000") && serde_json::from_str(line).is_ok_and(|v| holds_nul(&v)) {
        return Err(NUL_MESSAGE.to_string());
    }
    serde_json::from_str(line).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => serde_json::from_str::<Value>(line)
            .map_err(|e| format!("malformed JSON: {e}"))
            .and_then(|v| from_value::<T>(v).map(|_| ()))
            .err()
            .unwrap_or_else(|| e.to_string()),
        _ => format!("malformed JSON: {e}"),
    })
}

/// `value` as a `T`; the error names the field that does not fit (`field `a.b`: …`) and says
/// what it should hold in words.
fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let message = plain_types(&err.inner().to_string());
        if path == "." {
            message
        } else {
            format!("field `{path}`: {message}")
        }
    })
}

/// serde's names of Rust number types, in words.
fn plain_types(message: &str) -> String {
    const NAMES: [(&str, &str); 10] = [
        ("expected i64", "expected an integer"),
        ("expected i32", "expected an integer"),
        ("expected i16", "expected an integer"),
        ("expected u64", "expected a non-negative integer"),
        ("expected u32", "expected a non-negative integer"),
        ("expected u16", "expected a non-negative integer"),
        ("expected u8", "expected a non-negative integer"),
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
        ("expected i8", "expected an integer"),
    ];
    let mut out = message.to_string();
    for (from, to) in NAMES {
        if out.ends_with(from) {
            out.truncate(out.len() - from.len());
            out.push_str(to);
        }
    }
    out
}

/// True when a string anywhere in `value`, a key included, holds a NUL character.
fn holds_nul(value: &Value) -> bool {
    match value {
        Value::String(text) => text.contains('\0'),
        Value::Array(items) => items.iter().any(holds_nul),
        Value::Object(fields) => fields
            .iter()
            .any(|(key, value)| key.contains('\0') || holds_nul(value)),
        _ => false,
    }
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
    fn a_record_that_does_not_fit_names_the_field_without_a_position() {
        let records =
            parse_records::<Row>(b"{\"nom\":1}\n{\"name\":2}\n{\"name\":\n").expect("parses");
        let errors: Vec<String> = records
            .into_iter()
            .map(|r| r.err().map(|e| e.error).unwrap_or_default())
            .collect();
        assert_eq!(errors[0], "missing field `name`");
        assert_eq!(
            errors[1],
            "field `name`: invalid type: integer `2`, expected a string"
        );
        assert!(errors[2].starts_with("malformed JSON: "), "{}", errors[2]);
    }

    #[test]
    fn a_number_of_the_wrong_type_is_named_in_words() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Counted {
            #[serde(rename = "employeeCount")]
            employee_count: Option<i64>,
        }
        for body in [
            &b"{\"employeeCount\":\"many\"}\n"[..],
            b"[{\"employeeCount\":\"many\"}]",
        ] {
            let records = parse_records::<Counted>(body).expect("parses");
            assert_eq!(
                records[0].as_ref().err().map(|e| e.error.as_str()),
                Some("field `employeeCount`: invalid type: string \"many\", expected an integer")
            );
        }
    }

    #[test]
    fn a_bad_record_is_reported_with_its_index_and_the_rest_kept() {
        let records =
            parse_records::<Row>(b"{\"name\":\"a\"}\n{\"nom\":1}\nnot json\n").expect("parses");
        assert!(records[0].is_ok());
        assert_eq!(records[1].as_ref().err().map(|e| e.index), Some(1));
        assert_eq!(records[2].as_ref().err().map(|e| e.index), Some(2));
    }

    #[test]
    fn a_record_holding_a_nul_anywhere_is_refused_on_its_own() {
        let ndjson = b"{\"name\":\"a\\u0000\"}\n{\"name\":\"b\",\"x\":[{\"\\u0000\":1}]}\n\
                       {\"name\":\"c \\\\u0000\"}\n";
        let array =
            br#"[{"name":"a\u0000"},{"name":"b","x":{"y":["\u0000"]}},{"name":"c \\u0000"}]"#;
        for body in [&ndjson[..], &array[..]] {
            let records = parse_records::<Row>(body).expect("parses");
            let errors: Vec<Option<String>> = records
                .iter()
                .map(|r| r.as_ref().err().map(|e| e.error.clone()))
                .collect();
            assert_eq!(errors[0].as_deref(), Some(NUL_MESSAGE));
            assert_eq!(errors[1].as_deref(), Some(NUL_MESSAGE));
            assert_eq!(
                records[2].as_ref().ok(),
                Some(&Row {
                    name: "c \\u0000".into()
                }),
                "an escaped backslash is not a NUL"
            );
        }
    }
}
