//! The funding round that qualified each company of a hiring page for its `funding_*` filters:
//! per company, the newest round meeting them.

use sqlx::FromRow;

use super::query::{Conditions, fetch_all};
use super::signal_filters::funding_conditions;
use super::signal_query::FundingFilter;
use super::{Db, StoreError};

/// A company's newest qualifying funding round.
#[derive(Debug, Clone, FromRow)]
pub struct MatchedFundingRow {
    pub company_id: String,
    pub id: String,
    pub payload: String,
}

/// The newest funding round meeting `filter` of each of `company_ids` that has one (ties by id).
pub async fn newest_matching_funding(
    db: &Db,
    company_ids: &[String],
    filter: &FundingFilter,
) -> Result<Vec<MatchedFundingRow>, StoreError> {
    if company_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut c = Conditions::default();
    let ids = c.text_list(company_ids);
    let mut conditions = vec![
        "f.kind = 'funding_round'".to_string(),
        format!("f.company_id IN ({ids})"),
    ];
    conditions.extend(funding_conditions(&mut c, db, filter));
    let sql = format!(
        "SELECT company_id, id, payload FROM (SELECT f.company_id, f.id, f.payload, \
         ROW_NUMBER() OVER (PARTITION BY f.company_id ORDER BY f.occurred_at DESC, f.id DESC) \
         AS newest FROM signals f WHERE {}) m WHERE m.newest = 1",
        conditions.join(" AND ")
    );
    fetch_all(db, sql, c.binds()).await
}
