//! The team dashboard under `/app`: server-rendered pages that sign a member in by e-mail link
//! and call the same use cases as the API, recorded as made through the dashboard. Pages work
//! without JavaScript; the vendored htmx only enhances them.

mod assets;
mod charts;
mod csrf;
mod delivery;
mod enrichment;
mod headers;
mod keys;
mod login;
mod monitor;
mod monitors;
mod page;
mod session;
mod signals;
mod usage;
mod webhook_form;
mod webhooks;

use axum::Router;
use axum::extract::DefaultBodyLimit;
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
        .route("/webhooks", get(webhooks::list).post(webhooks::create))
        .route("/webhooks/{id}", get(webhooks::show).post(webhooks::update))
        .route("/webhooks/{id}/test", post(webhooks::send_test))
        .route("/webhooks/{id}/rotate", post(webhooks::rotate))
        .route("/webhooks/{id}/delete", post(webhooks::delete))
        .route("/webhooks/{id}/retry-failed", post(webhooks::retry_failed))
        .route(
            "/webhooks/{id}/deliveries/{delivery_id}",
            get(delivery::show),
        )
        .route(
            "/webhooks/{id}/deliveries/{delivery_id}/retry",
            post(delivery::retry),
        )
        .route("/keys", get(keys::list).post(keys::create))
        .route("/keys/{id}/revoke", post(keys::revoke))
        .route("/signals", get(signals::form).post(signals::search))
        .route(
            "/enrichment",
            get(enrichment::list)
                .post(enrichment::upload)
                .layer(DefaultBodyLimit::max(crate::http::extract::MAX_JSON_BODY)),
        )
        .route("/enrichment/{id}", get(enrichment::show))
        .route("/enrichment/{id}/results.csv", get(enrichment::download))
        .route("/usage", get(usage::show))
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
