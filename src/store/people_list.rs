//! The people list: everyone the service knows by a profile URL (people records and the
//! subjects of job changes), one row per normalized profile, each with the newest of their
//! signals that matches the filters: their own job changes, and the funding rounds and
//! acquisitions of their current company.
//!
//! A person's current record is the newer of their person record and their latest job change
//! (the same rule the profile targets follow).

use sqlx::FromRow;

use super::count_cache::AnswerCache;
use super::query::{Conditions, cached_count, fetch_all};
use super::signal_filters::escape_like;
use super::{Db, StoreError};

/// A validated people query. Word patterns are `LIKE` patterns over the title lower-cased,
/// with punctuation read as spaces and padded with spaces.
#[derive(Debug, Clone, Default)]
pub struct PeopleQuery {
    /// Word patterns of the asked titles (any matches).
    pub title_patterns: Vec<String>,
    /// Word patterns of the asked functions (any matches).
    pub function_patterns: Vec<String>,
    /// Word patterns of the asked seniorities (any matches).
    pub seniority_patterns: Vec<String>,
    /// Codes and the English names standing for them, upper case: the company's or the
    /// person's country is one of them.
    pub countries: Vec<String>,
    pub exclude_countries: Vec<String>,
    /// Part of the person's city, lower case.
    pub city: Option<String>,
    /// Inclusive employee-count ranges (`None` above: no upper bound).
    pub company_sizes: Vec<(i64, Option<i64>)>,
    /// Lower-case industries.
    pub industries: Vec<String>,
    /// The normalized profile (`linkedin.com/in/<slug>`).
    pub person_key: Option<String>,
    /// `None`: any company; `Some(empty)`: nothing matches.
    pub company_ids: Option<Vec<String>>,
    /// Signal kinds a matched signal may have (all three when empty).
    pub signal_kinds: Vec<String>,
    /// Epoch ms: the matched signal is on or after it.
    pub signals_from_ms: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

/// One person with their matched signal and company.
#[derive(Debug, Clone, FromRow)]
pub struct PersonRow {
    pub pkey: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub city: Option<String>,
    pub linkedin_url: Option<String>,
    pub c_name: Option<String>,
    pub c_domain: Option<String>,
    pub c_linkedin_url: Option<String>,
    pub c_country: Option<String>,
    pub c_employee_count: Option<i64>,
    pub c_industry: Option<String>,
    pub signal_id: String,
    pub signal_kind: String,
    pub signal_at: i64,
    /// 1 when the matched signal is the person's newest of all.
    pub overall: i64,
}

/// The current record of every person (`pr`): the newer of the person record and the latest
/// job change, each field falling back to the other.
const PERSONS: &str = "jc AS (SELECT s.person_key AS pkey, s.company_id, s.title, s.city, \
     s.country, s.sort_text AS name, s.created_at AS at, ROW_NUMBER() OVER \
     (PARTITION BY s.person_key ORDER BY s.occurred_at DESC, s.id DESC) AS rn \
     FROM signals s WHERE s.kind = 'job_change' AND s.person_key IS NOT NULL), \
     persons AS (SELECT j.pkey, \
     CASE WHEN p.id IS NULL OR p.company_id IS NULL OR p.updated_at <= j.at \
     THEN j.company_id ELSE p.company_id END AS company_id, \
     CASE WHEN p.id IS NULL OR p.updated_at <= j.at THEN coalesce(j.title, p.title) \
     ELSE coalesce(p.title, j.title) END AS title, \
     CASE WHEN p.id IS NULL OR p.updated_at <= j.at THEN coalesce(j.city, p.city) \
     ELSE coalesce(p.city, j.city) END AS city, \
     coalesce(p.country, j.country) AS country, coalesce(p.name, j.name) AS name, \
     coalesce(p.linkedin_url, 'https://www.' || j.pkey) AS linkedin_url \
     FROM jc j LEFT JOIN people p ON p.linkedin_key = j.pkey WHERE j.rn = 1 \
     UNION ALL \
     SELECT p.linkedin_key, p.company_id, p.title, p.city, p.country, p.name, p.linkedin_url \
     FROM people p WHERE NOT EXISTS (SELECT 1 FROM signals s \
     WHERE s.kind = 'job_change' AND s.person_key = p.linkedin_key))";

/// The title lower-cased with punctuation read as spaces, padded with spaces.
const SPACED_TITLE: &str = "(' ' || replace(replace(replace(replace(replace(replace(\
     lower(coalesce(pr.title, '')), ',', ' '), '-', ' '), '/', ' '), '(', ' '), ')', ' '), \
     '.', ' ') || ' ')";

/// Conditions on the person and their company (`pr`, `c`).
fn person_conditions(c: &mut Conditions, q: &PeopleQuery) {
    if !q.title_patterns.is_empty() {
        let any = like_any(c, &q.title_patterns);
        // "Assistant to the CEO" is not a CEO.
        c.and(format!(
            "{any} AND {SPACED_TITLE} NOT LIKE '% assistant to %'"
        ));
    }
    if !q.function_patterns.is_empty() {
        let any = like_any(c, &q.function_patterns);
        c.and(any);
    }
    if !q.seniority_patterns.is_empty() {
        let any = like_any(c, &q.seniority_patterns);
        c.and(format!(
            "{any} AND {SPACED_TITLE} NOT LIKE '% assistant to %'"
        ));
    }
    if !q.countries.is_empty() {
        let list = c.text_list(&q.countries);
        c.and(format!(
            "(c.headquarters_country IN ({list}) OR upper(trim(pr.country)) IN ({list}))"
        ));
    }
    if !q.exclude_countries.is_empty() {
        let list = c.text_list(&q.exclude_countries);
        c.and(format!(
            "NOT ((c.headquarters_country IS NOT NULL AND c.headquarters_country IN ({list})) \
             OR (pr.country IS NOT NULL AND upper(trim(pr.country)) IN ({list})))"
        ));
    }
    if let Some(city) = &q.city {
        let p = c.text(format!("%{}%", escape_like(city)));
        c.and(format!("lower(pr.city) LIKE {p} ESCAPE '\\'"));
    }
    if !q.company_sizes.is_empty() {
        let any: Vec<String> = q
            .company_sizes
            .iter()
            .map(|(min, max)| {
                let lo = c.int(*min);
                match max {
                    Some(max) => {
                        let hi = c.int(*max);
                        format!("(c.employee_count >= {lo} AND c.employee_count <= {hi})")
                    }
                    None => format!("c.employee_count >= {lo}"),
                }
            })
            .collect();
        c.and(format!("({})", any.join(" OR ")));
    }
    if !q.industries.is_empty() {
        let list = c.text_list(&q.industries);
        c.and(format!("lower(c.industry) IN ({list})"));
    }
    if let Some(key) = &q.person_key {
        let p = c.text(key.clone());
        c.and(format!("pr.pkey = {p}"));
    }
    if let Some(ids) = &q.company_ids {
        if ids.is_empty() {
            c.and("1 = 0");
        } else {
            let list = c.text_list(ids);
            c.and(format!("pr.company_id IN ({list})"));
        }
    }
}

fn like_any(c: &mut Conditions, patterns: &[String]) -> String {
    let any: Vec<String> = patterns
        .iter()
        .map(|pattern| {
            let p = c.text(pattern.clone());
            format!("{SPACED_TITLE} LIKE {p}")
        })
        .collect();
    format!("({})", any.join(" OR "))
}

/// The people matching the filters with their newest matching signal (`best`, row `nth = 1`):
/// the common table expressions and the conditions' parameters.
fn matched(q: &PeopleQuery) -> (String, Conditions) {
    let mut c = Conditions::default();
    person_conditions(&mut c, q);
    let filtered = format!(
        "filtered AS (SELECT pr.pkey, pr.company_id, pr.name, pr.title, pr.city, \
         pr.linkedin_url, c.name AS c_name, c.domain AS c_domain, \
         c.linkedin_url AS c_linkedin_url, c.headquarters_country AS c_country, \
         c.employee_count AS c_employee_count, c.industry AS c_industry \
         FROM persons pr LEFT JOIN companies c ON c.id = pr.company_id{})",
        c.where_clause()
    );
    let mut signal_conditions = Vec::new();
    if !q.signal_kinds.is_empty() {
        let list = c.text_list(&q.signal_kinds);
        signal_conditions.push(format!("r.kind IN ({list})"));
    }
    if let Some(from) = q.signals_from_ms {
        let p = c.int(from);
        signal_conditions.push(format!("r.occurred_at >= {p}"));
    }
    let signal_where = if signal_conditions.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", signal_conditions.join(" AND "))
    };
    let ctes = format!(
        "WITH {PERSONS}, {filtered}, \
         ps AS (SELECT f.pkey, s.id, s.kind, s.occurred_at FROM filtered f \
         JOIN signals s ON s.kind = 'job_change' AND s.person_key = f.pkey \
         UNION ALL SELECT f.pkey, sc.signal_id, sc.kind, sc.occurred_at FROM filtered f \
         JOIN signal_companies sc ON sc.company_id = f.company_id \
         AND sc.kind IN ('funding_round', 'acquisition')), \
         ranked AS (SELECT ps.pkey, ps.id, ps.kind, ps.occurred_at, ROW_NUMBER() OVER \
         (PARTITION BY ps.pkey ORDER BY ps.occurred_at DESC, ps.id DESC) AS overall FROM ps), \
         best AS (SELECT r.pkey, r.id, r.kind, r.occurred_at, r.overall, ROW_NUMBER() OVER \
         (PARTITION BY r.pkey ORDER BY r.occurred_at DESC, r.id DESC) AS nth \
         FROM ranked r{signal_where})"
    );
    (ctes, c)
}

/// One page of people, newest matched signal first (ties by profile).
pub async fn list_people(db: &Db, q: &PeopleQuery) -> Result<Vec<PersonRow>, StoreError> {
    let (ctes, mut c) = matched(q);
    let limit = c.int(q.limit);
    let offset = c.int(q.offset);
    let sql = format!(
        "{ctes} SELECT f.pkey, f.name, f.title, f.city, f.linkedin_url, f.c_name, f.c_domain, \
         f.c_linkedin_url, f.c_country, f.c_employee_count, f.c_industry, b.id AS signal_id, \
         b.kind AS signal_kind, b.occurred_at AS signal_at, b.overall \
         FROM best b JOIN filtered f ON f.pkey = b.pkey WHERE b.nth = 1 \
         ORDER BY b.occurred_at DESC, b.pkey DESC LIMIT {limit} OFFSET {offset}"
    );
    fetch_all(db, sql, c.binds()).await
}

/// Number of people matching the filters, from `cache` while the list data is unchanged.
pub async fn count_people(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &PeopleQuery,
) -> Result<i64, StoreError> {
    let (ctes, c) = matched(q);
    let sql = format!("{ctes} SELECT COUNT(*) FROM best b WHERE b.nth = 1");
    cached_count(db, cache, sql, c.binds()).await
}

/// A matched signal's record and the names a summary needs.
#[derive(Debug, Clone, FromRow)]
pub struct MatchedSignalRow {
    pub id: String,
    pub payload: String,
    pub company_name: String,
    pub other_name: Option<String>,
}

/// The records of the given signals with their company's and other company's names.
pub async fn matched_signals(db: &Db, ids: &[String]) -> Result<Vec<MatchedSignalRow>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut c = Conditions::default();
    let list = c.text_list(ids);
    let sql = format!(
        "SELECT s.id, s.payload, c.name AS company_name, o.name AS other_name FROM signals s \
         JOIN companies c ON c.id = s.company_id \
         LEFT JOIN companies o ON o.id = s.other_company_id WHERE s.id IN ({list})"
    );
    fetch_all(db, sql, c.binds()).await
}
