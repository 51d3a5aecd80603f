//! Date ranges of the signal lists: the `date_preset` shorthands and strict `YYYY-MM-DD` dates.
//!
//! Every range is a pair of inclusive whole days in UTC, `(first, last)`, worked out from
//! "today" so that the rules are testable without a clock:
//!
//! | preset | first day | last day |
//! |---|---|---|
//! | `today` | today | today |
//! | `yesterday` | yesterday | yesterday |
//! | `last_7d` … `last_90d` | N − 1 days before today | today |
//! | `last_6m` | the day after the same day 6 months ago | today |
//! | `last_1y`, `last_2y`, `last_3y`, `last_5y` | the day after the same day 1, 2, 3 or 5 years ago | today |
//! | `all_time` | no bound | no bound |
//! | `this_week` | Monday of this week | today |
//! | `this_month`, `this_quarter`, `this_year` | first day of the period | today |
//! | `last_week` | Monday of last week | the Sunday after it |
//! | `last_month`, `last_quarter`, `last_year` | first day of the previous period | its last day |
//!
//! "The same day N months ago" falls back to the month's last day when that month is shorter:
//! on 31 August, six months ago is 28 (or 29) February, so `last_6m` starts on 1 March.

use std::fmt;

use chrono::{Datelike, Days, Months, NaiveDate};

/// A relative date range, as named by the `date_preset` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatePreset {
    /// Today only.
    Today,
    /// Yesterday only.
    Yesterday,
    /// Today and the 6 days before.
    Last7d,
    /// Today and the 13 days before.
    Last14d,
    /// Today and the 29 days before.
    Last30d,
    /// Today and the 59 days before.
    Last60d,
    /// Today and the 89 days before.
    Last90d,
    /// From the day after the same day 6 months ago through today.
    Last6m,
    /// From the day after the same day a year ago through today.
    Last1y,
    /// From the day after the same day 2 years ago through today.
    Last2y,
    /// From the day after the same day 3 years ago through today.
    Last3y,
    /// From the day after the same day 5 years ago through today.
    Last5y,
    /// Every day: no date bound at all.
    AllTime,
    /// From this week's Monday through today.
    ThisWeek,
    /// From the first of this month through today.
    ThisMonth,
    /// From the first day of this calendar quarter through today.
    ThisQuarter,
    /// From 1 January through today.
    ThisYear,
    /// The previous Monday-to-Sunday week.
    LastWeek,
    /// The previous calendar month.
    LastMonth,
    /// The previous calendar quarter.
    LastQuarter,
    /// The previous calendar year.
    LastYear,
}

impl DatePreset {
    /// All presets, in the order the reference lists them.
    pub const ALL: [DatePreset; 21] = [
        DatePreset::Today,
        DatePreset::Yesterday,
        DatePreset::Last7d,
        DatePreset::Last14d,
        DatePreset::Last30d,
        DatePreset::Last60d,
        DatePreset::Last90d,
        DatePreset::Last6m,
        DatePreset::Last1y,
        DatePreset::Last2y,
        DatePreset::ThisWeek,
        DatePreset::ThisMonth,
        DatePreset::ThisQuarter,
        DatePreset::ThisYear,
        DatePreset::LastWeek,
        DatePreset::LastMonth,
        DatePreset::LastQuarter,
        DatePreset::LastYear,
        DatePreset::Last3y,
        DatePreset::Last5y,
        DatePreset::AllTime,
    ];

    /// The accepted names, comma-separated, for error messages.
    pub const NAMES: &str = "today, yesterday, last_7d, last_14d, last_30d, last_60d, last_90d, \
        last_6m, last_1y, last_2y, this_week, this_month, this_quarter, this_year, last_week, \
        last_month, last_quarter, last_year, last_3y, last_5y, all_time";

    /// The wire name, e.g. `last_7d`.
    pub fn as_str(self) -> &'static str {
        match self {
            DatePreset::Today => "today",
            DatePreset::Yesterday => "yesterday",
            DatePreset::Last7d => "last_7d",
            DatePreset::Last14d => "last_14d",
            DatePreset::Last30d => "last_30d",
            DatePreset::Last60d => "last_60d",
            DatePreset::Last90d => "last_90d",
            DatePreset::Last6m => "last_6m",
            DatePreset::Last1y => "last_1y",
            DatePreset::Last2y => "last_2y",
            DatePreset::ThisWeek => "this_week",
            DatePreset::ThisMonth => "this_month",
            DatePreset::ThisQuarter => "this_quarter",
            DatePreset::ThisYear => "this_year",
            DatePreset::LastWeek => "last_week",
            DatePreset::LastMonth => "last_month",
            DatePreset::LastQuarter => "last_quarter",
            DatePreset::LastYear => "last_year",
            DatePreset::Last3y => "last_3y",
            DatePreset::Last5y => "last_5y",
            DatePreset::AllTime => "all_time",
        }
    }

    /// Parses a wire name; exact and case-sensitive, like the reference's enum.
    pub fn parse(input: &str) -> Option<DatePreset> {
        DatePreset::ALL.into_iter().find(|p| p.as_str() == input)
    }

    /// The inclusive range of whole days this preset covers, seen from `today` (UTC); `None`
    /// for `all_time`, which has no bound.
    pub fn range(self, today: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
        let yesterday = days_before(today, 1);
        Some(match self {
            DatePreset::AllTime => return None,
            DatePreset::Last3y => (day_after_months_before(today, 36), today),
            DatePreset::Last5y => (day_after_months_before(today, 60), today),
            DatePreset::Today => (today, today),
            DatePreset::Yesterday => (yesterday, yesterday),
            DatePreset::Last7d => (days_before(today, 6), today),
            DatePreset::Last14d => (days_before(today, 13), today),
            DatePreset::Last30d => (days_before(today, 29), today),
            DatePreset::Last60d => (days_before(today, 59), today),
            DatePreset::Last90d => (days_before(today, 89), today),
            DatePreset::Last6m => (day_after_months_before(today, 6), today),
            DatePreset::Last1y => (day_after_months_before(today, 12), today),
            DatePreset::Last2y => (day_after_months_before(today, 24), today),
            DatePreset::ThisWeek => (week_start(today), today),
            DatePreset::ThisMonth => (month_start(today), today),
            DatePreset::ThisQuarter => (quarter_start(today), today),
            DatePreset::ThisYear => (year_start(today), today),
            DatePreset::LastWeek => previous_period(week_start(today), |d| days_before(d, 7)),
            DatePreset::LastMonth => previous_period(month_start(today), |d| months_before(d, 1)),
            DatePreset::LastQuarter => {
                previous_period(quarter_start(today), |d| months_before(d, 3))
            }
            DatePreset::LastYear => previous_period(year_start(today), |d| months_before(d, 12)),
        })
    }
}

impl fmt::Display for DatePreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses a date parameter: a strict calendar date (see [`parse_date`]) or an RFC 3339
/// timestamp, which stands for its UTC day (`2026-05-01T23:30:00-02:00` → 2 May 2026).
pub fn parse_day(input: &str) -> Option<NaiveDate> {
    parse_date(input).or_else(|| {
        chrono::DateTime::parse_from_rfc3339(input)
            .ok()
            .map(|t| t.with_timezone(&chrono::Utc).date_naive())
    })
}

/// Parses a strict ISO 8601 calendar date, `YYYY-MM-DD` with exactly those digits, e.g.
/// `2024-02-29`; `None` for anything else, including impossible dates.
pub fn parse_date(input: &str) -> Option<NaiveDate> {
    let bytes = input.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shaped {
        return None;
    }
    NaiveDate::parse_from_str(input, "%Y-%m-%d").ok()
}

/// The whole period before the one starting on `start`, whose own start `step_back` finds.
fn previous_period(
    start: NaiveDate,
    step_back: impl Fn(NaiveDate) -> NaiveDate,
) -> (NaiveDate, NaiveDate) {
    (step_back(start), days_before(start, 1))
}

fn days_before(date: NaiveDate, days: u64) -> NaiveDate {
    date.checked_sub_days(Days::new(days))
        .unwrap_or(NaiveDate::MIN)
}

/// The same day `months` months earlier, or that month's last day when it is shorter.
fn months_before(date: NaiveDate, months: u32) -> NaiveDate {
    date.checked_sub_months(Months::new(months))
        .unwrap_or(NaiveDate::MIN)
}

fn day_after_months_before(date: NaiveDate, months: u32) -> NaiveDate {
    let earlier = months_before(date, months);
    earlier.succ_opt().unwrap_or(earlier)
}

fn week_start(date: NaiveDate) -> NaiveDate {
    days_before(date, u64::from(date.weekday().num_days_from_monday()))
}

fn month_start(date: NaiveDate) -> NaiveDate {
    days_before(date, u64::from(date.day0()))
}

fn quarter_start(date: NaiveDate) -> NaiveDate {
    months_before(month_start(date), date.month0() % 3)
}

fn year_start(date: NaiveDate) -> NaiveDate {
    days_before(date, u64::from(date.ordinal0()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(input: &str) -> NaiveDate {
        parse_date(input).expect("a valid test date")
    }

    fn range_of(preset: &str, today: &str) -> (NaiveDate, NaiveDate) {
        DatePreset::parse(preset)
            .expect("a known preset")
            .range(day(today))
            .expect("a bounded preset")
    }

    fn assert_range(preset: &str, today: &str, first: &str, last: &str) {
        assert_eq!(
            range_of(preset, today),
            (day(first), day(last)),
            "{preset} on {today}"
        );
    }

    #[test]
    fn every_preset_parses_back_from_its_name_and_names_lists_them_all() {
        for preset in DatePreset::ALL {
            assert_eq!(DatePreset::parse(preset.as_str()), Some(preset));
            assert_eq!(preset.to_string(), preset.as_str());
        }
        let names: Vec<&str> = DatePreset::NAMES.split(", ").collect();
        let expected: Vec<&str> = DatePreset::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn unknown_or_differently_cased_presets_are_refused() {
        for input in ["", "last_8d", "Today", "LAST_7D", " today", "last7d"] {
            assert_eq!(DatePreset::parse(input), None, "{input:?}");
        }
    }

    #[test]
    fn today_and_yesterday_are_single_days() {
        assert_range("today", "2026-05-29", "2026-05-29", "2026-05-29");
        assert_range("yesterday", "2026-05-29", "2026-05-28", "2026-05-28");
        assert_range("yesterday", "2026-01-01", "2025-12-31", "2025-12-31");
    }

    #[test]
    fn last_n_days_are_today_and_the_days_before_it() {
        assert_range("last_7d", "2026-05-29", "2026-05-23", "2026-05-29");
        assert_range("last_14d", "2026-05-29", "2026-05-16", "2026-05-29");
        assert_range("last_30d", "2026-05-29", "2026-04-30", "2026-05-29");
        assert_range("last_60d", "2026-05-29", "2026-03-31", "2026-05-29");
        assert_range("last_90d", "2026-05-29", "2026-03-01", "2026-05-29");
    }

    #[test]
    fn last_n_days_cross_a_leap_day() {
        assert_range("last_7d", "2024-03-03", "2024-02-26", "2024-03-03");
        assert_range("last_30d", "2024-03-01", "2024-02-01", "2024-03-01");
    }

    #[test]
    fn last_months_and_years_start_the_day_after_the_same_day_back_then() {
        assert_range("last_6m", "2026-05-29", "2025-11-30", "2026-05-29");
        assert_range("last_1y", "2026-05-29", "2025-05-30", "2026-05-29");
        assert_range("last_2y", "2026-05-29", "2024-05-30", "2026-05-29");
        assert_range("last_3y", "2026-05-29", "2023-05-30", "2026-05-29");
        assert_range("last_5y", "2026-05-29", "2021-05-30", "2026-05-29");
    }

    #[test]
    fn all_time_has_no_bound() {
        assert_eq!(DatePreset::AllTime.range(day("2026-05-29")), None);
    }

    #[test]
    fn a_date_parameter_takes_a_timestamp_as_its_utc_day() {
        assert_eq!(parse_day("2026-05-01"), Some(day("2026-05-01")));
        assert_eq!(parse_day("2026-05-01T10:30:00Z"), Some(day("2026-05-01")));
        assert_eq!(
            parse_day("2026-05-01T10:30:00.000Z"),
            Some(day("2026-05-01"))
        );
        assert_eq!(
            parse_day("2026-05-01T23:30:00-02:00"),
            Some(day("2026-05-02"))
        );
        assert_eq!(
            parse_day("2026-05-01T00:30:00+02:00"),
            Some(day("2026-04-30"))
        );
        for bad in ["2026-05-01T25:00:00Z", "yesterday", "2026-05-01 10:00"] {
            assert_eq!(parse_day(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn last_months_and_years_fall_back_to_a_shorter_months_last_day() {
        assert_range("last_6m", "2026-08-31", "2026-03-01", "2026-08-31");
        assert_range("last_6m", "2024-08-31", "2024-03-01", "2024-08-31");
        assert_range("last_1y", "2024-02-29", "2023-03-01", "2024-02-29");
        assert_range("last_2y", "2026-02-28", "2024-02-29", "2026-02-28");
    }

    #[test]
    fn this_week_starts_on_monday_and_ends_today() {
        // 2026-05-29 is a Friday; 2026-05-25 a Monday; 2026-05-31 a Sunday.
        assert_range("this_week", "2026-05-29", "2026-05-25", "2026-05-29");
        assert_range("this_week", "2026-05-25", "2026-05-25", "2026-05-25");
        assert_range("this_week", "2026-05-31", "2026-05-25", "2026-05-31");
        assert_range("this_week", "2026-01-02", "2025-12-29", "2026-01-02");
    }

    #[test]
    fn this_month_quarter_and_year_run_from_the_period_start_to_today() {
        assert_range("this_month", "2026-05-29", "2026-05-01", "2026-05-29");
        assert_range("this_month", "2026-05-01", "2026-05-01", "2026-05-01");
        assert_range("this_quarter", "2026-05-29", "2026-04-01", "2026-05-29");
        assert_range("this_quarter", "2026-03-31", "2026-01-01", "2026-03-31");
        assert_range("this_quarter", "2026-12-31", "2026-10-01", "2026-12-31");
        assert_range("this_year", "2026-05-29", "2026-01-01", "2026-05-29");
        assert_range("this_year", "2024-12-31", "2024-01-01", "2024-12-31");
    }

    #[test]
    fn last_week_is_the_whole_previous_monday_to_sunday() {
        assert_range("last_week", "2026-05-29", "2026-05-18", "2026-05-24");
        assert_range("last_week", "2026-05-25", "2026-05-18", "2026-05-24");
        assert_range("last_week", "2026-01-01", "2025-12-22", "2025-12-28");
    }

    #[test]
    fn last_month_is_the_whole_previous_calendar_month() {
        assert_range("last_month", "2026-05-29", "2026-04-01", "2026-04-30");
        assert_range("last_month", "2026-01-15", "2025-12-01", "2025-12-31");
        assert_range("last_month", "2024-03-31", "2024-02-01", "2024-02-29");
        assert_range("last_month", "2025-03-01", "2025-02-01", "2025-02-28");
    }

    #[test]
    fn last_quarter_is_the_whole_previous_calendar_quarter() {
        assert_range("last_quarter", "2026-05-29", "2026-01-01", "2026-03-31");
        assert_range("last_quarter", "2026-02-10", "2025-10-01", "2025-12-31");
        assert_range("last_quarter", "2026-07-01", "2026-04-01", "2026-06-30");
        assert_range("last_quarter", "2026-12-31", "2026-07-01", "2026-09-30");
    }

    #[test]
    fn last_year_is_the_whole_previous_calendar_year() {
        assert_range("last_year", "2026-05-29", "2025-01-01", "2025-12-31");
        assert_range("last_year", "2025-01-01", "2024-01-01", "2024-12-31");
    }

    #[test]
    fn strict_dates_parse_including_a_leap_day() {
        assert_eq!(
            parse_date("2024-02-29"),
            NaiveDate::from_ymd_opt(2024, 2, 29)
        );
        assert_eq!(
            parse_date("1999-12-31"),
            NaiveDate::from_ymd_opt(1999, 12, 31)
        );
    }

    #[test]
    fn anything_but_a_strict_real_date_is_refused() {
        let bad = [
            "",
            "2023-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-1-05",
            "2024-01-5",
            "24-01-05",
            "+2024-01-05",
            "2024/01/05",
            "2024-01-05T00:00:00Z",
            " 2024-01-05",
            "２０２４-01-05",
        ];
        for input in bad {
            assert_eq!(parse_date(input), None, "{input:?}");
        }
    }
}
