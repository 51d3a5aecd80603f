//! The vocabularies of the list filters, and their parsers.
//!
//! Most filters are closed: they accept values from a fixed list, compared case-insensitively after trimming, and
//! yields them in the list's own spelling, de-duplicated in first-seen order. An unknown value
//! is a 400 whose message names the query parameter and the value, and lists what is accepted,
//! in the reference's pattern: `Invalid seniorities value: exec. Accepted values: founder,
//! c_level, vp, director, head, lead, manager.` Round types say "(case-insensitive)" after
//! "Accepted values", as the reference does.
//!
//! Multi-valued filters are comma-separated; empty entries are skipped, and a filter with no
//! entry at all is refused (callers that treat an empty parameter as absent should not call the
//! parser for it). `currency` and `source` take exactly one value.
//!
//! Three are open, because the reference gives their values only as examples: `positions`,
//! `departments` and `seniorities` take any value. A known one comes back in the list's own
//! spelling and matches the tags derived from titles; an unknown one comes back lower-cased and
//! matches nothing. `team_size` takes any well-formed range (`N-M` or `N-plus`) besides its
//! documented buckets.

/// Funding round types accepted by `round` (funding list).
pub const ROUND_TYPES: &[&str] = &[
    "pre-seed",
    "seed",
    "series a",
    "series b",
    "series c",
    "series d",
    "series e",
    "series f",
    "series g",
    "series h",
    "angel",
    "grant",
    "crowdfunding",
    "growth",
    "debt",
    "debt financing",
    "equity",
    "fund",
    "ipo",
];

/// Round flavors accepted by `round_flavor` (funding list).
pub const ROUND_FLAVORS: &[&str] = &["bridge", "extension", "secondary"];

/// ISO 4217 currencies accepted by `currency` on the funding list.
pub const FUNDING_CURRENCIES: &[&str] = &[
    "USD", "EUR", "GBP", "CHF", "JPY", "INR", "CAD", "AUD", "SEK", "CNY", "NZD", "KRW", "SGD",
    "DKK", "BRL",
];

/// ISO 4217 currencies accepted by `currency` on the acquisitions list.
pub const ACQUISITION_CURRENCIES: &[&str] = &["USD", "EUR"];

/// Verification statuses of funding rounds and acquisitions (`verification_status`).
pub const VERIFICATION_STATUSES: &[&str] = &["verified", "unverified", "pending"];

/// The status of a deal stored without a (recognised) verification status.
pub const UNVERIFIED: &str = "unverified";

/// The verification status a record shows: the stored one in lower case when it is one of
/// [`VERIFICATION_STATUSES`], else [`UNVERIFIED`] (the field is never null).
pub fn shown_verification_status(stored: Option<&str>) -> &'static str {
    stored
        .and_then(|s| {
            VERIFICATION_STATUSES
                .iter()
                .find(|v| v.eq_ignore_ascii_case(s.trim()))
        })
        .copied()
        .unwrap_or(UNVERIFIED)
}

/// Company subcategory ids accepted by `subcategories`.
pub const SUBCATEGORIES: &[&str] = &[
    "ai",
    "saas",
    "software",
    "cybersecurity",
    "web3",
    "devtools",
    "analytics",
    "cloud",
    "iot",
    "fintech",
    "payments",
    "accounting",
    "ecommerce",
    "insurance",
    "vc & investment",
    "regtech",
    "marketing",
    "advertising",
    "sales",
    "hr tech",
    "legal",
    "healthcare",
    "biotechnology",
    "education",
    "real estate",
    "energy",
    "logistics",
    "manufacturing",
    "retail",
    "agriculture",
    "food & beverage",
    "automotive",
    "aerospace & defense",
    "robotics",
    "telecommunications",
    "travel",
    "sports",
    "gaming",
    "media",
    "govtech",
    "construction",
    "environmental services",
    "battery technology",
    "arts",
    "architecture",
    "cosmetics",
    "science",
    "non-profit",
];

/// Where a job change was found (`source`, job-changes list).
pub const JOB_CHANGE_SOURCES: &[&str] = &["linkedin", "press_release", "other"];

/// Inclusive lower and upper bounds, `None` meaning unbounded.
pub type Bounds = (Option<i64>, Option<i64>);

/// Company size buckets accepted by `team_size`, by employee count (see [`team_size_bucket`]).
pub const TEAM_SIZES: &[&str] = &["1-10", "11-50", "51-200", "201-1000", "1000-plus"];

/// Applicant-count buckets accepted by `applicants` (see [`applicants_bucket`]).
pub const APPLICANT_RANGES: &[&str] = &["0-25", "26-50", "51-100", "101-200", "201-plus"];

/// Position tags derived from job titles and new roles (`positions`).
pub const POSITIONS: &[&str] = &[
    "founder",
    "co-founder",
    "ceo",
    "cto",
    "cfo",
    "coo",
    "cmo",
    "cpo",
    "cro",
    "cio",
    "ciso",
    "chro",
    "vp of engineering",
    "vp of product",
    "vp of design",
    "vp of data",
    "vp of marketing",
    "vp of sales",
    "vp of growth",
    "vp of customer success",
    "vp of operations",
    "vp of finance",
    "vp of people",
    "vp of legal",
    "head of engineering",
    "head of product",
    "head of design",
    "head of data",
    "head of marketing",
    "head of sales",
    "head of growth",
    "head of customer success",
    "head of operations",
    "head of finance",
    "head of people",
    "head of legal",
    "engineering manager",
    "product manager",
    "sales manager",
    "marketing manager",
    "design manager",
    "data manager",
    "growth manager",
    "customer success manager",
    "operations manager",
    "finance manager",
    "people manager",
    "legal manager",
];

/// Department tags derived from job titles and new roles (`departments`).
pub const DEPARTMENTS: &[&str] = &[
    "engineering",
    "product",
    "design",
    "data",
    "marketing",
    "sales",
    "growth",
    "customer_success",
    "operations",
    "finance",
    "people",
    "legal",
];

/// Seniority tags derived from job titles and new roles (`seniorities`), most senior first.
pub const SENIORITIES: &[&str] = &[
    "founder", "c_level", "vp", "director", "head", "lead", "manager",
];

/// Parses a `sep`-separated list of values from `accepted` (case-insensitive), returning them
/// in `accepted`'s spelling, de-duplicated in first-seen order. `what` names the parameter in
/// the error, e.g. `"seniorities"` → `Invalid seniorities value: exec. Accepted values: …`.
pub fn parse_list(
    input: &str,
    sep: char,
    accepted: &[&str],
    what: &str,
) -> Result<Vec<String>, String> {
    parse_values(input, sep, accepted, what, "Accepted values")
}

/// Parses exactly one value from `accepted` (case-insensitive), in `accepted`'s spelling.
pub fn parse_one(
    input: &str,
    accepted: &[&'static str],
    what: &str,
) -> Result<&'static str, String> {
    let value = input.trim();
    canonical(value, accepted).ok_or_else(|| invalid(what, value, accepted, "Accepted values"))
}

/// `round`: comma-separated round types, e.g. `Series A,seed` → `["series a", "seed"]`.
pub fn parse_rounds(input: &str) -> Result<Vec<String>, String> {
    parse_values(
        input,
        ',',
        ROUND_TYPES,
        "round",
        "Accepted values (case-insensitive)",
    )
}

/// `round_flavor`: comma-separated round flavors.
pub fn parse_round_flavors(input: &str) -> Result<Vec<String>, String> {
    parse_list(input, ',', ROUND_FLAVORS, "round_flavor")
}

/// `currency` on the funding list: one ISO 4217 code, answered in upper case.
pub fn parse_funding_currency(input: &str) -> Result<&'static str, String> {
    parse_one(input, FUNDING_CURRENCIES, "currency")
}

/// `currency` on the acquisitions list: `USD` or `EUR`, answered in upper case.
pub fn parse_acquisition_currency(input: &str) -> Result<&'static str, String> {
    parse_one(input, ACQUISITION_CURRENCIES, "currency")
}

/// `verification_status`: comma-separated verification statuses.
pub fn parse_verification_statuses(input: &str) -> Result<Vec<String>, String> {
    parse_list(input, ',', VERIFICATION_STATUSES, "verification_status")
}

/// `subcategories`: comma-separated subcategory ids.
pub fn parse_subcategories(input: &str) -> Result<Vec<String>, String> {
    parse_list(input, ',', SUBCATEGORIES, "subcategories")
}

/// `source` on the job-changes list: one source.
pub fn parse_job_change_source(input: &str) -> Result<&'static str, String> {
    parse_one(input, JOB_CHANGE_SOURCES, "source")
}

/// `team_size`: comma-separated employee-count ranges as inclusive `(low, high)` bounds,
/// `None` meaning unbounded. A documented bucket keeps its meaning (`1000-plus` is over 1,000);
/// any other `N-M` (N ≤ M) or `N-plus` is taken as written, e.g. `1-9` or `250-plus`.
pub fn parse_team_sizes(input: &str) -> Result<Vec<Bounds>, String> {
    let mut ranges = Vec::new();
    for entry in input.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let lower = entry.to_ascii_lowercase();
        let range = team_size_bounds(&lower)
            .or_else(|| team_size_range(&lower))
            .ok_or_else(|| {
                format!(
                    "Invalid team_size value: {entry}. Expected a range such as 1-10, 11-50, \
                     51-200, 201-1000, 1000-plus or any N-M or N-plus."
                )
            })?;
        if !ranges.contains(&range) {
            ranges.push(range);
        }
    }
    if ranges.is_empty() {
        return Err(
            "No team_size value given. Expected a range such as 1-10 or 1000-plus.".to_string(),
        );
    }
    Ok(ranges)
}

/// An `N-M` (N ≤ M) or `N-plus` range of whole numbers.
fn team_size_range(entry: &str) -> Option<Bounds> {
    let number = |s: &str| -> Option<i64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (low, high) = entry.split_once('-')?;
    let low = number(low)?;
    if high == "plus" {
        return Some((Some(low), None));
    }
    let high = number(high)?;
    (low <= high).then_some((Some(low), Some(high)))
}

/// `applicants`: comma-separated applicant-count buckets.
pub fn parse_applicant_ranges(input: &str) -> Result<Vec<String>, String> {
    parse_list(input, ',', APPLICANT_RANGES, "applicants")
}

/// `positions`: comma-separated position tags; open (see the module notes).
pub fn parse_positions(input: &str) -> Result<Vec<String>, String> {
    parse_open(input, POSITIONS)
}

/// `departments`: comma-separated department tags; open.
pub fn parse_departments(input: &str) -> Result<Vec<String>, String> {
    parse_open(input, DEPARTMENTS)
}

/// `seniorities`: comma-separated seniority tags; open.
pub fn parse_seniorities(input: &str) -> Result<Vec<String>, String> {
    parse_open(input, SENIORITIES)
}

/// An open list: known values in `known`'s spelling, others lower-cased, de-duplicated; a list
/// without entries (`,`) filters nothing, as an empty parameter does.
fn parse_open(input: &str, known: &[&str]) -> Result<Vec<String>, String> {
    let mut values: Vec<String> = Vec::new();
    for entry in input.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let value = canonical(entry, known)
            .map(str::to_string)
            .unwrap_or_else(|| entry.to_lowercase());
        if !values.contains(&value) {
            values.push(value);
        }
    }
    Ok(values)
}

/// The `team_size` bucket of a company with `employee_count` employees. `1000-plus` means over
/// 1,000, so 1,000 itself is `201-1000`; counts of zero or less fall in `1-10`.
pub fn team_size_bucket(employee_count: i64) -> &'static str {
    match employee_count {
        ..=10 => "1-10",
        11..=50 => "11-50",
        51..=200 => "51-200",
        201..=1000 => "201-1000",
        _ => "1000-plus",
    }
}

/// Inclusive employee-count bounds of a `team_size` bucket, `None` meaning unbounded; the
/// inverse of [`team_size_bucket`], for filtering on the count itself.
pub fn team_size_bounds(bucket: &str) -> Option<(Option<i64>, Option<i64>)> {
    match bucket {
        "1-10" => Some((None, Some(10))),
        "11-50" => Some((Some(11), Some(50))),
        "51-200" => Some((Some(51), Some(200))),
        "201-1000" => Some((Some(201), Some(1000))),
        "1000-plus" => Some((Some(1001), None)),
        _ => None,
    }
}

/// The `applicants` bucket of a posting with `applicants` applicants; negative counts fall in
/// `0-25`, and `201-plus` means over 200.
pub fn applicants_bucket(applicants: i64) -> &'static str {
    match applicants {
        ..=25 => "0-25",
        26..=50 => "26-50",
        51..=100 => "51-100",
        101..=200 => "101-200",
        _ => "201-plus",
    }
}

/// Inclusive applicant-count bounds of an `applicants` bucket, `None` meaning unbounded; the
/// inverse of [`applicants_bucket`].
pub fn applicants_bounds(bucket: &str) -> Option<(Option<i64>, Option<i64>)> {
    match bucket {
        "0-25" => Some((None, Some(25))),
        "26-50" => Some((Some(26), Some(50))),
        "51-100" => Some((Some(51), Some(100))),
        "101-200" => Some((Some(101), Some(200))),
        "201-plus" => Some((Some(201), None)),
        _ => None,
    }
}

/// Reads the applicant count out of a posting's `numApplicants` text, e.g. `"42"`,
/// `"1,204 applicants"` or `"Over 200 applicants"`. A count said to be exceeded ("over",
/// "more than", a trailing `+`) is read as one more, so `"Over 200"` lands in `201-plus`.
pub fn parse_applicant_count(text: &str) -> Option<i64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ','))
        .unwrap_or(rest.len());
    let digits: String = rest[..end].chars().filter(char::is_ascii_digit).collect();
    let count: i64 = digits.parse().ok()?;
    let before = text[..start].to_lowercase();
    let exceeded = before.contains("over")
        || before.contains("more than")
        || rest[end..].trim_start().starts_with('+');
    Some(if exceeded {
        count.saturating_add(1)
    } else {
        count
    })
}

/// The shared list parser; `label` introduces the accepted values in the error message.
fn parse_values(
    input: &str,
    sep: char,
    accepted: &[&str],
    what: &str,
    label: &str,
) -> Result<Vec<String>, String> {
    let mut values: Vec<String> = Vec::new();
    for entry in input.split(sep).map(str::trim).filter(|e| !e.is_empty()) {
        let value =
            canonical(entry, accepted).ok_or_else(|| invalid(what, entry, accepted, label))?;
        if !values.iter().any(|v| v == value) {
            values.push(value.to_string());
        }
    }
    if values.is_empty() {
        return Err(format!(
            "No {what} value given. {label}: {}.",
            accepted.join(", ")
        ));
    }
    Ok(values)
}

/// The accepted spelling of `value`, compared ignoring ASCII case (every vocabulary is ASCII).
fn canonical<'a>(value: &str, accepted: &[&'a str]) -> Option<&'a str> {
    accepted
        .iter()
        .find(|a| a.eq_ignore_ascii_case(value))
        .copied()
}

fn invalid(what: &str, value: &str, accepted: &[&str], label: &str) -> String {
    format!(
        "Invalid {what} value: {value}. {label}: {}.",
        accepted.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_types_match_in_any_case_and_come_back_lower_case() {
        assert_eq!(
            parse_rounds("Series A, SEED,series a,Debt Financing").expect("valid"),
            ["series a", "seed", "debt financing"]
        );
    }

    #[test]
    fn an_unknown_round_type_gives_the_reference_message() {
        assert_eq!(
            parse_rounds("seed,foobar").expect_err("unknown round"),
            "Invalid round value: foobar. Accepted values (case-insensitive): pre-seed, seed, \
             series a, series b, series c, series d, series e, series f, series g, series h, \
             angel, grant, crowdfunding, growth, debt, debt financing, equity, fund, ipo."
        );
    }

    #[test]
    fn round_types_match_exactly_not_by_prefix_or_spacing() {
        for input in ["series", "series  a", "seriesa", "pre seed", "series i"] {
            assert!(parse_rounds(input).is_err(), "{input}");
        }
    }

    #[test]
    fn tag_vocabularies_are_open_and_keep_unknown_values_lower_cased() {
        assert_eq!(
            parse_seniorities("VP,Exec,vp").expect("open"),
            ["vp", "exec"]
        );
        assert_eq!(
            parse_positions("Data Scientist,Sales Manager").expect("open"),
            ["data scientist", "sales manager"]
        );
        assert_eq!(parse_departments("Research").expect("open"), ["research"]);
        assert!(parse_positions(" , ").expect("open").is_empty());
    }

    #[test]
    fn team_size_takes_buckets_and_any_well_formed_range() {
        assert_eq!(
            parse_team_sizes("1-9,1000-plus,250-PLUS,1-9").expect("ranges"),
            [(Some(1), Some(9)), (Some(1001), None), (Some(250), None)]
        );
        assert_eq!(
            parse_team_sizes("1-10").expect("bucket"),
            [(None, Some(10))]
        );
        for bad in [
            "x",
            "9-1",
            "1-",
            "-5",
            "1--2",
            "a-b",
            "1-99999999999999999999",
            " , ",
        ] {
            assert!(parse_team_sizes(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn other_filters_follow_the_same_message_pattern() {
        type ListParser = fn(&str) -> Result<Vec<String>, String>;
        let cases: [(ListParser, &str); 4] = [
            (
                parse_round_flavors,
                "Invalid round_flavor value: x. Accepted values: bridge",
            ),
            (
                parse_verification_statuses,
                "Invalid verification_status value: x. Accepted",
            ),
            (
                parse_subcategories,
                "Invalid subcategories value: x. Accepted values: ai, saas",
            ),
            (
                parse_applicant_ranges,
                "Invalid applicants value: x. Accepted values: 0-25",
            ),
        ];
        for (parse, prefix) in cases {
            let error = parse("x").expect_err("unknown value");
            assert!(error.starts_with(prefix), "{error}");
            assert!(error.ends_with('.'), "{error}");
        }
    }

    #[test]
    fn subcategories_with_spaces_and_ampersands_are_accepted() {
        assert_eq!(
            parse_subcategories("AI,vc & investment, Food & Beverage,non-profit").expect("valid"),
            ["ai", "vc & investment", "food & beverage", "non-profit"]
        );
        assert_eq!(SUBCATEGORIES.len(), 48);
    }

    #[test]
    fn multi_word_positions_and_snake_case_departments_are_accepted() {
        assert_eq!(
            parse_positions("CTO,VP of Engineering,head of product").expect("valid"),
            ["cto", "vp of engineering", "head of product"]
        );
        assert_eq!(
            parse_departments("Customer_Success,people").expect("valid"),
            ["customer_success", "people"]
        );
    }

    #[test]
    fn empty_entries_are_skipped_but_an_empty_filter_is_refused() {
        assert_eq!(parse_round_flavors(",bridge,,").expect("valid"), ["bridge"]);
        assert_eq!(
            parse_round_flavors(" , ").expect_err("no value"),
            "No round_flavor value given. Accepted values: bridge, extension, secondary."
        );
    }

    #[test]
    fn parse_list_takes_any_separator_and_vocabulary() {
        assert_eq!(
            parse_list("b|A|b", '|', &["a", "b"], "letter").expect("valid"),
            ["b", "a"]
        );
        assert_eq!(
            parse_list("a|c", '|', &["a", "b"], "letter").expect_err("unknown"),
            "Invalid letter value: c. Accepted values: a, b."
        );
    }

    #[test]
    fn currencies_take_one_code_and_answer_in_upper_case() {
        assert_eq!(parse_funding_currency("usd"), Ok("USD"));
        assert_eq!(parse_funding_currency(" BRL "), Ok("BRL"));
        assert_eq!(parse_acquisition_currency("Eur"), Ok("EUR"));
        assert_eq!(
            parse_acquisition_currency("GBP"),
            Err("Invalid currency value: GBP. Accepted values: USD, EUR.".to_string())
        );
        assert!(parse_funding_currency("USD,EUR").is_err());
        assert!(parse_funding_currency("").is_err());
    }

    #[test]
    fn job_change_sources_take_one_known_source() {
        assert_eq!(
            parse_job_change_source("press_release"),
            Ok("press_release")
        );
        assert_eq!(
            parse_job_change_source("twitter"),
            Err(
                "Invalid source value: twitter. Accepted values: linkedin, press_release, other."
                    .to_string()
            )
        );
    }

    #[test]
    fn team_size_buckets_put_exactly_1000_below_1000_plus() {
        let cases = [
            (0, "1-10"),
            (1, "1-10"),
            (10, "1-10"),
            (11, "11-50"),
            (50, "11-50"),
            (51, "51-200"),
            (200, "51-200"),
            (201, "201-1000"),
            (1000, "201-1000"),
            (1001, "1000-plus"),
            (i64::MAX, "1000-plus"),
        ];
        for (count, bucket) in cases {
            assert_eq!(team_size_bucket(count), bucket, "{count}");
        }
    }

    #[test]
    fn applicant_buckets_cover_every_count() {
        let cases = [
            (0, "0-25"),
            (25, "0-25"),
            (26, "26-50"),
            (50, "26-50"),
            (51, "51-100"),
            (100, "51-100"),
            (101, "101-200"),
            (200, "101-200"),
            (201, "201-plus"),
        ];
        for (count, bucket) in cases {
            assert_eq!(applicants_bucket(count), bucket, "{count}");
        }
    }

    #[test]
    fn bucket_bounds_agree_with_the_bucket_functions() {
        for count in -5..=1500 {
            let (low, high) = team_size_bounds(team_size_bucket(count)).expect("a bucket");
            assert!(low.is_none_or(|l| l <= count) && high.is_none_or(|h| count <= h));
            let (low, high) = applicants_bounds(applicants_bucket(count)).expect("a bucket");
            assert!(low.is_none_or(|l| l <= count) && high.is_none_or(|h| count <= h));
        }
        assert!(TEAM_SIZES.iter().all(|b| team_size_bounds(b).is_some()));
        assert!(
            APPLICANT_RANGES
                .iter()
                .all(|b| applicants_bounds(b).is_some())
        );
    }

    #[test]
    fn applicant_counts_are_read_from_their_text() {
        let cases = [
            ("42", Some(42)),
            ("1,204 applicants", Some(1204)),
            ("Over 200 applicants", Some(201)),
            ("More than 100", Some(101)),
            ("200+ applicants", Some(201)),
            ("Be among the first 25 applicants", Some(25)),
            ("", None),
            ("no applicants yet", None),
        ];
        for (text, count) in cases {
            assert_eq!(parse_applicant_count(text), count, "{text:?}");
        }
    }
}
