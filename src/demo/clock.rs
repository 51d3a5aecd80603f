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

/// The two years of activity ending with the anchor day, and never later than the moment the
/// data is generated: nothing is dated in the future of the one who reads it.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    /// The day of `end`, in days since the epoch.
    last_day: i64,
    anchor_year: i32,
    end: Ts,
}

impl Window {
    /// The window ending with `anchor` (inclusive), or at `now` when that comes first.
    pub fn new(anchor: NaiveDate, now: Ts) -> Self {
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
        let anchor_day = anchor.signed_duration_since(epoch).num_days();
        let end = Ts((anchor_day + 1) * DAY_MS - 1).min(now);
        Self {
            last_day: end.day().0,
            anchor_year: anchor.year(),
            end,
        }
    }

    /// The calendar year of the anchor day.
    pub fn anchor_year(&self) -> i32 {
        self.anchor_year
    }

    /// The last instant of the window: the end of the anchor day, or the moment of generation
    /// when the anchor day is not over yet.
    pub fn end(&self) -> Ts {
        self.end
    }

    /// An instant in the window, denser towards the anchor: the number of days back is the
    /// square of a uniform draw, so about a tenth of the rows fall in the last week and a fifth
    /// in the last month.
    pub fn recent(&self, g: &mut Gen) -> Ts {
        let u = g.unit();
        let days_back = ((u * u) * SPAN_DAYS as f64) as i64;
        self.at_day(self.last_day - days_back.min(SPAN_DAYS - 1), g)
    }

    /// An instant anywhere in the window, uniformly.
    pub fn uniform(&self, g: &mut Gen) -> Ts {
        let days_back = g.below(SPAN_DAYS as usize) as i64;
        self.at_day(self.last_day - days_back, g)
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

    /// When a signal about someone occurred and was discovered, strictly after `after` (their
    /// previous move): as [`Window::occurrence`] when that already falls later, else a moment
    /// drawn between `after` and the end of the window.
    pub fn occurrence_after(&self, after: Ts, g: &mut Gen) -> (Ts, Ts) {
        let (occurred, discovered) = self.occurrence(g);
        if occurred > after || after >= self.end {
            return (occurred, discovered);
        }
        let span = self.end.0 - after.0;
        let occurred = after.plus(1 + (g.unit() * (span - 1) as f64) as i64);
        let lag = (g.unit() * (self.end.0 - occurred.0) as f64).min(HOUR_MS as f64 * 12.0);
        (occurred, occurred.plus(lag as i64))
    }

    /// An instant of `day` (days since the epoch), not past the end of the window: the anchor
    /// day only up to the moment of generation.
    fn at_day(&self, day: i64, g: &mut Gen) -> Ts {
        let start = day * DAY_MS;
        let length = (self.end.0 - start + 1).clamp(1, DAY_MS);
        Ts(start + g.below(length as usize) as i64)
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

    fn anchor() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 5, 29).unwrap_or_default()
    }

    /// A moment long after the anchor day: the window ends with that day.
    const LATER: Ts = Ts(i64::MAX / 2);

    #[test]
    fn recent_instants_stay_inside_the_window() {
        let window = Window::new(anchor(), LATER);
        let mut g = Gen::stream(9, 0);
        for _ in 0..5000 {
            let t = window.recent(&mut g);
            assert!(t <= window.end());
            assert!(t.0 >= window.end().0 - SPAN_DAYS * DAY_MS);
        }
        assert_eq!(as_string(window.end()), "2026-05-29T23:59:59.999Z");
    }

    #[test]
    fn on_the_anchor_day_itself_nothing_is_dated_after_the_moment_of_generation() {
        // 2026-05-29T09:30:00Z
        let now = Ts(1_780_047_000_000);
        let window = Window::new(anchor(), now);
        assert_eq!(window.end(), now);
        let mut g = Gen::stream(11, 0);
        let mut today = 0;
        for _ in 0..20_000 {
            let (occurred, discovered) = window.occurrence(&mut g);
            assert!(occurred <= discovered && discovered <= now);
            let t = window.uniform(&mut g);
            assert!(t <= now);
            today += usize::from(window.recent(&mut g).day() == now.day());
        }
        assert!(today > 200, "{today} instants earlier today");
    }

    #[test]
    fn an_anchor_in_the_future_ends_the_window_now() {
        let now = Ts(1_780_047_000_000);
        let window = Window::new(anchor().succ_opt().unwrap_or_default(), now);
        let mut g = Gen::stream(12, 0);
        for _ in 0..5000 {
            assert!(window.recent(&mut g) <= now);
        }
    }

    #[test]
    fn a_move_after_an_earlier_one_is_dated_after_it() {
        let now = Ts(1_780_047_000_000);
        let window = Window::new(anchor(), now);
        let mut g = Gen::stream(13, 0);
        for back in [1, 60_000, DAY_MS, 30 * DAY_MS, 700 * DAY_MS] {
            let after = now.plus(-back);
            for _ in 0..500 {
                let (occurred, discovered) = window.occurrence_after(after, &mut g);
                assert!(after < occurred && occurred <= discovered && discovered <= now);
            }
        }
    }
}
