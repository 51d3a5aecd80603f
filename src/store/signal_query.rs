//! What a signal list asks for, as typed values the SQL is built from.

use crate::domain::signal_type::SignalType;

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    Asc,
    #[default]
    Desc,
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
        self.search.is_some()
            || !self.categories.is_empty()
            || !self.subcategories.is_empty()
            || !self.industries.is_empty()
            || self.employee_min.is_some()
            || self.employee_max.is_some()
            || self.founded_min.is_some()
            || self.founded_max.is_some()
            || !self.employee_ranges.is_empty()
    }

    /// True when a filter reads the other company (acquirer or previous employer).
    pub fn filters_on_other_company(&self) -> bool {
        self.acquirer_name.is_some()
            || !self.acquirer_countries.is_empty()
            || !self.exclude_acquirer_countries.is_empty()
    }
}
