//! The investor list: the investors named on stored funding rounds, one row per investor name
//! (case-insensitive), aggregated over its rounds when asked. No table holds investors: a round's
//! `investors` (objects with a name, or bare names) are read from its stored record.

use sqlx::FromRow;

use super::count_cache::AnswerCache;
use super::query::{Conditions, cached_count, fetch_all};
use super::signal_filters::escape_like;
use super::signal_query::Order;
use super::{Db, StoreError};

/// A validated investor list query.
#[derive(Debug, Clone, Default)]
pub struct InvestorQuery {
    /// Part of the name or the type, lower case.
    pub search: Option<String>,
    /// ISO codes: the investor funded a company headquartered in one of them.
    pub countries: Vec<String>,
    /// ISO codes: the investor funded no company headquartered in any of them.
    pub exclude_countries: Vec<String>,
    /// Groups of types, each a list of word patterns over the type (any letter case).
    pub type_patterns: Vec<&'static str>,
    /// Part of the headquarters: nothing stored gives one, so a given value matches nothing.
    pub headquarters: Option<String>,
    pub ticket_size_min: Option<i64>,
    pub ticket_size_max: Option<i64>,
    /// `[from, until)` epoch ms of the first time the investor was seen.
    pub created_from_ms: Option<i64>,
    pub created_until_ms: Option<i64>,
    /// A column of the aggregate (`g.…`).
    pub sort_column: &'static str,
    pub order: Order,
    pub limit: i64,
    pub offset: i64,
}

/// One investor, aggregated over the funding rounds that name it.
#[derive(Debug, Clone, FromRow)]
pub struct InvestorRow {
    /// The lower-cased name: the investor's identity.
    pub ikey: String,
    pub name: String,
    pub itype: Option<String>,
    pub website: Option<String>,
    pub linkedin: Option<String>,
    pub logo: Option<String>,
    /// `,US,GB,`: the headquarters countries of the companies it funded.
    pub countries: Option<String>,
    pub ticket_min: Option<i64>,
    pub ticket_max: Option<i64>,
    pub first_seen: i64,
    pub last_round_at: i64,
    pub rounds: i64,
}

/// The investors of every funding round, one row per (round, investor), on each backend.
fn investor_mentions(db: &Db) -> &'static str {
    match db {
        Db::Sqlite(_) => {
            "SELECT trim(CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.name') \
             ELSE j.value END) AS name, \
             CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.type') END AS itype, \
             CASE WHEN j.type = 'object' THEN coalesce(json_extract(j.value, '$.website'), \
             json_extract(j.value, '$.websiteUrl')) END AS website, \
             CASE WHEN j.type = 'object' THEN coalesce(json_extract(j.value, '$.linkedin'), \
             json_extract(j.value, '$.linkedinUrl'), json_extract(j.value, '$.linkedin_url')) END \
             AS linkedin, \
             CASE WHEN j.type = 'object' THEN coalesce(json_extract(j.value, '$.logoUrl'), \
             json_extract(j.value, '$.logo_url')) END AS logo, \
             s.id AS sid, s.amount, s.currency, s.occurred_at, s.created_at, \
             s.company_country AS country \
             FROM signals s, json_each(s.payload, '$.investors') j \
             WHERE s.kind = 'funding_round' AND j.type IN ('object', 'text')"
        }
        Db::Postgres(_) => {
            "SELECT trim(CASE WHEN json_typeof(j.v) = 'object' THEN j.v ->> 'name' \
             ELSE j.v #>> '{}' END) AS name, \
             CASE WHEN json_typeof(j.v) = 'object' THEN j.v ->> 'type' END AS itype, \
             CASE WHEN json_typeof(j.v) = 'object' THEN coalesce(j.v ->> 'website', \
             j.v ->> 'websiteUrl') END AS website, \
             CASE WHEN json_typeof(j.v) = 'object' THEN coalesce(j.v ->> 'linkedin', \
             j.v ->> 'linkedinUrl', j.v ->> 'linkedin_url') END AS linkedin, \
             CASE WHEN json_typeof(j.v) = 'object' THEN coalesce(j.v ->> 'logoUrl', \
             j.v ->> 'logo_url') END AS logo, \
             s.id AS sid, s.amount, s.currency, s.occurred_at, s.created_at, \
             s.company_country AS country \
             FROM signals s CROSS JOIN LATERAL json_array_elements(CASE WHEN \
             json_typeof(s.payload::json -> 'investors') = 'array' \
             THEN s.payload::json -> 'investors' ELSE '[]'::json END) j(v) \
             WHERE s.kind = 'funding_round' AND json_typeof(j.v) IN ('object', 'string')"
        }
    }
}

/// The aggregate of every investor (`g`): one row per lower-cased name. Ticket sizes are the
/// smallest and largest US dollar round it took part in.
fn aggregate(db: &Db) -> String {
    let countries = match db {
        Db::Sqlite(_) => "',' || group_concat(DISTINCT m.country) || ','",
        Db::Postgres(_) => "',' || string_agg(DISTINCT m.country, ',') || ','",
    };
    format!(
        "SELECT lower(m.name) AS ikey, MIN(m.name) AS name, MAX(m.itype) AS itype, \
         MAX(m.website) AS website, MAX(m.linkedin) AS linkedin, MAX(m.logo) AS logo, \
         {countries} AS countries, \
         MIN(CASE WHEN coalesce(m.currency, 'USD') = 'USD' THEN m.amount END) AS ticket_min, \
         MAX(CASE WHEN coalesce(m.currency, 'USD') = 'USD' THEN m.amount END) AS ticket_max, \
         MIN(m.created_at) AS first_seen, MAX(m.occurred_at) AS last_round_at, \
         COUNT(DISTINCT m.sid) AS rounds \
         FROM ({}) m WHERE m.name IS NOT NULL AND m.name <> '' GROUP BY lower(m.name)",
        investor_mentions(db)
    )
}

/// The investor's type padded and spaced (`_` and `-` as spaces), for word patterns.
const SPACED_TYPE: &str =
    "(' ' || replace(replace(lower(coalesce(g.itype, '')), '_', ' '), '-', ' ') || ' ')";

fn conditions(q: &InvestorQuery) -> Conditions {
    let mut c = Conditions::default();
    if let Some(search) = &q.search {
        let p = c.text(format!("%{}%", escape_like(search)));
        c.and(format!(
            "(g.ikey LIKE {p} ESCAPE '\\' OR lower(coalesce(g.itype, '')) LIKE {p} ESCAPE '\\')"
        ));
    }
    if !q.countries.is_empty() {
        let any: Vec<String> = q
            .countries
            .iter()
            .map(|code| {
                let p = c.text(format!("%,{code},%"));
                format!("g.countries LIKE {p}")
            })
            .collect();
        c.and(format!("({})", any.join(" OR ")));
    }
    for code in &q.exclude_countries {
        let p = c.text(format!("%,{code},%"));
        c.and(format!("coalesce(g.countries, '') NOT LIKE {p}"));
    }
    if !q.type_patterns.is_empty() {
        let any: Vec<String> = q
            .type_patterns
            .iter()
            .map(|pattern| {
                let p = c.text(*pattern);
                format!("{SPACED_TYPE} LIKE {p}")
            })
            .collect();
        c.and(format!("({})", any.join(" OR ")));
    }
    if q.headquarters.is_some() {
        c.and("1 = 0");
    }
    if let Some(min) = q.ticket_size_min {
        let p = c.int(min);
        c.and(format!("g.ticket_min >= {p}"));
    }
    if let Some(max) = q.ticket_size_max {
        let p = c.int(max);
        c.and(format!("g.ticket_max <= {p}"));
    }
    if let Some(from) = q.created_from_ms {
        let p = c.int(from);
        c.and(format!("g.first_seen >= {p}"));
    }
    if let Some(until) = q.created_until_ms {
        let p = c.int(until);
        c.and(format!("g.first_seen < {p}"));
    }
    c
}

/// One page of investors.
pub async fn list_investors(db: &Db, q: &InvestorQuery) -> Result<Vec<InvestorRow>, StoreError> {
    let mut c = conditions(q);
    let direction = match q.order {
        Order::Asc => "ASC",
        Order::Desc => "DESC",
    };
    let limit = c.int(q.limit);
    let offset = c.int(q.offset);
    let sql = format!(
        "SELECT g.* FROM ({}) g{} ORDER BY {} {direction} NULLS LAST, g.ikey {direction} \
         LIMIT {limit} OFFSET {offset}",
        aggregate(db),
        c.where_clause(),
        q.sort_column
    );
    fetch_all(db, sql, c.binds()).await
}

/// Number of investors matching the filters, from `cache` while the list data is unchanged.
pub async fn count_investors(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &InvestorQuery,
) -> Result<i64, StoreError> {
    let c = conditions(q);
    let sql = format!(
        "SELECT COUNT(*) FROM ({}) g{}",
        aggregate(db),
        c.where_clause()
    );
    cached_count(db, cache, sql, c.binds()).await
}
