//! `/api/v2/openapi.json` describes the investor and people lists field by field: their records,
//! and every parameter with its vocabulary, range and default; and a record the lists answer
//! has exactly the fields the document requires.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, TestApp};

each_backend!(
    the_investor_and_people_lists_answer_records_the_document_describes,
    the_people_parameters_declare_their_vocabularies_ranges_and_defaults,
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

fn parameter(doc: &Value, path: &str, name: &str) -> Value {
    doc["paths"][path]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{path} declares {name}"))["schema"]
        .clone()
}

async fn the_investor_and_people_lists_answer_records_the_document_describes(backend: Backend) {
    let app = TestApp::start(backend).await;
    let doc = document(&app).await;

    for (path, record) in [
        ("/api/v2/signals/investors", "Investor"),
        ("/api/v2/people", "Person"),
    ] {
        let body =
            &doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
        assert_eq!(
            body["properties"]["data"]["items"]["$ref"],
            format!("#/components/schemas/{record}"),
            "{path}"
        );
        assert_eq!(
            body["properties"]["pagination"]["$ref"],
            "#/components/schemas/PagePagination"
        );
        let schema = &doc["components"]["schemas"][record];
        let required = schema["required"].as_array().expect("required");
        let properties = schema["properties"].as_object().expect("properties");
        assert_eq!(
            required.len(),
            properties.len(),
            "{record}: every field is always there"
        );
    }
    assert_eq!(
        doc["components"]["schemas"]["Investor"]["properties"]["headquarters"]["type"],
        "null"
    );
}

async fn the_people_parameters_declare_their_vocabularies_ranges_and_defaults(backend: Backend) {
    let app = TestApp::start(backend).await;
    let doc = document(&app).await;
    let people = "/api/v2/people";
    let investors = "/api/v2/signals/investors";

    assert_eq!(
        parameter(&doc, people, "limit"),
        json!({ "type": "integer", "minimum": 1, "maximum": 100, "default": 100 })
    );
    assert_eq!(
        parameter(&doc, people, "include_former"),
        json!({ "type": "string", "enum": ["false"], "default": "false" })
    );
    assert_eq!(
        parameter(&doc, people, "signal_date_range")["default"],
        "12m"
    );
    for (name, value) in [
        ("function", "customer_success"),
        ("seniority", "c_level"),
        ("company_size", "1000-plus"),
        ("signal_type", "job_change"),
    ] {
        let pattern = parameter(&doc, people, name)["pattern"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} has a pattern"))
            .to_string();
        assert!(
            pattern.contains(&value.replace('-', "\\-")),
            "{name}: {pattern}"
        );
    }
    assert_eq!(
        parameter(&doc, investors, "sort_by"),
        json!({ "type": "string", "enum": ["name", "created_at", "ticket_size_min", "ticket_size_max"],
                "default": "created_at" })
    );
    assert_eq!(parameter(&doc, investors, "limit")["default"], 20);
    assert_eq!(parameter(&doc, investors, "ticket_size_min")["minimum"], 0);
}
