//! Instants and dates of the demo data, and the two-year window they fall in. Times are kept as
//! milliseconds since the Unix epoch and formatted by hand: millions of timestamps are written,
//! and a fixed-width format needs no allocation.

use chrono::{Datelike, NaiveDate};
use serde::{Serialize, Serializer};

use super::rng::Gen;

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;
/// Milliseconds in an hour.
pub const HOUR_MS: i64 = 3_600_000;
/// Days covered by the window, the anchor day included.
const SPAN_DAYS: i64 = 730;

/// An instant, serialized as RFC 3339 UTC with milliseconds (`2026-05-29T10:30:00.000Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ts(pub i64);

/// A calendar day, serialized as `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day(pub i64);

impl Ts {
    /// This instant moved by `ms` milliseconds.
    pub fn plus(self, ms: i64) -> Ts {
        Ts(self.0 + ms)
    }

    /// The UTC day this instant falls on.
    pub fn day(self) -> Day {
        Day(self.0.div_euclid(DAY_MS))
    }

    fn format(self) -> [u8; 24] {
        let mut out = *b"0000-00-00T00:00:00.000Z";
        out[..10].copy_from_slice(&self.day().format());
        let ms = self.0.rem_euclid(DAY_MS);
        put2(&mut out[11..13], ms / HOUR_MS);
        put2(&mut out[14..16], ms / 60_000 % 60);
        put2(&mut out[17..19], ms / 1000 % 60);
        put2(&mut out[20..22], ms % 1000 / 10);
        out[22] = b'0' + (ms % 10) as u8;
        out
    }
}

impl Day {
    /// Year, month (1-12) and day of month (1-31), by Howard Hinnant's `civil_from_days`.
    pub fn ymd(self) -> (i64, i64, i64) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        (yoe + era * 400 + i64::from(m <= 2), m, d)
    }

    fn format(self) -> [u8; 10] {
        let (y, m, d) = self.ymd();
        let mut out = *b"0000-00-00";
        put2(&mut out[0..2], y / 100);
        put2(&mut out[2..4], y % 100);
        put2(&mut out[5..7], m);
        put2(&mut out[8..10], d);
        out
    }
}

fn put2(out: &mut [u8], value: i64) {
    out[0] = b'0' + (value / 10 % 10) as u8;
    out[1] = b'0' + (value % 10) as u8;
}

impl Serialize for Ts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = self.format();
        s.serialize_str(std::str::from_utf8(&bytes).unwrap_or_default())
    }
}

impl Serialize for Day {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = self.format();
        s.serialize_str(std::str::from_utf8(&bytes).unwrap_or_default())
    }
}

/// The two years of activity ending with the anchor day.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    anchor_day: i64,
    anchor_year: i32,
}

impl Window {
    /// The window ending with `anchor` (inclusive).
    pub fn new(anchor: NaiveDate) -> Self {
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
        Self {
            anchor_day: anchor.signed_duration_since(epoch).num_days(),
            anchor_year: anchor.year(),
        }
    }

    /// The calendar year of the anchor day.
    pub fn anchor_year(&self) -> i32 {
        self.anchor_year
    }

    /// The last millisecond of the anchor day.
    pub fn end(&self) -> Ts {
        Ts((self.anchor_day + 1) * DAY_MS - 1)
    }

    /// An instant in the window, denser towards the anchor: the number of days back is the
    /// square of a uniform draw, so about a tenth of the rows fall in the last week and a fifth
    /// in the last month.
    pub fn recent(&self, g: &mut Gen) -> Ts {
        let u = g.unit();
        let days_back = ((u * u) * SPAN_DAYS as f64) as i64;
        self.at_day(self.anchor_day - days_back.min(SPAN_DAYS - 1), g)
    }

    /// An instant anywhere in the window, uniformly.
    pub fn uniform(&self, g: &mut Gen) -> Ts {
        let days_back = g.below(SPAN_DAYS as usize) as i64;
        self.at_day(self.anchor_day - days_back, g)
    }

    /// When a signal occurred and when it was discovered: discovery falls in the window (denser
    /// recently), the event itself up to three days earlier, usually within hours.
    pub fn occurrence(&self, g: &mut Gen) -> (Ts, Ts) {
        let discovered = self.recent(g);
        let u = g.unit();
        let lag = (u * u * (72 * HOUR_MS) as f64) as i64;
        (discovered.plus(-lag), discovered)
    }

    /// `t` pushed back to the end of the window when it lies past it.
    pub fn clamp(&self, t: Ts) -> Ts {
        t.min(self.end())
    }

    fn at_day(&self, day: i64, g: &mut Gen) -> Ts {
        Ts(day * DAY_MS + g.below(DAY_MS as usize) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Utc};

    fn as_string(t: Ts) -> String {
        serde_json::to_value(t)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }

    #[test]
    fn formatting_agrees_with_chrono() {
        let mut g = Gen::stream(5, 0);
        for _ in 0..2000 {
            let ms = g.between(0, 4_102_444_800_000);
            let expected = DateTime::<Utc>::from_timestamp_millis(ms)
                .map(|d| d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
                .unwrap_or_default();
            assert_eq!(as_string(Ts(ms)), expected);
        }
    }

    #[test]
    fn recent_instants_stay_inside_the_window() {
        let anchor = NaiveDate::from_ymd_opt(2026, 5, 29).unwrap_or_default();
        let window = Window::new(anchor);
        let mut g = Gen::stream(9, 0);
        for _ in 0..5000 {
            let t = window.recent(&mut g);
            assert!(t <= window.end());
            assert!(t.0 >= window.end().0 - SPAN_DAYS * DAY_MS);
        }
        assert_eq!(as_string(window.end()), "2026-05-29T23:59:59.999Z");
    }
}
