//! Set-wise reads for enrichment: companies by each kind of identifier (one statement per kind
//! for a whole chunk of rows, never one per row), the newest signals of many companies at once,
//! and the signal rows a page of results shows.

use sqlx::FromRow;

use crate::store::bulk::select_in;
use crate::store::signal_lists::{FROM, SELECT, SignalListRow};
use crate::store::{Db, StoreError, Tx};

/// A stored key that identifies companies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyKey {
    /// Normalized LinkedIn company page (`linkedin.com/company/<slug>`).
    LinkedinKey,
    /// Bare website domain.
    Domain,
    /// Registrable domain of the website.
    RegistrableDomain,
}

/// A company found by a key: the key's value, and what ranks several companies sharing it.
#[derive(Debug, Clone, FromRow)]
pub struct KeyedCompany {
    pub key: String,
    pub id: String,
    pub domain: Option<String>,
    pub created_at: i64,
}

/// A read-only transaction: on SQLite a deferred one, so that reading never takes the write lock.
pub async fn begin_read(db: &Db) -> Result<Tx, StoreError> {
    db.begin_read().await
}

/// Every company whose `key` column is one of `values`.
pub async fn companies_by_key(
    tx: &mut Tx,
    key: CompanyKey,
    values: &[&str],
) -> Result<Vec<KeyedCompany>, StoreError> {
    let column = match key {
        CompanyKey::LinkedinKey => "linkedin_key",
        CompanyKey::Domain => "domain",
        CompanyKey::RegistrableDomain => "registrable_domain",
    };
    let sql = format!(
        "SELECT {column} AS key, id, domain, created_at FROM companies WHERE {column} {{in}}"
    );
    select_in(tx, &sql, &[], values).await
}

/// Every company whose name equals one of `names` ignoring case; `key` is the name as given.
/// The names travel as one array (JSON on SQLite) and are lower-cased by the database, the same
/// way as the indexed `lower(name)`.
pub async fn companies_by_exact_name(
    tx: &mut Tx,
    names: &[&str],
) -> Result<Vec<KeyedCompany>, StoreError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    Ok(match tx {
        Tx::Sqlite(t) => {
            let list = serde_json::to_string(names).unwrap_or_else(|_| "[]".into());
            sqlx::query_as::<_, KeyedCompany>(
                "SELECT v.value AS key, c.id, c.domain, c.created_at FROM json_each($1) v \
                 JOIN companies c ON lower(c.name) = lower(v.value)",
            )
            .bind(list)
            .fetch_all(&mut **t)
            .await?
        }
        Tx::Postgres(t) => {
            sqlx::query_as::<_, KeyedCompany>(
                "SELECT v AS key, c.id, c.domain, c.created_at FROM unnest($1::text[]) v \
                 JOIN companies c ON lower(c.name) = lower(v)",
            )
            .bind(names)
            .fetch_all(&mut **t)
            .await?
        }
    })
}

/// A signal of a company: whose (`owner`), of which type, which one.
#[derive(Debug, Clone, FromRow)]
pub struct OwnedSignal {
    pub owner: String,
    pub kind: String,
    pub id: String,
}

/// The newest `per_kind` signals of each type of each company, newest first: signals about the
/// company, and acquisitions it made as the acquirer. Job changes count at the new company.
pub async fn newest_signals(
    tx: &mut Tx,
    company_ids: &[&str],
    per_kind: i64,
) -> Result<Vec<OwnedSignal>, StoreError> {
    // The list goes through one CTE, because `{in}` may stand only once in a statement; the
    // limit is a number of ours, written into the text.
    let sql = format!(
        "WITH wanted AS (SELECT id FROM companies WHERE id {{in}}), \
         hits AS (SELECT s.company_id AS owner, s.kind, s.id, s.occurred_at FROM signals s \
         JOIN wanted w ON s.company_id = w.id \
         UNION SELECT s.other_company_id AS owner, s.kind, s.id, s.occurred_at FROM signals s \
         JOIN wanted w ON s.other_company_id = w.id WHERE s.kind = 'acquisition'), \
         ranked AS (SELECT owner, kind, id, ROW_NUMBER() OVER \
         (PARTITION BY owner, kind ORDER BY occurred_at DESC, id DESC) AS n FROM hits) \
         SELECT owner, kind, id FROM ranked WHERE n <= {} ORDER BY owner, kind, n",
        per_kind.max(0)
    );
    select_in(tx, &sql, &[], company_ids).await
}

/// The signals with these ids, with their companies, as the lists show them.
pub async fn signals_by_id(tx: &mut Tx, ids: &[&str]) -> Result<Vec<SignalListRow>, StoreError> {
    let sql = format!("{SELECT}{FROM} WHERE s.id {{in}}");
    select_in(tx, &sql, &[], ids).await
}
