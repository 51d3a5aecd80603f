//! The team API's guard and its error answers: API keys, subscriptions, rate limits and malformed
//! requests, each answered as `{success: false, error, code}` (plus `retryAfter` on 429).

use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, TestApp, TestResponse};

each_backend!(
    a_request_without_a_key_is_refused_with_401_and_no_rate_limit_headers,
    a_key_in_another_scheme_counts_as_no_key,
    an_unknown_key_is_refused_with_401_invalid_api_key,
    a_revoked_key_is_refused_from_the_next_request_on,
    a_past_due_or_canceled_team_is_refused_with_403_subscription_expired,
    a_trialing_team_has_access,
    reactivating_a_subscription_restores_access_on_the_next_request,
    every_team_api_answer_carries_rate_limit_headers_with_remaining_counting_down,
    the_request_past_the_limit_is_refused_with_429_and_a_matching_retry_after,
    each_endpoint_and_each_team_has_its_own_rate_limit_budget,
    a_per_team_rate_limit_set_by_the_operator_applies_on_the_next_request,
    each_api_words_its_rate_limit_refusal_as_the_reference_does,
    malformed_json_is_refused_with_400_bad_request,
    a_json_body_that_is_not_an_object_is_refused_with_400,
    a_body_without_a_json_content_type_is_refused_with_400,
    a_body_over_one_mebibyte_is_refused_with_413_payload_too_large,
    a_field_of_the_wrong_json_type_is_refused_with_400,
    an_unknown_body_field_is_refused_with_400_naming_it,
    an_unknown_query_parameter_is_refused_with_400_naming_it,
    a_query_parameter_holding_a_nul_character_is_refused_with_400_naming_it,
    a_path_id_that_is_not_a_uuid_is_404_not_found,
    an_unknown_route_under_the_api_is_404_in_the_error_envelope,
    a_method_a_path_does_not_serve_is_answered_in_the_error_envelope,
    a_path_the_team_api_does_not_serve_is_404_with_the_rate_limit_headers,
);

/// Asserts an error answer: its status and code, and a body of exactly `success`, `error` and
/// `code` — plus `retryAfter` on a 429 and nowhere else.
pub fn assert_error(response: &TestResponse, status: u16, code: &str) {
    assert_eq!(response.status, status, "{:?}", response.body);
    let body = response
        .body
        .as_object()
        .unwrap_or_else(|| panic!("an error body in JSON, got {:?}", response.body));
    let mut keys: Vec<&str> = body.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let expected: &[&str] = if status == 429 {
        &["code", "error", "retryAfter", "success"]
    } else {
        &["code", "error", "success"]
    };
    assert_eq!(keys, expected, "error body keys: {:?}", response.body);
    assert_eq!(body["success"], false);
    assert_eq!(body["code"], code, "{:?}", response.body);
    assert!(
        !response.error().is_empty(),
        "an error message: {:?}",
        response.body
    );
}

/// The three `X-RateLimit-*` headers as numbers: limit, remaining, reset.
fn rate_headers(response: &TestResponse) -> (u64, u64, u64) {
    let number = |name: &str| -> u64 {
        response
            .header(name)
            .unwrap_or_else(|| panic!("{name} on a {} answer", response.status))
            .parse()
            .unwrap_or_else(|_| panic!("{name} is an integer"))
    };
    (
        number("X-RateLimit-Limit"),
        number("X-RateLimit-Remaining"),
        number("X-RateLimit-Reset"),
    )
}

fn has_no_rate_headers(response: &TestResponse) -> bool {
    [
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
    ]
    .iter()
    .all(|name| response.header(name).is_none())
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

async fn set_team(app: &TestApp, team_id: &str, changes: Value) {
    let patched = app
        .admin(Method::PATCH, &format!("/teams/{team_id}"), Some(changes))
        .await;
    assert_eq!(patched.status, 200, "{:?}", patched.body);
}

/// A POST of a raw body with the team key and an optional Content-Type.
async fn post_raw(
    app: &TestApp,
    path: &str,
    key: &str,
    content_type: Option<&str>,
    body: impl Into<reqwest::Body>,
) -> TestResponse {
    let mut request = app.request(Method::POST, path, key).body(body);
    if let Some(content_type) = content_type {
        request = request.header(CONTENT_TYPE, content_type);
    }
    app.send(request).await
}

/// A valid monitor creation body.
fn monitor_body() -> Value {
    json!({ "name": "Competitors", "signal_types": ["hiring"] })
}

async fn a_request_without_a_key_is_refused_with_401_and_no_rate_limit_headers(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;

    let response = app
        .send(app.client.get(format!("{}/api/v2/monitors", app.base)))
        .await;

    assert_eq!(
        response.body,
        json!({ "success": false, "error": "Invalid API key. No key found.", "code": "invalid_api_key" })
    );
    assert_error(&response, 401, "invalid_api_key");
    assert!(has_no_rate_headers(&response), "{:?}", response.headers);
}

async fn a_key_in_another_scheme_counts_as_no_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for authorization in [format!("Basic {}", team.key), "Bearer ".to_string()] {
        let response = app
            .send(
                app.client
                    .get(format!("{}/api/v2/monitors", app.base))
                    .header("Authorization", authorization.as_str()),
            )
            .await;
        assert_error(&response, 401, "invalid_api_key");
        assert_eq!(
            response.error(),
            "Invalid API key. No key found.",
            "{authorization}"
        );
        assert!(has_no_rate_headers(&response));
    }
}

async fn an_unknown_key_is_refused_with_401_invalid_api_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    // The key with its last character changed (to one it does not already have).
    let last = if team.key.ends_with('x') { 'y' } else { 'x' };
    let almost = format!("{}{last}", &team.key[..team.key.len() - 1]);

    for key in [
        "sw_live_0000000000000000000000000000000000000000",
        almost.as_str(),
    ] {
        let response = app.get("/api/v2/monitors", key).await;
        assert_eq!(
            response.body,
            json!({ "success": false, "error": "Invalid API key", "code": "invalid_api_key" })
        );
        assert_eq!(response.status, 401);
        assert!(has_no_rate_headers(&response));
    }
}

async fn a_revoked_key_is_refused_from_the_next_request_on(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);

    let revoked = app
        .admin(
            Method::POST,
            "/keys/revoke",
            Some(json!({ "api_key": team.key })),
        )
        .await;
    assert_eq!(revoked.status, 200, "{:?}", revoked.body);
    assert_eq!(revoked.data(), &json!({ "revoked": true }));

    let response = app.get("/api/v2/monitors", &team.key).await;
    assert_error(&response, 401, "invalid_api_key");
    assert_eq!(response.error(), "Invalid API key");
    assert!(has_no_rate_headers(&response));
}

async fn a_past_due_or_canceled_team_is_refused_with_403_subscription_expired(backend: Backend) {
    let app = TestApp::start(backend).await;
    let past_due = app
        .create_team_with(json!({ "subscription_status": "past_due" }))
        .await;
    let canceled = app.create_team().await;
    let monitor = app.create_monitor(&canceled, "Before cancelation").await;
    set_team(
        &app,
        &canceled.id,
        json!({ "subscription_status": "canceled" }),
    )
    .await;

    for (team, path) in [
        (&past_due, "/api/v2/monitors".to_string()),
        (&canceled, "/api/v2/monitors".to_string()),
        (&canceled, format!("/api/v2/monitors/{monitor}")),
    ] {
        let response = app.get(&path, &team.key).await;
        assert_error(&response, 403, "subscription_expired");
        rate_headers(&response);
    }
    let create = app
        .post("/api/v2/monitors", &canceled.key, monitor_body())
        .await;
    assert_error(&create, 403, "subscription_expired");
}

async fn a_trialing_team_has_access(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app
        .create_team_with(json!({ "subscription_status": "trialing" }))
        .await;

    let created = app
        .post("/api/v2/monitors", &team.key, monitor_body())
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
}

async fn reactivating_a_subscription_restores_access_on_the_next_request(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Kept while lapsed").await;

    set_team(&app, &team.id, json!({ "subscription_status": "past_due" })).await;
    let refused = app.get("/api/v2/monitors", &team.key).await;
    assert_error(&refused, 403, "subscription_expired");

    set_team(&app, &team.id, json!({ "subscription_status": "active" })).await;
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.data()[0]["id"], monitor.as_str());
}

async fn every_team_api_answer_carries_rate_limit_headers_with_remaining_counting_down(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let before = unix_now();

    let ok = app.get("/api/v2/monitors", &team.key).await;
    let bad_request = app.get("/api/v2/monitors?page=2", &team.key).await;
    let ok_again = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(ok.status, 200);
    assert_error(&bad_request, 400, "bad_request");
    assert_eq!(ok_again.status, 200);

    let (limit, first, reset) = rate_headers(&ok);
    assert_eq!(limit, 60);
    assert_eq!(first, 59);
    assert_eq!(rate_headers(&bad_request).1, 58);
    assert_eq!(rate_headers(&ok_again).1, 57);
    assert!(
        (before..=unix_now() + 61).contains(&reset),
        "reset {reset} is Unix seconds within the next minute"
    );

    let missing = app
        .get(
            &format!("/api/v2/monitors/{}", uuid::Uuid::new_v4()),
            &team.key,
        )
        .await;
    assert_error(&missing, 404, "not_found");
    assert_eq!(
        rate_headers(&missing).1,
        59,
        "monitors.get counts on its own"
    );

    let created = app
        .post("/api/v2/monitors", &team.key, monitor_body())
        .await;
    assert_eq!(created.status, 201);
    assert_eq!(rate_headers(&created).1, 59);
}

async fn the_request_past_the_limit_is_refused_with_429_and_a_matching_retry_after(
    backend: Backend,
) {
    let app = TestApp::start_with(backend, &["--rate-limit-per-minute", "3"]).await;
    let team = app.create_team().await;

    for remaining in [2, 1, 0] {
        let response = app.get("/api/v2/monitors", &team.key).await;
        assert_eq!(response.status, 200);
        assert_eq!(rate_headers(&response).0, 3);
        assert_eq!(rate_headers(&response).1, remaining);
    }
    let refused = app.get("/api/v2/monitors", &team.key).await;

    assert_error(&refused, 429, "rate_limited");
    let retry_after = refused.body["retryAfter"]
        .as_u64()
        .expect("retryAfter is a whole number of seconds");
    assert!((1..=60).contains(&retry_after), "retryAfter {retry_after}");
    assert_eq!(
        refused.header("Retry-After"),
        Some(retry_after.to_string().as_str())
    );
    let (limit, remaining, reset) = rate_headers(&refused);
    assert_eq!((limit, remaining), (3, 0));
    assert!(
        reset.abs_diff(unix_now() + retry_after) <= 2,
        "reset {reset} is about now + retryAfter"
    );

    let still_refused = app.get("/api/v2/monitors", &team.key).await;
    assert_error(&still_refused, 429, "rate_limited");
}

async fn each_endpoint_and_each_team_has_its_own_rate_limit_budget(backend: Backend) {
    let app = TestApp::start_with(backend, &["--rate-limit-per-minute", "3"]).await;
    let team = app.create_team().await;
    let other = app.create_team().await;
    let monitor = app.create_monitor(&team, "Budgeted").await;
    for _ in 0..3 {
        assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
    }
    assert_error(
        &app.get("/api/v2/monitors", &team.key).await,
        429,
        "rate_limited",
    );

    let fetched = app
        .get(&format!("/api/v2/monitors/{monitor}"), &team.key)
        .await;
    assert_eq!(fetched.status, 200, "monitors.get has its own budget");
    assert_eq!(rate_headers(&fetched).1, 2);

    let others_list = app.get("/api/v2/monitors", &other.key).await;
    assert_eq!(others_list.status, 200, "another team has its own budget");
    assert_eq!(rate_headers(&others_list).1, 2);
}

async fn a_per_team_rate_limit_set_by_the_operator_applies_on_the_next_request(backend: Backend) {
    let app = TestApp::start(backend).await;
    let limited = app
        .create_team_with(json!({ "rate_limit_per_minute": 1 }))
        .await;
    let team = app.create_team().await;

    let first = app.get("/api/v2/monitors", &limited.key).await;
    assert_eq!(rate_headers(&first).0, 1);
    assert_error(
        &app.get("/api/v2/monitors", &limited.key).await,
        429,
        "rate_limited",
    );

    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
    set_team(&app, &team.id, json!({ "rate_limit_per_minute": 2 })).await;
    let second = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(second.status, 200);
    assert_eq!(rate_headers(&second).0, 2);
    assert_eq!(rate_headers(&second).1, 0);
    let refused = app.get("/api/v2/monitors", &team.key).await;
    assert_error(&refused, 429, "rate_limited");
    assert_eq!(rate_headers(&refused).0, 2);
}

async fn each_api_words_its_rate_limit_refusal_as_the_reference_does(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app
        .create_team_with(json!({ "rate_limit_per_minute": 1 }))
        .await;

    for (path, message) in [
        (
            "/api/v2/signals/funding?count=true",
            "Rate limit exceeded. Please try again later.",
        ),
        (
            "/api/v2/companies?count=true",
            "Rate limit exceeded. Please try again later.",
        ),
        (
            "/api/v2/webhooks",
            "Too many requests. Please upgrade your plan or slow down.",
        ),
        (
            "/api/v2/monitors",
            "Too many requests. Please upgrade your plan or slow down.",
        ),
    ] {
        assert_eq!(app.get(path, &team.key).await.status, 200, "{path}");
        let refused = app.get(path, &team.key).await;
        assert_error(&refused, 429, "rate_limited");
        assert_eq!(refused.error(), message, "{path}");
    }
}

async fn malformed_json_is_refused_with_400_bad_request(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Target of bad bodies").await;

    for (path, body) in [
        ("/api/v2/monitors".to_string(), r#"{"name": "Broken", "#),
        (format!("/api/v2/monitors/{monitor}/targets"), "not json"),
        (format!("/api/v2/monitors/{monitor}/targets/remove"), ""),
    ] {
        let response = post_raw(&app, &path, &team.key, Some("application/json"), body).await;
        assert_error(&response, 400, "bad_request");
        rate_headers(&response);
    }
    let put = app
        .send(
            app.request(
                Method::PUT,
                &format!("/api/v2/monitors/{monitor}"),
                &team.key,
            )
            .header(CONTENT_TYPE, "application/json")
            .body("[1, 2"),
        )
        .await;
    assert_error(&put, 400, "bad_request");
    assert_eq!(
        app.get("/api/v2/monitors", &team.key).await.data()[0]["name"],
        "Target of bad bodies"
    );
}

async fn a_json_body_that_is_not_an_object_is_refused_with_400(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for body in ["[]", "null", "\"x\"", "[\"a\", [\"hiring\"]]"] {
        for path in ["/api/v2/monitors", "/api/v2/webhooks"] {
            let response = post_raw(&app, path, &team.key, Some("application/json"), body).await;
            assert_error(&response, 400, "bad_request");
            assert_eq!(
                response.error(),
                "Request body must be a JSON object",
                "{body}"
            );
        }
    }
    assert!(
        app.get("/api/v2/monitors", &team.key)
            .await
            .data()
            .as_array()
            .expect("list")
            .is_empty()
    );
}

async fn a_body_without_a_json_content_type_is_refused_with_400(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let body = monitor_body().to_string();

    let without = post_raw(&app, "/api/v2/monitors", &team.key, None, body.clone()).await;
    assert_error(&without, 400, "bad_request");
    assert!(
        without.error().contains("Content-Type"),
        "{:?}",
        without.body
    );
    let as_text = post_raw(
        &app,
        "/api/v2/monitors",
        &team.key,
        Some("text/plain"),
        body.clone(),
    )
    .await;
    assert_error(&as_text, 400, "bad_request");
    let as_form = post_raw(
        &app,
        "/api/v2/monitors",
        &team.key,
        Some("application/x-www-form-urlencoded"),
        body.clone(),
    )
    .await;
    assert_error(&as_form, 400, "bad_request");

    let with_charset = post_raw(
        &app,
        "/api/v2/monitors",
        &team.key,
        Some("application/json; charset=utf-8"),
        body,
    )
    .await;
    assert_eq!(with_charset.status, 201, "{:?}", with_charset.body);
    assert_eq!(
        app.get("/api/v2/monitors", &team.key)
            .await
            .data()
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}

async fn a_body_over_one_mebibyte_is_refused_with_413_payload_too_large(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let huge = json!({ "name": "x".repeat(1024 * 1024 + 1), "signal_types": ["hiring"] });

    let response = app.post("/api/v2/monitors", &team.key, huge).await;

    assert_error(&response, 413, "payload_too_large");
    rate_headers(&response);
    assert_eq!(
        app.get("/api/v2/monitors", &team.key).await.data(),
        &json!([])
    );
}

async fn a_field_of_the_wrong_json_type_is_refused_with_400(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Typed").await;

    for body in [
        json!({ "name": 5, "signal_types": ["hiring"] }),
        json!({ "name": "Typed", "signal_types": "hiring" }),
        json!({ "name": "Typed", "signal_types": ["hiring"], "webhook_url": 5 }),
        json!(["name", "Typed"]),
    ] {
        let response = app.post("/api/v2/monitors", &team.key, body.clone()).await;
        assert_error(&response, 400, "bad_request");
    }
    let update = app
        .put(
            &format!("/api/v2/monitors/{monitor}"),
            &team.key,
            json!({ "active": "no" }),
        )
        .await;
    assert_error(&update, 400, "bad_request");
    let add = app
        .post(
            &format!("/api/v2/monitors/{monitor}/targets"),
            &team.key,
            json!({ "targets": "acme.com" }),
        )
        .await;
    assert_error(&add, 400, "bad_request");
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(listed.data().as_array().map(Vec::len), Some(1));
    assert_eq!(listed.data()[0]["active"], true);
}

async fn an_unknown_body_field_is_refused_with_400_naming_it(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Strict").await;

    let create = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Strict", "signal_types": ["hiring"], "colour": "red" }),
        )
        .await;
    assert_error(&create, 400, "bad_request");
    assert!(create.error().contains("colour"), "{}", create.error());

    let update = app
        .put(
            &format!("/api/v2/monitors/{monitor}"),
            &team.key,
            json!({ "paused": true }),
        )
        .await;
    assert_error(&update, 400, "bad_request");
    assert!(update.error().contains("paused"), "{}", update.error());

    let add = app
        .post(
            &format!("/api/v2/monitors/{monitor}/targets"),
            &team.key,
            json!({ "targets": ["acme.com"], "dry_run": true }),
        )
        .await;
    assert_error(&add, 400, "bad_request");
    assert!(add.error().contains("dry_run"), "{}", add.error());

    let remove = app
        .post(
            &format!("/api/v2/monitors/{monitor}/targets/remove"),
            &team.key,
            json!({ "values": ["acme.com"] }),
        )
        .await;
    assert_error(&remove, 400, "bad_request");
    assert!(remove.error().contains("values"), "{}", remove.error());
}

async fn a_query_parameter_holding_a_nul_character_is_refused_with_400_naming_it(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let before = crate::lists_support::balance_of(&app, &team).await;

    for path in [
        "/api/v2/signals/hiring?company_name=a%00b",
        "/api/v2/signals/funding?search=%00",
        "/api/v2/companies?industry=Software%00",
        "/api/v2/monitors?x%00=1",
    ] {
        let response = app.get(path, &team.key).await;
        assert_error(&response, 400, "bad_request");
        assert!(
            response.error().contains("NUL"),
            "{path}: {}",
            response.error()
        );
    }
    assert_eq!(
        crate::lists_support::balance_of(&app, &team).await,
        before,
        "a 400 charges nothing"
    );
}

async fn an_unknown_query_parameter_is_refused_with_400_naming_it(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Queried").await;

    let get_paths = [
        "/api/v2/monitors?page=2".to_string(),
        format!("/api/v2/monitors/{monitor}?page=2"),
        format!("/api/v2/monitors/{monitor}/targets?limit=10&page=2"),
    ];
    for path in get_paths {
        let response = app.get(&path, &team.key).await;
        assert_error(&response, 400, "bad_request");
        assert!(
            response.error().contains("page"),
            "{path}: {}",
            response.error()
        );
    }

    let create = app
        .post("/api/v2/monitors?dry_run=true", &team.key, monitor_body())
        .await;
    assert_error(&create, 400, "bad_request");
    assert!(create.error().contains("dry_run"), "{}", create.error());
    let update = app
        .put(
            &format!("/api/v2/monitors/{monitor}?force=1"),
            &team.key,
            json!({ "name": "Renamed" }),
        )
        .await;
    assert_error(&update, 400, "bad_request");
    assert!(update.error().contains("force"), "{}", update.error());
    let delete = app
        .delete(&format!("/api/v2/monitors/{monitor}?force=1"), &team.key)
        .await;
    assert_error(&delete, 400, "bad_request");
    assert!(delete.error().contains("force"), "{}", delete.error());

    let kept = app
        .get(&format!("/api/v2/monitors/{monitor}"), &team.key)
        .await;
    assert_eq!(kept.data()["name"], "Queried");
    assert_eq!(
        app.get("/api/v2/monitors", &team.key)
            .await
            .data()
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}

async fn a_path_id_that_is_not_a_uuid_is_404_not_found(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Real").await;

    let responses = [
        app.get("/api/v2/monitors/not-a-uuid", &team.key).await,
        app.get("/api/v2/monitors/12345", &team.key).await,
        app.put(
            "/api/v2/monitors/not-a-uuid",
            &team.key,
            json!({ "name": "x" }),
        )
        .await,
        app.delete("/api/v2/monitors/not-a-uuid", &team.key).await,
        app.get("/api/v2/monitors/not-a-uuid/targets", &team.key)
            .await,
        app.post(
            "/api/v2/monitors/not-a-uuid/targets",
            &team.key,
            json!({ "targets": ["acme.com"] }),
        )
        .await,
        app.post(
            "/api/v2/monitors/not-a-uuid/targets/remove",
            &team.key,
            json!({ "targets": ["acme.com"] }),
        )
        .await,
        app.delete(
            &format!("/api/v2/monitors/{monitor}/targets/not-a-uuid"),
            &team.key,
        )
        .await,
        app.delete("/api/v2/monitors/not-a-uuid/targets/also-not", &team.key)
            .await,
    ];
    for response in &responses {
        assert_error(response, 404, "not_found");
        rate_headers(response);
    }
}

async fn an_unknown_route_under_the_api_is_404_in_the_error_envelope(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for path in [
        "/api/v2/nothing-here",
        "/api/v2/monitors/x/y/z/w",
        "/api/v3/monitors",
    ] {
        let response = app.get(path, &team.key).await;
        assert_error(&response, 404, "not_found");
    }
    let anonymous = app
        .send(app.client.get(format!("{}/api/v2/nothing-here", app.base)))
        .await;
    assert_error(&anonymous, 404, "not_found");
}

async fn a_method_a_path_does_not_serve_is_answered_in_the_error_envelope(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let response = app
        .send(app.request(Method::PATCH, "/api/v2/monitors", &team.key))
        .await;

    assert_error(&response, 405, "method_not_allowed");
    assert!(response.header("X-RateLimit-Limit").is_some());
}

async fn a_path_the_team_api_does_not_serve_is_404_with_the_rate_limit_headers(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let unknown = app.get("/api/v2/no-such-endpoint", &team.key).await;
    let too_deep = app.get("/api/v2/monitors/x/targets/y/z", &team.key).await;

    for response in [&unknown, &too_deep] {
        assert_error(response, 404, "not_found");
        for header in [
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
        ] {
            assert!(response.header(header).is_some(), "{header}");
        }
    }
}
