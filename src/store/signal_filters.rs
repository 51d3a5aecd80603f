//! The WHERE conditions of the signal list query, one helper per group of filters. Columns are
//! named by the aliases of `signal_lists`: `s` the signal, `c` its company, `o` the other company.

use super::Db;
use super::query::Conditions;
use super::search::{
    SignalField, company_search_clause, description_clause, signal_field_clause,
    signal_search_clause,
};
use super::signal_query::SignalQuery;
use super::tag_strategy::TagTest;
use crate::domain::signal_type::SignalType;
use crate::domain::vocabulary::UNVERIFIED;

/// The WHERE conditions of a signal list query (shared by the page and its count); `tags` says
/// how each of `q.tag_groups` is tested.
pub(crate) fn conditions(db: &Db, q: &SignalQuery, tags: &[TagTest]) -> Conditions {
    let mut c = Conditions::default();
    if let Some(kind) = q.kind {
        let k = c.text(kind.as_str());
        c.and(format!("s.kind = {k}"));
    }
    date_filters(&mut c, q);
    company_filters(&mut c, db, q);
    country_filters(&mut c, db, q);
    deal_filters(&mut c, db, q);
    row_filters(&mut c, db, q);
    tag_filters(&mut c, db, q, tags);
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

/// Company countries are read from the signal's copy (`company_country`), so these filters need
/// no company row. Without a date range, SQLite is kept (`+`) from reading every signal of the
/// countries off `signals_kind_company_country` and sorting them (tens of thousands of rows for
/// a large country, where reading a page in amount order and testing each row stops after a
/// few); with one, that index is the short way to a few countries' signals of a period.
fn country_filters(c: &mut Conditions, db: &Db, q: &SignalQuery) {
    let own_country = matches!(
        q.kind,
        Some(SignalType::Hiring) | Some(SignalType::JobChange)
    );
    let dated = q.from_ms.is_some() || q.until_ms.is_some();
    let company_country = match db {
        Db::Sqlite(_) if !dated => "+s.company_country",
        _ => "s.company_country",
    };
    if !q.countries.is_empty() {
        let list = c.text_list(&q.countries);
        if own_country {
            c.and(format!(
                "(s.country IN ({list}) OR s.company_country IN ({list}))"
            ));
        } else {
            c.and(format!("{company_country} IN ({list})"));
        }
    }
    if !q.exclude_countries.is_empty() {
        let list = c.text_list(&q.exclude_countries);
        c.and(format!(
            "(s.company_country IS NULL OR s.company_country NOT IN ({list}))"
        ));
        if own_country {
            c.and(format!("(s.country IS NULL OR s.country NOT IN ({list}))"));
        }
    }
    in_list(c, "s.country", &q.job_countries);
    in_list(c, company_country, &q.company_countries);
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

/// A row carries a tag of every group of `q.tag_groups`. Per row: each row read in list order
/// has its tags looked up (EXISTS on the `(tag, signal_id)` index). Gathered: the group's rows are
/// read once and each row read in list order is tested against them; on SQLite the `+` keeps the
/// planner from reading every tagged row and sorting them (0.7 s for the `positions=cto,ceo` job
/// changes at scale l, 5 s for seniority plus department).
fn tag_filters(c: &mut Conditions, db: &Db, q: &SignalQuery, tags: &[TagTest]) {
    let id = match db {
        Db::Sqlite(_) => "+s.id",
        Db::Postgres(_) => "s.id",
    };
    for (i, group) in q.tag_groups.iter().enumerate() {
        let list = c.text_list(group);
        let test = tags
            .get(i)
            .copied()
            .unwrap_or_else(|| TagTest::usual(group));
        c.and(match test {
            TagTest::PerRow => format!(
                "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id \
                 AND t.tag IN ({list}))"
            ),
            TagTest::Gathered => {
                format!("{id} IN (SELECT t.signal_id FROM signal_tags t WHERE t.tag IN ({list}))")
            }
        });
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
