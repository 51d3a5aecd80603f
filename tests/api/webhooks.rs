//! Creating and reading standalone webhooks; the helpers every webhook test file shares.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    creating_a_webhook_returns_201_with_the_webhook_its_secret_and_zero_stats,
    the_secret_is_shown_once_and_reads_show_only_its_preview,
    a_webhook_body_may_use_camel_case_names,
    event_types_and_endpoint_url_are_required,
    an_unknown_event_type_is_refused_with_the_supported_list,
    investor_created_is_not_a_supported_event_type,
    a_malformed_event_types_list_is_refused,
    an_empty_event_types_list_makes_a_webhook_that_receives_nothing_until_changed,
    endpoint_urls_must_be_public_http_urls_of_at_most_500_characters,
    private_endpoint_urls_are_accepted_when_the_operator_allows_them,
    an_endpoint_url_is_returned_exactly_as_sent_without_surrounding_spaces,
    filters_keep_recognised_keys_and_ignore_the_rest,
    a_filter_value_must_be_a_string,
    listing_webhooks_shows_active_ones_newest_first_with_offset_pagination,
    listing_refuses_unknown_or_out_of_range_parameters,
    the_openapi_document_describes_every_webhook_route,
);

/// Path of the webhook collection.
pub const WEBHOOKS: &str = "/api/v2/webhooks";

/// Path of one webhook.
pub fn webhook_path(id: &str) -> String {
    format!("{WEBHOOKS}/{id}")
}

/// `data.id` of a response.
pub fn id_of(response: &TestResponse) -> String {
    response.data()["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no id in {:?}", response.body))
        .to_string()
}

/// Asserts an error answer: the status, `success: false`, the code and a message.
pub fn assert_error(response: &TestResponse, status: u16, code: &str) {
    assert_eq!(response.status, status, "{:?}", response.body);
    assert_eq!(response.body["success"], false, "{:?}", response.body);
    assert_eq!(response.body["code"], code, "{:?}", response.body);
    assert!(!response.error().is_empty(), "{:?}", response.body);
}

/// Creates a webhook at `url` for funding and hiring events, asserting a 201.
pub async fn create_webhook(app: &TestApp, team: &Team, url: &str) -> TestResponse {
    let body = json!({ "endpoint_url": url, "event_types": ["funding.created", "hiring.created"] });
    let created = app.post(WEBHOOKS, &team.key, body).await;
    assert_eq!(created.status, 201, "webhook creation: {:?}", created.body);
    created
}

/// `data` of `GET /webhooks`.
pub async fn list(app: &TestApp, team: &Team) -> Vec<Value> {
    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    listed.data().as_array().expect("data is an array").clone()
}

/// `data` of `GET /webhooks/{id}`, asserting a 200.
pub async fn fetch(app: &TestApp, team: &Team, id: &str) -> Value {
    let fetched = app.get(&webhook_path(id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    fetched.data().clone()
}

/// `…` and the last four characters of `secret`.
pub fn preview_of(secret: &str) -> String {
    let tail: String = secret.chars().skip(secret.chars().count() - 4).collect();
    format!("…{tail}")
}

// ---------------------------------------------------------------------------------------------
// POST /webhooks
// ---------------------------------------------------------------------------------------------

async fn creating_a_webhook_returns_201_with_the_webhook_its_secret_and_zero_stats(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({
                "endpoint_url": "https://hooks.example.com/signals",
                "event_types": ["funding.created", "hiring.created", "funding.created"],
                "filters": { "countries": "US,GB" }
            }),
        )
        .await;

    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["success"], true);
    assert_eq!(
        created.body["meta"],
        json!({ "endpoint": "webhooks.create", "creditsUsed": 0 })
    );
    let webhook = created.data().as_object().expect("data is an object");
    let mut keys: Vec<&str> = webhook.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "active",
            "created_at",
            "endpoint_url",
            "event_types",
            "filters",
            "id",
            "last_modified_by",
            "last_modified_via",
            "secret",
            "stats",
            "updated_at"
        ]
    );
    assert!(uuid::Uuid::parse_str(webhook["id"].as_str().unwrap()).is_ok());
    assert_eq!(webhook["endpoint_url"], "https://hooks.example.com/signals");
    assert_eq!(
        webhook["event_types"],
        json!(["funding.created", "hiring.created"])
    );
    assert_eq!(webhook["filters"], json!({ "countries": "US,GB" }));
    assert_eq!(webhook["active"], true);
    assert_eq!(webhook["last_modified_by"], team.user_id.as_str());
    assert_eq!(webhook["last_modified_via"], "api");
    assert!(webhook["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(
        webhook["stats"],
        json!({
            "total_deliveries": 0, "successful_deliveries": 0, "failed_deliveries": 0,
            "last_success_at": null, "last_failure_at": null, "consecutive_failures": 0
        })
    );
    for stamp in ["created_at", "updated_at"] {
        let text = webhook[stamp].as_str().unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with('Z'),
            "{stamp} {text}"
        );
    }
}

async fn the_secret_is_shown_once_and_reads_show_only_its_preview(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = create_webhook(&app, &team, "https://hooks.example.com/once").await;
    let secret = created.data()["secret"].as_str().unwrap().to_string();
    assert!(created.data().get("secret_preview").is_none());

    let id = id_of(&created);
    let fetched = fetch(&app, &team, &id).await;
    assert!(fetched.get("secret").is_none(), "{fetched}");
    assert_eq!(fetched["secret_preview"], preview_of(&secret));
    let listed = list(&app, &team).await;
    assert!(listed[0].get("secret").is_none(), "{}", listed[0]);
    assert_eq!(listed[0]["secret_preview"], preview_of(&secret));
    let updated = app
        .put(&webhook_path(&id), &team.key, json!({ "filters": {} }))
        .await;
    assert!(updated.data().get("secret").is_none(), "{:?}", updated.body);
    assert_eq!(updated.data()["secret_preview"], preview_of(&secret));
}

async fn a_webhook_body_may_use_camel_case_names(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpointUrl": "https://hooks.example.com/camel", "eventTypes": ["acquisition.created"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(
        created.data()["endpoint_url"],
        "https://hooks.example.com/camel"
    );

    let id = id_of(&created);
    let updated = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "eventTypes": ["job_change.created"], "rotateSecret": true }),
        )
        .await;
    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(updated.data()["event_types"], json!(["job_change.created"]));
    assert!(updated.data()["secret"].is_string(), "{:?}", updated.body);
}

async fn event_types_and_endpoint_url_are_required(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let no_types = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/in" }),
        )
        .await;
    assert_error(&no_types, 400, "bad_request");
    assert!(
        no_types.error().contains("event_types"),
        "{}",
        no_types.error()
    );

    let no_url = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "event_types": ["funding.created"] }),
        )
        .await;
    assert_error(&no_url, 400, "bad_request");
    assert!(
        no_url.error().contains("endpoint_url"),
        "{}",
        no_url.error()
    );

    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn an_unknown_event_type_is_refused_with_the_supported_list(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let refused = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": ["funding.created", "ipo.created"] }),
        )
        .await;

    assert_error(&refused, 400, "bad_request");
    let message = refused.error();
    assert!(message.contains("ipo.created"), "{message}");
    for supported in [
        "funding.created",
        "acquisition.created",
        "job_change.created",
        "hiring.created",
        "new_company.created",
        "system.test",
    ] {
        assert!(message.contains(supported), "{message} names {supported}");
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn investor_created_is_not_a_supported_event_type(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let refused = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": ["investor.created"] }),
        )
        .await;
    assert_error(&refused, 400, "bad_request");

    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/in").await);
    let update = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "event_types": ["funding.created", "investor.created"] }),
        )
        .await;
    assert_error(&update, 400, "bad_request");
}

async fn a_malformed_event_types_list_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for event_types in [
        json!("funding.created"),
        json!([42]),
        json!(null),
        json!(["Funding.Created"]),
    ] {
        let refused = app
            .post(
                WEBHOOKS,
                &team.key,
                json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": event_types }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(
            refused.error().contains("event_types"),
            "{event_types}: {}",
            refused.error()
        );
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn an_empty_event_types_list_makes_a_webhook_that_receives_nothing_until_changed(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": [] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.data()["event_types"], json!([]));
    let id = created.data()["id"].as_str().expect("id").to_string();

    let path = format!("{WEBHOOKS}/{id}");
    let changed = app
        .put(
            &path,
            &team.key,
            json!({ "event_types": ["hiring.created"] }),
        )
        .await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    assert_eq!(changed.data()["event_types"], json!(["hiring.created"]));
    let emptied = app
        .put(&path, &team.key, json!({ "event_types": [] }))
        .await;
    assert_eq!(emptied.status, 200, "{:?}", emptied.body);
    assert_eq!(emptied.data()["event_types"], json!([]));
}

async fn endpoint_urls_must_be_public_http_urls_of_at_most_500_characters(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let base = "https://hooks.example.com/";
    let longest = format!("{base}{}", "a".repeat(500 - base.len()));
    for url in [
        json!("ftp://hooks.example.com/in"),
        json!("hooks.example.com/in"),
        json!(format!("{longest}a")),
        json!(42),
        json!(null),
        json!("http://127.0.0.1:8080/hook"),
        json!("http://localhost/hook"),
        json!("http://10.0.0.7/hook"),
        json!("http://169.254.169.254/latest/meta-data"),
        json!("http://[::1]/hook"),
    ] {
        let refused = app
            .post(
                WEBHOOKS,
                &team.key,
                json!({ "endpoint_url": url, "event_types": ["funding.created"] }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(
            refused.error().contains("endpoint_url")
                || refused.error() == "Webhook URL must be a public address",
            "{url}: {}",
            refused.error()
        );
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
    let private = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "http://10.0.0.7/hook", "event_types": ["funding.created"] }),
        )
        .await;
    assert_eq!(private.error(), "Webhook URL must be a public address");

    let created = create_webhook(&app, &team, &longest).await;
    assert_eq!(created.data()["endpoint_url"], longest);
}

async fn an_endpoint_url_is_returned_exactly_as_sent_without_surrounding_spaces(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = create_webhook(&app, &team, " HTTPS://Hooks.Example.com ").await;
    assert_eq!(created.data()["endpoint_url"], "HTTPS://Hooks.Example.com");
    let id = id_of(&created);
    assert_eq!(
        fetch(&app, &team, &id).await["endpoint_url"],
        "HTTPS://Hooks.Example.com"
    );
    assert_eq!(
        list(&app, &team).await[0]["endpoint_url"],
        "HTTPS://Hooks.Example.com"
    );

    let updated = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "endpointUrl": "https://b\u{fc}cher.example:443" }),
        )
        .await;
    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(
        updated.data()["endpoint_url"],
        "https://b\u{fc}cher.example:443"
    );
    assert_eq!(
        fetch(&app, &team, &id).await["endpoint_url"],
        "https://b\u{fc}cher.example:443"
    );
}

async fn private_endpoint_urls_are_accepted_when_the_operator_allows_them(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let team = app.create_team().await;

    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost/hook",
        "http://10.0.0.7/hook",
    ] {
        let created = create_webhook(&app, &team, url).await;
        assert!(created.data()["secret"].is_string(), "{url}");
    }
    assert_eq!(list(&app, &team).await.len(), 3);
}

async fn filters_keep_recognised_keys_and_ignore_the_rest(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({
                "endpoint_url": "https://hooks.example.com/filtered",
                "event_types": ["funding.created"],
                "filters": { "countries": "US,GB", "funding": "seed,series a", "round": "seed", "colour": 7 }
            }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let expected = json!({ "countries": "US,GB", "funding": "seed,series a" });
    assert_eq!(created.data()["filters"], expected);
    let id = id_of(&created);
    assert_eq!(fetch(&app, &team, &id).await["filters"], expected);

    let no_filters = create_webhook(&app, &team, "https://hooks.example.com/plain").await;
    assert_eq!(no_filters.data()["filters"], json!({}));

    let replaced = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "filters": { "teamSize": "11-50" } }),
        )
        .await;
    assert_eq!(replaced.status, 200, "{:?}", replaced.body);
    assert_eq!(replaced.data()["filters"], json!({ "teamSize": "11-50" }));
}

async fn a_filter_value_must_be_a_string(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for filters in [
        json!({ "countries": ["US"] }),
        json!({ "search": 3 }),
        json!("US"),
    ] {
        let refused = app
            .post(
                WEBHOOKS,
                &team.key,
                json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": ["funding.created"], "filters": filters }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(refused.error().contains("filters"), "{}", refused.error());
    }
}

// ---------------------------------------------------------------------------------------------
// GET /webhooks
// ---------------------------------------------------------------------------------------------

async fn listing_webhooks_shows_active_ones_newest_first_with_offset_pagination(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let mut ids = Vec::new();
    for i in 0..3 {
        let url = format!("https://hooks.example.com/{i}");
        ids.push(id_of(&create_webhook(&app, &team, &url).await));
    }
    let deleted = app.delete(&webhook_path(&ids[1]), &team.key).await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);

    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.status, 200);
    assert_eq!(
        listed.body["meta"],
        json!({ "endpoint": "webhooks.list", "creditsUsed": 0 })
    );
    let listed_ids: Vec<&str> = listed
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed_ids, [ids[2].as_str(), ids[0].as_str()]);
    assert_eq!(
        listed.body["pagination"],
        json!({ "limit": 100, "offset": 0, "count": 2 })
    );

    let second = app
        .get(&format!("{WEBHOOKS}?limit=1&offset=1"), &team.key)
        .await;
    assert_eq!(second.status, 200, "{:?}", second.body);
    assert_eq!(second.data()[0]["id"], ids[0].as_str());
    assert_eq!(
        second.body["pagination"],
        json!({ "limit": 1, "offset": 1, "count": 1 })
    );
}

async fn listing_refuses_unknown_or_out_of_range_parameters(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for query in ["limit=0", "limit=101", "offset=-1", "limit=ten", "page=2"] {
        let refused = app.get(&format!("{WEBHOOKS}?{query}"), &team.key).await;
        assert_error(&refused, 400, "bad_request");
    }
}

async fn the_openapi_document_describes_every_webhook_route(backend: Backend) {
    let app = TestApp::start(backend).await;

    let document: Value = app
        .client
        .get(format!("{}/api/v2/openapi.json", app.base))
        .send()
        .await
        .expect("document")
        .json()
        .await
        .expect("JSON");

    let paths = &document["paths"];
    for (path, methods) in [
        ("/api/v2/webhooks", &["get", "post"][..]),
        ("/api/v2/webhooks/{id}", &["get", "put", "delete"]),
        ("/api/v2/webhooks/{id}/test", &["post"]),
        ("/api/v2/webhooks/{id}/deliveries", &["get"]),
        ("/api/v2/webhooks/{id}/deliveries/{deliveryId}", &["get"]),
        (
            "/api/v2/webhooks/{id}/deliveries/{deliveryId}/retry",
            &["post"],
        ),
        ("/api/v2/webhooks/{id}/deliveries/retry-failed", &["post"]),
    ] {
        for method in methods {
            assert!(
                paths[path][method].is_object(),
                "{method} {path} is described"
            );
        }
    }
}
