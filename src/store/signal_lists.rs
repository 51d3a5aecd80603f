//! The signal list query: filters, order and paging built into one SELECT over `signals` joined
//! to the signal's company (and the other company: acquirer or previous employer).

use sqlx::FromRow;

use super::count_cache::AnswerCache;
use super::query::{CachedRows, cached_count, cached_fetch_all};
use super::signal_filters::{Reading, conditions};
use super::signal_query::{Order, SignalQuery};
use super::{Db, StoreError, count_plan, tag_strategy};

pub use super::signal_filters::escape_like;

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

/// One page of signals, from `cache` while the list data is unchanged. `cache` also keeps the
/// tag counts that decide how tag groups are tested.
pub async fn list_signals(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<CachedRows<SignalListRow>, StoreError> {
    let tags = tag_strategy::for_page(db, cache, q).await?;
    let mut c = conditions(db, q, &tags, Reading::Page);
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
    cached_fetch_all(db, cache, sql, c.binds(), SignalListRow::size).await
}

impl SignalListRow {
    /// About the bytes the row holds: its longer texts and a fixed part for the rest.
    fn size(&self) -> usize {
        512 + self.payload.len()
            + self.c_description.as_ref().map_or(0, String::len)
            + self.c_categories.len()
            + self.c_specialties.len()
    }
}

/// Number of signals (or of their distinct companies, `count_companies`) matching the filters, from `cache` while the list data is unchanged. Every
/// signal has its company, so the joins are left out unless a filter reads them.
pub async fn count_signals(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<i64, StoreError> {
    if let Some(total) = count_plan::count_off_tags(db, cache, q).await? {
        return Ok(total);
    }
    if let Some(total) = count_plan::count_off_description(db, cache, q).await? {
        return Ok(total);
    }
    let plan = count_plan::plan(db, cache, q).await?;
    let c = conditions(db, q, &plan.tags, plan.reading);
    let mut from = String::from(" FROM signals s");
    if q.filters_on_company() {
        from.push_str(" JOIN companies c ON c.id = s.company_id");
    }
    if q.filters_on_other_company() {
        from.push_str(" LEFT JOIN companies o ON o.id = s.other_company_id");
    }
    let counted = if q.count_companies {
        "COUNT(DISTINCT s.company_id)"
    } else {
        "COUNT(*)"
    };
    let sql = format!("SELECT {counted}{from}{}", c.where_clause());
    cached_count(db, cache, sql, c.binds()).await
}
