//! Time as the service stores and shows it: milliseconds since the Unix epoch in the database,
//! RFC 3339 UTC with milliseconds on the wire.

use chrono::{DateTime, SecondsFormat, Utc};

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// Milliseconds in one day.
pub const DAY_MS: Millis = 86_400_000;

/// The current time in milliseconds since the Unix epoch.
pub fn now_ms() -> Millis {
    Utc::now().timestamp_millis()
}

/// Formats epoch milliseconds as `2026-05-29T10:30:00.000Z`.
pub fn format_ms(ms: Millis) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Parses an RFC 3339 timestamp into epoch milliseconds.
pub fn parse_rfc3339_ms(input: &str) -> Option<Millis> {
    DateTime::parse_from_rfc3339(input)
        .ok()
        .map(|t| t.with_timezone(&Utc).timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_shown_in_utc_with_milliseconds() {
        assert_eq!(format_ms(1_780_050_600_000), "2026-05-29T10:30:00.000Z");
    }

    #[test]
    fn a_formatted_timestamp_parses_back_to_the_same_instant() {
        let ms = 1_780_050_600_123;
        assert_eq!(parse_rfc3339_ms(&format_ms(ms)), Some(ms));
    }
}
