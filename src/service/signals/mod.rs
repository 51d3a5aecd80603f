//! The four signal lists (funding, hiring, acquisitions, job changes): resolve the company the
//! list is asked about, count, and read one charged page of records.

pub mod records;

use serde_json::Value;

use super::credits::{ChargedPage, charged_page};
use super::lists::{CompanyIdentity, Paging, resolve_identity, strict_company_ids};
use super::rendered::{self, Record};
use super::{ServiceError, Services, TeamContext};
use crate::store::matched_funding::newest_matching_funding;
use crate::store::signal_lists::{count_signals, list_signals};

pub use crate::store::signal_query::SignalQuery;
pub use records::{matched_funding_record, signal_record};

/// A validated signal list request. `query` holds every filter but the company ids, which
/// come from `identity`, and the companies left out by domain (`exclude_domains`, normalized),
/// which are added to its `exclude_company_ids`; its limit and offset follow `paging`.
#[derive(Debug, Clone)]
pub struct SignalListRequest {
    pub query: SignalQuery,
    pub identity: CompanyIdentity,
    pub exclude_domains: Vec<String>,
    pub paging: Paging,
}

/// One page of a signal list with the number of matching signals.
#[derive(Debug, Clone)]
pub struct SignalPage {
    pub total: i64,
    pub page: ChargedPage<Record>,
}

/// Lists one page of signals for the team, charging one credit unless only the count is asked.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    request: SignalListRequest,
) -> Result<SignalPage, ServiceError> {
    let SignalListRequest {
        mut query,
        identity,
        exclude_domains,
        paging,
    } = request;
    let cache = services.counts.for_answer();
    let resolved = resolve_identity(&services.db, &cache, &identity).await?;
    if let Some(ids) = strict_company_ids(&services.db, &exclude_domains, &[]).await? {
        query.exclude_company_ids.extend(ids);
    }
    query.company_ids = resolved.company_ids;
    query.limit = paging.limit;
    query.offset = paging.offset();
    let total = count_signals(&services.db, &cache, &query).await?;
    let page = charged_page(services, ctx.team(), paging.count_only, || async {
        let rows = list_signals(&services.db, &cache, &query).await?;
        // Everything a record is made of besides its row: the confidence, and the funding
        // filter that chooses `matchedFunding` (read, like the rows, at one data version).
        let how = format!("signals|{}|{:?}", resolved.match_confidence, query.funding);
        if let Some(records) = rendered::cached(&cache, &rows, &how) {
            return Ok(records);
        }
        let mut records = rows
            .rows
            .iter()
            .map(|row| signal_record(row, resolved.match_confidence))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(filter) = &query.funding {
            let companies: Vec<String> = rows.rows.iter().map(|r| r.c_id.clone()).collect();
            let matched = newest_matching_funding(&services.db, &companies, filter).await?;
            for (record, row) in records.iter_mut().zip(rows.rows.iter()) {
                let funding = matched
                    .iter()
                    .find(|m| m.company_id == row.c_id)
                    .map(matched_funding_record)
                    .transpose()?;
                if let Value::Object(fields) = record {
                    fields.insert("matchedFunding".into(), funding.unwrap_or(Value::Null));
                }
            }
        }
        Ok(rendered::keep(&cache, &rows, &how, &records)?)
    })
    .await?;
    Ok(SignalPage { total, page })
}
