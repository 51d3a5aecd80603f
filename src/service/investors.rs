//! The investor list: the investors named on stored funding rounds, counted, paged and charged
//! like the signal lists, each shown as an Investor record.
//!
//! Nothing stores investors on their own, so each record is derived from the rounds that name
//! it: `name`, `type`, `website`, `linkedinUrl` and `logoUrl` as a round's record gives them;
//! `countries` the headquarters countries of the companies it funded; `ticketSizeMin`/`Max` its
//! smallest and largest round in US dollars; `createdAt` when its first round was stored;
//! `headquarters` is always null (no record carries it). `roundCount` and `lastRoundAt` are
//! additions.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::credits::{ChargedPage, charged_page};
use super::lists::Paging;
use super::{ServiceError, Services, TeamContext};
use crate::domain::time::format_ms;
use crate::store::investor_list::{InvestorRow, count_investors, list_investors};

pub use crate::store::investor_list::InvestorQuery;

/// The investor type groups a `type` filter takes, each with the word patterns (over the type,
/// lower case, `_` and `-` read as spaces, padded with spaces) that belong to it.
pub const TYPE_GROUPS: &[(&str, &[&str])] = &[
    ("vc", &["% vc %", "%venture%"]),
    ("angel", &["%angel%"]),
    ("pe", &["% pe %", "%private equity%", "%buyout%"]),
    ("corporate", &["%corporate%", "% cvc %"]),
    (
        "government",
        &["%government%", "% gov %", "%sovereign%", "%public fund%"],
    ),
    ("accelerator", &["%accelerator%", "%incubator%"]),
    ("family_office", &["%family office%"]),
    ("hedge_fund", &["%hedge%"]),
    ("crowdfunding", &["%crowd%"]),
];

/// The word patterns of the named type groups (names as in [`TYPE_GROUPS`]).
pub fn type_patterns(groups: &[&str]) -> Vec<&'static str> {
    TYPE_GROUPS
        .iter()
        .filter(|(name, _)| groups.contains(name))
        .flat_map(|(_, patterns)| patterns.iter().copied())
        .collect()
}

/// A validated investor list request; the query's limit and offset follow `paging`.
#[derive(Debug, Clone)]
pub struct InvestorListRequest {
    pub query: InvestorQuery,
    pub paging: Paging,
}

/// One page of the investor list with the number of matching investors.
#[derive(Debug, Clone)]
pub struct InvestorPage {
    pub total: i64,
    pub page: ChargedPage<Value>,
}

/// Lists one page of investors, charging one credit unless only the count is asked.
pub async fn list(
    services: &Services,
    ctx: &TeamContext,
    request: InvestorListRequest,
) -> Result<InvestorPage, ServiceError> {
    let InvestorListRequest { mut query, paging } = request;
    query.limit = paging.limit;
    query.offset = paging.offset();
    let cache = services.counts.for_answer();
    let total = count_investors(&services.db, &cache, &query).await?;
    let page = charged_page(services, ctx.team(), paging.count_only, || async {
        let rows = list_investors(&services.db, &query).await?;
        Ok(rows.iter().map(investor_record).collect())
    })
    .await?;
    Ok(InvestorPage { total, page })
}

/// The Investor record of an aggregated investor.
pub fn investor_record(row: &InvestorRow) -> Value {
    json!({
        "id": investor_id(&row.ikey),
        "name": row.name,
        "type": row.itype,
        "linkedinUrl": row.linkedin,
        "website": row.website,
        "logoUrl": row.logo,
        "countries": countries_json(row.countries.as_deref()),
        "ticketSizeMin": row.ticket_min,
        "ticketSizeMax": row.ticket_max,
        "headquarters": Value::Null,
        "createdAt": format_ms(row.first_seen),
        "isFreeAccess": true,
        "roundCount": row.rounds,
        "lastRoundAt": format_ms(row.last_round_at),
    })
}

/// A stable id for an investor known only by name: a UUID (version 8, custom) from the SHA-256
/// of its lower-cased name, the same on every call and every database.
pub fn investor_id(key: &str) -> String {
    let digest = Sha256::digest(format!("investor:{key}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_custom_bytes(bytes)
        .into_uuid()
        .to_string()
}

/// `,US,GB,` as the JSON-encoded array `["GB","US"]` (sorted); null when none is known.
fn countries_json(joined: Option<&str>) -> Value {
    let mut codes: Vec<&str> = joined
        .unwrap_or_default()
        .split(',')
        .filter(|c| !c.is_empty())
        .collect();
    if codes.is_empty() {
        return Value::Null;
    }
    codes.sort_unstable();
    codes.dedup();
    Value::String(serde_json::to_string(&codes).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_investor_keeps_its_id_and_ids_differ_by_name() {
        assert_eq!(investor_id("acme ventures"), investor_id("acme ventures"));
        assert_ne!(investor_id("acme ventures"), investor_id("globex capital"));
        assert!(uuid::Uuid::parse_str(&investor_id("acme ventures")).is_ok());
    }

    #[test]
    fn countries_are_a_sorted_json_encoded_array_or_null() {
        assert_eq!(countries_json(Some(",US,DE,")), json!("[\"DE\",\"US\"]"));
        assert_eq!(countries_json(None), Value::Null);
    }

    #[test]
    fn a_type_group_matches_its_spellings() {
        assert!(type_patterns(&["vc"]).contains(&"%venture%"));
        assert!(type_patterns(&["unknown"]).is_empty());
    }
}
