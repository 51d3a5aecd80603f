//! Pending targets resolved set-wise when a batch of companies or people is stored: the targets
//! that could match are read with one query per kind of identifier, matched in memory in the order
//! the records were stored (the first match wins, as when they are stored one at a time), and
//! written with one update per company.

use std::collections::{BTreeMap, HashMap};

use sqlx::FromRow;

use super::bulk::{Val, execute_in, select_in};
use super::{StoreError, Tx};

/// The identifiers of a company as one record stored it (domain, registrable domain and LinkedIn
/// page from that record).
#[derive(Debug, Clone, Copy)]
pub struct StoredCompany<'a> {
    pub id: &'a str,
    pub domain: Option<&'a str>,
    pub registrable: Option<&'a str>,
    pub linkedin_key: Option<&'a str>,
}

#[derive(Debug, FromRow)]
struct PendingTarget {
    id: String,
    kind: String,
    value: String,
    registrable_domain: Option<String>,
}

impl PendingTarget {
    /// True when storing `c` resolves this target (the rule of `resolve_for_company`).
    fn matches(&self, c: &StoredCompany<'_>) -> bool {
        match self.kind.as_str() {
            "domain" => {
                c.domain == Some(self.value.as_str())
                    || (c.registrable.is_some()
                        && c.registrable == self.registrable_domain.as_deref())
            }
            "linkedin_company" => c.linkedin_key == Some(self.value.as_str()),
            _ => false,
        }
    }
}

/// Resolves the pending targets that designate the stored companies (given in storing order):
/// domain targets by bare or registrable domain, company-page targets by LinkedIn page. Returns
/// how many resolved.
pub async fn resolve_for_companies(
    tx: &mut Tx,
    stored: &[StoredCompany<'_>],
    now: i64,
) -> Result<u64, StoreError> {
    let pending = pending_for(tx, stored).await?;
    let mut by_company: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for target in &pending {
        if let Some(company) = stored.iter().find(|c| target.matches(c)) {
            by_company.entry(company.id).or_default().push(&target.id);
        }
    }
    let mut resolved = 0;
    for (company_id, target_ids) in by_company {
        resolved += execute_in(
            tx,
            "UPDATE targets SET company_id = ?, resolved_at = ? \
             WHERE company_id IS NULL AND id {in}",
            &[Val::Text(Some(company_id)), Val::Int(Some(now))],
            &target_ids,
        )
        .await?;
    }
    Ok(resolved)
}

/// The pending targets any of the stored companies could resolve, each once.
async fn pending_for(
    tx: &mut Tx,
    stored: &[StoredCompany<'_>],
) -> Result<Vec<PendingTarget>, StoreError> {
    const SELECT: &str = "SELECT id, kind, value, registrable_domain FROM targets \
                          WHERE company_id IS NULL AND ";
    let queries = [
        (
            "kind = 'domain' AND value {in}",
            distinct(stored.iter().map(|c| c.domain)),
        ),
        (
            "kind = 'domain' AND registrable_domain {in}",
            distinct(stored.iter().map(|c| c.registrable)),
        ),
        (
            "kind = 'linkedin_company' AND value {in}",
            distinct(stored.iter().map(|c| c.linkedin_key)),
        ),
    ];
    let mut found: BTreeMap<String, PendingTarget> = BTreeMap::new();
    for (condition, values) in queries {
        let sql = format!("{SELECT}{condition}");
        for target in select_in::<PendingTarget>(tx, &sql, &[], &values).await? {
            found.insert(target.id.clone(), target);
        }
    }
    Ok(found.into_values().collect())
}

/// The distinct values given, sorted.
fn distinct<'a>(values: impl Iterator<Item = Option<&'a str>>) -> Vec<&'a str> {
    let mut values: Vec<&str> = values.flatten().collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// Points the member-profile targets of the stored people (profile key, current company, in
/// storing order: the last one counts) at their company: pending ones resolve, resolved ones
/// follow the person. Returns how many changed.
pub async fn follow_people(
    tx: &mut Tx,
    people: &[(&str, &str)],
    now: i64,
) -> Result<u64, StoreError> {
    let current: HashMap<&str, &str> = people.iter().copied().collect();
    let mut keys: Vec<&str> = current.keys().copied().collect();
    keys.sort_unstable();
    let targets: Vec<(String, String, Option<String>)> = select_in(
        tx,
        "SELECT id, value, company_id FROM targets WHERE kind = 'linkedin_profile' AND value {in}",
        &[],
        &keys,
    )
    .await?;
    let mut moves: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (id, value, company_id) in &targets {
        let Some(company) = current.get(value.as_str()) else {
            continue;
        };
        if company_id.as_deref() != Some(*company) {
            moves.entry(*company).or_default().push(id);
        }
    }
    let mut changed = 0;
    for (company_id, target_ids) in moves {
        changed += execute_in(
            tx,
            "UPDATE targets SET company_id = ?, resolved_at = COALESCE(resolved_at, ?) \
             WHERE id {in}",
            &[Val::Text(Some(company_id)), Val::Int(Some(now))],
            &target_ids,
        )
        .await?;
    }
    Ok(changed)
}
