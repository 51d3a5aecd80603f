//! The company list query: filters, order and paging over `companies`.

use serde_json::{Value, json};
use sqlx::FromRow;

use super::bulk::select_in;
use super::count_cache::AnswerCache;
use super::query::{CachedRows, Conditions, cached_count, cached_fetch_all};
use super::search::{categories_clause, company_search_clause};
use super::signal_query::Order;
use super::{Db, StoreError, Tx};
use crate::domain::company::shown_slug;
use crate::domain::time::format_ms;

/// Which companies to return, and in what order.
#[derive(Debug, Clone, Default)]
pub struct CompanyQuery {
    /// Strict identity (domain / LinkedIn lookups); `Some(empty)` matches nothing.
    pub ids: Option<Vec<String>>,
    pub search: Option<String>,
    pub countries: Vec<String>,
    pub exclude_countries: Vec<String>,
    pub industries: Vec<String>,
    pub categories: Vec<String>,
    pub subcategories: Vec<String>,
    pub employee_min: Option<i64>,
    pub employee_max: Option<i64>,
    pub founded_min: Option<i64>,
    pub founded_max: Option<i64>,
    pub sort_column: &'static str,
    pub order: Order,
    pub limit: i64,
    pub offset: i64,
}

/// A company as the list shows it.
#[derive(Debug, Clone, FromRow)]
pub struct CompanyRow {
    pub id: String,
    pub name: String,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub website: Option<String>,
    pub linkedin_url: Option<String>,
    pub twitter_url: Option<String>,
    pub logo_url: Option<String>,
    pub industry: Option<String>,
    pub founded_year: Option<i64>,
    pub headquarters_country: Option<String>,
    pub employee_count: Option<i64>,
    pub categories: String,
    pub keywords: String,
    pub specialties: String,
    pub growth_info: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl CompanyRow {
    /// About the bytes the row holds: its longer texts and a fixed part for the rest.
    fn size(&self) -> usize {
        512 + self.description.as_ref().map_or(0, String::len)
            + self.categories.len()
            + self.keywords.len()
            + self.specialties.len()
            + self.growth_info.as_ref().map_or(0, String::len)
    }

    /// The Company record as the API shows it. Its JSON columns must decode: a corrupt one is
    /// an error, not an empty list.
    pub fn record(&self) -> Result<Value, StoreError> {
        let decode = |column: &str, text: &str| {
            serde_json::from_str::<Value>(text).map_err(|err| {
                StoreError::Corrupt(format!("{column} of company {}: {err}", self.id))
            })
        };
        let growth_info = match self.growth_info.as_deref() {
            Some(text) => decode("growth_info", text)?,
            None => Value::Null,
        };
        Ok(json!({
            "id": self.id,
            "name": self.name,
            "slug": shown_slug(self.slug.as_deref(), &self.name),
            "description": self.description,
            "website": self.website,
            "linkedinUrl": self.linkedin_url,
            "twitterUrl": self.twitter_url,
            "logoUrl": self.logo_url,
            "industry": self.industry,
            "foundedYear": self.founded_year,
            "headquartersCountry": self.headquarters_country,
            "employeeCount": self.employee_count,
            "categories": decode("categories", &self.categories)?,
            "keywords": decode("keywords", &self.keywords)?,
            "specialties": decode("specialties", &self.specialties)?,
            "growthInfo": growth_info,
            "createdAt": format_ms(self.created_at),
            "updatedAt": format_ms(self.updated_at),
        }))
    }
}

/// The companies with these ids, in no particular order.
pub async fn companies_by_id(tx: &mut Tx, ids: &[&str]) -> Result<Vec<CompanyRow>, StoreError> {
    let sql = format!("{SELECT} WHERE c.id {{in}}");
    select_in(tx, &sql, &[], ids).await
}

const SELECT: &str = "SELECT c.id, c.name, c.slug, c.description, c.website, c.linkedin_url, \
     c.twitter_url, c.logo_url, c.industry, c.founded_year, c.headquarters_country, \
     c.employee_count, c.categories, c.keywords, c.specialties, c.growth_info, c.created_at, \
     c.updated_at FROM companies c";

/// One page of companies, from `cache` while the list data is unchanged.
pub async fn list_companies(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &CompanyQuery,
) -> Result<CachedRows<CompanyRow>, StoreError> {
    let mut c = conditions(db, q);
    let direction = match q.order {
        Order::Asc => "ASC",
        Order::Desc => "DESC",
    };
    let limit = c.int(q.limit);
    let offset = c.int(q.offset);
    let sql = format!(
        "{SELECT}{} ORDER BY {} {direction} NULLS LAST, c.id {direction} LIMIT {limit} OFFSET {offset}",
        c.where_clause(),
        q.sort_column
    );
    cached_fetch_all(db, cache, sql, c.binds(), CompanyRow::size).await
}

/// Number of companies matching the filters, from `cache` while the list data is unchanged.
pub async fn count_companies(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &CompanyQuery,
) -> Result<i64, StoreError> {
    let c = conditions(db, q);
    let sql = format!("SELECT COUNT(*) FROM companies c{}", c.where_clause());
    cached_count(db, cache, sql, c.binds()).await
}

fn conditions(db: &Db, q: &CompanyQuery) -> Conditions {
    let mut c = Conditions::default();
    if let Some(ids) = &q.ids {
        if ids.is_empty() {
            c.and("1 = 0");
        } else {
            let list = c.text_list(ids);
            c.and(format!("c.id IN ({list})"));
        }
    }
    if let Some(search) = &q.search {
        let clause = company_search_clause(&mut c, db, "c", search, false);
        c.and(clause);
    }
    if !q.countries.is_empty() {
        let list = c.text_list(&q.countries);
        c.and(format!("c.headquarters_country IN ({list})"));
    }
    if !q.exclude_countries.is_empty() {
        let list = c.text_list(&q.exclude_countries);
        c.and(format!(
            "(c.headquarters_country IS NULL OR c.headquarters_country NOT IN ({list}))"
        ));
    }
    for (column, values) in [
        ("lower(c.industry)", &q.industries),
        ("lower(c.subcategory)", &q.subcategories),
    ] {
        if !values.is_empty() {
            let list = c.text_list(values);
            c.and(format!("{column} IN ({list})"));
        }
    }
    if !q.categories.is_empty() {
        let clause = categories_clause(&mut c, db, "c.categories", &q.categories);
        c.and(clause);
    }
    let bounds = [
        ("c.employee_count >=", q.employee_min),
        ("c.employee_count <=", q.employee_max),
        ("c.founded_year >=", q.founded_min),
        ("c.founded_year <=", q.founded_max),
    ];
    for (test, value) in bounds {
        if let Some(value) = value {
            let p = c.int(value);
            c.and(format!("{test} {p}"));
        }
    }
    c
}
