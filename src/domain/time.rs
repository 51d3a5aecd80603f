//! Time as the service stores and shows it: milliseconds since the Unix epoch in the database,
//! RFC 3339 UTC with milliseconds on the wire.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, SecondsFormat, Utc};

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// Milliseconds in one day.
pub const DAY_MS: Millis = 86_400_000;

/// The current time in milliseconds since the Unix epoch.
pub fn now_ms() -> Millis {
    Utc::now().timestamp_millis()
}

/// The service's clock: the system time plus an offset that only tests move. Clones share the
/// offset, so a test holding a clone of the running service's clock can move that service's time
/// forward (to reach a 30-day retention, say) without touching the database.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    /// The current time on this clock, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> Millis {
        now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock, and every clone of it, forward by `ms`.
    pub fn advance(&self, ms: Millis) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
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
    fn an_advanced_clock_runs_ahead_in_every_clone() {
        let clock = Clock::default();
        let clone = clock.clone();
        let before = clone.now_ms();
        clock.advance(30 * DAY_MS);
        let after = clone.now_ms();
        assert!(after - before >= 30 * DAY_MS, "{before} -> {after}");
        assert!(after - before < 30 * DAY_MS + 60_000, "{before} -> {after}");
    }

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
