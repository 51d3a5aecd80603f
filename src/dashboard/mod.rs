//! The team dashboard under `/app`: server-rendered pages that sign a member in by e-mail link
//! and call the same use cases as the API, recorded as made through the dashboard. Pages work
//! without JavaScript; the vendored htmx only enhances them.

mod assets;
mod csrf;
mod headers;
mod login;
mod monitor;
mod monitors;
mod page;
mod session;

use axum::Router;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::Redirect;
use axum::routing::{get, post};

use crate::http::state::AppState;

/// Every `/app` route: the sign-in pages and assets open to all, the rest behind a session and,
/// for every `POST`, its CSRF token.
pub fn routes(state: &AppState) -> Router<AppState> {
    let signed_in = Router::new()
        .route("/", get(|| async { Redirect::to("/app/monitors") }))
        .route("/monitors", get(monitors::list).post(monitors::create))
        .route("/monitors/new", get(monitors::new_form))
        .route("/monitors/{id}", get(monitor::show))
        .route("/monitors/{id}/pause", post(monitor::pause))
        .route("/monitors/{id}/resume", post(monitor::resume))
        .route(
            "/monitors/{id}/delete",
            get(monitor::confirm_delete).post(monitor::delete),
        )
        .route("/monitors/{id}/targets", post(monitor::add_targets))
        .route(
            "/monitors/{id}/targets/{target_id}/remove",
            post(monitor::remove_target),
        )
        .route("/logout", post(login::logout))
        .fallback(page::not_found)
        .layer(from_fn(csrf::check))
        .layer(from_fn_with_state(state.clone(), session::require));
    Router::new()
        .route("/login", get(login::form).post(login::request_link))
        .route("/login/{token}", get(login::open_link))
        .route("/assets/{name}", get(assets::serve))
        .merge(signed_in)
        .layer(from_fn(headers::protect))
}
