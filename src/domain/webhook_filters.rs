//! The `filters` of a standalone webhook (as the Webhooks API defines them): string
//! values that narrow which signals of its event types it receives. Unknown keys are ignored.
//!
//! Value formats (the reference leaves them open):
//! - `countries`: comma-separated codes, names or region shortcuts, matched on the company's HQ;
//! - `categories`: comma- or pipe-separated, any of the company's categories, ignoring case;
//! - `search`: words that must all appear in the signal's or the company's text;
//! - `teamSize`: comma-separated `team_size` buckets of the lists (`11-50`, `1000-plus`, …);
//! - `dateFrom`, `dateTo`: `YYYY-MM-DD`, inclusive, on the signal's date;
//! - `funding`, `roundFlavor`: comma-separated round types / flavors, ignoring case;
//! - `fundingAmount`, `acquisitionAmount`: comma-separated ranges, any of which may hold the
//!   deal's amount (in its currency): `min-max`, `min-`, `-max`, `>min`, `<max` or `min+`; each
//!   bound a whole number or a decimal with a `k`, `m` or `b` suffix, optionally after a `$`
//!   (`1m-5m,5m-20m`, `>$100m`, `2500000-`);
//! - `healthScore`: accepted, not evaluated (signalwatch has no health score).
//!
//! A filter that does not concern the event (a round type on a hiring event) does not narrow it.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::countries::parse_country_filter;
use super::keyword_query::words;
use super::vocabulary::team_size_bucket;

/// What a filter looks at in one event.
#[derive(Debug, Clone, Default)]
pub struct FilterSubject<'a> {
    pub event_type: &'a str,
    pub country: Option<&'a str>,
    pub categories: &'a [String],
    /// Text searched by `search`: the company's and the signal's, any case.
    pub text: &'a str,
    pub employee_count: Option<i64>,
    /// The signal's date, epoch ms.
    pub date_ms: Option<i64>,
    pub round_type: Option<&'a str>,
    pub round_flavor: Option<&'a str>,
    pub amount: Option<i64>,
}

/// A webhook's filters, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookFilters {
    countries: Option<Vec<String>>,
    categories: Option<Vec<String>>,
    search: Option<Vec<String>>,
    team_sizes: Option<Vec<String>>,
    date_from: Option<i64>,
    date_to: Option<i64>,
    rounds: Option<Vec<String>>,
    flavors: Option<Vec<String>>,
    funding_amount: Option<Vec<AmountRange>>,
    acquisition_amount: Option<Vec<AmountRange>>,
}

/// Inclusive bounds of an amount; `None` is open.
type AmountRange = (Option<i64>, Option<i64>);

/// Every key the reference recognises.
pub const FILTER_KEYS: [&str; 11] = [
    "countries",
    "categories",
    "search",
    "teamSize",
    "dateFrom",
    "dateTo",
    "funding",
    "roundFlavor",
    "fundingAmount",
    "acquisitionAmount",
    "healthScore",
];

fn list(value: &str) -> Vec<String> {
    value
        .split([',', '|'])
        .map(|v| v.trim().to_lowercase())
        .filter(|v| !v.is_empty())
        .collect()
}

fn day_start(value: &str, key: &str) -> Result<i64, String> {
    let day = NaiveDate::parse_from_str(value.trim(), "%Y-%m-%d")
        .map_err(|_| format!("filters.{key} must be a date like 2026-01-31"))?;
    Ok(day
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or_default())
}

/// An amount bound: `2500000`, `1.5m`, `$500K`, `2b`.
fn amount(text: &str) -> Option<i64> {
    let text = text.trim().trim_start_matches('$').trim();
    let (number, scale) = match text.char_indices().last()? {
        (at, 'k' | 'K') => (&text[..at], 1e3),
        (at, 'm' | 'M') => (&text[..at], 1e6),
        (at, 'b' | 'B') => (&text[..at], 1e9),
        _ => return text.parse::<i64>().ok().filter(|n| *n >= 0),
    };
    let value = number.trim().parse::<f64>().ok()? * scale;
    (value.is_finite() && (0.0..9.0e18).contains(&value)).then(|| value.round() as i64)
}

fn one_range(text: &str) -> Option<AmountRange> {
    let text = text.trim();
    let bound = |s: &str| -> Option<Option<i64>> {
        if s.trim().is_empty() {
            Some(None)
        } else {
            amount(s).map(Some)
        }
    };
    let (low, high) = if let Some(rest) = text.strip_prefix(">=").or(text.strip_prefix('>')) {
        (Some(amount(rest)?), None)
    } else if let Some(rest) = text.strip_prefix("<=").or(text.strip_prefix('<')) {
        (None, Some(amount(rest)?))
    } else if let Some(rest) = text.strip_suffix('+') {
        (Some(amount(rest)?), None)
    } else {
        let (low, high) = text.split_once('-')?;
        (bound(low)?, bound(high)?)
    };
    match (low, high) {
        (None, None) => None,
        (Some(l), Some(h)) if l > h => None,
        bounds => Some(bounds),
    }
}

fn ranges(value: &str, key: &str) -> Result<Vec<AmountRange>, String> {
    value
        .split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            one_range(part).ok_or_else(|| {
                format!(
                    "filters.{key} must be amount ranges like 1m-5m, 500000-2000000, >100m or \
                     -5m (comma-separated), not '{}'",
                    part.trim()
                )
            })
        })
        .collect()
}

impl WebhookFilters {
    /// Parses a filter map; fails with a message naming the first bad value.
    pub fn parse(filters: &BTreeMap<String, String>) -> Result<WebhookFilters, String> {
        let mut out = WebhookFilters::default();
        for (key, value) in filters {
            if value.trim().is_empty() {
                continue;
            }
            match key.as_str() {
                "countries" => {
                    out.countries = Some(
                        parse_country_filter(value)
                            .map_err(|e| format!("filters.countries: {e}"))?,
                    )
                }
                "categories" => out.categories = Some(list(value)),
                "search" => out.search = Some(words(value)),
                "teamSize" => out.team_sizes = Some(list(value)),
                "dateFrom" => out.date_from = Some(day_start(value, key)?),
                "dateTo" => out.date_to = Some(day_start(value, key)? + 86_400_000 - 1),
                "funding" => out.rounds = Some(list(value)),
                "roundFlavor" => out.flavors = Some(list(value)),
                "fundingAmount" => out.funding_amount = Some(ranges(value, key)?),
                "acquisitionAmount" => out.acquisition_amount = Some(ranges(value, key)?),
                _ => {}
            }
        }
        Ok(out)
    }

    /// Parses a stored filter map (JSON object text); a map that no longer parses filters nothing.
    pub fn from_stored(json: &str) -> WebhookFilters {
        serde_json::from_str::<BTreeMap<String, String>>(json)
            .ok()
            .and_then(|m| WebhookFilters::parse(&m).ok())
            .unwrap_or_default()
    }

    /// True when the event passes every filter that concerns it.
    pub fn accepts(&self, s: &FilterSubject) -> bool {
        let one_of = |wanted: &Option<Vec<String>>, value: Option<&str>| match (wanted, value) {
            (None, _) => true,
            (Some(w), Some(v)) => w.iter().any(|x| x.eq_ignore_ascii_case(v)),
            (Some(_), None) => false,
        };
        let within = |wanted: &Option<Vec<AmountRange>>| match (wanted, s.amount) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(ranges), Some(a)) => ranges
                .iter()
                .any(|(low, high)| low.is_none_or(|l| a >= l) && high.is_none_or(|h| a <= h)),
        };
        let funding = s.event_type == "funding.created";
        let acquisition = s.event_type == "acquisition.created";
        one_of(&self.countries, s.country)
            && self.categories.as_ref().is_none_or(|wanted| {
                s.categories
                    .iter()
                    .any(|c| wanted.iter().any(|w| w.eq_ignore_ascii_case(c)))
            })
            && self.search.as_ref().is_none_or(|needles| {
                let hay = words(s.text);
                needles.iter().all(|n| hay.contains(n))
            })
            && one_of(&self.team_sizes, s.employee_count.map(team_size_bucket))
            && self
                .date_from
                .is_none_or(|from| s.date_ms.is_some_and(|d| d >= from))
            && self
                .date_to
                .is_none_or(|to| s.date_ms.is_some_and(|d| d <= to))
            && (!funding || one_of(&self.rounds, s.round_type))
            && (!funding || one_of(&self.flavors, s.round_flavor))
            && (!funding || within(&self.funding_amount))
            && (!acquisition || within(&self.acquisition_amount))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(pairs: &[(&str, &str)]) -> WebhookFilters {
        let map = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        WebhookFilters::parse(&map).expect("filters parse")
    }

    fn funding() -> FilterSubject<'static> {
        FilterSubject {
            event_type: "funding.created",
            country: Some("DE"),
            text: "Acme Robotics raises a seed round",
            employee_count: Some(40),
            date_ms: Some(day_start("2026-03-10", "d").expect("date")),
            round_type: Some("seed"),
            amount: Some(2_000_000),
            ..FilterSubject::default()
        }
    }

    #[test]
    fn no_filters_accept_everything() {
        assert!(WebhookFilters::default().accepts(&funding()));
    }

    #[test]
    fn each_filter_narrows_on_its_own_field() {
        assert!(filters(&[("countries", "DACH")]).accepts(&funding()));
        assert!(!filters(&[("countries", "US,GB")]).accepts(&funding()));
        assert!(filters(&[("funding", "Seed,series a")]).accepts(&funding()));
        assert!(!filters(&[("funding", "series a")]).accepts(&funding()));
        assert!(filters(&[("fundingAmount", "1000000-")]).accepts(&funding()));
        assert!(!filters(&[("fundingAmount", "-1000000")]).accepts(&funding()));
        assert!(filters(&[("teamSize", "11-50")]).accepts(&funding()));
        assert!(!filters(&[("teamSize", "1000-plus")]).accepts(&funding()));
        assert!(filters(&[("search", "robotics SEED")]).accepts(&funding()));
        assert!(!filters(&[("search", "robotics series")]).accepts(&funding()));
        assert!(
            filters(&[("dateFrom", "2026-03-10"), ("dateTo", "2026-03-10")]).accepts(&funding())
        );
        assert!(!filters(&[("dateFrom", "2026-03-11")]).accepts(&funding()));
    }

    #[test]
    fn amount_ranges_take_suffixes_dollar_signs_open_ends_and_lists() {
        let two_million = funding();
        for accepted in [
            "1m-5m",
            "1.5M-2.5m",
            "$1m-$3m",
            "500k-",
            "-2000000",
            ">1m",
            ">=2m",
            "<3m",
            "2m+",
            "10m-20m, 1m-5m",
            "0.002b-0.002B",
        ] {
            assert!(
                filters(&[("fundingAmount", accepted)]).accepts(&two_million),
                "{accepted}"
            );
        }
        for refused in ["5m-20m", ">2.5m", "<1m", "10m-20m,100m+", "-1999999"] {
            assert!(
                !filters(&[("fundingAmount", refused)]).accepts(&two_million),
                "{refused}"
            );
        }
        for bad in ["lots", "5m-1m", "-", "1x-2x", ">", "1m-5m,huge"] {
            let map = BTreeMap::from([("fundingAmount".to_string(), bad.to_string())]);
            assert!(
                WebhookFilters::parse(&map).is_err_and(|e| e.contains("fundingAmount")),
                "{bad}"
            );
        }
    }

    #[test]
    fn deal_filters_do_not_narrow_other_events() {
        let hiring = FilterSubject {
            event_type: "hiring.created",
            ..funding()
        };
        assert!(filters(&[("funding", "series a"), ("fundingAmount", "-1")]).accepts(&hiring));
    }

    #[test]
    fn unknown_keys_are_ignored_and_bad_values_named() {
        assert_eq!(
            filters(&[("round", "seed"), ("healthScore", "80")]),
            WebhookFilters::default()
        );
        let bad = BTreeMap::from([("fundingAmount".to_string(), "lots".to_string())]);
        assert!(WebhookFilters::parse(&bad).is_err_and(|e| e.contains("fundingAmount")));
        let bad = BTreeMap::from([("countries".to_string(), "Atlantis".to_string())]);
        assert!(WebhookFilters::parse(&bad).is_err_and(|e| e.contains("Atlantis")));
    }
}
