//! `/api/v2/openapi.json` describes the wire: the envelope of every JSON answer, the page
//! lists' bodies, the error answers, and the constraints of the list parameters the server
//! checks.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, TestApp};

each_backend!(
    every_success_body_is_described_inside_the_envelope,
    every_operation_describes_its_error_answers_in_the_error_body,
    list_parameters_declare_their_enums_ranges_and_defaults,
);

async fn document(app: &TestApp) -> Value {
    app.client
        .get(format!("{}/api/v2/openapi.json", app.base))
        .send()
        .await
        .expect("document")
        .json()
        .await
        .expect("JSON")
}

/// Every operation of the document: `(method, path, operation)`.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            if ["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone(), operation.clone()));
            }
        }
    }
    out
}

async fn every_success_body_is_described_inside_the_envelope(backend: Backend) {
    let app = TestApp::start(backend).await;
    let doc = document(&app).await;

    for (method, path, operation) in operations(&doc) {
        for (status, response) in operation["responses"].as_object().expect("responses") {
            let schema = &response["content"]["application/json"]["schema"];
            if !status.starts_with('2') || schema.is_null() {
                continue;
            }
            let required = schema["required"].as_array().expect("required");
            for key in ["success", "data", "meta"] {
                assert!(
                    required.contains(&json!(key)),
                    "{method} {path} {status}: {schema}"
                );
            }
        }
    }
    for path in [
        "/api/v2/signals/funding",
        "/api/v2/signals/hiring",
        "/api/v2/signals/acquisitions",
        "/api/v2/signals/job-changes",
        "/api/v2/companies",
    ] {
        let schema =
            &doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
        assert_eq!(
            schema["properties"]["pagination"]["$ref"], "#/components/schemas/PagePagination",
            "{path}"
        );
        assert_eq!(schema["properties"]["data"]["type"], "array", "{path}");
    }
}

async fn every_operation_describes_its_error_answers_in_the_error_body(backend: Backend) {
    let app = TestApp::start(backend).await;
    let doc = document(&app).await;

    for (method, path, operation) in operations(&doc) {
        let mut statuses = vec!["400", "401", "403", "429", "500"];
        if path.contains('{') {
            statuses.push("404");
        }
        if operation.get("requestBody").is_some() {
            statuses.push("413");
        }
        for status in statuses {
            let schema = &operation["responses"][status]["content"]["application/json"]["schema"];
            assert_eq!(
                schema["$ref"], "#/components/schemas/ErrorBody",
                "{method} {path} {status}"
            );
        }
    }
}

async fn list_parameters_declare_their_enums_ranges_and_defaults(backend: Backend) {
    let app = TestApp::start(backend).await;
    let doc = document(&app).await;
    let parameter = |path: &str, name: &str| -> Value {
        doc["paths"][path]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{path} declares {name}"))["schema"]
            .clone()
    };

    let hiring = "/api/v2/signals/hiring";
    assert_eq!(
        parameter(hiring, "limit"),
        json!({ "type": "integer", "minimum": 1, "maximum": 100, "default": 20 })
    );
    assert_eq!(
        parameter(hiring, "include_expired")["enum"],
        json!(["true", "false"])
    );
    assert_eq!(
        parameter(hiring, "work_mode")["enum"],
        json!(["remote", "hybrid", "onsite"])
    );
    assert_eq!(parameter(hiring, "posted_min_days_ago")["maximum"], 3650);
    assert_eq!(parameter(hiring, "founded_year_min")["minimum"], 1700);
    assert!(
        parameter(hiring, "date_preset")["enum"]
            .as_array()
            .expect("enum")
            .contains(&json!("all_time"))
    );
    assert_eq!(
        parameter("/api/v2/companies", "founded_year_min")["minimum"],
        1800
    );
    assert_eq!(
        parameter("/api/v2/signals/funding", "investor_type")["enum"],
        json!(["vc", "pe", "angel", "corporate", "other"])
    );
}
