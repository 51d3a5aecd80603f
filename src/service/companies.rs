//! The company list: filter, count, and read one charged page of Company records; a domain no
//! known company has may be researched first (`enrich_on_miss`).

use serde_json::Value;

use super::company_research::research_misses;
use super::credits::{ChargedPage, charged_page};
use super::lists::{Paging, strict_company_ids};
use super::rendered::{self, Record};
use super::{ServiceError, Services, TeamContext};
use crate::store::StoreError;
use crate::store::company_lists::{count_companies, list_companies};

pub use super::company_research::EnrichOnMiss;
pub use crate::store::company_lists::{CompanyQuery, CompanyRow};

/// A validated company list request. `query` holds every filter but the ids, which come from
/// the strict identifiers; its limit and offset follow `paging`.
#[derive(Debug, Clone)]
pub struct CompanyListRequest {
    pub query: CompanyQuery,
    /// Normalized domains the list is limited to.
    pub domains: Vec<String>,
    /// Normalized LinkedIn company keys the list is limited to.
    pub linkedin_pages: Vec<String>,
    pub paging: Paging,
    /// Research the domains when no known company has them.
    pub enrich: Option<EnrichOnMiss>,
}

/// One page of the company list with the number of matching companies.
#[derive(Debug, Clone)]
pub struct CompanyPage {
    pub total: i64,
    pub page: ChargedPage<Record>,
}

/// Lists one page of companies, charging one credit unless only the count is asked. With
/// `enrich`, domains that no known company has are researched first (and waited for as asked);
/// the charge is the same whatever the research finds.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    request: CompanyListRequest,
) -> Result<CompanyPage, ServiceError> {
    let CompanyListRequest {
        mut query,
        domains,
        linkedin_pages,
        paging,
        enrich,
    } = request;
    let cache = services.counts.for_answer();
    query.limit = paging.limit;
    query.offset = paging.offset();
    query.ids = strict_company_ids(&services.db, &domains, &linkedin_pages).await?;
    let missed = query.ids.as_ref().is_some_and(Vec::is_empty);
    if let Some(enrich) = enrich.filter(|_| missed) {
        let charged = !paging.count_only;
        if research_misses(services, ctx.team(), charged, &domains, enrich).await? {
            query.ids = strict_company_ids(&services.db, &domains, &linkedin_pages).await?;
        }
    }
    let total = count_companies(&services.db, &cache, &query).await?;
    let page = charged_page(services, ctx.team(), paging.count_only, || async {
        let rows = list_companies(&services.db, &cache, &query).await?;
        if let Some(records) = rendered::cached(&cache, &rows, "companies") {
            return Ok(records);
        }
        let records: Vec<Value> = rows
            .rows
            .iter()
            .map(company_record)
            .collect::<Result<_, _>>()?;
        Ok(rendered::keep(&cache, &rows, "companies", &records)?)
    })
    .await?;
    Ok(CompanyPage { total, page })
}

/// The Company record of a stored company; a corrupt JSON column is an error.
pub fn company_record(row: &CompanyRow) -> Result<Value, StoreError> {
    row.record()
}
