//! What the sending side builds itself: the envelope every delivery sends around its event's
//! stored `data`, and the `data` of the test event a team sends on demand. The `data` of
//! signal and company events is built when they are queued (`ingest::outbox`). `serde_json`
//! keeps object keys sorted, so the body's keys are sorted at every level.

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
pub fn envelope(event_id: &str, event_type: &str, created_at: i64, data: &str) -> Vec<u8> {
    let data: Value = serde_json::from_str(data).unwrap_or(Value::Null);
    let body = json!({
        "data": data,
        "event_id": event_id,
        "event_type": event_type,
        "timestamp": format_ms(created_at),
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_has_exactly_four_keys_sorted_at_every_level() {
        let body = envelope("e1", "funding.created", 0, r#"{"z":1,"a":{"y":2,"b":3}}"#);
        let text = String::from_utf8(body).expect("UTF-8");
        assert_eq!(
            text,
            r#"{"data":{"a":{"b":3,"y":2},"z":1},"event_id":"e1","event_type":"funding.created","timestamp":"1970-01-01T00:00:00.000Z"}"#
        );
    }
}
