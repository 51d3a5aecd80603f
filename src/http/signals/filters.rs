//! Each signal list's parameters: which it accepts, and how they become a [`SignalQuery`].

use super::identity::parse_identity;
use chrono::{Days, Utc};

use super::params::{
    company_domains, countries, date_param, date_range, day_range_ms, entries, flag,
    funding_subcategories, int_range, int_range_within, list, lower_list, number_in_range, one_of,
    paging, sorting, text,
};
use crate::domain::keyword_query::parse_keyword_query;
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_linkedin_profile;
use crate::domain::vocabulary as vocab;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::service::signals::{SignalListRequest, SignalQuery};
use crate::store::signal_query::{DateBasis, FundingFilter};

/// Founding years the signal lists accept (the company list keeps its own floor).
const FOUNDED_YEARS: (i64, i64) = (1700, 2100);

const COMMON: &[&str] = &[
    "page",
    "limit",
    "dateFrom",
    "dateTo",
    "date_preset",
    "company_name",
    "company_domain",
    "company_linkedin_url",
    "sort_by",
    "sort_order",
    "count",
    "filter_version",
];
const COMPANY_ATTRS: &[&str] = &[
    "countries",
    "exclude_countries",
    "categories",
    "subcategories",
    "search",
    "industry",
    "employee_count_min",
    "employee_count_max",
    "founded_year_min",
    "founded_year_max",
];
const FUNDING: &[&str] = &[
    "round",
    "round_flavor",
    "amount_min",
    "amount_max",
    "currency",
    "verification_status",
    "investor_name",
    "date_basis",
    "investors",
    "investor_type",
];
const HIRING: &[&str] = &[
    "search",
    "description",
    "countries",
    "exclude_countries",
    "job_countries",
    "company_countries",
    "states",
    "city",
    "categories",
    "subcategories",
    "positions",
    "departments",
    "seniorities",
    "team_size",
    "applicants",
    "include_expired",
    "open_as_of",
    "posted_min_days_ago",
    "job_locations",
    "work_mode",
    "exclude_company_countries",
    "exclude_company_domain",
    "exclude_company_ids",
    "exclude_staffing_agencies",
    "founded_year_min",
    "founded_year_max",
    "headcount_growth_min",
    "headcount_growth_window",
    "funding_rounds",
    "funding_investors",
    "funding_investor_type",
    "funding_date_from",
    "funding_date_to",
    "max_company_postings",
    "min_distinct_titles",
    "role_logic",
    "count_companies",
    "include_total",
    "business_model",
    "workflow_evidence",
    "role_scope",
];
const ACQUISITIONS: &[&str] = &[
    "acquiring_company",
    "acquirer_countries",
    "exclude_acquirer_countries",
    "amount_min",
    "amount_max",
    "currency",
    "verification_status",
];
const JOB_CHANGES: &[&str] = &[
    "search",
    "countries",
    "exclude_countries",
    "city",
    "personLinkedinUrl",
    "companyLinkedinUrl",
    "new_role",
    "source",
    "keyword",
    "positions",
    "departments",
    "seniorities",
    "person_linkedin_url",
    "categories",
    "subcategories",
    "exclude_signal_ids",
    "role_logic",
];

/// The query parameters the list of `kind` accepts, paging and sorting included.
pub fn allowed(kind: SignalType) -> Vec<&'static str> {
    let own: &[&[&str]] = match kind {
        SignalType::FundingRound => &[COMPANY_ATTRS, FUNDING],
        SignalType::Hiring => &[HIRING],
        SignalType::Acquisition => &[COMPANY_ATTRS, ACQUISITIONS],
        SignalType::JobChange => &[JOB_CHANGES],
    };
    COMMON
        .iter()
        .chain(own.iter().flat_map(|l| l.iter()))
        .copied()
        .collect()
}

fn sort_fields(kind: SignalType) -> (&'static [(&'static str, &'static str)], &'static str) {
    match kind {
        SignalType::FundingRound => (
            &[
                ("occurred_at", "s.occurred_at"),
                ("discovered_at", "s.discovered_at"),
                ("amount", "s.amount"),
                ("employee_count", "c.employee_count"),
                ("founded_year", "c.founded_year"),
            ],
            "occurred_at",
        ),
        SignalType::Hiring => (
            &[
                ("date_posted", "s.occurred_at"),
                ("created_at", "s.discovered_at"),
                ("title", "lower(s.title)"),
                ("company_name", "lower(c.name)"),
                ("location", "lower(s.sort_text)"),
            ],
            "created_at",
        ),
        SignalType::Acquisition => (
            &[
                ("occurred_at", "s.occurred_at"),
                ("discovered_at", "s.discovered_at"),
                ("amount", "s.amount"),
                ("employee_count", "c.employee_count"),
            ],
            "occurred_at",
        ),
        SignalType::JobChange => (
            &[
                ("occurred_at", "s.occurred_at"),
                ("discovered_at", "s.discovered_at"),
                ("person_name", "lower(s.sort_text)"),
                ("company_name", "lower(c.name)"),
            ],
            "occurred_at",
        ),
    }
}

/// The `sort_by` values of a `kind` list.
pub fn sort_names(kind: SignalType) -> Vec<&'static str> {
    sort_fields(kind).0.iter().map(|(name, _)| *name).collect()
}

/// Validates every parameter of a `kind` list request and builds its query.
pub fn parse_request(kind: SignalType, q: &QueryParams) -> Result<SignalListRequest, ApiError> {
    q.allow_only(&allowed(kind))?;
    one_of(q, "filter_version", &["1", "2"])?;
    let paging = paging(q)?;
    let (sort_column, order) = {
        let (fields, default) = sort_fields(kind);
        sorting(q, fields, default)?
    };
    let (from_ms, until_ms) = date_range(q)?;
    let mut query = SignalQuery {
        kind: Some(kind),
        from_ms,
        until_ms,
        sort_column,
        order,
        ..SignalQuery::default()
    };
    company_attributes(&mut query, q)?;
    let mut exclude_domains = Vec::new();
    match kind {
        SignalType::FundingRound => funding(&mut query, q)?,
        SignalType::Hiring => {
            hiring(&mut query, q)?;
            hiring_extras(&mut query, q)?;
            hiring_companies(&mut query, q)?;
            exclude_domains = company_domains(q, "exclude_company_domain")?;
        }
        SignalType::Acquisition => acquisitions(&mut query, q)?,
        SignalType::JobChange => job_changes(&mut query, q)?,
    }
    // Job changes keep the legacy alias `companyLinkedinUrl` beside `company_linkedin_url`.
    let linkedin_params: &[&str] = if kind == SignalType::JobChange {
        &["company_linkedin_url", "companyLinkedinUrl"]
    } else {
        &["company_linkedin_url"]
    };
    let identity = parse_identity(q, "company_domain", linkedin_params)?;
    Ok(SignalListRequest {
        query,
        identity,
        exclude_domains,
        paging,
    })
}

fn company_attributes(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.search = text(q, "search");
    query.countries = countries(q, "countries")?;
    query.exclude_countries = countries(q, "exclude_countries")?;
    query.categories = lower_list(q, "categories", '|');
    query.subcategories = lower_list(q, "subcategories", ',');
    query.industries = lower_list(q, "industry", ',');
    (query.employee_min, query.employee_max) =
        int_range(q, "employee_count_min", "employee_count_max", 0)?;
    (query.founded_min, query.founded_max) = int_range_within(
        q,
        "founded_year_min",
        "founded_year_max",
        FOUNDED_YEARS.0,
        FOUNDED_YEARS.1,
    )?;
    Ok(())
}

fn funding(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    // Only funding's reference gives `subcategories` a vocabulary.
    query.subcategories = funding_subcategories(q)?;
    query.round_types = list(q, "round", vocab::parse_rounds)?;
    query.round_flavors = list(q, "round_flavor", vocab::parse_round_flavors)?;
    query.currencies = list(q, "currency", |v| {
        vocab::parse_funding_currency(v).map(|c| vec![c.to_string()])
    })?;
    deal_common(query, q)?;
    query.investor_name = text(q, "investor_name");
    query.date_basis = match one_of(
        q,
        "date_basis",
        &[
            "occurred",
            "discovered",
            "occurred_at",
            "discovered_at",
            "announced",
        ],
    )? {
        Some("discovered") | Some("discovered_at") => DateBasis::Discovered,
        _ => DateBasis::Occurred,
    };
    query.investors = investor_names(q, "investors")?;
    query.investor_type = one_of(
        q,
        "investor_type",
        &["vc", "pe", "angel", "corporate", "other"],
    )?
    .map(str::to_string);
    Ok(())
}

/// Investor names (at most 50), lower-cased for the exact, case-insensitive match.
fn investor_names(q: &QueryParams, name: &str) -> Result<Vec<String>, ApiError> {
    Ok(entries(q, name, 50)?
        .into_iter()
        .map(|n| n.to_lowercase())
        .collect())
}

fn deal_common(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.verification = list(q, "verification_status", vocab::parse_verification_statuses)?;
    (query.amount_min, query.amount_max) = int_range(q, "amount_min", "amount_max", 0)?;
    Ok(())
}

fn acquisitions(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.currencies = list(q, "currency", |v| {
        vocab::parse_acquisition_currency(v).map(|c| vec![c.to_string()])
    })?;
    deal_common(query, q)?;
    query.acquirer_name = text(q, "acquiring_company");
    query.acquirer_countries = countries(q, "acquirer_countries")?;
    query.exclude_acquirer_countries = countries(q, "exclude_acquirer_countries")?;
    Ok(())
}

fn hiring(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    // The length limit reads the value as sent, as the document's `maxLength` does.
    if let Some(sent) = q.get("description") {
        let parsed = parse_keyword_query(sent)
            .map_err(|e| ApiError::bad_request(format!("description: {e}")))?;
        if text(q, "description").is_some() {
            query.description = Some(parsed);
        }
    }
    query.job_countries = countries(q, "job_countries")?;
    query.company_countries = countries(q, "company_countries")?;
    query.states = list(q, "states", crate::domain::us_states::parse_us_states)?;
    query.city = text(q, "city");
    people_tags(query, q)?;
    if let Some(raw) = text(q, "team_size") {
        query.employee_ranges = vocab::parse_team_sizes(&raw)
            .map_err(ApiError::bad_request)?
            .into_iter()
            .map(|(lo, hi)| (lo.unwrap_or(0), hi))
            .collect();
    }
    let applicants = list(q, "applicants", vocab::parse_applicant_ranges)?;
    query.applicant_ranges = bucket_ranges(&applicants, vocab::applicants_bounds);
    Ok(())
}

/// The hiring list's parameters beyond its reference: posting validity and age, locations,
/// work mode, role logic and scope, counting.
fn hiring_extras(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    let today = Utc::now().date_naive();
    if flag(q, "include_expired")? == Some(false) {
        query.valid_on_or_after = Some(today.format("%Y-%m-%d").to_string());
    }
    query.open_on = date_param(q, "open_as_of")?.map(|d| d.format("%Y-%m-%d").to_string());
    if let Some(days) = q.int_in_range("posted_min_days_ago", 0, 3650)? {
        let last_day = today
            .checked_sub_days(Days::new(days as u64))
            .unwrap_or(today);
        query.posted_before_ms = day_range_ms(None, Some(last_day)).1;
    }
    query.job_locations = job_locations(q)?;
    query.work_mode = one_of(q, "work_mode", &["remote", "hybrid", "onsite"])?.map(str::to_string);
    query.any_tag_group = role_logic(q)?;
    query.count_companies = flag(q, "count_companies")?.unwrap_or(false);
    flag(q, "include_total")?;
    flag(q, "workflow_evidence")?;
    query.wellness_operators =
        one_of(q, "business_model", &["fitness_wellness_operators"])?.is_some();
    query.software_roles = one_of(q, "role_scope", &["software"])?.is_some();
    query.max_company_postings = q.int_in_range("max_company_postings", 1, 100)?;
    query.min_distinct_titles = q.int_in_range("min_distinct_titles", 2, 100)?;
    Ok(())
}

/// The hiring list's company filters beyond its reference: exclusions, founding, growth and
/// funding.
fn hiring_companies(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.exclude_company_countries = countries(q, "exclude_company_countries")?;
    query.exclude_company_ids = entries(q, "exclude_company_ids", 50)?;
    query.exclude_staffing_agencies = flag(q, "exclude_staffing_agencies")?.unwrap_or(false);
    let window = one_of(
        q,
        "headcount_growth_window",
        &["1m", "3m", "6m", "9m", "12m"],
    )?
    .unwrap_or("12m");
    if let Some(min) = number_in_range(q, "headcount_growth_min", -10_000.0, 10_000.0)? {
        let key = match window {
            "1m" => "growth_1m",
            "3m" => "growth_3m",
            "6m" => "growth_6m",
            "9m" => "growth_9m",
            _ => "growth_12m",
        };
        query.headcount_growth_min = Some((min, key));
    }
    let rounds = match text(q, "funding_rounds") {
        Some(raw) => {
            let rounds = vocab::parse_list(&raw, ',', vocab::ROUND_TYPES, "funding_rounds")
                .map_err(ApiError::bad_request)?;
            if rounds.len() > 20 {
                return Err(ApiError::bad_request(
                    "funding_rounds accepts at most 20 comma-separated values",
                ));
            }
            rounds
        }
        None => Vec::new(),
    };
    let investors = investor_names(q, "funding_investors")?;
    let investor_type = one_of(q, "funding_investor_type", &["vc", "pe"])?.map(str::to_string);
    let from = date_param(q, "funding_date_from")?;
    let to = date_param(q, "funding_date_to")?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ApiError::bad_request(
            "funding_date_from must not be after funding_date_to",
        ));
    }
    let (from_ms, until_ms) = day_range_ms(from, to);
    let filter = FundingFilter {
        rounds,
        investors,
        investor_type,
        from_ms,
        until_ms,
    };
    if filter != FundingFilter::default() {
        query.funding = Some(filter);
    }
    Ok(())
}

/// `job_locations`: up to 30 texts of at most 100 characters, comma-separated or a JSON array.
fn job_locations(q: &QueryParams) -> Result<Vec<String>, ApiError> {
    let Some(raw) = text(q, "job_locations") else {
        return Ok(Vec::new());
    };
    let values: Vec<String> = if raw.starts_with('[') {
        serde_json::from_str::<Vec<String>>(&raw).map_err(|_| {
            ApiError::bad_request(
                "job_locations must be a comma-separated list or a JSON array of strings",
            )
        })?
    } else {
        raw.split(',').map(str::to_string).collect()
    };
    let values: Vec<String> = values
        .iter()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if values.len() > 30 {
        return Err(ApiError::bad_request(
            "job_locations accepts at most 30 values",
        ));
    }
    if values.iter().any(|v| v.chars().count() > 100) {
        return Err(ApiError::bad_request(
            "job_locations values must be at most 100 characters long",
        ));
    }
    Ok(values)
}

/// `role_logic`: `and` (the default) or `or`; true for `or`.
fn role_logic(q: &QueryParams) -> Result<bool, ApiError> {
    Ok(one_of(q, "role_logic", &["and", "or"])? == Some("or"))
}

fn job_changes(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.city = text(q, "city");
    let person = [("personLinkedinUrl"), ("person_linkedin_url")]
        .into_iter()
        .find_map(|name| text(q, name).map(|raw| (name, raw)));
    if let Some((name, raw)) = person {
        let key = normalize_linkedin_profile(&raw).ok_or_else(|| {
            ApiError::bad_request(format!("{name} must be a LinkedIn member profile URL"))
        })?;
        query.person_key = Some(key);
    }
    query.exclude_signal_ids = entries(q, "exclude_signal_ids", 50)?;
    query.any_tag_group = role_logic(q)?;
    query.new_role = text(q, "new_role");
    if let Some(raw) = text(q, "source") {
        let source = vocab::parse_job_change_source(&raw)
            .map_err(|e| ApiError::bad_request(format!("source: {e}")))?;
        query.source = Some(source.to_string());
    }
    query.keyword = text(q, "keyword");
    people_tags(query, q)
}

fn people_tags(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    let groups = [
        ("position", list(q, "positions", vocab::parse_positions)?),
        (
            "department",
            list(q, "departments", vocab::parse_departments)?,
        ),
        (
            "seniority",
            list(q, "seniorities", vocab::parse_seniorities)?,
        ),
    ];
    for (prefix, values) in groups {
        if !values.is_empty() {
            query
                .tag_groups
                .push(values.iter().map(|v| format!("{prefix}:{v}")).collect());
        }
    }
    Ok(())
}

/// Inclusive lower and upper bounds of a bucket; `None` is open.
type Bounds = (Option<i64>, Option<i64>);

fn bucket_ranges(
    buckets: &[String],
    bounds: fn(&str) -> Option<Bounds>,
) -> Vec<(i64, Option<i64>)> {
    buckets
        .iter()
        .filter_map(|b| bounds(b))
        .map(|(lo, hi)| (lo.unwrap_or(0), hi))
        .collect()
}
