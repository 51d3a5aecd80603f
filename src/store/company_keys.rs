//! Claims on the natural keys of companies an ingest creates (website domain, LinkedIn page):
//! the unique key that lets ingests in several processes create companies without a lock. Each
//! transaction that creates a company claims its keys first; a claim refused because another
//! transaction holds the key (PostgreSQL waits for that one to end) means the company was
//! created meanwhile, and the ingest starts again to find it.
//!
//! On SQLite every write transaction already holds the database's write lock, so two ingests
//! never create at once and nothing is claimed.

use std::collections::HashSet;

use super::bulk::{RowStatement, Val, execute_rows, fetch_rows, select_in};
use super::{StoreError, Tx};

/// One key of a company about to be created.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyClaim {
    /// `domain:` or `linkedin:` and the normalized value.
    pub key: String,
    pub company_id: String,
}

impl KeyClaim {
    /// The claim on a website domain.
    pub fn domain(domain: &str, company_id: &str) -> KeyClaim {
        KeyClaim {
            key: format!("domain:{domain}"),
            company_id: company_id.to_string(),
        }
    }

    /// The claim on a LinkedIn company page.
    pub fn linkedin(page: &str, company_id: &str) -> KeyClaim {
        KeyClaim {
            key: format!("linkedin:{page}"),
            company_id: company_id.to_string(),
        }
    }
}

/// Claims the keys (in key order, so two claimers never wait for each other in a circle);
/// true when every key is now this transaction's. A key claimed by a transaction still open
/// waits for it to end. A key whose company still carries it is refused (false: that company
/// was created meanwhile, and a look-up made now finds it); a key whose company has since
/// moved to another domain or page is stale, and taken over.
pub async fn claim_keys(tx: &mut Tx, claims: &[KeyClaim], now: i64) -> Result<bool, StoreError> {
    if claims.is_empty() || matches!(tx, Tx::Sqlite(_)) {
        return Ok(true);
    }
    let mut sorted: Vec<&KeyClaim> = claims.iter().collect();
    sorted.sort_unstable();
    sorted.dedup_by(|a, b| a.key == b.key);
    let claimed: HashSet<String> = insert_claims(tx, &sorted, now).await?;
    let refused: Vec<&KeyClaim> = sorted
        .into_iter()
        .filter(|claim| !claimed.contains(&claim.key))
        .collect();
    if refused.is_empty() {
        return Ok(true);
    }
    let keys: Vec<&str> = refused.iter().map(|claim| claim.key.as_str()).collect();
    let live: Vec<(String,)> = select_in(
        tx,
        "SELECT k.key FROM company_keys k JOIN companies c ON c.id = k.company_id \
         WHERE (k.key = 'domain:' || c.domain OR k.key = 'linkedin:' || c.linkedin_key) \
         AND k.key {in}",
        &[],
        &keys,
    )
    .await?;
    if !live.is_empty() {
        return Ok(false);
    }
    take_over(tx, &refused, now).await?;
    Ok(true)
}

/// Inserts the claims no one holds; returns the keys inserted.
async fn insert_claims(
    tx: &mut Tx,
    claims: &[&KeyClaim],
    now: i64,
) -> Result<HashSet<String>, StoreError> {
    let mut values = Vec::with_capacity(claims.len() * 3);
    for claim in claims {
        values.extend([Val::text(&claim.key), Val::text(&claim.company_id)]);
        values.push(Val::Int(Some(now)));
    }
    let stmt = RowStatement {
        head: "INSERT INTO company_keys (key, company_id, created_at) VALUES ",
        template: "(?, ?, ?)",
        tail: " ON CONFLICT (key) DO NOTHING RETURNING key",
    };
    let claimed: Vec<(String,)> = fetch_rows(tx, &stmt, &values).await?;
    Ok(claimed.into_iter().map(|(key,)| key).collect())
}

/// Points stale claims at the companies this transaction creates.
async fn take_over(tx: &mut Tx, claims: &[&KeyClaim], now: i64) -> Result<(), StoreError> {
    let mut values = Vec::with_capacity(claims.len() * 3);
    for claim in claims {
        values.extend([Val::text(&claim.key), Val::text(&claim.company_id)]);
        values.push(Val::Int(Some(now)));
    }
    let stmt = RowStatement {
        head: "UPDATE company_keys SET company_id = v.column2, created_at = v.column3 \
               FROM (VALUES ",
        template: "(?, ?, ?)",
        tail: ") AS v WHERE company_keys.key = v.column1",
    };
    execute_rows(tx, &stmt, &values).await?;
    Ok(())
}
