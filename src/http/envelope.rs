//! The success envelope: `{success: true, data, meta: {endpoint, creditsUsed}}`, plus
//! `pagination` on paginated lists.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};

/// Answers 200 with `data` under the envelope of a credit-free endpoint.
pub fn ok(endpoint: &str, data: impl Serialize) -> Response {
    respond(StatusCode::OK, endpoint, data, None)
}

/// Answers 201 with `data` under the envelope of a credit-free endpoint.
pub fn created(endpoint: &str, data: impl Serialize) -> Response {
    respond(StatusCode::CREATED, endpoint, data, None)
}

/// Answers 200 with `data` and a `pagination` object.
pub fn paginated(endpoint: &str, data: impl Serialize, pagination: impl Serialize) -> Response {
    respond(StatusCode::OK, endpoint, data, Some(json!(pagination)))
}

/// Answers 200 for a credit-consuming list: `data`, `pagination`, and `meta` with the credits
/// used and the balance after.
pub fn charged_page(
    endpoint: &str,
    data: impl Serialize,
    pagination: impl Serialize,
    credits_used: i64,
    credits_remaining: i64,
) -> Response {
    let body = json!({
        "success": true,
        "data": data,
        "pagination": pagination,
        "meta": {
            "endpoint": endpoint,
            "creditsUsed": credits_used,
            "creditsRemaining": credits_remaining,
        },
    });
    (StatusCode::OK, Json(body)).into_response()
}

fn respond(
    status: StatusCode,
    endpoint: &str,
    data: impl Serialize,
    pagination: Option<Value>,
) -> Response {
    let mut body = json!({
        "success": true,
        "data": data,
        "meta": { "endpoint": endpoint, "creditsUsed": 0 },
    });
    if let Some(pagination) = pagination {
        body["pagination"] = pagination;
    }
    (status, Json(body)).into_response()
}
