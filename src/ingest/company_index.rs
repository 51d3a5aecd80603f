//! The companies one batch of records names, looked up together. Every stored company that has
//! one of the batch's ids, website domains or LinkedIn pages is read with one query per kind of
//! identifier; the batch's own writes are then applied in memory in record order, so each record
//! finds exactly the company it would have found had the records been stored one at a time
//! (several companies sharing a domain or page: the oldest, then the smallest id).

use std::collections::{BTreeSet, HashMap, HashSet};

use super::session::ImportSession;
use crate::store::bulk_companies::{CompanyKeyRow, KeyColumn, companies_by};
use crate::store::{StoreError, Tx};

/// The identifiers a record gives for a company, normalized (bare domain, LinkedIn page key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identifiers {
    pub id: Option<String>,
    pub domain: Option<String>,
    pub linkedin: Option<String>,
}

#[derive(Debug)]
struct Entry {
    domain: Option<String>,
    linkedin: Option<String>,
    created_at: i64,
    /// Stored before this batch (else created by it).
    stored: bool,
}

/// Companies by id, and by domain and LinkedIn page in look-up order.
#[derive(Debug, Default)]
pub struct CompanyIndex {
    entries: HashMap<String, Entry>,
    /// Ids the session knows to be stored and that were therefore not read.
    known: HashSet<String>,
    by_domain: HashMap<String, BTreeSet<(i64, String)>>,
    by_linkedin: HashMap<String, BTreeSet<(i64, String)>>,
}

/// Distinct non-empty values picked from each identifier set.
fn distinct<'a>(
    wanted: &[&'a Identifiers],
    pick: fn(&'a Identifiers) -> Option<&'a String>,
) -> Vec<&'a str> {
    let set: BTreeSet<&str> = wanted
        .iter()
        .filter_map(|w| pick(w))
        .map(String::as_str)
        .collect();
    set.into_iter().collect()
}

impl CompanyIndex {
    /// Reads the stored companies any of `wanted` could designate. With a session (look-ups that
    /// only ever add companies: signals, people), ids the session knows are taken as stored
    /// without a read, and domains and pages are read only for records their id does not
    /// resolve. Without one (a company import, which may move a stored company to another domain
    /// or page), every id, domain and page of the batch is read.
    pub async fn load(
        tx: &mut Tx,
        session: Option<&ImportSession>,
        wanted: &[&Identifiers],
    ) -> Result<CompanyIndex, StoreError> {
        let mut index = CompanyIndex::default();
        let mut ids = Vec::new();
        for id in distinct(wanted, |w| w.id.as_ref()) {
            if session.is_some_and(|s| s.knows_company(id)) {
                index.known.insert(id.to_string());
            } else {
                ids.push(id);
            }
        }
        for row in companies_by(tx, KeyColumn::Id, &ids).await? {
            index.add_stored(row);
        }
        let unresolved: Vec<&Identifiers> = wanted
            .iter()
            .copied()
            .filter(|w| session.is_none() || !w.id.as_ref().is_some_and(|id| index.exists(id)))
            .collect();
        let queries = [
            (
                KeyColumn::Domain,
                distinct(&unresolved, |w| w.domain.as_ref()),
            ),
            (
                KeyColumn::LinkedinKey,
                distinct(&unresolved, |w| w.linkedin.as_ref()),
            ),
        ];
        for (column, values) in queries {
            for row in companies_by(tx, column, &values).await? {
                index.add_stored(row);
            }
        }
        Ok(index)
    }

    fn add_stored(&mut self, row: CompanyKeyRow) {
        if self.entries.contains_key(&row.id) {
            return;
        }
        self.insert(
            row.id,
            Entry {
                domain: row.domain,
                linkedin: row.linkedin_key,
                created_at: row.created_at,
                stored: true,
            },
        );
    }

    fn insert(&mut self, id: String, entry: Entry) {
        let key = (entry.created_at, id.clone());
        if let Some(d) = &entry.domain {
            self.by_domain
                .entry(d.clone())
                .or_default()
                .insert(key.clone());
        }
        if let Some(l) = &entry.linkedin {
            self.by_linkedin.entry(l.clone()).or_default().insert(key);
        }
        self.entries.insert(id, entry);
    }

    /// True when a company with this id exists (stored, or created earlier in the batch).
    pub fn exists(&self, id: &str) -> bool {
        self.entries.contains_key(id) || self.known.contains(id)
    }

    /// True when the company was stored before this batch.
    pub fn was_stored(&self, id: &str) -> bool {
        self.known.contains(id) || self.entries.get(id).is_some_and(|e| e.stored)
    }

    fn first(map: &HashMap<String, BTreeSet<(i64, String)>>, key: &str) -> Option<String> {
        map.get(key)
            .and_then(|set| set.first())
            .map(|(_, id)| id.clone())
    }

    /// The company found by id, else by domain, else by LinkedIn page: the first identifier
    /// given that matches wins (how signals and people name their company).
    pub fn find_any(&self, ids: &Identifiers) -> Option<String> {
        if let Some(id) = &ids.id
            && self.exists(id)
        {
            return Some(id.clone());
        }
        if let Some(found) = ids
            .domain
            .as_ref()
            .and_then(|d| Self::first(&self.by_domain, d))
        {
            return Some(found);
        }
        ids.linkedin
            .as_ref()
            .and_then(|l| Self::first(&self.by_linkedin, l))
    }

    /// The company a company record updates: by its id when it has one, else by its domain when
    /// it has one, else by its LinkedIn page.
    pub fn find_for_upsert(&self, ids: &Identifiers) -> Option<String> {
        match (&ids.id, &ids.domain, &ids.linkedin) {
            (Some(id), _, _) => self.exists(id).then(|| id.clone()),
            (None, Some(domain), _) => Self::first(&self.by_domain, domain),
            (None, None, Some(linkedin)) => Self::first(&self.by_linkedin, linkedin),
            (None, None, None) => None,
        }
    }

    /// Applies a write of company `id` with the given domain and page (left out: kept), created
    /// at `now` when new.
    pub fn record_write(
        &mut self,
        id: &str,
        domain: Option<&str>,
        linkedin: Option<&str>,
        now: i64,
    ) {
        let Some(entry) = self.entries.get_mut(id) else {
            let entry = Entry {
                domain: domain.map(str::to_string),
                linkedin: linkedin.map(str::to_string),
                created_at: now,
                stored: self.known.contains(id),
            };
            self.insert(id.to_string(), entry);
            return;
        };
        let key = (entry.created_at, id.to_string());
        if let Some(d) = domain
            && entry.domain.as_deref() != Some(d)
        {
            move_key(&mut self.by_domain, entry.domain.replace(d.into()), d, &key);
        }
        if let Some(l) = linkedin
            && entry.linkedin.as_deref() != Some(l)
        {
            move_key(
                &mut self.by_linkedin,
                entry.linkedin.replace(l.into()),
                l,
                &key,
            );
        }
    }
}

/// Moves `key` from the set under `old` (if any) to the set under `new`.
fn move_key(
    map: &mut HashMap<String, BTreeSet<(i64, String)>>,
    old: Option<String>,
    new: &str,
    key: &(i64, String),
) {
    if let Some(set) = old.and_then(|old| map.get_mut(&old)) {
        set.remove(key);
    }
    map.entry(new.to_string()).or_default().insert(key.clone());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(id: Option<&str>, domain: Option<&str>, linkedin: Option<&str>) -> Identifiers {
        Identifiers {
            id: id.map(str::to_string),
            domain: domain.map(str::to_string),
            linkedin: linkedin.map(str::to_string),
        }
    }

    fn index_with(rows: &[(&str, Option<&str>, Option<&str>, i64)]) -> CompanyIndex {
        let mut index = CompanyIndex::default();
        for (id, domain, linkedin, created_at) in rows {
            index.add_stored(CompanyKeyRow {
                id: id.to_string(),
                domain: domain.map(str::to_string),
                linkedin_key: linkedin.map(str::to_string),
                created_at: *created_at,
            });
        }
        index
    }

    #[test]
    fn the_oldest_company_of_a_domain_wins_and_a_new_one_joins_the_order() {
        let mut index = index_with(&[("b", Some("x.com"), None, 2), ("a", Some("x.com"), None, 2)]);
        assert_eq!(
            index.find_any(&ids(None, Some("x.com"), None)),
            Some("a".into())
        );
        index.record_write("c", Some("y.com"), None, 5);
        assert_eq!(
            index.find_any(&ids(Some("zz"), Some("y.com"), None)),
            Some("c".into())
        );
        assert!(!index.was_stored("c") && index.was_stored("a"));
    }

    #[test]
    fn a_company_whose_domain_changes_is_found_only_by_its_new_domain() {
        let mut index = index_with(&[("a", Some("old.com"), Some("li/a"), 1)]);
        index.record_write("a", Some("new.com"), None, 9);
        assert_eq!(
            index.find_for_upsert(&ids(None, Some("old.com"), None)),
            None
        );
        assert_eq!(
            index.find_for_upsert(&ids(None, Some("new.com"), None)),
            Some("a".into())
        );
        assert_eq!(
            index.find_for_upsert(&ids(None, None, Some("li/a"))),
            Some("a".into())
        );
    }

    #[test]
    fn an_upsert_by_id_does_not_fall_back_to_the_domain_but_a_signal_lookup_does() {
        let index = index_with(&[("a", Some("x.com"), None, 1)]);
        let named = ids(Some("unknown"), Some("x.com"), None);
        assert_eq!(index.find_for_upsert(&named), None);
        assert_eq!(index.find_any(&named), Some("a".into()));
        let domain_only = ids(None, Some("other.com"), Some("li/x"));
        assert_eq!(index.find_for_upsert(&domain_only), None);
    }
}
