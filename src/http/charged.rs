//! Answering a credit-consuming list page: free when only the count is asked for; otherwise
//! refused with 402 at a balance of 0, and charged one credit atomically after the rows are read,
//! so a failure charges nothing and the balance never goes below zero.

use std::future::Future;

use axum::response::Response;
use serde_json::Value;

use crate::http::envelope::charged_page;
use crate::http::error::ApiError;
use crate::http::signals::pagination::PagePagination;
use crate::http::state::AppState;
use crate::store::credits::{balance, charge};

/// Answers one list page for `team`, reading its rows with `fetch` unless `count_only`.
pub async fn charged_list<F, Fut>(
    state: &AppState,
    team: &str,
    endpoint: &str,
    pagination: PagePagination,
    count_only: bool,
    fetch: F,
) -> Result<Response, ApiError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Value>, ApiError>>,
{
    if count_only {
        let remaining = balance(&state.db, team).await?;
        return Ok(charged_page(
            endpoint,
            Vec::<()>::new(),
            pagination,
            0,
            remaining,
        ));
    }
    if balance(&state.db, team).await? <= 0 {
        return Err(ApiError::out_of_credits());
    }
    let data = fetch().await?;
    let remaining = charge(&state.db, team, 1)
        .await?
        .ok_or_else(ApiError::out_of_credits)?;
    Ok(charged_page(endpoint, data, pagination, 1, remaining))
}
