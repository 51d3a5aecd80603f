//! The WHERE conditions of the signal list query, one helper per group of filters. Columns are
//! named by the aliases of `signal_lists`: `s` the signal, `c` its company, `o` the other company.

use super::Db;
use super::query::Conditions;
use super::search::{
    SubstringField, company_search_clause, description_clause, own_or_company_search_clause,
    substring_clause,
};
use super::signal_query::{DateBasis, FundingFilter, SignalQuery};
use super::tag_strategy::TagTest;
use crate::domain::signal_type::SignalType;
use crate::domain::vocabulary::UNVERIFIED;

/// How the rows the conditions select are read: a page in list order (its first rows are the
/// page), a count all of them (`description_first`: starting from a description query's matches,
/// see `count_plan`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    Page,
    Count { description_first: bool },
}

/// The WHERE conditions of a signal list query (shared by the page and its count); `tags` says
/// how each of `q.tag_groups` is tested, `reading` how the rows are read.
pub(crate) fn conditions(
    db: &Db,
    q: &SignalQuery,
    tags: &[TagTest],
    reading: Reading,
) -> Conditions {
    let mut c = Conditions::default();
    if let Some(kind) = q.kind {
        let k = c.text(kind.as_str());
        c.and(format!("s.kind = {k}"));
    }
    date_filters(&mut c, q);
    company_filters(&mut c, db, q);
    country_filters(&mut c, db, q);
    deal_filters(&mut c, db, q);
    row_filters(&mut c, db, q, reading);
    posting_filters(&mut c, db, q);
    tag_filters(&mut c, db, q, tags);
    company_row_filters(&mut c, q);
    c
}

fn date_filters(c: &mut Conditions, q: &SignalQuery) {
    let column = match q.date_basis {
        DateBasis::Occurred => "s.occurred_at",
        DateBasis::Discovered => "s.discovered_at",
    };
    if let Some(from) = q.from_ms {
        let p = c.int(from);
        c.and(format!("{column} >= {p}"));
    }
    if let Some(until) = q.until_ms {
        let p = c.int(until);
        c.and(format!("{column} < {p}"));
    }
    if let Some(before) = q.posted_before_ms {
        let p = c.int(before);
        c.and(format!("s.occurred_at < {p}"));
    }
}

/// A text field of a JSON column, as SQL.
pub(crate) fn json_text(db: &Db, column: &str, key: &str) -> String {
    match db {
        Db::Sqlite(_) => format!("json_extract({column}, '$.{key}')"),
        Db::Postgres(_) => format!("({column}::json ->> '{key}')"),
    }
}

/// The hiring list's posting filters: validity, work mode, locations, role scope.
fn posting_filters(c: &mut Conditions, db: &Db, q: &SignalQuery) {
    // `validThrough` is an RFC 3339 timestamp or a date: its first ten characters are its day.
    let valid_day = format!(
        "substr({}, 1, 10)",
        json_text(db, "s.payload", "validThrough")
    );
    if let Some(day) = &q.valid_on_or_after {
        let p = c.text(day.clone());
        c.and(format!("({valid_day} IS NULL OR {valid_day} >= {p})"));
    }
    if let Some(day) = &q.open_on {
        let p = c.text(day.clone());
        let posted = c.int(day_after_ms(day));
        c.and(format!(
            "s.occurred_at < {posted} AND ({valid_day} IS NULL OR {valid_day} >= {p})"
        ));
    }
    if let Some(mode) = &q.work_mode {
        let p = c.text(mode.clone());
        let stored = format!("lower({})", json_text(db, "s.payload", "workMode"));
        if mode == "remote" {
            // A posting without a work mode of its own is remote when its place says so.
            let place = c.text("%remote%");
            let location = format!("lower({})", json_text(db, "s.payload", "location"));
            c.and(format!(
                "({stored} = {p} OR ({stored} IS NULL AND {location} LIKE {place}))"
            ));
        } else {
            c.and(format!("{stored} = {p}"));
        }
    }
    if !q.job_locations.is_empty() {
        let clause = substring_clause(c, db, SubstringField::Place, &q.job_locations);
        c.and(clause);
    }
    if q.software_roles {
        let tag = c.text("department:engineering");
        let word = c.text("%software%");
        c.and(format!(
            "(EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id AND t.tag = {tag}) \
             OR lower(s.title) LIKE {word})"
        ));
    }
    if let Some(funding) = &q.funding {
        let clause = funding_clause(c, db, funding);
        c.and(clause);
    }
}

/// The epoch ms of the start of the day after `day` (`YYYY-MM-DD`).
fn day_after_ms(day: &str) -> i64 {
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.succ_opt())
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or(i64::MAX)
}

/// The signal's company has a funding round satisfying `f` (alias `f`).
fn funding_clause(c: &mut Conditions, db: &Db, f: &FundingFilter) -> String {
    let mut inner = vec![
        "f.company_id = s.company_id".to_string(),
        "f.kind = 'funding_round'".to_string(),
    ];
    inner.extend(funding_conditions(c, db, f));
    format!(
        "EXISTS (SELECT 1 FROM signals f WHERE {})",
        inner.join(" AND ")
    )
}

/// The conditions a funding round `f` must meet to satisfy the filter.
pub(crate) fn funding_conditions(c: &mut Conditions, db: &Db, f: &FundingFilter) -> Vec<String> {
    let mut out = Vec::new();
    if !f.rounds.is_empty() {
        let list = c.text_list(&f.rounds);
        out.push(format!("f.round_type IN ({list})"));
    }
    if !f.investors.is_empty() {
        let tags: Vec<String> = f
            .investors
            .iter()
            .map(|n| format!("investor:{n}"))
            .collect();
        let list = c.text_list(&tags);
        out.push(format!(
            "EXISTS (SELECT 1 FROM signal_tags ft WHERE ft.signal_id = f.id AND ft.tag IN ({list}))"
        ));
    }
    if let Some(kind) = &f.investor_type {
        out.push(investor_type_clause(c, db, "f", kind));
    }
    if let Some(from) = f.from_ms {
        let p = c.int(from);
        out.push(format!("f.occurred_at >= {p}"));
    }
    if let Some(until) = f.until_ms {
        let p = c.int(until);
        out.push(format!("f.occurred_at < {p}"));
    }
    out
}

/// The funding round `alias` has an investor whose `type` is `kind` (any letter case).
fn investor_type_clause(c: &mut Conditions, db: &Db, alias: &str, kind: &str) -> String {
    let p = c.text(kind.to_lowercase());
    match db {
        Db::Sqlite(_) => format!(
            "EXISTS (SELECT 1 FROM json_each({alias}.payload, '$.investors') j \
             WHERE CASE WHEN j.type = 'object' THEN lower(json_extract(j.value, '$.type')) END = {p})"
        ),
        Db::Postgres(_) => format!(
            "EXISTS (SELECT 1 FROM json_array_elements(CASE WHEN \
             json_typeof({alias}.payload::json -> 'investors') = 'array' \
             THEN {alias}.payload::json -> 'investors' ELSE '[]'::json END) j(v) \
             WHERE lower(j.v ->> 'type') = {p})"
        ),
    }
}

/// `max_company_postings` and `min_distinct_titles`: the row's company is kept by counting its
/// rows among everything the other conditions match. The subquery repeats those conditions
/// (with the same parameters) over its own aliases.
fn company_row_filters(c: &mut Conditions, q: &SignalQuery) {
    if !q.filters_on_company_rows() {
        return;
    }
    let mut having = Vec::new();
    if let Some(max) = q.max_company_postings {
        let p = c.int(max);
        having.push(format!("COUNT(*) <= {p}"));
    }
    if let Some(min) = q.min_distinct_titles {
        let p = c.int(min);
        having.push(format!("COUNT(DISTINCT lower(s.title)) >= {p}"));
    }
    let matched = c.conjunction();
    c.and(format!(
        "s.company_id IN (SELECT s.company_id FROM signals s \
         JOIN companies c ON c.id = s.company_id \
         LEFT JOIN companies o ON o.id = s.other_company_id \
         WHERE {matched} GROUP BY s.company_id HAVING {})",
        having.join(" AND ")
    ));
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
        let clause = match q.kind {
            Some(kind @ (SignalType::Hiring | SignalType::JobChange)) => {
                own_or_company_search_clause(c, db, search, kind.as_str())
            }
            _ => company_search_clause(c, db, "c", search, true),
        };
        c.and(clause);
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
    if !q.exclude_company_ids.is_empty() {
        let list = c.text_list(&q.exclude_company_ids);
        c.and(format!("s.company_id NOT IN ({list})"));
    }
    if q.exclude_staffing_agencies {
        let p = c.text("staffing and recruiting");
        c.and(format!("(c.industry IS NULL OR lower(c.industry) <> {p})"));
    }
    if let Some((min, key)) = q.headcount_growth_min {
        let p = c.float(min);
        let growth = match db {
            Db::Sqlite(_) => format!("json_extract(c.growth_info, '$.{key}')"),
            Db::Postgres(_) => format!(
                "(CASE WHEN json_typeof(c.growth_info::json -> '{key}') = 'number' \
                 THEN (c.growth_info::json ->> '{key}')::float8 END)"
            ),
        };
        c.and(format!("{growth} >= {p}"));
    }
    if q.wellness_operators {
        let name = "wellness and fitness services".to_string();
        let categories =
            super::search::categories_clause(c, db, "c.categories", std::slice::from_ref(&name));
        let p = c.text(name);
        c.and(format!("(lower(c.industry) = {p} OR {categories})"));
    }
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
    if !q.exclude_company_countries.is_empty() {
        let list = c.text_list(&q.exclude_company_countries);
        c.and(format!(
            "(s.company_country IS NULL OR s.company_country NOT IN ({list}))"
        ));
    }
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
    if !q.investors.is_empty() {
        let tags: Vec<String> = q
            .investors
            .iter()
            .map(|n| format!("investor:{n}"))
            .collect();
        let list = c.text_list(&tags);
        c.and(format!(
            "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id AND t.tag IN ({list}))"
        ));
    }
    if let Some(kind) = &q.investor_type {
        let clause = investor_type_clause(c, db, "s", kind);
        c.and(clause);
    }
    if let Some(name) = &q.investor_name {
        let p = c.text(format!("investor:%{}%", escape_like(&name.to_lowercase())));
        c.and(format!(
            "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id \
             AND t.tag LIKE {p} ESCAPE '\\')"
        ));
    }
    if let Some(name) = &q.acquirer_name {
        let clause = super::search::name_contains_clause(c, db, "o", name);
        c.and(clause);
    }
}

fn row_filters(c: &mut Conditions, db: &Db, q: &SignalQuery, reading: Reading) {
    in_list(c, "s.region", &q.states);
    if let Some(city) = &q.city {
        let clause = substring_clause(c, db, SubstringField::Place, std::slice::from_ref(city));
        c.and(clause);
    }
    if !q.exclude_signal_ids.is_empty() {
        let list = c.text_list(&q.exclude_signal_ids);
        c.and(format!("s.id NOT IN ({list})"));
    }
    if let Some(query) = &q.description {
        let first = reading
            == Reading::Count {
                description_first: true,
            };
        let clause = description_clause(c, db, query, first);
        c.and(clause);
    }
    ranges_any(c, "s.applicants", &q.applicant_ranges);
    if let Some(key) = &q.person_key {
        let p = c.text(key.clone());
        c.and(format!("s.person_key = {p}"));
    }
    if let Some(role) = &q.new_role {
        let clause = substring_clause(c, db, SubstringField::Role, std::slice::from_ref(role));
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
/// has its tags looked up (EXISTS on the `(signal_id, tag)` key). Gathered: the group's rows are
/// read once and each row read in list order is tested against them; on SQLite the `+` keeps the
/// planner from reading every tagged row and sorting them (0.7 s for the `positions=cto,ceo` job
/// changes at scale l, 5 s for seniority plus department).
fn tag_filters(c: &mut Conditions, db: &Db, q: &SignalQuery, tags: &[TagTest]) {
    let id = match db {
        Db::Sqlite(_) => "+s.id",
        Db::Postgres(_) => "s.id",
    };
    let mut clauses = Vec::new();
    for (i, group) in q.tag_groups.iter().enumerate() {
        let list = c.text_list(group);
        let test = tags
            .get(i)
            .copied()
            .unwrap_or_else(|| TagTest::usual(group));
        clauses.push(match test {
            TagTest::PerRow => format!(
                "EXISTS (SELECT 1 FROM signal_tags t WHERE t.signal_id = s.id \
                 AND t.tag IN ({list}))"
            ),
            TagTest::Gathered => {
                format!("{id} IN (SELECT t.signal_id FROM signal_tags t WHERE t.tag IN ({list}))")
            }
            TagTest::Driving => {
                let kind = match q.kind {
                    Some(kind) => format!(" AND t.kind = {}", c.text(kind.as_str())),
                    None => String::new(),
                };
                format!(
                    "s.id IN (SELECT t.signal_id FROM signal_tags t WHERE t.tag IN ({list}){kind})"
                )
            }
        });
    }
    if q.any_tag_group && clauses.len() > 1 {
        c.and(format!("({})", clauses.join(" OR ")));
    } else {
        for clause in clauses {
            c.and(clause);
        }
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
