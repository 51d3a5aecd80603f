//! The few reads of the demo mode: whether the database is fresh, and a company to give a new
//! live signal to.

use super::{Db, StoreError};

/// True when the database holds no team yet.
pub async fn has_no_team(db: &Db) -> Result<bool, StoreError> {
    let count: i64 = crate::on_db!(db, |pool| sqlx::query_scalar("SELECT COUNT(*) FROM teams")
        .fetch_one(pool)
        .await)?;
    Ok(count == 0)
}

/// The id of the company at position `pick` (modulo their number) in id order; `None` when
/// there is no company.
pub async fn company_at(db: &Db, pick: u32) -> Result<Option<String>, StoreError> {
    let count: i64 = crate::on_db!(db, |pool| sqlx::query_scalar(
        "SELECT COUNT(*) FROM companies"
    )
    .fetch_one(pool)
    .await)?;
    if count == 0 {
        return Ok(None);
    }
    let found = crate::on_db!(db, |pool| sqlx::query_scalar(
        "SELECT id FROM companies ORDER BY id LIMIT 1 OFFSET $1"
    )
    .bind(i64::from(pick) % count)
    .fetch_optional(pool)
    .await)?;
    Ok(found)
}

/// A company the demo shows off: one of those with the most signals.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ShowcaseCompany {
    pub id: String,
    pub name: String,
    pub domain: String,
}

/// The `limit` companies with a domain and the most signals (ties by name).
pub async fn busiest_companies(db: &Db, limit: i64) -> Result<Vec<ShowcaseCompany>, StoreError> {
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<
        _,
        ShowcaseCompany,
    >(
        "SELECT c.id, c.name, c.registrable_domain AS domain FROM companies c \
         JOIN (SELECT company_id, COUNT(*) AS n FROM signal_companies GROUP BY company_id) s \
         ON s.company_id = c.id \
         WHERE c.registrable_domain IS NOT NULL \
         ORDER BY s.n DESC, c.name, c.id LIMIT $1"
    )
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// A company some active monitor watches: a resolved target with its monitor's signal types.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WatchedCompany {
    pub target_id: String,
    pub company_id: String,
    /// The monitor's signal types as stored (a JSON array of names).
    pub signal_types: String,
}

/// The resolved targets of active monitors, the newest first, at most `limit`.
pub async fn watched_companies(db: &Db, limit: i64) -> Result<Vec<WatchedCompany>, StoreError> {
    Ok(crate::on_db!(db, |pool| {
        sqlx::query_as::<_, WatchedCompany>(
            "SELECT t.id AS target_id, t.company_id, m.signal_types FROM targets t \
         JOIN monitors m ON m.id = t.monitor_id \
         WHERE m.active = TRUE AND t.company_id IS NOT NULL \
         ORDER BY t.created_at DESC, t.id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(pool)
        .await
    })?)
}
