//! `GET /people`: people with the signal that makes them worth a call now, filtered by title,
//! function, seniority, geography and company, paged and charged like the signal lists.

use axum::extract::State;
use axum::response::Response;
use chrono::{NaiveDate, Utc};
use utoipa::IntoParams;

use crate::domain::countries::country_name;
use crate::domain::target::{normalize_linkedin_company, normalize_linkedin_profile};
use crate::http::auth::Principal;
use crate::http::charged::charged_list;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::signals::pagination::PagePagination;
use crate::http::signals::params::{
    company_domains, company_linkedin_urls, countries, day_range_ms, lower_list, one_of, paging,
    text,
};
use crate::http::state::AppState;
use crate::service::lists::Paging;
use crate::service::people::{
    self, FUNCTIONS, PeopleListRequest, PeopleQuery, SENIORITIES, SIGNAL_TYPES, SIZE_BANDS,
};

/// The `meta.endpoint` of the people list.
pub const ENDPOINT: &str = "people.list";

/// The page size when `limit` is left out.
pub const DEFAULT_LIMIT: i64 = 100;

const ALLOWED: &[&str] = &[
    "page",
    "limit",
    "title",
    "function",
    "seniority",
    "country",
    "exclude_countries",
    "city",
    "company_size",
    "industry",
    "linkedin_url",
    "company_domain",
    "company_linkedin_url",
    "signal_type",
    "signal_date_range",
    "include_former",
    "count",
];

/// Most values a comma-separated filter takes.
const MAX_VALUES: usize = 50;

/// Searches people.
#[utoipa::path(get, path = "/api/v2/people", operation_id = "searchPeople", tag = "People",
    params(PeopleParams),
    responses(
        (status = 200, description = "People, each with the newest signal that matched, with the page object; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list(
    State(state): State<AppState>,
    principal: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    let request = parse_request(&q, Utc::now().date_naive())?;
    let paging = request.paging;
    let answer = people::list(&state, &principal.context(), request).await?;
    let pagination = PagePagination::new(paging.page, paging.limit, answer.total);
    Ok(charged_list(ENDPOINT, pagination, answer.page))
}

/// Checks the people list's query parameters (windows end `today`) and builds the request.
pub fn parse_request(q: &QueryParams, today: NaiveDate) -> Result<PeopleListRequest, ApiError> {
    q.allow_only(ALLOWED)?;
    let mut paging = paging(q)?;
    if q.get("limit").is_none() {
        paging = Paging {
            limit: DEFAULT_LIMIT,
            ..paging
        };
    }
    one_of(q, "include_former", &["false"])?;
    let person_key = person_profile(q)?;
    let domains = company_domains(q, "company_domain")?;
    let linkedin_pages = company_linkedin_urls(q, "company_linkedin_url")?;
    let lookup = person_key.is_some() || !domains.is_empty() || !linkedin_pages.is_empty();
    let signals_from_ms = signal_window(q, today, lookup)?;
    let title_patterns = values(q, "title")?
        .iter()
        .flat_map(|t| people::title_patterns(t))
        .collect();
    let functions = closed_values(q, "function", FUNCTIONS.iter().map(|(id, _)| *id))?;
    let seniorities = closed_values(q, "seniority", SENIORITIES.iter().map(|(id, _)| *id))?;
    let bands = closed_values(q, "company_size", SIZE_BANDS.iter().map(|(b, _, _)| *b))?;
    let kinds = closed_values(q, "signal_type", SIGNAL_TYPES.iter().copied())?;
    let query = PeopleQuery {
        title_patterns,
        function_patterns: people::vocabulary_patterns(FUNCTIONS, &functions),
        seniority_patterns: people::vocabulary_patterns(SENIORITIES, &seniorities),
        countries: with_names(countries(q, "country")?),
        exclude_countries: with_names(countries(q, "exclude_countries")?),
        city: text(q, "city").map(|c| c.to_lowercase()),
        company_sizes: SIZE_BANDS
            .iter()
            .filter(|(band, _, _)| bands.contains(band))
            .map(|(_, min, max)| (*min, *max))
            .collect(),
        industries: lower_list(q, "industry", ','),
        person_key,
        signal_kinds: kinds.iter().map(|k| k.to_string()).collect(),
        signals_from_ms,
        ..PeopleQuery::default()
    };
    Ok(PeopleListRequest {
        query,
        domains,
        linkedin_pages,
        paging,
    })
}

/// Country codes with the English names a person record may hold instead, upper case.
fn with_names(codes: Vec<String>) -> Vec<String> {
    let names: Vec<String> = codes
        .iter()
        .filter_map(|code| country_name(code))
        .map(str::to_uppercase)
        .collect();
    codes.into_iter().chain(names).collect()
}

/// Comma-separated non-empty values, at most [`MAX_VALUES`].
fn values(q: &QueryParams, name: &str) -> Result<Vec<String>, ApiError> {
    let values: Vec<String> = text(q, name)
        .map(|raw| {
            raw.split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if values.len() > MAX_VALUES {
        return Err(ApiError::bad_request(format!(
            "{name} accepts at most {MAX_VALUES} comma-separated values"
        )));
    }
    Ok(values)
}

/// Comma-separated values of a closed vocabulary; an unknown one is a 400 naming it.
fn closed_values(
    q: &QueryParams,
    name: &str,
    accepted: impl Iterator<Item = &'static str> + Clone,
) -> Result<Vec<&'static str>, ApiError> {
    values(q, name)?
        .iter()
        .map(|value| {
            accepted
                .clone()
                .find(|a| a.eq_ignore_ascii_case(value))
                .ok_or_else(|| {
                    let list: Vec<&str> = accepted.clone().collect();
                    ApiError::bad_request(format!(
                        "Invalid {name} value: {value}. Accepted values: {}.",
                        list.join(", ")
                    ))
                })
        })
        .collect()
}

/// `linkedin_url`: a member profile, normalized; a company page or anything else is a 400.
fn person_profile(q: &QueryParams) -> Result<Option<String>, ApiError> {
    let Some(raw) = text(q, "linkedin_url") else {
        return match q.get("linkedin_url") {
            Some(_) => Err(ApiError::bad_request("linkedin_url must not be empty")),
            None => Ok(None),
        };
    };
    if normalize_linkedin_company(&raw).is_some() {
        return Err(ApiError::bad_request(
            "linkedin_url must be a personal profile URL (linkedin.com/in/…); pass a company page \
             to company_linkedin_url",
        ));
    }
    normalize_linkedin_profile(&raw).map(Some).ok_or_else(|| {
        ApiError::bad_request(format!(
            "Invalid linkedin_url value: {raw}. Expected a LinkedIn profile URL such as \
             https://www.linkedin.com/in/jane-doe"
        ))
    })
}

/// The most of each unit a `signal_date_range` may reach back (ten years).
const WINDOW_LIMITS: &[(char, u32)] = &[('d', 3650), ('w', 520), ('m', 120), ('y', 10)];

/// The pattern of a `signal_date_range` value.
pub const WINDOW_PATTERN: &str = "^(?:[1-9][0-9]{0,2}|[1-2][0-9]{3}|3[0-5][0-9]{2}|36[0-4][0-9]|3650)d$|^(?:[1-9]|[1-9][0-9]|[1-4][0-9]{2}|5[01][0-9]|520)w$|^(?:[1-9]|[1-9][0-9]|1[01][0-9]|120)m$|^(?:[1-9]|10)y$";

/// The start (epoch ms) of the `signal_date_range` window: `12m` when left out, unless an
/// identifier lookup asks for all time.
fn signal_window(q: &QueryParams, today: NaiveDate, lookup: bool) -> Result<Option<i64>, ApiError> {
    let raw = match q.get("signal_date_range") {
        Some(raw) => raw.to_string(),
        None if lookup => return Ok(None),
        None => "12m".to_string(),
    };
    let refuse = || {
        ApiError::bad_request(format!(
            "Invalid signal_date_range value: {raw}. Expected <n><unit> with unit d, w, m or y \
             (e.g. 30d, 6m, 2y), at most 3650d, 520w, 120m or 10y"
        ))
    };
    let unit = raw.chars().last().ok_or_else(refuse)?;
    let max = WINDOW_LIMITS
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, max)| *max)
        .ok_or_else(refuse)?;
    let digits = &raw[..raw.len() - 1];
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse());
    }
    let n: u32 = digits.parse().map_err(|_| refuse())?;
    if n == 0 || n > max {
        return Err(refuse());
    }
    let start = people::window_start(today, n, unit).ok_or_else(refuse)?;
    Ok(day_range_ms(Some(start), None).0)
}

/// Query parameters of the people list, described for the OpenAPI document (the handler
/// reads the raw query to name unknown and malformed parameters).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct PeopleParams {
    /// Page number, >= 1 (default 1).
    page: Option<i64>,
    /// Results per page, 1-100 (default 100).
    limit: Option<i64>,
    /// Job titles, comma-separated, matched as whole words of the person's title (any letter
    /// case; abbreviations such as CTO or VP read both ways; "Assistant to the CEO" is not a
    /// CEO).
    title: Option<String>,
    /// Function ids, comma-separated: marketing, sales, engineering, product, design,
    /// operations, finance, people, data, customer_success, growth, legal.
    function: Option<String>,
    /// Seniority ids, comma-separated: founder, c_level, vp, director, head, lead, manager.
    seniority: Option<String>,
    /// The company's or the person's country is one of these (ISO codes, English names,
    /// regions).
    country: Option<String>,
    /// Left out when the company's or the person's country is one of these; an unknown country
    /// on a side is kept.
    exclude_countries: Option<String>,
    /// Any part of the person's city, any letter case; people without a city are left out.
    city: Option<String>,
    /// Company size bands, comma-separated: 1-10, 11-50, 51-100, 101-250, 251-500, 501-1000,
    /// 1000-plus; people without a company of known head count are left out.
    company_size: Option<String>,
    /// Company industries, comma-separated, exact, any letter case.
    industry: Option<String>,
    /// A person's LinkedIn profile URL (`/in/`): that person only. A company page is a 400.
    /// Without signal_date_range, every signal counts.
    linkedin_url: Option<String>,
    /// Company website domains, comma-separated (at most 50): the people at those companies.
    company_domain: Option<String>,
    /// LinkedIn company page URLs, comma-separated (at most 50): the people at those companies.
    company_linkedin_url: Option<String>,
    /// Signal types the matched signal may have, comma-separated: funding_round, acquisition,
    /// job_change.
    signal_type: Option<String>,
    /// How far back the matched signal may be: `<n><unit>`, unit d, w, m or y, at most ten
    /// years (3650d, 520w, 120m, 10y). Default 12m, or all time with linkedin_url,
    /// company_domain or company_linkedin_url.
    signal_date_range: Option<String>,
    /// Only `false` (current employees).
    include_former: Option<String>,
    /// `true`: only pagination, no rows, no credit charged.
    count: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> QueryParams {
        QueryParams(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn a_signal_window_is_a_count_and_a_unit_up_to_ten_years() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        let window = |v: &str| signal_window(&query(&[("signal_date_range", v)]), today, false);
        for value in ["1d", "30d", "3650d", "520w", "6m", "120m", "10y"] {
            assert!(window(value).is_ok(), "{value}");
        }
        for value in ["0d", "3651d", "11y", "6M", " 6m", "06m", "m", "6", "6h", ""] {
            assert!(window(value).is_err(), "{value}");
        }
        assert_eq!(
            window("1d").unwrap(),
            day_range_ms(NaiveDate::from_ymd_opt(2026, 4, 30), None).0
        );
    }

    #[test]
    fn the_window_is_all_time_for_a_lookup_and_a_year_otherwise() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        assert_eq!(signal_window(&query(&[]), today, true).unwrap(), None);
        assert_eq!(
            signal_window(&query(&[]), today, false).unwrap(),
            day_range_ms(NaiveDate::from_ymd_opt(2025, 5, 1), None).0
        );
    }
}
