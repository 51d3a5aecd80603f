//! Company identity on the lists: strict `company_domain` / `company_linkedin_url` (which win and
//! must agree), else `company_name` (partial match, fuzzy). Decides `match_confidence`.

use super::params::{MAX_IDENTIFIERS, company_domains, company_linkedin_urls, text};
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::store::Db;
use crate::store::companies::{CompanyKey, ids_where_in};
use crate::store::company_names::partial_company_ids;

/// Most companies a partial, fuzzy name may stand for.
const NAME_CANDIDATES: i64 = 100;

/// Which companies the list is limited to, and how they were matched.
pub struct Identity {
    /// `None`: no company filter; `Some(empty)`: nothing can match.
    pub company_ids: Option<Vec<String>>,
    pub match_confidence: &'static str,
}

/// Resolves the company identity parameters of a list. `linkedin_params` names the LinkedIn
/// one and its aliases: each given is validated, and together they are one list.
pub async fn resolve_identity(
    db: &Db,
    q: &QueryParams,
    domain_param: &str,
    linkedin_params: &[&str],
) -> Result<Identity, ApiError> {
    let domains = company_domains(q, domain_param)?;
    let mut pages = Vec::new();
    for name in linkedin_params {
        pages.extend(company_linkedin_urls(q, name)?);
    }
    if pages.len() > MAX_IDENTIFIERS {
        return Err(ApiError::bad_request(format!(
            "{} accept at most {MAX_IDENTIFIERS} comma-separated values together",
            linkedin_params.join(" and ")
        )));
    }
    if let Some(ids) = strict_company_ids(db, &domains, &pages).await? {
        return Ok(Identity {
            company_ids: Some(ids),
            match_confidence: "exact",
        });
    }
    if let Some(name) = text(q, "company_name") {
        let ids = partial_company_ids(db, &name, NAME_CANDIDATES).await?;
        return Ok(Identity {
            company_ids: Some(ids),
            match_confidence: "fuzzy",
        });
    }
    Ok(Identity {
        company_ids: None,
        match_confidence: "none",
    })
}

/// Companies named strictly by normalized domains and/or LinkedIn pages; both given must agree.
/// `None` when neither is given.
pub async fn strict_company_ids(
    db: &Db,
    domains: &[String],
    pages: &[String],
) -> Result<Option<Vec<String>>, ApiError> {
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
