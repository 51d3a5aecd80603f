//! The credit rule of the list pages: asking only for the count is free; otherwise a balance of
//! zero refuses the page, and one credit is charged atomically after the rows are read, so a
//! failure charges nothing and the balance never goes below zero.

use std::future::Future;

use super::{ServiceError, Services};
use crate::store::credits::balance;

/// One page of a credit-consuming list and what it cost.
#[derive(Debug, Clone)]
pub struct ChargedPage<T> {
    /// The page's rows; empty when only the count was asked for.
    pub rows: Vec<T>,
    pub credits_used: i64,
    /// The team's balance after this page.
    pub credits_remaining: i64,
}

/// Reads one page for `team` with `fetch` (unless `count_only`), charging one credit for it (in
/// a transaction shared with the charges of other requests under way).
pub async fn charged_page<T, F, Fut>(
    services: &Services,
    team: &str,
    count_only: bool,
    fetch: F,
) -> Result<ChargedPage<T>, ServiceError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<T>, ServiceError>>,
{
    let db = &services.db;
    if count_only {
        return Ok(ChargedPage {
            rows: Vec::new(),
            credits_used: 0,
            credits_remaining: balance(db, team).await?,
        });
    }
    if balance(db, team).await? <= 0 {
        return Err(ServiceError::OutOfCredits);
    }
    let rows = fetch().await?;
    let credits_remaining = services
        .charges
        .charge(db, team, 1)
        .await?
        .ok_or(ServiceError::OutOfCredits)?;
    crate::telemetry::credits_charged("list", 1);
    Ok(ChargedPage {
        rows,
        credits_used: 1,
        credits_remaining,
    })
}
