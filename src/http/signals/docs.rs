//! Query parameters of the lists, described for the OpenAPI document. The handlers read the raw
//! query themselves (to name unknown and malformed parameters); these types only document it.

#![allow(dead_code)]

use utoipa::IntoParams;

/// Parameters every signal list takes.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CommonListParams {
    /// Page number, >= 1 (default 1).
    page: Option<i64>,
    /// Results per page, 1-100 (default 20).
    limit: Option<i64>,
    /// Inclusive start date, `YYYY-MM-DD` (UTC), or an RFC 3339 timestamp standing for its
    /// UTC day. Not after dateTo (400).
    #[param(rename = "dateFrom")]
    date_from: Option<String>,
    /// Inclusive end date, `YYYY-MM-DD` (UTC), or an RFC 3339 timestamp standing for its UTC
    /// day.
    #[param(rename = "dateTo")]
    date_to: Option<String>,
    /// Relative range, wins over dateFrom/dateTo: today, yesterday, last_7d, last_14d,
    /// last_30d, last_60d, last_90d, last_6m, last_1y, last_2y, this_week, this_month,
    /// this_quarter, this_year, last_week, last_month, last_quarter, last_year, last_3y,
    /// last_5y, all_time (no bound).
    date_preset: Option<String>,
    /// `1` or `2`; accepted for the real service's clients, no effect.
    filter_version: Option<String>,
    /// Company name: any part of it in any letter case, else with typos (match_confidence
    /// `fuzzy`).
    company_name: Option<String>,
    /// Company website domains, comma-separated (at most 50), strict (match_confidence `exact`).
    company_domain: Option<String>,
    /// LinkedIn company page URLs, comma-separated (at most 50), strict.
    company_linkedin_url: Option<String>,
    /// Sort field (per list).
    sort_by: Option<String>,
    /// `asc` or `desc` (default).
    sort_order: Option<String>,
    /// `true`: only pagination, no rows, no credit charged.
    count: Option<String>,
}

/// Company attribute filters of the funding and acquisition lists.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CompanyFilterParams {
    /// HQ countries: ISO codes, English names or EU, EUROPE, DACH, BENELUX, NORDICS, CEE, WE, NA,
    /// NORTH_AMERICA, LATAM.
    countries: Option<String>,
    /// HQ countries to exclude; companies with unknown HQ are kept.
    exclude_countries: Option<String>,
    /// Pipe-separated company categories.
    categories: Option<String>,
    /// Comma-separated subcategory ids, any letter case (funding: from the documented list).
    subcategories: Option<String>,
    /// Free text over company name and industry.
    search: Option<String>,
    /// Comma-separated exact industry names.
    industry: Option<String>,
    /// Not over employee_count_max (400).
    employee_count_min: Option<i64>,
    employee_count_max: Option<i64>,
    /// 1700-2100; not over founded_year_max (400).
    founded_year_min: Option<i64>,
    /// 1700-2100.
    founded_year_max: Option<i64>,
}

/// Funding-only filters.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FundingParams {
    /// Comma-separated round types (exact, case-insensitive).
    round: Option<String>,
    /// bridge, extension, secondary.
    round_flavor: Option<String>,
    /// Not over amount_max (400).
    amount_min: Option<i64>,
    amount_max: Option<i64>,
    /// One ISO 4217 currency.
    currency: Option<String>,
    /// verified, unverified, pending.
    verification_status: Option<String>,
    /// Investor name: any part of it, any letter case.
    investor_name: Option<String>,
    /// Which date the date range reads: occurred (default), discovered, occurred_at,
    /// discovered_at, announced (= occurred).
    date_basis: Option<String>,
    /// Comma-separated investor names (at most 50), exact, any letter case.
    investors: Option<String>,
    /// vc, pe, angel, corporate, other: rounds with an investor of this type.
    investor_type: Option<String>,
}

/// Hiring filters.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HiringParams {
    /// Free text over company name, industry, job title, location and city.
    search: Option<String>,
    /// Description query: whole words, AND, "phrases", OR, -exclusion (web search syntax); at
    /// most 1000 characters. A query without a word matches nothing; one of only exclusions
    /// keeps the postings that lack them.
    description: Option<String>,
    /// Job country OR company HQ country.
    countries: Option<String>,
    /// Excluded when either the job or the HQ country matches; unknown kept.
    exclude_countries: Option<String>,
    /// Job location only.
    job_countries: Option<String>,
    /// Company HQ only.
    company_countries: Option<String>,
    /// US state codes.
    states: Option<String>,
    /// Free text over city, location and region.
    city: Option<String>,
    categories: Option<String>,
    subcategories: Option<String>,
    /// Position tags, e.g. ceo, cto, vp of engineering, sales manager; an unknown value matches
    /// nothing.
    positions: Option<String>,
    /// Department tags, e.g. engineering, sales; an unknown value matches nothing.
    departments: Option<String>,
    /// Seniority tags, e.g. c_level, vp, manager; an unknown value matches nothing.
    seniorities: Option<String>,
    /// Employee-count ranges: 1-10, 11-50, 51-200, 201-1000, 1000-plus, or any N-M or N-plus.
    team_size: Option<String>,
    /// 0-25, 26-50, 51-100, 101-200, 201-plus.
    applicants: Option<String>,
    /// `false` leaves out postings whose validThrough is before today; omitted keeps them.
    include_expired: Option<String>,
    /// Postings open that day (date or timestamp).
    open_as_of: Option<String>,
    /// 0-3650: postings at least that many days old.
    posted_min_days_ago: Option<i64>,
    /// Up to 30 texts (comma list or JSON array): any part of the location, city or region.
    job_locations: Option<String>,
    /// remote, hybrid, onsite.
    work_mode: Option<String>,
    /// HQ countries to leave out; unknown HQ kept.
    exclude_company_countries: Option<String>,
    /// Company domains to leave out (at most 50).
    exclude_company_domain: Option<String>,
    /// Company ids to leave out (at most 50).
    exclude_company_ids: Option<String>,
    /// `true` leaves out staffing and recruiting companies.
    exclude_staffing_agencies: Option<String>,
    /// 1700-2100.
    founded_year_min: Option<i64>,
    /// 1700-2100.
    founded_year_max: Option<i64>,
    /// -10000 to 10000: least headcount growth in percent.
    headcount_growth_min: Option<f64>,
    /// 1m, 3m, 6m, 9m, 12m (default): the growth figure read.
    headcount_growth_window: Option<String>,
    /// Round types (at most 20): the company has such a funding round.
    funding_rounds: Option<String>,
    /// Investor names (at most 50, exact): the company has a round with one of them.
    funding_investors: Option<String>,
    /// vc, pe: the company has a round with an investor of this type.
    funding_investor_type: Option<String>,
    /// The qualifying round on or after this day.
    funding_date_from: Option<String>,
    /// The qualifying round on or before this day.
    funding_date_to: Option<String>,
    /// 1-100: leaves out companies with more matching postings.
    max_company_postings: Option<i64>,
    /// 2-100: keeps companies whose matching postings have this many distinct titles.
    min_distinct_titles: Option<i64>,
    /// and (default), or: how positions, departments and seniorities combine.
    role_logic: Option<String>,
    /// `true`: totalCount counts distinct companies.
    count_companies: Option<String>,
    /// Accepted; totals are always included.
    include_total: Option<String>,
    /// fitness_wellness_operators.
    business_model: Option<String>,
    /// Accepted; no effect.
    workflow_evidence: Option<String>,
    /// software: software roles only.
    role_scope: Option<String>,
}

/// Acquisition-only filters.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AcquisitionParams {
    /// Acquiring company name, partial.
    acquiring_company: Option<String>,
    acquirer_countries: Option<String>,
    exclude_acquirer_countries: Option<String>,
    amount_min: Option<i64>,
    amount_max: Option<i64>,
    /// USD or EUR.
    currency: Option<String>,
    verification_status: Option<String>,
}

/// Job change filters.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct JobChangeParams {
    /// Free text over company, industry, person, role and place.
    search: Option<String>,
    /// Person country OR company HQ.
    countries: Option<String>,
    exclude_countries: Option<String>,
    /// Person city or location: any part, any letter case.
    city: Option<String>,
    /// Exact member profile URL.
    #[param(rename = "personLinkedinUrl")]
    person_linkedin_url_camel: Option<String>,
    /// Same as personLinkedinUrl.
    person_linkedin_url: Option<String>,
    /// Pipe-separated categories of the new company.
    categories: Option<String>,
    /// Comma-separated subcategory ids of the new company.
    subcategories: Option<String>,
    /// Signal ids to leave out (at most 50).
    exclude_signal_ids: Option<String>,
    /// and (default), or: how positions, departments and seniorities combine.
    role_logic: Option<String>,
    /// Legacy alias of company_linkedin_url.
    #[param(rename = "companyLinkedinUrl")]
    company_linkedin_url_legacy: Option<String>,
    /// New role: any part of it, any letter case.
    new_role: Option<String>,
    /// linkedin, press_release, other.
    source: Option<String>,
    /// Keyword tag, partial.
    keyword: Option<String>,
    positions: Option<String>,
    departments: Option<String>,
    seniorities: Option<String>,
}

/// Company list filters.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CompanyListParams {
    page: Option<i64>,
    limit: Option<i64>,
    /// Free text over name, industry, description, keywords, specialties.
    search: Option<String>,
    /// Exact website domain.
    domain: Option<String>,
    /// Exact LinkedIn company page URL.
    linkedin_url: Option<String>,
    countries: Option<String>,
    exclude_countries: Option<String>,
    industry: Option<String>,
    categories: Option<String>,
    subcategories: Option<String>,
    employee_count_min: Option<i64>,
    employee_count_max: Option<i64>,
    founded_year_min: Option<i64>,
    founded_year_max: Option<i64>,
    /// name (default), employee_count, founded_year, created_at.
    sort_by: Option<String>,
    sort_order: Option<String>,
    count: Option<String>,
    /// `1` or `2`; no effect.
    filter_version: Option<String>,
    /// true: when no known company has the `domain`, look its website up (as research does
    /// for a pending domain target) and store the company it names; the page is charged as
    /// usual, and a failed look-up leaves the list empty. Nothing is fetched when website
    /// look-ups are off.
    enrich_on_miss: Option<String>,
    /// true: wait up to enrich_timeout for that look-up, and list the company it found in this
    /// response; otherwise answer at once (empty) while the look-up goes on.
    enrich_wait: Option<String>,
    /// Longest wait of enrich_wait, 1-30 seconds (default 10).
    enrich_timeout: Option<i64>,
}
