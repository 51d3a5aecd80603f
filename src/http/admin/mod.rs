//! The operator's admin API under `/admin/v1`, guarded by `SIGNALWATCH_ADMIN_TOKEN`. When no
//! token is configured it answers 404, as if it did not exist.

pub mod collectors;
pub mod imports;
pub mod teams;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::auth::bearer_token;
use super::error::ApiError;
use super::extract::MAX_JSON_BODY;
use super::state::AppState;

/// Largest import body the admin API accepts.
pub(crate) const MAX_ADMIN_BODY: usize = 512 * 1024 * 1024;

/// The admin routes, behind the admin token check.
pub fn routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/teams", post(teams::create_team))
        .route(
            "/teams/{id}",
            get(teams::get_team).patch(teams::update_team),
        )
        .route("/teams/{id}/members", post(teams::add_member))
        .route("/keys/revoke", post(teams::revoke_key))
        .route("/companies", post(imports::import_companies))
        .route("/people", post(imports::import_people))
        .route("/signals/{kind}", post(imports::import_signals))
        .route("/research/run", post(imports::run_research))
        .route("/collectors", get(collectors::list_collectors))
        .route("/collectors/{name}/run", post(collectors::run_collector))
        .route_layer(from_fn_with_state(state.clone(), require_admin))
        // For the JSON bodies of the team routes; imports read their body with their own limit.
        .layer(DefaultBodyLimit::max(MAX_JSON_BODY))
}

async fn require_admin(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(expected) = state.config.admin_token.as_ref() else {
        return ApiError::not_found("Not found").into_response();
    };
    let given = bearer_token(req.headers());
    if !given.is_some_and(|token| constant_time_eq(token.as_bytes(), expected.0.as_bytes())) {
        return ApiError::invalid_api_key("Invalid admin token").into_response();
    }
    next.run(req).await
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
