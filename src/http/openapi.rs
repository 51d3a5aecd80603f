//! The service's own OpenAPI 3.1 document, generated from the handlers' annotations.

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

use super::{companies, csv_enrichment, monitors, people, signals, targets, webhooks};

/// The error envelope: `{success: false, error, code, retryAfter?}`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    /// Always `false`.
    success: bool,
    /// Human-readable message.
    error: String,
    /// Stable machine code, e.g. `bad_request`, `not_found`, `rate_limited`.
    code: String,
    /// Seconds to wait before retrying; only on 429.
    #[serde(rename = "retryAfter")]
    retry_after: Option<u64>,
}

/// The `data` of a delete: `{id, deleted: true}`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct DeletedBody {
    id: String,
    deleted: bool,
}

/// The error answers of every team API operation once its body and parameters are accepted.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum AuthErrors {
    /// Missing or invalid API key.
    #[response(status = 401)]
    Unauthorized(ErrorBody),
    /// Subscription expired.
    #[response(status = 403)]
    SubscriptionExpired(ErrorBody),
    /// Rate limit exceeded.
    #[response(status = 429)]
    RateLimited(ErrorBody),
    /// Unexpected server error; the cause is logged, not shown.
    #[response(status = 500)]
    Internal(ErrorBody),
}

/// The error answers every credit-consuming list may give.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum ListErrors {
    /// A parameter is unknown, malformed, out of range or contradicts another.
    #[response(status = 400)]
    BadRequest(ErrorBody),
    /// Missing or invalid API key.
    #[response(status = 401)]
    Unauthorized(ErrorBody),
    /// Out of credits; nothing charged.
    #[response(status = 402)]
    OutOfCredits(ErrorBody),
    /// Subscription expired.
    #[response(status = 403)]
    SubscriptionExpired(ErrorBody),
    /// Rate limit exceeded.
    #[response(status = 429)]
    RateLimited(ErrorBody),
    /// Unexpected server error; the cause is logged, not shown.
    #[response(status = 500)]
    Internal(ErrorBody),
}

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut http = Http::new(HttpAuthScheme::Bearer);
        http.bearer_format = Some("API key".to_string());
        components.add_security_scheme("bearerAuth", SecurityScheme::Http(http));
    }
}

/// The document served at `/api/v2/openapi.json`: the annotations' document with what every
/// answer shares (the envelope, the error answers, the parameters' constraints) added by
/// [`super::openapi_wire`]. With private webhook addresses allowed, webhook URLs may also name
/// a loopback endpoint, as the server then accepts.
pub fn document(private_webhooks: bool) -> serde_json::Value {
    let mut value = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    super::openapi_wire::describe_the_wire(&mut value, private_webhooks);
    value
}

/// The annotations' document.
#[derive(OpenApi)]
#[openapi(
    info(title = "signalwatch API", version = "2.0.0",
         description = "Account monitoring, business signals and company enrichment. Every \
                        response uses the envelope {success, data, meta} or \
                        {success: false, error, code}."),
    paths(
        monitors::create::create_monitor,
        monitors::read::list_monitors,
        monitors::read::get_monitor,
        monitors::update::update_monitor,
        monitors::read::delete_monitor,
        targets::list::list_targets,
        targets::add::add_targets,
        targets::remove::remove_target,
        targets::remove::remove_targets_bulk,
        signals::funding,
        signals::hiring,
        signals::acquisitions,
        signals::job_changes,
        signals::investors::list,
        people::list,
        companies::list,
        webhooks::create::create_webhook,
        webhooks::read::list_webhooks,
        webhooks::read::get_webhook,
        webhooks::update::update_webhook,
        webhooks::read::delete_webhook,
        webhooks::deliveries::list_deliveries,
        webhooks::deliveries::get_delivery,
        webhooks::send::test_webhook,
        webhooks::send::retry_delivery,
        webhooks::send::retry_failed,
        csv_enrichment::create::create_job,
        csv_enrichment::read::get_job,
        csv_enrichment::download::results_csv,
    ),
    components(schemas(ErrorBody, DeletedBody)),
    modifiers(&BearerAuth),
    tags((name = "Monitors", description = "Named groups of targets with signal types and a webhook"),
         (name = "Targets", description = "Domains and LinkedIn pages a monitor watches"),
         (name = "Signals", description = "Funding rounds, job postings, acquisitions and job changes"),
         (name = "Companies", description = "Company profiles"),
         (name = "People", description = "People with the signal that makes them worth a call now"),
         (name = "Webhooks", description = "Signed event subscriptions, their deliveries and retries"),
         (name = "CSV enrichment", description = "Company lists matched and enriched by a durable job")),
)]
pub struct ApiDoc;
