//! Parsing of list query parameters shared by the signal lists and the company list: paging,
//! sorting, dates, company identity and the company attribute filters. Every value that does not
//! parse, is out of range or contradicts another is a 400 naming the parameter.

use chrono::{Days, NaiveDate, Utc};

use crate::domain::countries::parse_country_filter;
use crate::domain::date_preset::{DatePreset, parse_day};
use crate::domain::target::{
    normalize_domain, normalize_linkedin_company, normalize_linkedin_profile,
};
use crate::domain::vocabulary::parse_subcategories;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::service::lists::Order;
pub use crate::service::lists::Paging;

/// Most values `company_domain` or `company_linkedin_url` may carry.
pub const MAX_IDENTIFIERS: usize = 50;

/// The highest `page`: any page of at most 100 rows then starts within 64-bit offsets.
pub const MAX_PAGE: i64 = i64::MAX / 100;

/// Reads `page`, `limit` and `count`.
pub fn paging(q: &QueryParams) -> Result<Paging, ApiError> {
    let page = q.int_in_range("page", 1, MAX_PAGE)?.unwrap_or(1);
    let limit = q.int_in_range("limit", 1, 100)?.unwrap_or(20);
    let count_only = match q.get("count") {
        None => false,
        Some(v) if v.eq_ignore_ascii_case("true") => true,
        Some(v) if v.eq_ignore_ascii_case("false") => false,
        Some(_) => return Err(ApiError::bad_request("count must be true or false")),
    };
    if page
        .checked_sub(1)
        .and_then(|p| p.checked_mul(limit))
        .is_none()
    {
        return Err(ApiError::bad_request("page is out of range"));
    }
    Ok(Paging {
        page,
        limit,
        count_only,
    })
}

/// Reads `sort_by` (one of `fields`, mapped to its SQL expression) and `sort_order`.
pub fn sorting(
    q: &QueryParams,
    fields: &[(&str, &'static str)],
    default: &str,
) -> Result<(&'static str, Order), ApiError> {
    let name = q.get("sort_by").unwrap_or(default);
    let column = fields
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .ok_or_else(|| {
            let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
            ApiError::bad_request(format!(
                "Invalid sort_by value: {name}. Accepted values: {}.",
                names.join(", ")
            ))
        })?;
    let order = match q.get("sort_order").unwrap_or("desc") {
        "asc" => Order::Asc,
        "desc" => Order::Desc,
        other => {
            return Err(ApiError::bad_request(format!(
                "Invalid sort_order value: {other}. Accepted values: asc, desc."
            )));
        }
    };
    Ok((column, order))
}

/// The inclusive day range of `date_preset` (which wins) or `dateFrom`/`dateTo`, as epoch ms
/// `[from, until)`.
pub fn date_range(q: &QueryParams) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let from = date_param(q, "dateFrom")?;
    let to = date_param(q, "dateTo")?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ApiError::bad_request("dateFrom must not be after dateTo"));
    }
    let (from, to) = match q.get("date_preset") {
        Some(name) => {
            let preset = DatePreset::parse(name).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "Invalid date_preset value: {name}. Accepted values: {}.",
                    DatePreset::NAMES
                ))
            })?;
            match preset.range(Utc::now().date_naive()) {
                Some((f, t)) => (Some(f), Some(t)),
                None => (None, None),
            }
        }
        None => (from, to),
    };
    Ok(day_range_ms(from, to))
}

/// Inclusive days as epoch ms `[start of from, start of the day after to)`.
pub fn day_range_ms(from: Option<NaiveDate>, to: Option<NaiveDate>) -> (Option<i64>, Option<i64>) {
    (
        from.map(day_start_ms),
        to.map(|t| day_start_ms(t.checked_add_days(Days::new(1)).unwrap_or(t))),
    )
}

/// A date parameter: `YYYY-MM-DD`, or an RFC 3339 timestamp standing for its UTC day.
pub fn date_param(q: &QueryParams, name: &str) -> Result<Option<NaiveDate>, ApiError> {
    q.get(name)
        .map(|raw| {
            parse_day(raw.trim()).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{name} must be a date in YYYY-MM-DD format or an RFC 3339 timestamp"
                ))
            })
        })
        .transpose()
}

/// A `true`/`false` parameter.
pub fn flag(q: &QueryParams, name: &str) -> Result<Option<bool>, ApiError> {
    match q.get(name).map(str::trim) {
        None => Ok(None),
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(Some(true)),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::bad_request(format!(
            "{name} must be true or false"
        ))),
    }
}

/// A parameter taking one of `accepted` (exact, lower case as listed; any letter case read).
pub fn one_of(
    q: &QueryParams,
    name: &str,
    accepted: &[&'static str],
) -> Result<Option<&'static str>, ApiError> {
    let Some(raw) = q.get(name) else {
        return Ok(None);
    };
    accepted
        .iter()
        .find(|a| a.eq_ignore_ascii_case(raw.trim()))
        .copied()
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "Invalid {name} value: {raw}. Accepted values: {}.",
                accepted.join(", ")
            ))
        })
}

/// A number parameter within `min..=max`.
pub fn number_in_range(
    q: &QueryParams,
    name: &str,
    min: f64,
    max: f64,
) -> Result<Option<f64>, ApiError> {
    let Some(raw) = q.get(name) else {
        return Ok(None);
    };
    match raw.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(Some(v)),
        _ => Err(ApiError::bad_request(format!(
            "{name} must be a number between {min} and {max}"
        ))),
    }
}

/// Comma-separated non-empty entries of `name`, trimmed, at most `max` of them.
pub fn entries(q: &QueryParams, name: &str, max: usize) -> Result<Vec<String>, ApiError> {
    let values: Vec<String> = text(q, name)
        .map(|raw| {
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if values.len() > max {
        return Err(ApiError::bad_request(format!(
            "{name} accepts at most {max} comma-separated values"
        )));
    }
    Ok(values)
}

fn day_start_ms(day: NaiveDate) -> i64 {
    day.and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or_default()
}

/// A non-empty trimmed text parameter.
pub fn text(q: &QueryParams, name: &str) -> Option<String> {
    q.get(name)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// A list parameter parsed with a vocabulary parser; absent or empty gives an empty list.
pub fn list(
    q: &QueryParams,
    name: &str,
    parse: impl Fn(&str) -> Result<Vec<String>, String>,
) -> Result<Vec<String>, ApiError> {
    match text(q, name) {
        None => Ok(Vec::new()),
        Some(raw) => parse(&raw).map_err(ApiError::bad_request),
    }
}

/// A country filter (codes, names, regions).
pub fn countries(q: &QueryParams, name: &str) -> Result<Vec<String>, ApiError> {
    list(q, name, |raw| {
        parse_country_filter(raw).map_err(|e| format!("{name}: {e}"))
    })
}

/// Lower-cased entries split on `sep`.
pub fn lower_list(q: &QueryParams, name: &str, sep: char) -> Vec<String> {
    text(q, name)
        .map(|raw| {
            raw.split(sep)
                .map(|s| s.trim().to_lowercase())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// `subcategories` from the funding list's vocabulary, lower-cased. The other lists take any
/// comma-separated ids (their references type the parameter as a plain string): [`lower_list`].
pub fn funding_subcategories(q: &QueryParams) -> Result<Vec<String>, ApiError> {
    list(q, "subcategories", parse_subcategories)
        .map(|v| v.into_iter().map(|s| s.to_lowercase()).collect())
}

/// A `name_min`/`name_max` pair of integers at least `floor`, min not over max.
pub fn int_range(
    q: &QueryParams,
    min_name: &str,
    max_name: &str,
    floor: i64,
) -> Result<(Option<i64>, Option<i64>), ApiError> {
    int_range_within(q, min_name, max_name, floor, i64::MAX)
}

/// A `name_min`/`name_max` pair of integers within `floor..=ceiling`, min not over max.
pub fn int_range_within(
    q: &QueryParams,
    min_name: &str,
    max_name: &str,
    floor: i64,
    ceiling: i64,
) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let min = q.int_in_range(min_name, floor, ceiling)?;
    let max = q.int_in_range(max_name, floor, ceiling)?;
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        return Err(ApiError::bad_request(format!(
            "{min_name} must not be greater than {max_name}"
        )));
    }
    Ok((min, max))
}

/// Normalized company domains of `company_domain` (at most 50); a malformed one is a 400.
pub fn company_domains(q: &QueryParams, name: &str) -> Result<Vec<String>, ApiError> {
    identifiers(q, name, |raw| {
        normalize_domain(raw).ok_or_else(|| {
            format!("Invalid {name} value: {raw}. Expected a domain such as example.com")
        })
    })
}

/// Normalized company pages of `company_linkedin_url`; a profile URL or malformed one is a 400.
pub fn company_linkedin_urls(q: &QueryParams, name: &str) -> Result<Vec<String>, ApiError> {
    identifiers(q, name, |raw| {
        if normalize_linkedin_profile(raw).is_some() {
            return Err(format!(
                "{name} must be a LinkedIn company page URL (linkedin.com/company/…), not a personal profile URL"
            ));
        }
        normalize_linkedin_company(raw).ok_or_else(|| {
            format!("Invalid {name} value: {raw}. Expected a LinkedIn company page URL")
        })
    })
}

fn identifiers(
    q: &QueryParams,
    name: &str,
    normalize: impl Fn(&str) -> Result<String, String>,
) -> Result<Vec<String>, ApiError> {
    let Some(raw) = q.get(name) else {
        return Ok(Vec::new());
    };
    let values: Vec<&str> = raw
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if values.is_empty() {
        return Err(ApiError::bad_request(format!("{name} must not be empty")));
    }
    if values.len() > MAX_IDENTIFIERS {
        return Err(ApiError::bad_request(format!(
            "{name} accepts at most {MAX_IDENTIFIERS} comma-separated values"
        )));
    }
    values
        .into_iter()
        .map(|v| normalize(v).map_err(ApiError::bad_request))
        .collect()
}
