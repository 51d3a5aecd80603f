//! Matching rows to companies. A row is looked up by its strongest identifier only — LinkedIn
//! page, else website domain, else name — so a LinkedIn page or domain that matches nothing
//! leaves the row unmatched instead of falling back to a looser guess by name. Names match
//! exactly (ignoring case) first, then with typos tolerated.
//!
//! Lookups are set-wise: one statement per kind of identifier for a whole chunk of rows.

use std::collections::HashMap;

use tokio::task::JoinSet;

use crate::domain::csv_mapping::RowIdentifiers;
use crate::domain::target::{normalize_domain, normalize_linkedin_company, registrable_domain};
use crate::store::Db;
use crate::store::company_names::fuzzy_company_ids;
use crate::store::enrichment::lookup::{
    CompanyKey, KeyedCompany, begin_read, companies_by_exact_name, companies_by_key,
};

/// Typo-tolerant name lookups run at once, at most.
const FUZZY_PARALLEL: usize = 8;

/// How one row is looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// By normalized LinkedIn company page, `linkedin.com/company/<slug>`.
    Linkedin(String),
    /// By bare website domain.
    Domain(String),
    /// By name, as sent.
    Name(String),
    /// The strongest identifier given cannot name a company (not a company page, not a domain).
    Nothing,
}

impl Lookup {
    /// The lookup of a row: its strongest identifier decides alone.
    pub fn of(ids: &RowIdentifiers) -> Lookup {
        if let Some(page) = &ids.linkedin_url {
            return normalize_linkedin_company(page).map_or(Lookup::Nothing, Lookup::Linkedin);
        }
        if let Some(website) = &ids.website_url {
            return normalize_domain(website).map_or(Lookup::Nothing, Lookup::Domain);
        }
        match &ids.company_name {
            Some(name) => Lookup::Name(name.trim().to_string()),
            None => Lookup::Nothing,
        }
    }
}

/// A row's company and the identifier that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub company_id: String,
    /// `linkedin`, `domain` or `name`.
    pub by: &'static str,
}

/// Finds the company of each lookup (in order; `None` = unmatched).
pub async fn match_companies(db: &Db, lookups: &[Lookup]) -> anyhow::Result<Vec<Option<Match>>> {
    let wanted = |pick: fn(&Lookup) -> Option<&str>| distinct(lookups.iter().filter_map(pick));
    let pages = wanted(|l| matches!(l, Lookup::Linkedin(_)).then(|| l.value()));
    let domains = wanted(|l| matches!(l, Lookup::Domain(_)).then(|| l.value()));
    let names = wanted(|l| matches!(l, Lookup::Name(_)).then(|| l.value()));

    let mut tx = begin_read(db).await?;
    let by_page = first_by_key(companies_by_key(&mut tx, CompanyKey::LinkedinKey, &pages).await?);
    let by_domain = domain_matches(&mut tx, &domains).await?;
    let mut by_name = first_by_key(companies_by_exact_name(&mut tx, &names).await?);
    drop(tx);
    let misspelt: Vec<String> = names
        .iter()
        .filter(|name| !by_name.contains_key(**name))
        .map(|name| name.to_string())
        .collect();
    by_name.extend(fuzzy_matches(db, misspelt).await?);

    Ok(lookups
        .iter()
        .map(|lookup| {
            let (found, by) = match lookup {
                Lookup::Linkedin(page) => (by_page.get(page), "linkedin"),
                Lookup::Domain(domain) => (by_domain.get(domain), "domain"),
                Lookup::Name(name) => (by_name.get(name), "name"),
                Lookup::Nothing => (None, ""),
            };
            found.map(|id| Match {
                company_id: id.clone(),
                by,
            })
        })
        .collect())
}

impl Lookup {
    fn value(&self) -> &str {
        match self {
            Lookup::Linkedin(v) | Lookup::Domain(v) | Lookup::Name(v) => v,
            Lookup::Nothing => "",
        }
    }
}

fn distinct<'a>(values: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = values.collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The company for each key: the first created among those sharing it.
fn first_by_key(found: Vec<KeyedCompany>) -> HashMap<String, String> {
    best_by(found, |_| 0)
}

/// The company for each key, best `rank` first, then the first created.
fn best_by(
    found: Vec<KeyedCompany>,
    rank: impl Fn(&KeyedCompany) -> u8,
) -> HashMap<String, String> {
    let mut best: HashMap<String, (u8, i64, String)> = HashMap::new();
    for company in found {
        let candidate = (rank(&company), company.created_at, company.id);
        match best.get_mut(&company.key) {
            Some(current) if *current <= candidate => {}
            Some(current) => *current = candidate,
            None => {
                best.insert(company.key, candidate);
            }
        }
    }
    best.into_iter()
        .map(|(key, (_, _, id))| (key, id))
        .collect()
}

/// Domains as targets match them: the company with that bare domain, else one sharing its
/// registrable domain (the one whose domain is the registrable domain itself first).
async fn domain_matches(
    tx: &mut crate::store::Tx,
    domains: &[&str],
) -> anyhow::Result<HashMap<String, String>> {
    let mut found = first_by_key(companies_by_key(tx, CompanyKey::Domain, domains).await?);
    let registrable: HashMap<&str, String> = domains
        .iter()
        .filter(|domain| !found.contains_key(**domain))
        .filter_map(|domain| Some((*domain, registrable_domain(domain)?)))
        .collect();
    let wanted = distinct(registrable.values().map(String::as_str));
    let companies = companies_by_key(tx, CompanyKey::RegistrableDomain, &wanted).await?;
    let by_registrable = best_by(companies, |c| u8::from(c.domain.as_deref() != Some(&c.key)));
    for (domain, registrable) in registrable {
        if let Some(id) = by_registrable.get(&registrable) {
            found.insert(domain.to_string(), id.clone());
        }
    }
    Ok(found)
}

/// The best typo-tolerant match of each name that has one, a few lookups at a time.
async fn fuzzy_matches(db: &Db, names: Vec<String>) -> anyhow::Result<HashMap<String, String>> {
    let mut found = HashMap::new();
    for batch in names.chunks(FUZZY_PARALLEL) {
        let mut lookups = JoinSet::new();
        for name in batch {
            let (db, name) = (db.clone(), name.clone());
            lookups.spawn(async move {
                let ids = fuzzy_company_ids(&db, &name, 1).await;
                (name, ids)
            });
        }
        while let Some(joined) = lookups.join_next().await {
            let (name, ids) = joined?;
            if let Some(id) = ids?.into_iter().next() {
                found.insert(name, id);
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(name: Option<&str>, website: Option<&str>, linkedin: Option<&str>) -> RowIdentifiers {
        RowIdentifiers {
            company_name: name.map(str::to_string),
            website_url: website.map(str::to_string),
            linkedin_url: linkedin.map(str::to_string),
        }
    }

    #[test]
    fn the_strongest_identifier_decides_alone() {
        let page = "https://www.linkedin.com/company/acme/about";
        assert_eq!(
            Lookup::of(&ids(Some("Acme"), Some("acme.com"), Some(page))),
            Lookup::Linkedin("linkedin.com/company/acme".into())
        );
        assert_eq!(
            Lookup::of(&ids(Some("Acme"), Some("https://www.Acme.com/x"), None)),
            Lookup::Domain("acme.com".into())
        );
        assert_eq!(
            Lookup::of(&ids(Some(" Acme "), None, None)),
            Lookup::Name("Acme".into())
        );
    }

    #[test]
    fn an_unusable_strong_identifier_never_falls_back_to_the_name() {
        let profile = "https://linkedin.com/in/jane";
        assert_eq!(
            Lookup::of(&ids(Some("Acme"), None, Some(profile))),
            Lookup::Nothing
        );
        assert_eq!(
            Lookup::of(&ids(Some("Acme"), Some("not a domain"), None)),
            Lookup::Nothing
        );
    }

    #[test]
    fn among_companies_sharing_a_key_the_best_ranked_then_first_created_wins() {
        let company = |key: &str, id: &str, domain: &str, created_at| KeyedCompany {
            key: key.into(),
            id: id.into(),
            domain: Some(domain.into()),
            created_at,
        };
        let found = vec![
            company("acme.com", "shop", "shop.acme.com", 1),
            company("acme.com", "main", "acme.com", 5),
            company("acme.com", "later", "acme.com", 9),
        ];
        let best = best_by(found.clone(), |c| {
            u8::from(c.domain.as_deref() != Some(&c.key))
        });
        assert_eq!(best["acme.com"], "main");
        assert_eq!(first_by_key(found)["acme.com"], "shop");
    }
}
