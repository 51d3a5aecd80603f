//! Operational endpoints: health, readiness, metrics, the OpenAPI document and its docs page.
//! No key, no rate limit, no envelope.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, TestApp};

each_backend!(
    health_answers_200_without_a_key,
    ready_answers_200_while_the_database_is_reachable,
    metrics_count_http_requests_in_prometheus_text,
    operational_endpoints_are_neither_authenticated_nor_rate_limited,
    the_openapi_document_is_openapi_3_1_describing_every_monitoring_operation,
    every_monitoring_operation_declares_its_error_responses_and_the_bearer_scheme,
    the_docs_page_is_html,
    every_team_operation_declares_a_server_error_and_the_reference_operation_ids,
);

/// The nine Monitoring API operations: path, method, whether the path names a monitor, and
/// whether the operation takes a body or query parameters that can be refused with 400.
const OPERATIONS: [(&str, &str, bool); 9] = [
    ("/api/v2/monitors", "post", false),
    ("/api/v2/monitors", "get", false),
    ("/api/v2/monitors/{id}", "get", true),
    ("/api/v2/monitors/{id}", "put", true),
    ("/api/v2/monitors/{id}", "delete", true),
    ("/api/v2/monitors/{id}/targets", "get", true),
    ("/api/v2/monitors/{id}/targets", "post", true),
    ("/api/v2/monitors/{id}/targets/{targetId}", "delete", true),
    ("/api/v2/monitors/{id}/targets/remove", "post", true),
];

async fn get_text(app: &TestApp, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let response = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("request reaches the service");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    (status, headers, text)
}

async fn openapi(app: &TestApp) -> Value {
    let (status, headers, text) = get_text(app, "/api/v2/openapi.json").await;
    assert_eq!(status, 200);
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    serde_json::from_str(&text).expect("the document is JSON")
}

async fn health_answers_200_without_a_key(backend: Backend) {
    let app = TestApp::start(backend).await;

    let (status, _, _) = get_text(&app, "/health").await;

    assert_eq!(status, 200);
}

async fn ready_answers_200_while_the_database_is_reachable(backend: Backend) {
    let app = TestApp::start(backend).await;

    let (status, _, _) = get_text(&app, "/ready").await;

    assert_eq!(status, 200);
}

async fn metrics_count_http_requests_in_prometheus_text(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);

    let (status, headers, text) = get_text(&app, "/metrics").await;

    assert_eq!(status, 200);
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    let counted = text
        .lines()
        .find(|line| {
            line.starts_with("http_requests_total{")
                && line.contains("path=\"/api/v2/monitors\"")
                && line.contains("status=\"200\"")
        })
        .unwrap_or_else(|| panic!("a counter of GET /api/v2/monitors in:\n{text}"));
    let count: f64 = counted
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number");
    assert!(count >= 1.0, "{counted}");
    assert!(
        text.contains("# TYPE http_requests_total counter"),
        "{text}"
    );
}

async fn operational_endpoints_are_neither_authenticated_nor_rate_limited(backend: Backend) {
    let app = TestApp::start_with(backend, &["--rate-limit-per-minute", "1"]).await;

    for path in [
        "/health",
        "/ready",
        "/metrics",
        "/api/v2/openapi.json",
        "/docs/",
    ] {
        for _ in 0..3 {
            let (status, headers, _) = get_text(&app, path).await;
            assert_eq!(status, 200, "{path}");
            assert!(headers.get("x-ratelimit-limit").is_none(), "{path}");
            assert!(headers.get("retry-after").is_none(), "{path}");
        }
    }
}

async fn the_openapi_document_is_openapi_3_1_describing_every_monitoring_operation(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;

    let document = openapi(&app).await;

    let version = document["openapi"].as_str().expect("openapi version");
    assert!(version.starts_with("3.1"), "{version}");
    assert_eq!(document["info"]["version"], "2.0.0");
    let paths = document["paths"].as_object().expect("paths");
    for (path, method, _) in OPERATIONS {
        assert!(
            paths.get(path).and_then(|item| item.get(method)).is_some(),
            "{} {path} is described; paths: {:?}",
            method.to_uppercase(),
            paths.keys().collect::<Vec<_>>()
        );
    }
    let operations: usize = paths
        .iter()
        .filter(|(path, _)| path.starts_with("/api/v2/monitors"))
        .map(|(_, item)| {
            ["get", "put", "post", "delete", "patch"]
                .iter()
                .filter(|m| item.get(**m).is_some())
                .count()
        })
        .sum();
    assert_eq!(operations, 9, "exactly the nine monitoring operations");
    assert!(
        paths["/api/v2/monitors/{id}/targets/{targetId}"]["delete"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .any(|p| p["name"] == "targetId" && p["in"] == "path")
    );
}

async fn every_monitoring_operation_declares_its_error_responses_and_the_bearer_scheme(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;

    let document = openapi(&app).await;

    let scheme = &document["components"]["securitySchemes"]["bearerAuth"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    for (path, method, names_a_monitor) in OPERATIONS {
        let operation = &document["paths"][path][method];
        let responses = operation["responses"].as_object().expect("responses");
        let mut expected = vec!["400", "401", "403", "429"];
        if names_a_monitor {
            expected.push("404");
        }
        for status in expected {
            assert!(
                responses.contains_key(status),
                "{} {path} declares {status}; it declares {:?}",
                method.to_uppercase(),
                responses.keys().collect::<Vec<_>>()
            );
        }
        assert!(
            responses.keys().any(|s| s.starts_with('2')),
            "{method} {path} declares its success"
        );
        let security = operation["security"].as_array().expect("security");
        assert!(
            security.iter().any(|s| s.get("bearerAuth").is_some()),
            "{method} {path} requires the bearer key"
        );
    }
}

/// Operations of the reference files, by path, method and the reference's `operationId`.
const REFERENCE_OPERATIONS: [(&str, &str, &str); 16] = [
    ("/api/v2/signals/funding", "get", "getFundingSignals"),
    ("/api/v2/signals/hiring", "get", "getHiringSignals"),
    (
        "/api/v2/signals/acquisitions",
        "get",
        "getAcquisitionSignals",
    ),
    ("/api/v2/signals/job-changes", "get", "getJobChangeSignals"),
    ("/api/v2/companies", "get", "getCompanies"),
    ("/api/v2/csv-enrichment", "post", "createCSVEnrichmentJob"),
    (
        "/api/v2/csv-enrichment/{jobId}",
        "get",
        "getCSVEnrichmentJob",
    ),
    ("/api/v2/webhooks", "post", "createWebhook"),
    ("/api/v2/webhooks", "get", "listWebhooks"),
    ("/api/v2/webhooks/{id}", "get", "getWebhook"),
    ("/api/v2/webhooks/{id}", "put", "updateWebhook"),
    ("/api/v2/webhooks/{id}", "delete", "deleteWebhook"),
    ("/api/v2/webhooks/{id}/test", "post", "testWebhook"),
    (
        "/api/v2/webhooks/{id}/deliveries",
        "get",
        "listWebhookDeliveries",
    ),
    (
        "/api/v2/webhooks/{id}/deliveries/{deliveryId}/retry",
        "post",
        "retryWebhookDelivery",
    ),
    ("/api/v2/monitors", "post", "createMonitor"),
];

async fn every_team_operation_declares_a_server_error_and_the_reference_operation_ids(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;

    let document = openapi(&app).await;

    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("operations") {
            let responses = operation["responses"].as_object().expect("responses");
            for status in ["401", "429", "500"] {
                assert!(responses.contains_key(status), "{method} {path}: {status}");
            }
        }
    }
    for (path, method, id) in REFERENCE_OPERATIONS {
        assert_eq!(
            document["paths"][path][method]["operationId"], id,
            "{method} {path}"
        );
    }
    let schemas = &document["components"]["schemas"];
    for (schema, fields) in [
        ("CreateMonitorBody", json!(["name", "signal_types"])),
        ("CreateWebhookBody", json!(["endpoint_url", "event_types"])),
        ("CreateJobBody", json!(["companies"])),
        ("AddTargetsBody", json!(["targets"])),
    ] {
        assert_eq!(schemas[schema]["required"], fields, "{schema}");
    }
}

async fn the_docs_page_is_html(backend: Backend) {
    let app = TestApp::start(backend).await;

    for path in ["/docs/", "/docs"] {
        let (status, headers, text) = get_text(&app, path).await;
        assert_eq!(status, 200, "{path}");
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        assert!(
            content_type.starts_with("text/html"),
            "{path}: {content_type}"
        );
        assert!(text.to_ascii_lowercase().contains("<html"), "{path}");
    }
}
