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
/// used and the balance after. `data` is written straight into the body: a list page's records
/// are not copied into a second JSON tree first (a page of postings is tens of kilobytes).
pub fn charged_page(
    endpoint: &str,
    data: impl Serialize,
    pagination: impl Serialize,
    credits_used: i64,
    credits_remaining: i64,
) -> Response {
    let body = charged_body(endpoint, data, pagination, credits_used, credits_remaining);
    (StatusCode::OK, Json(body)).into_response()
}

/// The body [`charged_page`] answers with.
fn charged_body<D: Serialize>(
    endpoint: &str,
    data: D,
    pagination: impl Serialize,
    credits_used: i64,
    credits_remaining: i64,
) -> ChargedBody<'_, D> {
    ChargedBody {
        data,
        meta: ChargedMeta {
            credits_remaining,
            credits_used,
            endpoint,
        },
        // As a JSON object its keys are written in order, as every other body's are.
        pagination: json!(pagination),
        success: true,
    }
}

/// The body of a credit-consuming list. Its fields, and `meta`'s, are declared in the sorted
/// order in which the JSON objects of the other bodies write their keys, so that the two kinds
/// of body read alike.
#[derive(Serialize)]
struct ChargedBody<'a, D> {
    data: D,
    meta: ChargedMeta<'a>,
    pagination: Value,
    success: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChargedMeta<'a> {
    credits_remaining: i64,
    credits_used: i64,
    endpoint: &'a str,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charged_list_body_reads_as_the_json_object_of_the_same_fields() {
        #[derive(Serialize)]
        struct Pagination {
            page: i64,
            limit: i64,
            total: i64,
        }
        let data = vec![json!({"signalId": "s1", "amount": 5, "investors": ["a", "b"]})];
        let pagination = Pagination {
            page: 2,
            limit: 25,
            total: 26,
        };
        let body = charged_body("signals.funding", &data, &pagination, 1, 9);
        let object = json!({
            "success": true,
            "data": data,
            "pagination": pagination,
            "meta": {"endpoint": "signals.funding", "creditsUsed": 1, "creditsRemaining": 9},
        });
        assert_eq!(
            serde_json::to_string(&body).expect("body"),
            serde_json::to_string(&object).expect("object")
        );
    }
}
