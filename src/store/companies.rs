//! Companies: upsert from imports, and lookups by the identifiers targets use.

use sqlx::FromRow;

use super::{Db, StoreError, Tx, new_id};
use crate::domain::company::CompanyRecord;
use crate::domain::target::{
    TargetKind, normalize_domain, normalize_linkedin_company, registrable_domain,
};
use crate::domain::time::now_ms;
use crate::on_tx;

/// The short company shape shown on a target.
#[derive(Debug, Clone, FromRow)]
pub struct CompanySummary {
    pub id: String,
    pub name: String,
    pub slug: Option<String>,
    pub domain: Option<String>,
    pub industry: Option<String>,
    pub headquarters_country: Option<String>,
}

/// Inserts or updates one company (by id, else website domain, else LinkedIn page) and returns
/// its id. Fields the record leaves out keep their stored value.
pub async fn upsert_company(tx: &mut Tx, record: &CompanyRecord) -> Result<String, StoreError> {
    let domain = record.website.as_deref().and_then(normalize_domain);
    let linkedin_key = record
        .linkedin_url
        .as_deref()
        .and_then(normalize_linkedin_company);
    let existing = match &record.id {
        Some(id) => find_id_by(tx, "id", id).await?,
        None => match (&domain, &linkedin_key) {
            (Some(d), _) => find_id_by(tx, "domain", d).await?,
            (None, Some(l)) => find_id_by(tx, "linkedin_key", l).await?,
            (None, None) => None,
        },
    };
    let id = match (existing, &record.id) {
        (Some(id), _) => id,
        (None, Some(id)) => id.clone(),
        (None, None) => new_id(),
    };
    let registrable = domain.as_deref().and_then(registrable_domain);
    write_company(tx, &id, record, domain, registrable, linkedin_key).await?;
    Ok(id)
}

async fn find_id_by(tx: &mut Tx, column: &str, value: &str) -> Result<Option<String>, StoreError> {
    let sql =
        format!("SELECT id FROM companies WHERE {column} = $1 ORDER BY created_at, id LIMIT 1");
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, String>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(value)
    .fetch_optional(conn)
    .await)?)
}

fn json_list(list: &Option<Vec<String>>) -> Option<String> {
    list.as_ref()
        .map(|items| serde_json::to_string(items).unwrap_or_else(|_| "[]".into()))
}

async fn write_company(
    tx: &mut Tx,
    id: &str,
    r: &CompanyRecord,
    domain: Option<String>,
    registrable: Option<String>,
    linkedin_key: Option<String>,
) -> Result<(), StoreError> {
    let now = now_ms();
    let growth = r.growth_info.as_ref().map(|g| g.to_string());
    on_tx!(tx, |conn| {
        sqlx::query(
        "INSERT INTO companies (id, name, slug, description, website, domain, registrable_domain, \
         linkedin_url, linkedin_key, twitter_url, logo_url, industry, subcategory, founded_year, \
         headquarters_country, employee_count, categories, keywords, specialties, growth_info, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
         $14, $15, $16, COALESCE($17, '[]'), COALESCE($18, '[]'), COALESCE($19, '[]'), $20, $21, $21) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, \
         slug = COALESCE(excluded.slug, companies.slug), \
         description = COALESCE(excluded.description, companies.description), \
         website = COALESCE(excluded.website, companies.website), \
         domain = COALESCE(excluded.domain, companies.domain), \
         registrable_domain = COALESCE(excluded.registrable_domain, companies.registrable_domain), \
         linkedin_url = COALESCE(excluded.linkedin_url, companies.linkedin_url), \
         linkedin_key = COALESCE(excluded.linkedin_key, companies.linkedin_key), \
         twitter_url = COALESCE(excluded.twitter_url, companies.twitter_url), \
         logo_url = COALESCE(excluded.logo_url, companies.logo_url), \
         industry = COALESCE(excluded.industry, companies.industry), \
         subcategory = COALESCE(excluded.subcategory, companies.subcategory), \
         founded_year = COALESCE(excluded.founded_year, companies.founded_year), \
         headquarters_country = COALESCE(excluded.headquarters_country, companies.headquarters_country), \
         employee_count = COALESCE(excluded.employee_count, companies.employee_count), \
         categories = COALESCE($17, companies.categories), \
         keywords = COALESCE($18, companies.keywords), \
         specialties = COALESCE($19, companies.specialties), \
         growth_info = COALESCE(excluded.growth_info, companies.growth_info), \
         updated_at = excluded.updated_at"
    )
    .bind(id)
    .bind(&r.name)
    .bind(&r.slug)
    .bind(&r.description)
    .bind(&r.website)
    .bind(&domain)
    .bind(&registrable)
    .bind(&r.linkedin_url)
    .bind(&linkedin_key)
    .bind(&r.twitter_url)
    .bind(&r.logo_url)
    .bind(&r.industry)
    .bind(&r.subcategory)
    .bind(r.founded_year)
    .bind(r.headquarters_country.as_deref().map(normalize_country))
    .bind(r.employee_count)
    .bind(json_list(&r.categories))
    .bind(json_list(&r.keywords))
    .bind(json_list(&r.specialties))
    .bind(&growth)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// Finds the company a target entry designates, by the contract's rules: a domain matches the
/// company with that bare domain, else one sharing its registrable domain; a company page matches
/// the normalized LinkedIn URL; a member profile matches the person's current company.
pub async fn find_company_for_target(
    tx: &mut Tx,
    kind: TargetKind,
    value: &str,
) -> Result<Option<String>, StoreError> {
    match kind {
        TargetKind::Domain => {
            if let Some(id) = find_id_by(tx, "domain", value).await? {
                return Ok(Some(id));
            }
            let Some(registrable) = registrable_domain(value) else {
                return Ok(None);
            };
            Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, String>(
                "SELECT id FROM companies WHERE registrable_domain = $1 \
                 ORDER BY CASE WHEN domain = $1 THEN 0 ELSE 1 END, created_at, id LIMIT 1"
            )
            .bind(&registrable)
            .fetch_optional(conn)
            .await)?)
        }
        TargetKind::LinkedinCompany => find_id_by(tx, "linkedin_key", value).await,
        TargetKind::LinkedinProfile => Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, String>(
            "SELECT company_id FROM people WHERE linkedin_key = $1 AND company_id IS NOT NULL"
        )
        .bind(value)
        .fetch_optional(conn)
        .await)?),
    }
}

/// Finds a company id by id, else website, else LinkedIn page: the first given identifier that
/// matches wins.
pub async fn find_company_by_identifiers(
    tx: &mut Tx,
    id: Option<&str>,
    website: Option<&str>,
    linkedin_url: Option<&str>,
) -> Result<Option<String>, StoreError> {
    if let Some(id) = id
        && let Some(found) = find_id_by(tx, "id", id).await?
    {
        return Ok(Some(found));
    }
    if let Some(domain) = website.and_then(normalize_domain)
        && let Some(found) = find_id_by(tx, "domain", &domain).await?
    {
        return Ok(Some(found));
    }
    match linkedin_url.and_then(normalize_linkedin_company) {
        Some(key) => find_id_by(tx, "linkedin_key", &key).await,
        None => Ok(None),
    }
}

/// Reads the short company shapes for a set of ids.
pub async fn company_summaries(db: &Db, ids: &[String]) -> Result<Vec<CompanySummary>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id, name, slug, domain, industry, headquarters_country FROM companies \
         WHERE id IN ({})",
        super::placeholders(1, ids.len())
    );
    crate::on_db!(db, |pool| {
        let mut query = sqlx::query_as::<_, CompanySummary>(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(id);
        }
        Ok(query.fetch_all(pool).await?)
    })
}

/// Ids of companies whose `column` (`domain` or `linkedin_key`) is one of `values`.
pub async fn ids_where_in(
    db: &Db,
    column: CompanyKey,
    values: &[String],
) -> Result<Vec<String>, StoreError> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let column = match column {
        CompanyKey::Domain => "domain",
        CompanyKey::LinkedinKey => "linkedin_key",
    };
    let sql = format!(
        "SELECT id FROM companies WHERE {column} IN ({})",
        super::placeholders(1, values.len())
    );
    crate::on_db!(db, |pool| {
        let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql));
        for value in values {
            query = query.bind(value);
        }
        Ok(query.fetch_all(pool).await?)
    })
}

/// The strict identifiers a list may look companies up by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyKey {
    Domain,
    LinkedinKey,
}

/// A stored country: the ISO alpha-2 code when the name or code is known, else the text as given.
pub fn normalize_country(raw: &str) -> String {
    crate::domain::countries::country_code(raw.trim())
        .map(str::to_string)
        .unwrap_or_else(|| raw.trim().to_string())
}
