//! The HTTP edge: the router, the team API guard, extractors, the error type and one module per
//! API area, mirroring the URL tree.

pub mod admin;
pub mod auth;
pub mod charged;
pub mod companies;
pub mod csv_enrichment;
pub mod envelope;
pub mod error;
pub mod extract;
pub mod metrics;
pub mod monitors;
pub mod openapi;
mod openapi_records;
mod openapi_wire;
pub mod ops;
pub mod overload;
pub mod people;
pub mod rate_limit;
pub mod request_log;
pub mod signals;
pub mod state;
pub mod targets;
pub mod webhooks;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter, delete, get, on, post};
use tower_http::trace::TraceLayer;
use utoipa_swagger_ui::SwaggerUi;

use auth::{guarded, guarded_unserved};
use error::ApiError;
use state::AppState;

/// The whole HTTP application.
pub fn router(state: AppState) -> Router {
    // The team and admin APIs take turns within the process's limits (503 past them).
    let admission = overload::Admission::new(state.config.admission_limits());
    let admitted = from_fn_with_state(admission, overload::admit);
    Router::new()
        .nest("/api/v2", team_api(&state).layer(admitted.clone()))
        .nest("/admin/v1", admin::routes(&state).layer(admitted))
        .nest("/app", crate::dashboard::routes(&state))
        .route("/health", get(ops::health))
        .route("/ready", get(ops::ready))
        .route("/metrics", get(ops::metrics))
        .merge(SwaggerUi::new("/docs").external_url_unchecked(
            "/api/v2/openapi.json",
            openapi::document(state.config.allow_private_webhooks),
        ))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(from_fn(metrics::track))
        .layer(from_fn(request_log::log_request))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// The team API: every route behind the guard of its endpoint name.
fn team_api(state: &AppState) -> Router<AppState> {
    use monitors::{create, read, update};
    use targets::{add, list, remove};
    let s = state;
    Router::new()
        .route(
            "/monitors",
            guarded(s, "monitors.create", post(create::create_monitor)).merge(guarded(
                s,
                "monitors.list",
                get(read::list_monitors),
            )),
        )
        .route(
            "/monitors/{id}",
            guarded(s, "monitors.get", get(read::get_monitor))
                .merge(guarded(
                    s,
                    "monitors.update",
                    axum::routing::put(update::update_monitor),
                ))
                .merge(guarded(s, "monitors.delete", delete(read::delete_monitor))),
        )
        .route(
            "/monitors/{id}/targets",
            guarded(s, "monitors.targets.list", get(list::list_targets)).merge(guarded(
                s,
                "monitors.targets.add",
                post(add::add_targets),
            )),
        )
        .route(
            "/monitors/{id}/targets/remove",
            guarded(
                s,
                "monitors.targets.remove_bulk",
                post(remove::remove_targets_bulk),
            ),
        )
        .route(
            "/monitors/{id}/targets/{target_id}",
            guarded(s, "monitors.targets.remove", delete(remove::remove_target)),
        )
        .merge(webhook_api(s))
        .route(
            "/companies",
            guarded(s, "companies.list", get(companies::list)),
        )
        .route(
            "/csv-enrichment",
            guarded(
                s,
                "csv.enrichment",
                post(csv_enrichment::create::create_job),
            ),
        )
        .route(
            "/csv-enrichment/{job_id}",
            guarded(s, "csv.enrichment.get", get(csv_enrichment::read::get_job)),
        )
        .route(
            "/csv-enrichment/{job_id}/results.csv",
            guarded(
                s,
                "csv.enrichment.results",
                get(csv_enrichment::download::results_csv),
            ),
        )
        .route(
            "/signals/funding",
            guarded(s, "signals.funding", get(signals::funding)),
        )
        .route(
            "/signals/hiring",
            guarded(s, "signals.hiring", get(signals::hiring)),
        )
        .route(
            "/signals/acquisitions",
            guarded(s, "signals.acquisitions", get(signals::acquisitions)),
        )
        .route(
            "/signals/job-changes",
            guarded(s, "signals.jobChanges", get(signals::job_changes)),
        )
        .route(
            "/signals/investors",
            guarded(
                s,
                signals::investors::ENDPOINT,
                get(signals::investors::list),
            ),
        )
        .route("/people", guarded(s, people::ENDPOINT, get(people::list)))
        .fallback(guarded_unserved(s, every_method(not_found)))
        .method_not_allowed_fallback(guarded_unserved(s, every_method(method_not_allowed)))
        .layer(DefaultBodyLimit::max(extract::MAX_JSON_BODY))
}

/// The Webhooks API routes, each behind the guard of its `meta.endpoint` name.
fn webhook_api(s: &AppState) -> Router<AppState> {
    use axum::routing::put;
    use webhooks::{create, deliveries, read, send, update};
    Router::new()
        .route(
            "/webhooks",
            guarded(s, "webhooks.create", post(create::create_webhook)).merge(guarded(
                s,
                "webhooks.list",
                get(read::list_webhooks),
            )),
        )
        .route(
            "/webhooks/{id}",
            guarded(s, "webhooks.get", get(read::get_webhook))
                .merge(guarded(s, "webhooks.update", put(update::update_webhook)))
                .merge(guarded(s, "webhooks.delete", delete(read::delete_webhook))),
        )
        .route(
            "/webhooks/{id}/test",
            guarded(s, "webhooks.test", post(send::test_webhook)),
        )
        .route(
            "/webhooks/{id}/deliveries",
            guarded(
                s,
                "webhooks.deliveries.list",
                get(deliveries::list_deliveries),
            ),
        )
        .route(
            "/webhooks/{id}/deliveries/retry-failed",
            guarded(
                s,
                "webhooks.deliveries.retry_failed",
                post(send::retry_failed),
            ),
        )
        .route(
            "/webhooks/{id}/deliveries/{delivery_id}/retry",
            guarded(s, "webhooks.deliveries.retry", post(send::retry_delivery)),
        )
        .route(
            "/webhooks/{id}/deliveries/{delivery_id}",
            guarded(s, "webhooks.deliveries.get", get(deliveries::get_delivery)),
        )
}

/// `handler` on every method a client sends, as explicit routes so the guard's route layer
/// applies: with a valid key, an unserved path's answer carries the rate-limit headers too.
fn every_method<H, T>(handler: H) -> MethodRouter<AppState>
where
    H: axum::handler::Handler<T, AppState>,
    T: 'static,
{
    let methods = [
        MethodFilter::GET,
        MethodFilter::HEAD,
        MethodFilter::POST,
        MethodFilter::PUT,
        MethodFilter::PATCH,
        MethodFilter::DELETE,
        MethodFilter::OPTIONS,
        MethodFilter::TRACE,
    ];
    let all = methods
        .into_iter()
        .reduce(MethodFilter::or)
        .expect("methods");
    on(all, handler)
}

async fn not_found() -> Response {
    ApiError::not_found("Not found").into_response()
}

async fn method_not_allowed() -> Response {
    let mut response = ApiError::method_not_allowed().into_response();
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response
}
