//! Which answer a request gets when several things are wrong with it: a body over the size limit
//! is 413 whatever else it says; a path that names nothing is 404 whatever the body; only then
//! is the body read. And every one of those answers is in the error envelope.

use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::each_backend;
use crate::errors::assert_error;
use crate::support::app::ADMIN_TOKEN;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    a_path_that_names_nothing_is_404_whatever_the_body,
    a_bad_body_for_a_monitor_or_webhook_that_exists_is_still_400,
    a_path_id_that_is_not_utf_8_is_404_in_the_error_envelope,
    a_body_over_one_mebibyte_is_413_whatever_its_content_type,
);

const LIMIT: usize = 1024 * 1024;

/// A request with a raw body and an optional Content-Type.
async fn send_raw(
    app: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    content_type: Option<&str>,
    body: impl Into<reqwest::Body>,
) -> TestResponse {
    let mut request = app.request(method, path, key).body(body);
    if let Some(content_type) = content_type {
        request = request.header(CONTENT_TYPE, content_type);
    }
    app.send(request).await
}

/// Bodies that are wrong in every way a body can be: absent, not declared as JSON, not JSON,
/// with an unknown field, or with values the endpoint refuses.
fn bad_bodies(invalid_values: Value) -> Vec<(Option<&'static str>, String)> {
    vec![
        (None, String::new()),
        (Some("text/plain"), invalid_values.to_string()),
        (Some("application/json"), "{\"name\": ".to_string()),
        (Some("application/json"), String::new()),
        (
            Some("application/json"),
            json!({ "no_such_field": 1 }).to_string(),
        ),
        (Some("application/json"), invalid_values.to_string()),
    ]
}

/// The monitor and webhook routes that take an id and a body, each with values it refuses.
fn routes_with_a_body(monitor: &str, webhook: &str) -> Vec<(Method, String, Value)> {
    vec![
        (
            Method::PUT,
            format!("/api/v2/monitors/{monitor}"),
            json!({ "name": "", "signal_types": ["ipo"] }),
        ),
        (
            Method::POST,
            format!("/api/v2/monitors/{monitor}/targets"),
            json!({ "targets": [] }),
        ),
        (
            Method::POST,
            format!("/api/v2/monitors/{monitor}/targets/remove"),
            json!({ "targets": [] }),
        ),
        (
            Method::PUT,
            format!("/api/v2/webhooks/{webhook}"),
            json!({ "event_types": ["investor.created"] }),
        ),
        (
            Method::POST,
            format!("/api/v2/webhooks/{webhook}/deliveries/retry-failed"),
            json!({ "since": "yesterday" }),
        ),
    ]
}

async fn a_webhook(app: &TestApp, team: &Team) -> String {
    let created = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/x", "event_types": ["funding.created"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    created.data()["id"].as_str().expect("id").to_string()
}

async fn a_path_that_names_nothing_is_404_whatever_the_body(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let other = app.create_team().await;
    let theirs = app.create_monitor(&other, "Theirs").await;
    let their_webhook = a_webhook(&app, &other).await;
    let unknown = uuid::Uuid::new_v4().to_string();

    for (monitor, webhook, what) in [
        ("not-a-uuid", "not-a-uuid", "a non-UUID id"),
        (unknown.as_str(), unknown.as_str(), "an unknown id"),
        (theirs.as_str(), their_webhook.as_str(), "another team's id"),
    ] {
        every_bad_body_answers(&app, &team.key, (monitor, webhook), 404, "not_found", what).await;
    }

    // The admin API reads a team id before the body too.
    for body in ["", "{\"credits\": "] {
        let patched = app
            .send(
                app.request(Method::PATCH, "/admin/v1/teams/not-a-uuid", ADMIN_TOKEN)
                    .header(CONTENT_TYPE, "application/json")
                    .body(body),
            )
            .await;
        assert_error(&patched, 404, "not_found");
        let member = app
            .send(
                app.request(Method::POST, "/admin/v1/teams/nope/members", ADMIN_TOKEN)
                    .body(body),
            )
            .await;
        assert_error(&member, 404, "not_found");
    }
    let kept = app
        .get(&format!("/api/v2/monitors/{theirs}"), &other.key)
        .await;
    assert_eq!(kept.data()["name"], "Theirs");
}

async fn a_bad_body_for_a_monitor_or_webhook_that_exists_is_still_400(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Mine").await;
    let webhook = a_webhook(&app, &team).await;

    let ids = (monitor.as_str(), webhook.as_str());
    every_bad_body_answers(&app, &team.key, ids, 400, "bad_request", "existing ids").await;
    let kept = app
        .get(&format!("/api/v2/monitors/{monitor}"), &team.key)
        .await;
    assert_eq!(kept.data()["name"], "Mine");
    assert_eq!(
        kept.data()["signal_types"],
        json!(["funding_round", "hiring"])
    );
}

async fn a_path_id_that_is_not_utf_8_is_404_in_the_error_envelope(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Real").await;
    let webhook = a_webhook(&app, &team).await;

    let team_paths = [
        (Method::GET, "/api/v2/monitors/%FF".to_string()),
        (Method::PUT, "/api/v2/monitors/%C3%28".to_string()),
        (Method::DELETE, "/api/v2/monitors/%FF".to_string()),
        (Method::GET, "/api/v2/monitors/%FF/targets".to_string()),
        (Method::POST, "/api/v2/monitors/%FF/targets".to_string()),
        (
            Method::POST,
            "/api/v2/monitors/%FF/targets/remove".to_string(),
        ),
        (
            Method::DELETE,
            format!("/api/v2/monitors/{monitor}/targets/%FF"),
        ),
        (Method::GET, "/api/v2/webhooks/%FF".to_string()),
        (Method::PUT, "/api/v2/webhooks/%FF".to_string()),
        (Method::DELETE, "/api/v2/webhooks/%FF".to_string()),
        (Method::POST, "/api/v2/webhooks/%FF/test".to_string()),
        (Method::GET, "/api/v2/webhooks/%FF/deliveries".to_string()),
        (
            Method::GET,
            format!("/api/v2/webhooks/{webhook}/deliveries/%FF"),
        ),
        (
            Method::POST,
            format!("/api/v2/webhooks/{webhook}/deliveries/%FF/retry"),
        ),
        (
            Method::POST,
            "/api/v2/webhooks/%FF/deliveries/retry-failed".to_string(),
        ),
    ];
    for (method, path) in team_paths {
        let response = send_raw(
            &app,
            method.clone(),
            &path,
            &team.key,
            Some("application/json"),
            "{}",
        )
        .await;
        assert_error(&response, 404, "not_found");
        assert!(
            response.header("X-RateLimit-Limit").is_some(),
            "{method} {path}"
        );
    }
    for path in [
        "/api/v2/csv-enrichment/%FF",
        "/api/v2/csv-enrichment/%FF/results.csv",
    ] {
        let response = app.get(path, &team.key).await;
        assert_error(&response, 404, "job_not_found");
    }
    for (method, path) in [
        (Method::GET, "/admin/v1/teams/%FF"),
        (Method::PATCH, "/admin/v1/teams/%FF"),
        (Method::POST, "/admin/v1/teams/%FF/members"),
        (Method::POST, "/admin/v1/signals/%FF"),
    ] {
        let response = send_raw(
            &app,
            method,
            path,
            ADMIN_TOKEN,
            Some("application/json"),
            "[]",
        )
        .await;
        assert_error(&response, 404, "not_found");
    }
}

async fn a_body_over_one_mebibyte_is_413_whatever_its_content_type(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Big").await;
    let oversize = format!("{{\"name\": \"{}\"}}", "x".repeat(LIMIT));

    let paths = [
        (Method::POST, "/api/v2/monitors".to_string()),
        (Method::PUT, format!("/api/v2/monitors/{monitor}")),
        (Method::POST, format!("/api/v2/monitors/{monitor}/targets")),
        (Method::POST, "/api/v2/webhooks".to_string()),
        (Method::POST, "/api/v2/csv-enrichment".to_string()),
    ];
    for (method, path) in &paths {
        for content_type in [None, Some("text/plain"), Some("application/json")] {
            let response = send_raw(
                &app,
                method.clone(),
                path,
                &team.key,
                content_type,
                oversize.clone(),
            )
            .await;
            assert_eq!(
                response.status, 413,
                "{method} {path} as {content_type:?}: {:?}",
                response.body
            );
            assert_error(&response, 413, "payload_too_large");
        }
    }

    // Without a Content-Length the size is counted as the body arrives.
    for content_type in [None, Some("text/plain")] {
        let (status, body) = post_chunked(&app, "/api/v2/monitors", &team.key, content_type).await;
        assert_eq!(status, 413, "chunked as {content_type:?}: {body:?}");
        assert_eq!(body["code"], "payload_too_large");
    }
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(listed.data().as_array().map(Vec::len), Some(1));
}

/// POSTs a body of one byte over the limit in chunked transfer encoding (no Content-Length) over
/// a raw connection, reading the answer while the body is still being written.
async fn post_chunked(
    app: &TestApp,
    path: &str,
    key: &str,
    content_type: Option<&str>,
) -> (u16, Value) {
    let address = app.base.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    let (mut reader, mut writer) = stream.into_split();
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {key}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n"
    );
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    head.push_str("\r\n");
    let writing = tokio::spawn(async move {
        writer.write_all(head.as_bytes()).await?;
        let chunk = vec![b'x'; 64 * 1024];
        let mut left = LIMIT + 1;
        while left > 0 {
            let size = left.min(chunk.len());
            writer.write_all(format!("{size:x}\r\n").as_bytes()).await?;
            writer.write_all(&chunk[..size]).await?;
            writer.write_all(b"\r\n").await?;
            left -= size;
        }
        writer.write_all(b"0\r\n\r\n").await
    });
    let mut answer = Vec::new();
    let mut buffer = [0u8; 8192];
    // The server may close the connection without reading the rest of the body; what arrived
    // before that is the answer.
    while let Ok(read) = reader.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..read]);
    }
    let _ = writing.await;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("an HTTP answer, got {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .and_then(|(_, body)| serde_json::from_str(body).ok())
        .unwrap_or(Value::Null);
    (status, body)
}

/// Sends every bad body to every route with a body of the monitor and webhook `ids`, and checks
/// each answer is `status` with error `code`.
async fn every_bad_body_answers(
    app: &TestApp,
    key: &str,
    (monitor, webhook): (&str, &str),
    status: u16,
    code: &str,
    what: &str,
) {
    for (method, path, invalid) in routes_with_a_body(monitor, webhook) {
        for (content_type, body) in bad_bodies(invalid) {
            let response =
                send_raw(app, method.clone(), &path, key, content_type, body.clone()).await;
            assert_eq!(
                response.status, status,
                "{what}: {method} {path} with {content_type:?} {body:?}: {:?}",
                response.body
            );
            assert_error(&response, status, code);
        }
    }
}
