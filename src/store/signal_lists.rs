//! The signal list query: filters, order and paging built into one SELECT over `signals` joined
//! to the signal's company (and the other company: acquirer or previous employer).

use sqlx::FromRow;

use super::count_cache::CountCache;
use super::query::{Conditions, cached_count, fetch_all};
use super::search::{
    SignalField, company_search_clause, description_clause, signal_field_clause,
    signal_search_clause,
};
use super::signal_query::{Order, SignalQuery};
use super::{Db, StoreError};
use crate::domain::signal_type::SignalType;
use crate::domain::vocabulary::UNVERIFIED;

/// One signal with the fields of its companies, as the lists show it.
#[derive(Debug, Clone, FromRow)]
pub struct SignalListRow {
    pub id: String,
    pub kind: String,
    pub occurred_at: i64,
    pub discovered_at: i64,
    pub payload: String,
    pub c_id: String,
    pub c_name: String,
    pub c_slug: Option<String>,
    pub c_logo_url: Option<String>,
    pub c_website: Option<String>,
    pub c_linkedin_url: Option<String>,
    pub c_industry: Option<String>,
    pub c_country: Option<String>,
    pub c_subcategory: Option<String>,
    pub c_description: Option<String>,
    pub c_founded_year: Option<i64>,
    pub c_employee_count: Option<i64>,
    pub c_categories: String,
    pub c_specialties: String,
    pub o_id: Option<String>,
    pub o_name: Option<String>,
    pub o_slug: Option<String>,
    pub o_logo_url: Option<String>,
    pub o_website: Option<String>,
    pub o_linkedin_url: Option<String>,
    pub o_industry: Option<String>,
    pub o_country: Option<String>,
    pub o_subcategory: Option<String>,
    pub o_founded_year: Option<i64>,
    pub o_employee_count: Option<i64>,
}

/// The columns of a [`SignalListRow`]: the signal, its company (`c_`) and the other company (`o_`).
pub(crate) const SELECT: &str = "SELECT s.id, s.kind, s.occurred_at, s.discovered_at, s.payload, \
     c.id AS c_id, c.name AS c_name, c.slug AS c_slug, c.logo_url AS c_logo_url, \
     c.website AS c_website, c.linkedin_url AS c_linkedin_url, c.industry AS c_industry, \
     c.headquarters_country AS c_country, c.subcategory AS c_subcategory, \
     c.description AS c_description, c.founded_year AS c_founded_year, \
     c.employee_count AS c_employee_count, c.categories AS c_categories, \
     c.specialties AS c_specialties, o.id AS o_id, o.name AS o_name, o.slug AS o_slug, \
     o.logo_url AS o_logo_url, o.website AS o_website, o.linkedin_url AS o_linkedin_url, \
     o.industry AS o_industry, o.headquarters_country AS o_country, \
     o.subcategory AS o_subcategory, o.founded_year AS o_founded_year, \
     o.employee_count AS o_employee_count";

/// The joins behind [`SELECT`].
pub(crate) const FROM: &str = " FROM signals s JOIN companies c ON c.id = s.company_id \
     LEFT JOIN companies o ON o.id = s.other_company_id";

/// One page of signals.
pub async fn list_signals(db: &Db, q: &SignalQuery) -> Result<Vec<SignalListRow>, StoreError> {
    let mut c = conditions(db, q);
    let direction = match q.order {
        Order::Asc => "ASC",
        Order::Desc => "DESC",
    };
    let limit = c.int(q.limit);
    let offset = c.int(q.offset);
    // Dates are never null: leaving NULLS LAST out lets the (kind, date, id) index give the order.
    let nulls = if q.sort_column.starts_with("s.") && q.sort_column.ends_with("_at") {
        ""
    } else {
        " NULLS LAST"
    };
    let order = format!("{} {direction}{nulls}, s.id {direction}", q.sort_column);
    let sql = if q.sort_column.starts_with("s.")
        && !q.filters_on_company()
        && !q.filters_on_other_company()
    {
        // Every signal has its company, so the page can be chosen from `signals` alone and only
        // its rows joined: the rows an offset skips cost an index step, not two joins.
        format!(
            "{SELECT} FROM (SELECT s.id FROM signals s{} ORDER BY {order} \
             LIMIT {limit} OFFSET {offset}) p JOIN signals s ON s.id = p.id \
             JOIN companies c ON c.id = s.company_id \
             LEFT JOIN companies o ON o.id = s.other_company_id ORDER BY {order}",
            c.where_clause()
        )
    } else {
        // On SQLite, `+` keeps the planner from reading every signal of the matching companies
        // and sorting them (SQLite 3.51 prefers that even for most companies): the page is read
        // in list order, each row's company looked up.
        let from = match db {
            Db::Sqlite(_) => FROM.replace("= s.company_id", "= +s.company_id"),
            Db::Postgres(_) => FROM.to_string(),
        };
        format!(
            "{SELECT}{from}{} ORDER BY {order} LIMIT {limit} OFFSET {offset}",
            c.where_clause()
        )
    };
    fetch_all(db, sql, c.binds()).await
}

/// Number of signals matching the filters, from `cache` while the list data is unchanged. Every
/// signal has its company, so the joins are left out unless a filter reads them.
pub async fn count_signals(
    db: &Db,
    cache: &CountCache,
    q: &SignalQuery,
) -> Result<i64, StoreError> {
    let c = conditions(db, q);
    let mut from = String::from(" FROM signals s");
    if q.filters_on_company() {
        from.push_str(" JOIN companies c ON c.id = s.company_id");
    }
    if q.filters_on_other_company() {
        from.push_str(" LEFT JOIN companies o ON o.id = s.other_company_id");
    }
    let sql = format!("SELECT COUNT(*){from}{}", c.where_clause());
    cached_count(db, cache, sql, c.binds()).await
}

fn conditions(db: &Db, q: &SignalQuery) -> Conditions {
    let mut c = Conditions::default();
    if let Some(kind) = q.kind {
        let k = c.text(kind.as_str());
        c.and(format!("s.kind = {k}"));
    }
    date_filters(&mut c, q);
    company_filters(&mut c, db, q);
    country_filters(&mut c, q);
    deal_filters(&mut c, db, q);
    row_filters(&mut c, db, q);
    c
}

fn date_filters(c: &mut Conditions, q: &SignalQuery) {
    if let Some(from) = q.from_ms {
        let p = c.int(from);
        c.and(format!("s.occurred_at >= {p}"));
    }
    if let Some(until) = q.until_ms {
        let p = c.int(until);
        c.and(format!("s.occurred_at < {p}"));
    }
}

fn in_list(c: &mut Conditions, column: &str, values: &[String]) {
    if !values.is_empty() {
        let list = c.text_list(values);
        c.and(format!("{column} IN ({list})"));
    }
}

/// `verification_status`: a deal stored without a status shows, and filters, as `unverified`.
fn verification(c: &mut Conditions, statuses: &[String]) {
    if statuses.is_empty() {
        return;
    }
    let list = c.text_list(statuses);
    if statuses.iter().any(|s| s == UNVERIFIED) {
        c.and(format!(
            "(s.verification_status IN ({list}) OR s.verification_status IS NULL)"
        ));
    } else {
        c.and(format!("s.verification_status IN ({list})"));
    }
}

fn range(c: &mut Conditions, column: &str, min: Option<i64>, max: Option<i64>) {
    if let Some(min) = min {
        let p = c.int(min);
        c.and(format!("{column} >= {p}"));
    }
    if let Some(max) = max {
        let p = c.int(max);
        c.and(format!("{column} <= {p}"));
    }
}

fn company_filters(c: &mut Conditions, db: &Db, q: &SignalQuery) {
    if let Some(ids) = &q.company_ids {
        if ids.is_empty() {
            c.and("1 = 0");
        } else {
            in_list(c, "s.company_id", ids);
        }
    }
    if let Some(search) = &q.search {
        let company = company_search_clause(c, db, "c", search, true);
        match q.kind {
            Some(SignalType::Hiring) | Some(SignalType::JobChange) => {
                let own = signal_search_clause(c, db, search);
                c.and(format!("({company} OR {own})"));
            }
            _ => c.and(company),
        }
    }
    if !q.categories.is_empty() {
        let clause = super::search::categories_clause(c, db, "c.categories", &q.categories);
        c.and(clause);
    }
    in_list(c, "lower(c.subcategory)", &q.subcategories);
    in_list(c, "lower(c.industry)", &q.industries);
    range(c, "c.employee_count", q.employee_min, q.employee_max);
    range(c, "c.founded_year", q.founded_min, q.founded_max);
    ranges_any(c, "c.employee_count", &q.employee_ranges);
}

fn country_filters(c: &mut Conditions, q: &SignalQuery) {
    let own_country = matches!(
        q.kind,
        Some(SignalType::Hiring) | Some(SignalType::JobChange)
    );
    if !q.countries.is_empty() {
        let list = c.text_list(&q.countries);
        if own_country {
            c.and(format!(
                "(s.country IN ({list}) OR c.headquarters_country IN ({list}))"
            ));
        } else {
            c.and(format!("c.headquarters_country IN ({list})"));
        }
    }
    if !q.exclude_countries.is_empty() {
        let list = c.text_list(&q.exclude_countries);
        c.and(format!(
            "(c.headquarters_country IS NULL OR c.headquarters_country NOT IN ({list}))"
        ));
        if own_country {
            c.and(format!("(s.country IS NULL OR s.country NOT IN ({list}))"));
        }
    }
    in_list(c, "s.country", &q.job_countries);
    in_list(c, "c.headquarters_country", &q.company_countries);
    in_list(c, "o.headquarters_country", &q.acquirer_countries);
    if !q.exclude_acquirer_countries.is_empty() {
        let list = c.text_list(&q.exclude_acquirer_countries);
        c.and(format!(
            "(o.headquarters_country IS NULL OR o.headquarters_country NOT IN ({list}))"
        ));
    }
}

fn deal_filters(c: &mut Conditions, db: &Db, q: &SignalQuery) {
    in_list(c, "s.round_type", &q.round_types);
    in_list(c, "s.round_flavor", &q.round_flavors);
    in_list(c, "s.currency", &q.currencies);
    verification(c, &q.verification);
    range(c, "s.amount", q.amount_min, q.amount_max);
    if let Some(name) = &q.investor_name {
        let p = c.text(format!("investor:%{}%", escape_like(&name.to_lowercase())));
        c.and(format!(
            "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id \
             AND t.tag LIKE {p} ESCAPE '\\')"
        ));
    }
    if let Some(name) = &q.acquirer_name {
        let clause = company_search_clause(c, db, "o", name, true);
        c.and(clause);
    }
}

fn row_filters(c: &mut Conditions, db: &Db, q: &SignalQuery) {
    in_list(c, "s.region", &q.states);
    if let Some(city) = &q.city {
        let clause = signal_field_clause(c, db, SignalField::Place, city);
        c.and(clause);
    }
    if let Some(query) = &q.description {
        let clause = description_clause(c, db, query);
        c.and(clause);
    }
    for group in &q.tag_groups {
        let list = c.text_list(group);
        c.and(tag_group_clause(db, group, &list));
    }
    ranges_any(c, "s.applicants", &q.applicant_ranges);
    if let Some(key) = &q.person_key {
        let p = c.text(key.clone());
        c.and(format!("s.person_key = {p}"));
    }
    if let Some(role) = &q.new_role {
        let clause = signal_field_clause(c, db, SignalField::Role, role);
        c.and(clause);
    }
    if let Some(source) = &q.source {
        let p = c.text(source.clone());
        c.and(format!("s.source = {p}"));
    }
    if let Some(keyword) = &q.keyword {
        let p = c.text(format!(
            "keyword:%{}%",
            escape_like(&keyword.to_lowercase())
        ));
        c.and(format!(
            "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id \
             AND t.tag LIKE {p} ESCAPE '\\')"
        ));
    }
}

/// A row carries one of the tags `list` (placeholders of `group`). Department and seniority tags
/// have few values, each on many rows: each row read in list order has its tags looked up
/// (EXISTS). Other tags (positions, keywords, investors) are rarer: their rows are gathered once
/// and each row read in list order is tested against them. On SQLite the `+` keeps the planner
/// from reading every tagged row and sorting them (0.7 s for the CTO/CEO job changes at scale l,
/// 5 s for seniority plus department).
fn tag_group_clause(db: &Db, group: &[String], list: &str) -> String {
    let common = group
        .iter()
        .all(|t| t.starts_with("department:") || t.starts_with("seniority:"));
    let id = match db {
        Db::Sqlite(_) => "+s.id",
        Db::Postgres(_) => "s.id",
    };
    if common {
        format!(
            "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id AND t.tag IN ({list}))"
        )
    } else {
        format!("{id} IN (SELECT t.signal_id FROM signal_tags t WHERE t.tag IN ({list}))")
    }
}

fn ranges_any(c: &mut Conditions, column: &str, ranges: &[(i64, Option<i64>)]) {
    if ranges.is_empty() {
        return;
    }
    let parts: Vec<String> = ranges
        .iter()
        .map(|(min, max)| {
            let lo = c.int(*min);
            match max {
                Some(max) => {
                    let hi = c.int(*max);
                    format!("({column} >= {lo} AND {column} <= {hi})")
                }
                None => format!("{column} >= {lo}"),
            }
        })
        .collect();
    c.and(format!("({})", parts.join(" OR ")));
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
pub fn escape_like(input: &str) -> String {
    input
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
