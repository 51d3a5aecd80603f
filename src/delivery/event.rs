//! What the sending side builds itself: the envelope every delivery sends around its event's
//! stored `data`, and the `data` of the test event a team sends on demand. The `data` of
//! signal and company events is built when they are queued (`ingest::outbox`). `serde_json`
//! keeps object keys sorted, so the body's keys are sorted at every level.

use serde::de::IgnoredAny;
use serde_json::{Value, json};

use crate::domain::time::format_ms;

/// The `data` of `system.test`.
pub fn test_event_data(event_id: &str, now: i64) -> Value {
    json!({
        "signal": {
            "id": event_id,
            "type": "test",
            "externalId": null,
            "occurredAt": format_ms(now),
            "discoveredAt": format_ms(now),
            "active": true,
        },
        "message": "This is a test event from signalwatch. Your endpoint is receiving deliveries.",
    })
}

/// The body of a delivery: `data`, `event_id`, `event_type` and `timestamp`, keys sorted.
///
/// The stored `data` is spliced in as it is: it was written compact with its keys sorted
/// (`serde_json`), so parsing it into a tree and printing it again, once per delivery and ten
/// deliveries to an event, would print the same bytes. It is only checked to be JSON; what is
/// not is sent as `null`.
pub fn envelope(event_id: &str, event_type: &str, created_at: i64, data: &str) -> Vec<u8> {
    let data = match serde_json::from_str::<IgnoredAny>(data) {
        Ok(_) => data.trim(),
        Err(_) => "null",
    };
    let mut body = Vec::with_capacity(data.len() + event_id.len() + event_type.len() + 96);
    body.extend_from_slice(b"{\"data\":");
    body.extend_from_slice(data.as_bytes());
    for (key, value) in [
        ("event_id", event_id),
        ("event_type", event_type),
        ("timestamp", &format_ms(created_at)),
    ] {
        body.extend_from_slice(b",\"");
        body.extend_from_slice(key.as_bytes());
        body.extend_from_slice(b"\":");
        // Writing a string into a vector cannot fail.
        let _ = serde_json::to_writer(&mut body, value);
    }
    body.push(b'}');
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_has_exactly_four_keys_sorted_at_every_level() {
        // As the outbox stores it: a tree printed by serde_json.
        let stored = json!({"z": 1, "a": {"y": 2, "b": 3}}).to_string();
        let body = envelope("e1", "funding.created", 0, &stored);
        let text = String::from_utf8(body).expect("UTF-8");
        assert_eq!(
            text,
            r#"{"data":{"a":{"b":3,"y":2},"z":1},"event_id":"e1","event_type":"funding.created","timestamp":"1970-01-01T00:00:00.000Z"}"#
        );
    }

    #[test]
    fn the_envelope_prints_the_stored_data_as_a_parsed_tree_would() {
        let data = json!({"signal": {"id": "s\"1", "amount": 1.5e10, "tags": ["é", null]},
            "company": {"name": "Zed \\ Co", "n": -3}});
        let stored = data.to_string();
        let tree = json!({
            "data": data, "event_id": "e\"2", "event_type": "funding.created",
            "timestamp": format_ms(1_700_000_000_123),
        });
        let body = envelope("e\"2", "funding.created", 1_700_000_000_123, &stored);
        assert_eq!(body, serde_json::to_vec(&tree).expect("JSON"));
    }

    #[test]
    fn stored_data_that_is_not_json_is_sent_as_null() {
        let body = envelope("e1", "funding.created", 0, "{not json");
        let text = String::from_utf8(body).expect("UTF-8");
        assert!(
            text.starts_with(r#"{"data":null,"event_id":"e1""#),
            "{text}"
        );
    }
}
