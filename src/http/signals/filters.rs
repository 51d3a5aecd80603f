//! Each signal list's parameters: which it accepts, and how they become a [`SignalQuery`].

use super::identity::parse_identity;
use super::params::{
    countries, date_range, funding_subcategories, int_range, list, lower_list, paging, sorting,
    text,
};
use crate::domain::keyword_query::parse_keyword_query;
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_linkedin_profile;
use crate::domain::vocabulary as vocab;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::service::signals::{SignalListRequest, SignalQuery};

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

/// Validates every parameter of a `kind` list request and builds its query.
pub fn parse_request(kind: SignalType, q: &QueryParams) -> Result<SignalListRequest, ApiError> {
    q.allow_only(&allowed(kind))?;
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
    match kind {
        SignalType::FundingRound => funding(&mut query, q)?,
        SignalType::Hiring => hiring(&mut query, q)?,
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
    (query.founded_min, query.founded_max) =
        int_range(q, "founded_year_min", "founded_year_max", 1800)?;
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
    Ok(())
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
    if let Some(raw) = text(q, "description") {
        query.description = Some(
            parse_keyword_query(&raw)
                .map_err(|e| ApiError::bad_request(format!("description: {e}")))?,
        );
    }
    query.job_countries = countries(q, "job_countries")?;
    query.company_countries = countries(q, "company_countries")?;
    query.states = list(q, "states", crate::domain::us_states::parse_us_states)?;
    query.city = text(q, "city");
    people_tags(query, q)?;
    let sizes = list(q, "team_size", vocab::parse_team_sizes)?;
    query.employee_ranges = bucket_ranges(&sizes, vocab::team_size_bounds);
    let applicants = list(q, "applicants", vocab::parse_applicant_ranges)?;
    query.applicant_ranges = bucket_ranges(&applicants, vocab::applicants_bounds);
    Ok(())
}

fn job_changes(query: &mut SignalQuery, q: &QueryParams) -> Result<(), ApiError> {
    query.city = text(q, "city");
    if let Some(raw) = text(q, "personLinkedinUrl") {
        let key = normalize_linkedin_profile(&raw).ok_or_else(|| {
            ApiError::bad_request("personLinkedinUrl must be a LinkedIn member profile URL")
        })?;
        query.person_key = Some(key);
    }
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
