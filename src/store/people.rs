//! People: upsert from imports, keyed by their normalized profile URL.

use super::{StoreError, Tx, new_id};
use crate::domain::company::PersonRecord;
use crate::domain::time::now_ms;
use crate::on_tx;

/// Inserts or updates a person (by normalized profile URL) working at `company_id`; returns the
/// person's id.
pub async fn upsert_person(
    tx: &mut Tx,
    linkedin_key: &str,
    record: &PersonRecord,
    company_id: &str,
) -> Result<String, StoreError> {
    let now = now_ms();
    let id = on_tx!(tx, |conn| {
        sqlx::query_scalar::<_, String>(
        "INSERT INTO people (id, linkedin_key, linkedin_url, name, title, location, city, country, \
         company_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
         ON CONFLICT (linkedin_key) DO UPDATE SET linkedin_url = excluded.linkedin_url, \
         name = COALESCE(excluded.name, people.name), \
         title = COALESCE(excluded.title, people.title), \
         location = COALESCE(excluded.location, people.location), \
         city = COALESCE(excluded.city, people.city), \
         country = COALESCE(excluded.country, people.country), \
         company_id = excluded.company_id, updated_at = excluded.updated_at \
         RETURNING id"
    )
    .bind(new_id())
    .bind(linkedin_key)
    .bind(&record.linkedin_url)
    .bind(&record.name)
    .bind(&record.title)
    .bind(&record.location)
    .bind(&record.city)
    .bind(&record.country)
    .bind(company_id)
    .bind(now)
    .fetch_one(conn)
    .await
    })?;
    Ok(id)
}
