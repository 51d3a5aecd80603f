//! Creating, reading, updating and deleting standalone webhooks, and the active-webhook limit.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::Barrier;
use tokio::task::JoinSet;

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    creating_a_webhook_returns_201_with_the_webhook_its_secret_and_zero_stats,
    the_secret_is_shown_once_and_reads_show_only_its_preview,
    a_webhook_body_may_use_camel_case_names,
    event_types_and_endpoint_url_are_required,
    an_unknown_event_type_is_refused_with_the_supported_list,
    investor_created_is_not_a_supported_event_type,
    an_empty_or_malformed_event_types_list_is_refused,
    endpoint_urls_must_be_public_http_urls_of_at_most_500_characters,
    private_endpoint_urls_are_accepted_when_the_operator_allows_them,
    filters_keep_recognised_keys_and_ignore_the_rest,
    a_filter_value_must_be_a_string,
    listing_webhooks_shows_active_ones_newest_first_with_offset_pagination,
    listing_refuses_unknown_or_out_of_range_parameters,
    updating_a_webhook_changes_only_the_fields_sent,
    rotating_the_secret_returns_a_new_secret_once,
    an_update_with_one_invalid_value_changes_nothing,
    deleting_a_webhook_hides_it_and_put_active_true_brings_it_back,
    put_active_false_is_the_same_soft_deleted_state,
    deleting_a_deleted_webhook_is_not_found,
    the_11th_active_webhook_is_refused_and_monitor_webhooks_count,
    a_deleted_webhook_frees_its_place_and_re_enabling_beyond_the_limit_is_refused,
    fifteen_concurrent_creations_give_exactly_10_active_webhooks,
);

/// Path of the webhook collection.
pub const WEBHOOKS: &str = "/api/v2/webhooks";
const LIMIT: usize = 10;

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

async fn list(app: &TestApp, team: &Team) -> Vec<Value> {
    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    listed.data().as_array().expect("data is an array").clone()
}

async fn fetch(app: &TestApp, team: &Team, id: &str) -> Value {
    let fetched = app.get(&webhook_path(id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    fetched.data().clone()
}

fn preview_of(secret: &str) -> String {
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

async fn an_empty_or_malformed_event_types_list_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for event_types in [
        json!([]),
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
            refused.error().contains("endpoint_url"),
            "{url}: {}",
            refused.error()
        );
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");

    let created = create_webhook(&app, &team, &longest).await;
    assert_eq!(created.data()["endpoint_url"], longest);
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

// ---------------------------------------------------------------------------------------------
// PUT /webhooks/{id}
// ---------------------------------------------------------------------------------------------

async fn updating_a_webhook_changes_only_the_fields_sent(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let member = app
        .admin(
            reqwest::Method::POST,
            &format!("/teams/{}/members", team.id),
            Some(json!({ "email": "member@example.com" })),
        )
        .await;
    assert_eq!(member.status, 201, "{:?}", member.body);
    let member_key = member.data()["api_key"].as_str().unwrap();
    let member_id = member.data()["user_id"].as_str().unwrap();
    let created = create_webhook(&app, &team, "https://hooks.example.com/before").await;
    let id = id_of(&created);

    let updated = app
        .put(
            &webhook_path(&id),
            member_key,
            json!({ "endpoint_url": "https://hooks.example.com/after" }),
        )
        .await;

    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(
        updated.body["meta"],
        json!({ "endpoint": "webhooks.update", "creditsUsed": 0 })
    );
    let webhook = updated.data();
    assert_eq!(webhook["endpoint_url"], "https://hooks.example.com/after");
    assert_eq!(webhook["event_types"], created.data()["event_types"]);
    assert_eq!(webhook["filters"], created.data()["filters"]);
    assert_eq!(webhook["created_at"], created.data()["created_at"]);
    assert_eq!(webhook["last_modified_by"], member_id);
    assert_eq!(webhook["last_modified_via"], "api");
    assert_eq!(
        fetch(&app, &team, &id).await["endpoint_url"],
        "https://hooks.example.com/after"
    );
}

async fn rotating_the_secret_returns_a_new_secret_once(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_webhook(&app, &team, "https://hooks.example.com/rotate").await;
    let old_secret = created.data()["secret"].as_str().unwrap().to_string();
    let id = id_of(&created);

    let rotated = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "rotate_secret": true }),
        )
        .await;

    assert_eq!(rotated.status, 200, "{:?}", rotated.body);
    let new_secret = rotated.data()["secret"]
        .as_str()
        .expect("new secret")
        .to_string();
    assert!(new_secret.starts_with("whsec_"));
    assert_ne!(new_secret, old_secret);
    assert!(rotated.data().get("secret_preview").is_none());
    let fetched = fetch(&app, &team, &id).await;
    assert!(fetched.get("secret").is_none());
    assert_eq!(fetched["secret_preview"], preview_of(&new_secret));

    let not_rotated = app
        .put(
            &webhook_path(&id),
            &team.key,
            json!({ "rotate_secret": false }),
        )
        .await;
    assert!(not_rotated.data().get("secret").is_none());
    assert_eq!(
        not_rotated.data()["secret_preview"],
        preview_of(&new_secret)
    );
}

async fn an_update_with_one_invalid_value_changes_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_webhook(&app, &team, "https://hooks.example.com/keep").await;
    let id = id_of(&created);

    for body in [
        json!({ "endpoint_url": "https://hooks.example.com/new", "event_types": ["nope"] }),
        json!({ "event_types": ["funding.created"], "endpoint_url": "http://127.0.0.1/x" }),
        json!({ "filters": { "countries": "DE" }, "active": "yes" }),
        json!({ "rotate_secret": "true" }),
    ] {
        let refused = app.put(&webhook_path(&id), &team.key, body.clone()).await;
        assert_error(&refused, 400, "bad_request");
    }

    let fetched = fetch(&app, &team, &id).await;
    assert_eq!(fetched["endpoint_url"], "https://hooks.example.com/keep");
    assert_eq!(fetched["event_types"], created.data()["event_types"]);
    assert_eq!(fetched["filters"], json!({}));
    assert_eq!(fetched["updated_at"], created.data()["updated_at"]);
}

// ---------------------------------------------------------------------------------------------
// DELETE /webhooks/{id} and re-enabling
// ---------------------------------------------------------------------------------------------

async fn deleting_a_webhook_hides_it_and_put_active_true_brings_it_back(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/gone").await);

    let deleted = app.delete(&webhook_path(&id), &team.key).await;

    assert_eq!(deleted.status, 200, "{:?}", deleted.body);
    assert_eq!(
        deleted.body,
        json!({
            "success": true,
            "data": { "success": true, "id": id, "active": false },
            "meta": { "endpoint": "webhooks.delete", "creditsUsed": 0 }
        })
    );
    assert_error(
        &app.get(&webhook_path(&id), &team.key).await,
        404,
        "not_found",
    );
    assert!(list(&app, &team).await.is_empty());

    let revived = app
        .put(&webhook_path(&id), &team.key, json!({ "active": true }))
        .await;
    assert_eq!(revived.status, 200, "{:?}", revived.body);
    assert_eq!(revived.data()["active"], true);
    assert_eq!(revived.data()["id"], id.as_str());
    assert_eq!(
        fetch(&app, &team, &id).await["endpoint_url"],
        "https://hooks.example.com/gone"
    );
    assert_eq!(list(&app, &team).await.len(), 1);
}

async fn put_active_false_is_the_same_soft_deleted_state(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/pause").await);

    let paused = app
        .put(&webhook_path(&id), &team.key, json!({ "active": false }))
        .await;

    assert_eq!(paused.status, 200, "{:?}", paused.body);
    assert_eq!(paused.data()["active"], false);
    assert_error(
        &app.get(&webhook_path(&id), &team.key).await,
        404,
        "not_found",
    );
    assert!(list(&app, &team).await.is_empty());
    assert_error(
        &app.delete(&webhook_path(&id), &team.key).await,
        404,
        "not_found",
    );
}

async fn deleting_a_deleted_webhook_is_not_found(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/twice").await);

    assert_eq!(app.delete(&webhook_path(&id), &team.key).await.status, 200);
    assert_error(
        &app.delete(&webhook_path(&id), &team.key).await,
        404,
        "not_found",
    );
}

// ---------------------------------------------------------------------------------------------
// The limit of 10 active webhooks
// ---------------------------------------------------------------------------------------------

async fn the_11th_active_webhook_is_refused_and_monitor_webhooks_count(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hooked", "signal_types": ["hiring"], "webhook_url": "https://hooks.example.com/monitor" }),
        )
        .await;
    assert_eq!(monitor.status, 201, "{:?}", monitor.body);
    for i in 1..LIMIT {
        create_webhook(&app, &team, &format!("https://hooks.example.com/{i}")).await;
    }

    let refused = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/11", "event_types": ["funding.created"] }),
        )
        .await;

    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("10"), "{}", refused.error());
    assert_eq!(list(&app, &team).await.len(), LIMIT);
}

async fn a_deleted_webhook_frees_its_place_and_re_enabling_beyond_the_limit_is_refused(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let mut ids = Vec::new();
    for i in 0..LIMIT {
        let url = format!("https://hooks.example.com/{i}");
        ids.push(id_of(&create_webhook(&app, &team, &url).await));
    }
    assert_eq!(
        app.delete(&webhook_path(&ids[0]), &team.key).await.status,
        200
    );
    create_webhook(&app, &team, "https://hooks.example.com/replacement").await;

    let refused = app
        .put(&webhook_path(&ids[0]), &team.key, json!({ "active": true }))
        .await;

    assert_error(&refused, 400, "bad_request");
    assert_error(
        &app.get(&webhook_path(&ids[0]), &team.key).await,
        404,
        "not_found",
    );
    assert_eq!(list(&app, &team).await.len(), LIMIT);
}

async fn fifteen_concurrent_creations_give_exactly_10_active_webhooks(backend: Backend) {
    let app = Arc::new(TestApp::start(backend).await);
    let team = app.create_team().await;
    let barrier = Arc::new(Barrier::new(15));
    let mut requests = JoinSet::new();
    for i in 0..15 {
        let (app, barrier, key) = (Arc::clone(&app), Arc::clone(&barrier), team.key.clone());
        requests.spawn(async move {
            let body = json!({
                "endpoint_url": format!("https://hooks.example.com/race/{i}"),
                "event_types": ["funding.created"]
            });
            barrier.wait().await;
            let response = app.post(WEBHOOKS, &key, body).await;
            assert!(
                response.status == 201 || response.status == 400,
                "{} {:?}",
                response.status,
                response.body
            );
            response.status
        });
    }

    let statuses = requests.join_all().await;

    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), LIMIT);
    assert_eq!(list(&app, &team).await.len(), LIMIT);
}
