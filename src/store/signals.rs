//! Signals of the four kinds: stored rows, the companies each concerns, and their tags.

use super::{StoreError, Tx};
use crate::on_tx;

/// A signal row ready to be stored.
#[derive(Debug, Clone, Default)]
pub struct SignalRow {
    pub id: String,
    pub kind: &'static str,
    pub company_id: String,
    pub other_company_id: Option<String>,
    pub occurred_at: i64,
    pub discovered_at: i64,
    pub round_type: Option<String>,
    pub round_flavor: Option<String>,
    pub amount: Option<i64>,
    pub currency: Option<String>,
    pub verification_status: Option<String>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub city: Option<String>,
    pub source: Option<String>,
    pub applicants: Option<i64>,
    pub sort_text: Option<String>,
    pub title: Option<String>,
    pub person_key: Option<String>,
    pub payload: String,
    pub tags: Vec<String>,
}

/// True when a signal with this id is already stored.
pub async fn signal_exists(tx: &mut Tx, id: &str) -> Result<bool, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM signals WHERE id = $1"
    )
    .bind(id)
    .fetch_one(conn)
    .await)?
        > 0)
}

/// Inserts or replaces a signal with the companies it concerns and its tags.
pub async fn upsert_signal(tx: &mut Tx, s: &SignalRow, now: i64) -> Result<(), StoreError> {
    on_tx!(tx, |conn| {
        sqlx::query(
        "INSERT INTO signals (id, kind, company_id, other_company_id, occurred_at, discovered_at, \
         round_type, round_flavor, amount, currency, verification_status, country, region, city, \
         source, applicants, sort_text, title, person_key, payload, created_at) VALUES ($1, $2, $3, \
         $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) \
         ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, company_id = excluded.company_id, \
         other_company_id = excluded.other_company_id, occurred_at = excluded.occurred_at, \
         discovered_at = excluded.discovered_at, round_type = excluded.round_type, \
         round_flavor = excluded.round_flavor, amount = excluded.amount, \
         currency = excluded.currency, verification_status = excluded.verification_status, \
         country = excluded.country, region = excluded.region, city = excluded.city, \
         source = excluded.source, applicants = excluded.applicants, \
         sort_text = excluded.sort_text, title = excluded.title, person_key = excluded.person_key, \
         payload = excluded.payload"
    )
    .bind(&s.id)
    .bind(s.kind)
    .bind(&s.company_id)
    .bind(&s.other_company_id)
    .bind(s.occurred_at)
    .bind(s.discovered_at)
    .bind(&s.round_type)
    .bind(&s.round_flavor)
    .bind(s.amount)
    .bind(&s.currency)
    .bind(&s.verification_status)
    .bind(&s.country)
    .bind(&s.region)
    .bind(&s.city)
    .bind(&s.source)
    .bind(s.applicants)
    .bind(&s.sort_text)
    .bind(&s.title)
    .bind(&s.person_key)
    .bind(&s.payload)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
    })?;
    replace_companies(tx, s).await?;
    replace_tags(tx, &s.id, &s.tags).await
}

async fn replace_companies(tx: &mut Tx, s: &SignalRow) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM signal_companies WHERE signal_id = $1"
    )
    .bind(&s.id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    let others = s.other_company_id.iter().filter(|o| **o != s.company_id);
    for company_id in std::iter::once(&s.company_id).chain(others) {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO signal_companies (signal_id, kind, company_id, occurred_at) \
             VALUES ($1, $2, $3, $4)"
        )
        .bind(&s.id)
        .bind(s.kind)
        .bind(company_id)
        .bind(s.occurred_at)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
    }
    Ok(())
}

async fn replace_tags(tx: &mut Tx, signal_id: &str, tags: &[String]) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM signal_tags WHERE signal_id = $1"
    )
    .bind(signal_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    for tag in tags {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO signal_tags (signal_id, tag) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        )
        .bind(signal_id)
        .bind(tag)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
    }
    Ok(())
}
