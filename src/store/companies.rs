//! Companies: lookups by the identifiers targets use, and short shapes. Imports write companies
//! set-wise (`bulk_companies`).

use sqlx::FromRow;

use super::{Db, StoreError, Tx};
use crate::domain::target::{TargetKind, registrable_domain};
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

/// Finds the company a target entry designates, by the contract's rules: a domain matches the
/// company with that bare domain, else one sharing its registrable domain; a company page matches
/// the normalized LinkedIn URL; a member profile matches the person's current company (see
/// [`person_company`]).
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
        TargetKind::LinkedinProfile => person_company(tx, value).await,
    }
}

/// The company a person works at now, by what was recorded last: their latest job change (the
/// company it moved them to) unless their person record was written after it.
async fn person_company(tx: &mut Tx, person_key: &str) -> Result<Option<String>, StoreError> {
    let moved = on_tx!(tx, |conn| {
        sqlx::query_as::<_, (String, i64)>(
        "SELECT company_id, created_at FROM signals WHERE person_key = $1 AND kind = 'job_change' \
         ORDER BY occurred_at DESC, id DESC LIMIT 1"
    )
    .bind(person_key)
    .fetch_optional(conn)
    .await
    })?;
    let record = on_tx!(tx, |conn| sqlx::query_as::<_, (String, i64)>(
        "SELECT company_id, updated_at FROM people \
         WHERE linkedin_key = $1 AND company_id IS NOT NULL"
    )
    .bind(person_key)
    .fetch_optional(conn)
    .await)?;
    Ok(match (moved, record) {
        (Some((_, moved_at)), Some((current, updated))) if updated > moved_at => Some(current),
        (Some((moved_to, _)), _) => Some(moved_to),
        (None, record) => record.map(|(current, _)| current),
    })
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
