//! The four signal lists (funding, hiring, acquisitions, job changes): resolve the company the
//! list is asked about, count, and read one charged page of records.

pub mod records;

use serde_json::Value;

use super::credits::{ChargedPage, charged_page};
use super::lists::{CompanyIdentity, Paging, resolve_identity};
use super::{ServiceError, Services, TeamContext};
use crate::store::signal_lists::{count_signals, list_signals};

pub use crate::store::signal_query::SignalQuery;
pub use records::signal_record;

/// A validated signal list request. `query` holds every filter but the company ids, which
/// come from `identity`; its limit and offset follow `paging`.
#[derive(Debug, Clone)]
pub struct SignalListRequest {
    pub query: SignalQuery,
    pub identity: CompanyIdentity,
    pub paging: Paging,
}

/// One page of a signal list with the number of matching signals.
#[derive(Debug, Clone)]
pub struct SignalPage {
    pub total: i64,
    pub page: ChargedPage<Value>,
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
        paging,
    } = request;
    let resolved = resolve_identity(&services.db, &identity).await?;
    query.company_ids = resolved.company_ids;
    query.limit = paging.limit;
    query.offset = paging.offset();
    let total = count_signals(&services.db, &services.counts, &query).await?;
    let page = charged_page(&services.db, ctx.team(), paging.count_only, || async {
        let rows = list_signals(&services.db, &services.counts, &query).await?;
        let records = rows
            .iter()
            .map(|row| signal_record(row, resolved.match_confidence))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(records)
    })
    .await?;
    Ok(SignalPage { total, page })
}
