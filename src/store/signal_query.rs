//! What a signal list asks for, as typed values the SQL is built from.

use crate::domain::signal_type::SignalType;

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    Asc,
    #[default]
    Desc,
}

/// Which date of a signal the date range reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DateBasis {
    /// When it happened (`occurredAt`; a posting's `datePosted`).
    #[default]
    Occurred,
    /// When the service found it (`discoveredAt`).
    Discovered,
}

/// The funding a company must have had for its postings to be listed (the hiring list's
/// `funding_*` filters): a funding round of one of `rounds`, with one of `investors` (exact names,
/// lower case), with an investor of `investor_type`, in `[from_ms, until_ms)`; empty parts are
/// not tested.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FundingFilter {
    pub rounds: Vec<String>,
    pub investors: Vec<String>,
    pub investor_type: Option<String>,
    pub from_ms: Option<i64>,
    pub until_ms: Option<i64>,
}

/// Which rows of a signal list to return, and in what order.
#[derive(Debug, Clone, Default)]
pub struct SignalQuery {
    pub kind: Option<SignalType>,
    /// Inclusive lower bound, epoch ms.
    pub from_ms: Option<i64>,
    /// Exclusive upper bound, epoch ms.
    pub until_ms: Option<i64>,
    /// Strict company identity (from domains / LinkedIn URLs); `Some(empty)` matches nothing.
    pub company_ids: Option<Vec<String>>,
    pub company_name: Option<String>,
    pub search: Option<String>,
    /// Country allowlist: company HQ, or also the row's own country (job, person).
    pub countries: Vec<String>,
    pub exclude_countries: Vec<String>,
    pub job_countries: Vec<String>,
    pub company_countries: Vec<String>,
    pub categories: Vec<String>,
    pub subcategories: Vec<String>,
    pub industries: Vec<String>,
    pub employee_min: Option<i64>,
    pub employee_max: Option<i64>,
    pub founded_min: Option<i64>,
    pub founded_max: Option<i64>,
    pub round_types: Vec<String>,
    pub round_flavors: Vec<String>,
    pub currencies: Vec<String>,
    pub verification: Vec<String>,
    pub amount_min: Option<i64>,
    pub amount_max: Option<i64>,
    pub investor_name: Option<String>,
    pub acquirer_name: Option<String>,
    pub acquirer_countries: Vec<String>,
    pub exclude_acquirer_countries: Vec<String>,
    pub states: Vec<String>,
    pub city: Option<String>,
    /// A parsed description query, rendered for the backend by the caller's choice.
    pub description: Option<crate::domain::keyword_query::KeywordQuery>,
    /// Tag groups: a row must carry at least one tag of every group.
    pub tag_groups: Vec<Vec<String>>,
    /// Employee-count ranges (inclusive), any of which matches.
    pub employee_ranges: Vec<(i64, Option<i64>)>,
    /// Applicant-count ranges (inclusive), any of which matches.
    pub applicant_ranges: Vec<(i64, Option<i64>)>,
    pub person_key: Option<String>,
    pub new_role: Option<String>,
    pub source: Option<String>,
    pub keyword: Option<String>,
    /// Which date `from_ms`/`until_ms` read.
    pub date_basis: DateBasis,
    /// Postings whose `validThrough` day is before this day (`YYYY-MM-DD`) are left out.
    pub valid_on_or_after: Option<String>,
    /// Postings open on this day (`YYYY-MM-DD`): posted by its end, valid through it or open.
    pub open_on: Option<String>,
    /// Exclusive upper bound of the posting date (epoch ms), `posted_min_days_ago`.
    pub posted_before_ms: Option<i64>,
    /// Lower-case texts, any of which the posting's location, city or region contains.
    pub job_locations: Vec<String>,
    /// The posting's work mode (`remote`, `hybrid`, `onsite`).
    pub work_mode: Option<String>,
    pub exclude_company_countries: Vec<String>,
    /// Companies left out (given by id, or resolved from domains by the caller).
    pub exclude_company_ids: Vec<String>,
    pub exclude_staffing_agencies: bool,
    /// Least headcount growth (percent) and the `growthInfo` key it reads.
    pub headcount_growth_min: Option<(f64, &'static str)>,
    pub funding: Option<FundingFilter>,
    /// Companies with more matching postings than this are left out.
    pub max_company_postings: Option<i64>,
    /// Companies whose matching postings have fewer distinct titles than this are left out.
    pub min_distinct_titles: Option<i64>,
    /// `tag_groups` combine with OR instead of AND.
    pub any_tag_group: bool,
    /// Companies in wellness and fitness only (`business_model`).
    pub wellness_operators: bool,
    /// Software roles only (`role_scope=software`).
    pub software_roles: bool,
    /// Funding rounds with one of these investors (exact names, lower case).
    pub investors: Vec<String>,
    /// Funding rounds with an investor of this type (lower case).
    pub investor_type: Option<String>,
    pub exclude_signal_ids: Vec<String>,
    /// The count counts distinct companies instead of rows.
    pub count_companies: bool,
    /// SQL expression to sort by (from a fixed list chosen by the caller).
    pub sort_column: &'static str,
    pub order: Order,
    pub limit: i64,
    pub offset: i64,
}

impl SignalQuery {
    /// True when a filter reads the signal's company. Country filters read the signal's copy of
    /// its company's country instead.
    pub fn filters_on_company(&self) -> bool {
        self.search_reads_company()
            || !self.categories.is_empty()
            || !self.subcategories.is_empty()
            || !self.industries.is_empty()
            || self.employee_min.is_some()
            || self.employee_max.is_some()
            || self.founded_min.is_some()
            || self.founded_max.is_some()
            || !self.employee_ranges.is_empty()
            || self.exclude_staffing_agencies
            || self.headcount_growth_min.is_some()
            || self.wellness_operators
    }

    /// True when rows are kept or left out by how many rows their company has among the matches.
    pub fn filters_on_company_rows(&self) -> bool {
        self.max_company_postings.is_some() || self.min_distinct_titles.is_some()
    }

    /// True when `search` is read off the joined company: on funding rounds and acquisitions.
    /// Postings and job changes match their own text or their company's through one set of
    /// signals that needs no join (`store::search::own_or_company_search_clause`).
    fn search_reads_company(&self) -> bool {
        self.search.is_some()
            && !matches!(
                self.kind,
                Some(SignalType::Hiring) | Some(SignalType::JobChange)
            )
    }

    /// True when a filter reads the other company (acquirer or previous employer).
    pub fn filters_on_other_company(&self) -> bool {
        self.acquirer_name.is_some()
            || !self.acquirer_countries.is_empty()
            || !self.exclude_acquirer_countries.is_empty()
    }
}
