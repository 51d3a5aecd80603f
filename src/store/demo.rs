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
