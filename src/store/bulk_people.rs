//! People written set-wise: one multi-row upsert by normalized profile URL per batch.

use super::bulk::{RowStatement, Val, fetch_rows};
use super::{StoreError, Tx, new_id};
use crate::domain::company::PersonRecord;

/// A person about to be written: profile key, the record (several records for one person merged,
/// later values first) and the current company.
#[derive(Debug, Clone)]
pub struct PersonRow {
    pub linkedin_key: String,
    pub record: PersonRecord,
    pub company_id: String,
}

impl PersonRow {
    /// Folds a later record for the same person into this one, as two upserts in a row would.
    pub fn merge(&mut self, later: PersonRecord, company_id: String) {
        let r = &mut self.record;
        r.linkedin_url = later.linkedin_url;
        r.name = later.name.or(r.name.take());
        r.title = later.title.or(r.title.take());
        r.location = later.location.or(r.location.take());
        r.city = later.city.or(r.city.take());
        r.country = later.country.or(r.country.take());
        self.company_id = company_id;
    }
}

/// Inserts or updates people (by profile key; each key at most once) and returns `(id, key)` of
/// every row written.
pub async fn upsert_people(
    tx: &mut Tx,
    rows: &[PersonRow],
    now: i64,
) -> Result<Vec<(String, String)>, StoreError> {
    // In key order: two ingests upserting the same people lock their rows in the same order,
    // so neither waits for the other in a circle.
    let mut rows: Vec<&PersonRow> = rows.iter().collect();
    rows.sort_unstable_by(|a, b| a.linkedin_key.cmp(&b.linkedin_key));
    let ids: Vec<String> = rows.iter().map(|_| new_id()).collect();
    let mut values = Vec::with_capacity(rows.len() * 11);
    for (row, id) in rows.iter().zip(&ids) {
        let r = &row.record;
        values.extend([Val::Text(Some(id)), Val::Text(Some(&row.linkedin_key))]);
        values.extend([
            Val::Text(Some(&r.linkedin_url)),
            Val::opt(&r.name),
            Val::opt(&r.title),
        ]);
        values.extend([
            Val::opt(&r.location),
            Val::opt(&r.city),
            Val::opt(&r.country),
        ]);
        values.extend([Val::Text(Some(&row.company_id)), Val::Int(Some(now))]);
        values.push(Val::Int(Some(now)));
    }
    let stmt = RowStatement {
        head: "INSERT INTO people (id, linkedin_key, linkedin_url, name, title, location, city, \
               country, company_id, created_at, updated_at) VALUES ",
        template: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        tail: " ON CONFLICT (linkedin_key) DO UPDATE SET linkedin_url = excluded.linkedin_url, \
               name = COALESCE(excluded.name, people.name), \
               title = COALESCE(excluded.title, people.title), \
               location = COALESCE(excluded.location, people.location), \
               city = COALESCE(excluded.city, people.city), \
               country = COALESCE(excluded.country, people.country), \
               company_id = excluded.company_id, updated_at = excluded.updated_at \
               RETURNING id, linkedin_key",
    };
    fetch_rows(tx, &stmt, &values).await
}
