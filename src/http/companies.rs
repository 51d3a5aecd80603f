//! `GET /companies`: the filterable, paginated company list (credit-consuming).

use std::time::Duration;

use axum::extract::State;
use axum::response::Response;

use crate::http::auth::Principal;
use crate::http::charged::charged_list;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::signals::pagination::PagePagination;
use crate::http::signals::params::{
    company_domains, company_linkedin_urls, countries, flag, int_range, lower_list, one_of, paging,
    sorting, text,
};
use crate::http::state::AppState;
use crate::service::companies::{self, CompanyListRequest, CompanyQuery, EnrichOnMiss};

const ALLOWED: &[&str] = &[
    "page",
    "limit",
    "search",
    "domain",
    "linkedin_url",
    "countries",
    "exclude_countries",
    "industry",
    "categories",
    "subcategories",
    "employee_count_min",
    "employee_count_max",
    "founded_year_min",
    "founded_year_max",
    "sort_by",
    "sort_order",
    "count",
    "date_preset",
    "dateFrom",
    "dateTo",
    "filter_version",
    "enrich_on_miss",
    "enrich_wait",
    "enrich_timeout",
];
/// Seconds `enrich_wait` waits when `enrich_timeout` is not given.
const DEFAULT_ENRICH_TIMEOUT: i64 = 10;

/// The `sort_by` values and the columns they sort on.
pub const SORTS: &[(&str, &str)] = &[
    ("name", "lower(c.name)"),
    ("employee_count", "c.employee_count"),
    ("founded_year", "c.founded_year"),
    ("created_at", "c.created_at"),
];

/// Lists companies.
#[utoipa::path(get, path = "/api/v2/companies", operation_id = "getCompanies", tag = "Companies",
    params(crate::http::signals::docs::CompanyListParams),
    responses(
        (status = 200, description = "Company records with the page object; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn list(
    State(state): State<AppState>,
    principal: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    let request = parse_request(&q)?;
    let paging = request.paging;
    let answer = companies::list(&state, &principal.context(), request).await?;
    let pagination = PagePagination::new(paging.page, paging.limit, answer.total);
    Ok(charged_list("companies.list", pagination, answer.page))
}

/// The query parameters the company list accepts.
pub fn allowed() -> &'static [&'static str] {
    ALLOWED
}

/// Checks the company list's query parameters and builds the request.
pub fn parse_request(q: &QueryParams) -> Result<CompanyListRequest, ApiError> {
    q.allow_only(ALLOWED)?;
    one_of(q, "filter_version", &["1", "2"])?;
    let enrich = enrich_on_miss(q)?;
    let paging = paging(q)?;
    let (sort_column, order) = sorting(q, SORTS, "name")?;
    let (employee_min, employee_max) = int_range(q, "employee_count_min", "employee_count_max", 0)?;
    let (founded_min, founded_max) = int_range(q, "founded_year_min", "founded_year_max", 1800)?;
    let query = CompanyQuery {
        search: text(q, "search"),
        countries: countries(q, "countries")?,
        exclude_countries: countries(q, "exclude_countries")?,
        industries: lower_list(q, "industry", ','),
        categories: lower_list(q, "categories", '|'),
        subcategories: lower_list(q, "subcategories", ','),
        employee_min,
        employee_max,
        founded_min,
        founded_max,
        sort_column,
        order,
        ..CompanyQuery::default()
    };
    Ok(CompanyListRequest {
        query,
        domains: company_domains(q, "domain")?,
        linkedin_pages: company_linkedin_urls(q, "linkedin_url")?,
        paging,
        enrich,
    })
}

/// `enrich_on_miss`, with how long to wait for it: `enrich_timeout` seconds (default
/// [`DEFAULT_ENRICH_TIMEOUT`]) when `enrich_wait` is true. Each is checked even when unused.
fn enrich_on_miss(q: &QueryParams) -> Result<Option<EnrichOnMiss>, ApiError> {
    let on_miss = flag(q, "enrich_on_miss")?.unwrap_or(false);
    let wait = flag(q, "enrich_wait")?.unwrap_or(false);
    let timeout = q
        .int_in_range("enrich_timeout", 1, 30)?
        .unwrap_or(DEFAULT_ENRICH_TIMEOUT);
    Ok(on_miss.then(|| EnrichOnMiss {
        wait: wait.then(|| Duration::from_secs(timeout as u64)),
    }))
}
