//! `enrich_on_miss` of the company list: domains a request names that no known company has are
//! looked up on their websites (research on demand, which stores the company it finds through
//! the ingest path), and the request may wait a while for that before the list is read.

use std::time::Duration;

use tokio::time::Instant;

use super::{ServiceError, Services};
use crate::research::on_demand::Researched;
use crate::store::companies::{CompanyKey, ids_where_in};
use crate::store::credits::balance;

/// `enrich_on_miss` as a request asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnrichOnMiss {
    /// How long the request waits for the research (`enrich_wait`, `enrich_timeout`); `None`:
    /// it answers at once and the research goes on in the background.
    pub wait: Option<Duration>,
}

/// Most domains of one request looked up (the first ones named).
pub const MAX_RESEARCHED_DOMAINS: usize = 10;

/// Researches the `domains` of a list request whose strict identifiers found no company, and
/// waits as `enrich` says. True when a company was stored in time, so the list must look again.
/// A team that could not pay for the page gets its refusal before anything is fetched; failed
/// look-ups are the research's to record and leave the list empty.
pub(super) async fn research_misses(
    services: &Services,
    team: &str,
    charged: bool,
    domains: &[String],
    enrich: EnrichOnMiss,
) -> Result<bool, ServiceError> {
    if domains.is_empty() || !services.research.enabled() {
        return Ok(false);
    }
    if charged && balance(&services.db, team).await? <= 0 {
        return Err(ServiceError::OutOfCredits);
    }
    // A domain that is known missed only because a LinkedIn page named another company.
    if !ids_where_in(&services.db, CompanyKey::Domain, domains)
        .await?
        .is_empty()
    {
        return Ok(false);
    }
    let started: Vec<_> = domains
        .iter()
        .take(MAX_RESEARCHED_DOMAINS)
        .map(|domain| services.research.research_now(&services.db, domain))
        .collect();
    let Some(wait) = enrich.wait else {
        return Ok(false);
    };
    let deadline = Instant::now() + wait;
    let mut found = false;
    for researching in started {
        if let Some(Researched::Found { .. }) = researching.outcome_by(deadline).await {
            found = true;
        }
    }
    Ok(found)
}
