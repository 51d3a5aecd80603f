//! What the signal lists and the company list share: paging and which companies a list is
//! limited to (strict identifiers, else a partial name).

use std::sync::Arc;

use super::ServiceError;
use crate::store::Db;
use crate::store::companies::{CompanyKey, ids_where_in};
use crate::store::company_names::partial_company_ids;
use crate::store::count_cache::AnswerCache;

pub use crate::store::signal_query::Order;

/// Most companies a partial, fuzzy name may stand for.
const NAME_CANDIDATES: i64 = 100;

/// Page, page size and whether only the count is wanted.
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub page: i64,
    pub limit: i64,
    pub count_only: bool,
}

impl Paging {
    /// The rows skipped before this page.
    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.limit
    }
}

/// The company a list is asked about: normalized domains and LinkedIn company keys (which win
/// and must agree), else a company name matched partially.
#[derive(Debug, Clone, Default)]
pub struct CompanyIdentity {
    pub domains: Vec<String>,
    pub linkedin_pages: Vec<String>,
    pub name: Option<String>,
}

/// Which companies a list is limited to, and how they were matched.
#[derive(Debug, Clone)]
pub struct ResolvedIdentity {
    /// `None`: no company filter; `Some(empty)`: nothing can match.
    pub company_ids: Option<Vec<String>>,
    /// `exact`, `fuzzy` or `none`, as the records show it.
    pub match_confidence: &'static str,
}

/// Resolves a list's company identity to company ids; the companies a partial name stands for
/// are kept in `cache` while the list data is unchanged.
pub async fn resolve_identity(
    db: &Db,
    cache: &AnswerCache<'_>,
    identity: &CompanyIdentity,
) -> Result<ResolvedIdentity, ServiceError> {
    if let Some(ids) = strict_company_ids(db, &identity.domains, &identity.linkedin_pages).await? {
        return Ok(ResolvedIdentity {
            company_ids: Some(ids),
            match_confidence: "exact",
        });
    }
    if let Some(name) = &identity.name {
        let ids = named_company_ids(db, cache, name).await?;
        return Ok(ResolvedIdentity {
            company_ids: Some(ids),
            match_confidence: "fuzzy",
        });
    }
    Ok(ResolvedIdentity {
        company_ids: None,
        match_confidence: "none",
    })
}

/// The companies a partial, fuzzy name stands for, best first: from `cache` while the list data
/// is unchanged, else looked up (through the names' trigram index) and kept.
async fn named_company_ids(
    db: &Db,
    cache: &AnswerCache<'_>,
    name: &str,
) -> Result<Vec<String>, ServiceError> {
    let version = cache.version(db).await?;
    let key = format!("partial_company_ids|{NAME_CANDIDATES}|{name}");
    if let Some(ids) = cache.page::<String>(&key, version) {
        return Ok(ids.as_ref().clone());
    }
    let ids = partial_company_ids(db, name, NAME_CANDIDATES).await?;
    let bytes = key.len() + ids.iter().map(|id| 64 + id.len()).sum::<usize>();
    cache.put_page(key, version, Arc::new(ids.clone()), bytes);
    Ok(ids)
}

/// Companies named strictly by normalized domains and/or LinkedIn pages; both given must agree.
/// `None` when neither is given.
pub async fn strict_company_ids(
    db: &Db,
    domains: &[String],
    pages: &[String],
) -> Result<Option<Vec<String>>, ServiceError> {
    if domains.is_empty() && pages.is_empty() {
        return Ok(None);
    }
    let by_domain = ids_where_in(db, CompanyKey::Domain, domains).await?;
    let by_page = ids_where_in(db, CompanyKey::LinkedinKey, pages).await?;
    Ok(Some(match (domains.is_empty(), pages.is_empty()) {
        (false, false) => by_domain
            .into_iter()
            .filter(|id| by_page.contains(id))
            .collect(),
        (false, true) => by_domain,
        _ => by_page,
    }))
}
