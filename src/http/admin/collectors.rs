//! Admin endpoints of the collectors: their state, and a pass run on demand.

use axum::extract::State;
use axum::response::Response;

use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::state::AppState;
use crate::service::collectors;

/// `GET /admin/v1/collectors`: every collector, enabled or not, with its last pass.
pub async fn list_collectors(State(state): State<AppState>) -> Result<Response, ApiError> {
    let statuses = collectors::list(&state).await?;
    Ok(ok("admin.collectors.list", statuses))
}

/// `POST /admin/v1/collectors/{name}/run`: one pass now; answers when it ends.
pub async fn run_collector(
    State(state): State<AppState>,
    PathParams(name): PathParams<String>,
) -> Result<Response, ApiError> {
    let status = collectors::run(&state, &name).await?;
    Ok(ok("admin.collectors.run", status))
}
