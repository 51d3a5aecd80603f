//! `GET /signals/investors`: the investors of stored funding rounds, filtered, paged and charged
//! like the signal lists.

use axum::extract::State;
use axum::response::Response;
use utoipa::IntoParams;

use super::pagination::PagePagination;
use super::params::{countries, date_range, int_range, paging, sorting, text};
use crate::http::auth::Principal;
use crate::http::charged::charged_list;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::state::AppState;
use crate::service::investors::{self, InvestorListRequest, InvestorQuery, TYPE_GROUPS};

/// The `meta.endpoint` of the investor list.
pub const ENDPOINT: &str = "signals.investors";

const ALLOWED: &[&str] = &[
    "page",
    "limit",
    "dateFrom",
    "dateTo",
    "date_preset",
    "search",
    "countries",
    "exclude_countries",
    "type",
    "categories",
    "headquarters",
    "ticket_size_min",
    "ticket_size_max",
    "sort_by",
    "sort_order",
    "count",
];

/// The `sort_by` values and the aggregate columns they sort on.
pub const SORTS: &[(&str, &str)] = &[
    ("name", "lower(g.name)"),
    ("created_at", "g.first_seen"),
    ("ticket_size_min", "g.ticket_min"),
    ("ticket_size_max", "g.ticket_max"),
];

/// Lists investors.
#[utoipa::path(get, path = "/api/v2/signals/investors", operation_id = "getInvestors", tag = "Signals",
    params(InvestorParams),
    responses(
        (status = 200, description = "Investors derived from stored funding rounds, with the page object; costs 1 credit"),
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
    let answer = investors::list(&state, &principal.context(), request).await?;
    let pagination = PagePagination::new(paging.page, paging.limit, answer.total);
    Ok(charged_list(ENDPOINT, pagination, answer.page))
}

/// Checks the investor list's query parameters and builds the request.
pub fn parse_request(q: &QueryParams) -> Result<InvestorListRequest, ApiError> {
    q.allow_only(ALLOWED)?;
    let paging = paging(q)?;
    let (sort_column, order) = sorting(q, SORTS, "created_at")?;
    let (created_from_ms, created_until_ms) = date_range(q)?;
    let (ticket_size_min, ticket_size_max) = int_range(q, "ticket_size_min", "ticket_size_max", 0)?;
    let mut groups = type_groups(q, "type", ',')?;
    groups.extend(type_groups(q, "categories", '|')?);
    let query = InvestorQuery {
        search: text(q, "search").map(|s| s.to_lowercase()),
        countries: countries(q, "countries")?,
        exclude_countries: countries(q, "exclude_countries")?,
        type_patterns: investors::type_patterns(&groups),
        headquarters: text(q, "headquarters"),
        ticket_size_min,
        ticket_size_max,
        created_from_ms,
        created_until_ms,
        sort_column,
        order,
        ..InvestorQuery::default()
    };
    Ok(InvestorListRequest { query, paging })
}

/// The type groups named by `name` (split on `sep`); an unknown one is a 400 naming it.
fn type_groups(q: &QueryParams, name: &str, sep: char) -> Result<Vec<&'static str>, ApiError> {
    let Some(raw) = text(q, name) else {
        return Ok(Vec::new());
    };
    raw.split(sep)
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|value| {
            TYPE_GROUPS
                .iter()
                .map(|(group, _)| *group)
                .find(|group| group.eq_ignore_ascii_case(value))
                .ok_or_else(|| {
                    let names: Vec<&str> = TYPE_GROUPS.iter().map(|(g, _)| *g).collect();
                    ApiError::bad_request(format!(
                        "Invalid {name} value: {value}. Accepted values: {}.",
                        names.join(", ")
                    ))
                })
        })
        .collect()
}

/// Query parameters of the investor list, described for the OpenAPI document (the handler
/// reads the raw query to name unknown and malformed parameters).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct InvestorParams {
    /// Page number, >= 1 (default 1).
    page: Option<i64>,
    /// Results per page, 1-100 (default 20).
    limit: Option<i64>,
    /// Investors first seen (their first stored round) on or after this day: `YYYY-MM-DD`
    /// (UTC) or an RFC 3339 timestamp standing for its UTC day. Not after dateTo.
    #[param(rename = "dateFrom")]
    date_from: Option<String>,
    /// Investors first seen on or before this day (inclusive).
    #[param(rename = "dateTo")]
    date_to: Option<String>,
    /// Relative range of the first-seen day; wins over dateFrom/dateTo.
    date_preset: Option<String>,
    /// Any part of the investor's name or type, any letter case.
    search: Option<String>,
    /// Investors that funded a company headquartered in one of these (ISO codes, English names,
    /// regions).
    countries: Option<String>,
    /// Investors that funded no company headquartered in any of these; investors with no known
    /// country are kept.
    exclude_countries: Option<String>,
    /// Comma-separated type groups: vc, angel, pe, corporate, government, accelerator,
    /// family_office, hedge_fund, crowdfunding; each matches the stored free-text types of its
    /// group (`vc` matches "VC", "Venture Capital", "Corporate VC").
    #[param(rename = "type")]
    investor_type: Option<String>,
    /// Legacy: pipe-separated type groups, as `type`.
    categories: Option<String>,
    /// Part of the headquarters; no stored record gives one, so any value matches nothing.
    headquarters: Option<String>,
    /// Smallest US dollar round at least this; not over ticket_size_max.
    ticket_size_min: Option<i64>,
    /// Largest US dollar round at most this.
    ticket_size_max: Option<i64>,
    /// name, created_at (default), ticket_size_min, ticket_size_max.
    sort_by: Option<String>,
    /// `asc` or `desc` (default).
    sort_order: Option<String>,
    /// `true`: only pagination, no rows, no credit charged.
    count: Option<String>,
}
