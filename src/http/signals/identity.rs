//! Company identity on the lists: strict `company_domain` / `company_linkedin_url` (which win and
//! must agree), else `company_name` (partial match, fuzzy).

use super::params::{MAX_IDENTIFIERS, company_domains, company_linkedin_urls, text};
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::service::lists::CompanyIdentity;

/// Reads the company identity parameters of a list. `linkedin_params` names the LinkedIn one
/// and its aliases: each given is validated, and together they are one list.
pub fn parse_identity(
    q: &QueryParams,
    domain_param: &str,
    linkedin_params: &[&str],
) -> Result<CompanyIdentity, ApiError> {
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
    Ok(CompanyIdentity {
        domains,
        linkedin_pages: pages,
        name: text(q, "company_name"),
    })
}
