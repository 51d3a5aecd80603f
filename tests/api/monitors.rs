//! Creating, reading, updating and deleting monitors, and the team limits that apply to them.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::Barrier;
use tokio::task::JoinSet;

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    creating_a_monitor_returns_201_with_the_monitor_and_its_meta,
    a_new_webhook_secret_is_shown_once_and_never_again,
    a_created_monitor_has_exactly_the_documented_fields,
    a_monitor_body_may_use_camel_case_names,
    a_null_or_empty_webhook_url_creates_an_email_only_monitor,
    creating_a_monitor_without_a_name_or_signal_types_is_refused,
    an_unknown_signal_type_is_refused_with_the_list_of_allowed_values,
    an_empty_or_malformed_signal_types_list_is_refused,
    a_monitor_name_must_have_1_to_255_characters,
    an_unknown_body_field_is_refused_by_name,
    a_webhook_url_must_be_http_or_https_and_at_most_500_characters,
    a_webhook_url_pointing_at_a_private_address_is_refused,
    private_webhook_urls_are_accepted_when_the_operator_allows_them,
    listing_monitors_shows_every_monitor_newest_first_without_secrets,
    listing_monitors_refuses_query_parameters,
    getting_a_monitor_returns_it_with_its_stats,
    getting_an_unknown_or_malformed_monitor_id_is_not_found,
    stats_count_the_targets_and_those_resolved_to_a_company,
    updating_a_monitor_changes_only_the_fields_sent,
    updating_signal_types_replaces_the_whole_list,
    a_monitor_can_be_paused_and_resumed,
    updating_with_the_same_webhook_url_keeps_the_webhook_and_its_secret_hidden,
    updating_with_a_different_webhook_url_replaces_the_webhook_and_shows_the_new_secret_once,
    a_null_or_empty_webhook_url_detaches_the_webhook,
    a_rejected_webhook_url_leaves_the_current_webhook_in_place,
    an_update_with_one_invalid_value_changes_nothing,
    updating_an_unknown_monitor_is_not_found,
    deleting_a_monitor_returns_its_id_and_then_it_is_gone,
    deleting_a_monitor_deletes_its_targets,
    the_21st_monitor_is_refused,
    paused_monitors_count_toward_the_monitor_limit,
    thirty_concurrent_creations_give_exactly_20_monitors,
    an_11th_monitor_with_a_webhook_is_refused_but_one_without_is_fine,
    pausing_a_webhook_monitor_frees_its_webhook_place_until_it_resumes,
    deleting_a_webhook_monitor_frees_its_webhook_place,
    fifteen_concurrent_webhook_monitors_give_exactly_10,
);

const MONITORS: &str = "/api/v2/monitors";

fn monitor_path(id: &str) -> String {
    format!("{MONITORS}/{id}")
}

fn id_of(response: &TestResponse) -> String {
    response.data()["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no monitor id in {:?}", response.body))
        .to_string()
}

/// Asserts a Monitoring API error: the status, `success: false`, the code and a message.
fn assert_error(response: &TestResponse, status: u16, code: &str) {
    assert_eq!(response.status, status, "{:?}", response.body);
    assert_eq!(response.body["success"], false, "{:?}", response.body);
    assert_eq!(response.body["code"], code, "{:?}", response.body);
    assert!(!response.error().is_empty(), "{:?}", response.body);
}

/// Creates a monitor from `body`, asserting a 201.
async fn create(app: &TestApp, team: &Team, body: Value) -> TestResponse {
    let response = app.post(MONITORS, &team.key, body).await;
    assert_eq!(
        response.status, 201,
        "monitor creation: {:?}",
        response.body
    );
    response
}

/// Creates a monitor with a webhook at `url` and returns the response.
async fn create_with_webhook(app: &TestApp, team: &Team, name: &str, url: &str) -> TestResponse {
    create(
        app,
        team,
        json!({ "name": name, "signal_types": ["funding_round"], "webhook_url": url }),
    )
    .await
}

async fn list(app: &TestApp, team: &Team) -> Vec<Value> {
    let listed = app.get(MONITORS, &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    listed.data().as_array().expect("data is an array").clone()
}

async fn fetch(app: &TestApp, team: &Team, id: &str) -> Value {
    let fetched = app.get(&monitor_path(id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    fetched.data().clone()
}

// ---------------------------------------------------------------------------------------------
// POST /monitors
// ---------------------------------------------------------------------------------------------

async fn creating_a_monitor_returns_201_with_the_monitor_and_its_meta(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Competitors", "signal_types": ["funding_round", "hiring", "hiring"] }),
        )
        .await;

    assert_eq!(created.status, 201);
    assert_eq!(created.body["success"], true);
    assert_eq!(
        created.body["meta"],
        json!({ "endpoint": "monitors.create", "creditsUsed": 0 })
    );
    let monitor = created.data();
    assert_eq!(monitor["name"], "Competitors");
    assert_eq!(monitor["signal_types"], json!(["funding_round", "hiring"]));
    assert_eq!(monitor["active"], true);
    assert_eq!(monitor["webhook"], json!(null));
    assert_eq!(
        monitor["stats"],
        json!({ "targets": 0, "resolved_targets": 0, "signals_30d": 0, "last_delivery_at": null })
    );
}

async fn a_new_webhook_secret_is_shown_once_and_never_again(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hooked", "signalTypes": ["acquisition"], "webhookUrl": "https://example.com/hook" }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let webhook = &created.data()["webhook"];
    assert!(webhook["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(webhook["endpoint_url"], "https://example.com/hook");

    let id = created.data()["id"].as_str().unwrap();
    let fetched = app.get(&format!("/api/v2/monitors/{id}"), &team.key).await;
    assert_eq!(fetched.data()["webhook"]["id"], webhook["id"]);
    assert!(fetched.data()["webhook"].get("secret").is_none());
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert!(listed.data()[0]["webhook"].get("secret").is_none());
}

async fn a_created_monitor_has_exactly_the_documented_fields(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = create(
        &app,
        &team,
        json!({
            "name": "Fields",
            "signal_types": ["job_change"],
            "webhook_url": "https://hooks.example.com/in"
        }),
    )
    .await;

    let monitor = created.data().as_object().expect("data is an object");
    let mut keys: Vec<&str> = monitor.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "active",
            "created_at",
            "id",
            "name",
            "signal_types",
            "stats",
            "updated_at",
            "webhook"
        ]
    );
    let id = monitor["id"].as_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "id {id} is a UUID");
    for stamp in ["created_at", "updated_at"] {
        let text = monitor[stamp].as_str().unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with('Z'),
            "{stamp} {text} is an RFC 3339 UTC timestamp"
        );
    }
    let webhook = monitor["webhook"].as_object().expect("webhook object");
    let mut webhook_keys: Vec<&str> = webhook.keys().map(String::as_str).collect();
    webhook_keys.sort_unstable();
    assert_eq!(webhook_keys, ["endpoint_url", "id", "secret"]);
    assert!(uuid::Uuid::parse_str(webhook["id"].as_str().unwrap()).is_ok());
}

async fn a_monitor_body_may_use_camel_case_names(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = create(
        &app,
        &team,
        json!({
            "name": "Camel",
            "signalTypes": ["hiring", "job_change", "hiring"],
            "webhookUrl": "https://hooks.example.com/camel"
        }),
    )
    .await;

    assert_eq!(
        created.data()["signal_types"],
        json!(["hiring", "job_change"])
    );
    assert_eq!(
        created.data()["webhook"]["endpoint_url"],
        "https://hooks.example.com/camel"
    );
    let id = id_of(&created);
    let updated = app
        .put(
            &monitor_path(&id),
            &team.key,
            json!({ "signalTypes": ["acquisition"], "webhookUrl": null }),
        )
        .await;
    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(updated.data()["signal_types"], json!(["acquisition"]));
    assert_eq!(updated.data()["webhook"], json!(null));
}

async fn a_null_or_empty_webhook_url_creates_an_email_only_monitor(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for webhook_url in [json!(null), json!("")] {
        let created = create(
            &app,
            &team,
            json!({ "name": "Mail only", "signal_types": ["hiring"], "webhook_url": webhook_url }),
        )
        .await;
        assert_eq!(created.data()["webhook"], json!(null), "{webhook_url}");
        let fetched = fetch(&app, &team, &id_of(&created)).await;
        assert_eq!(fetched["webhook"], json!(null), "{webhook_url}");
    }
}

async fn creating_a_monitor_without_a_name_or_signal_types_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let no_name = app
        .post(MONITORS, &team.key, json!({ "signal_types": ["hiring"] }))
        .await;
    assert_error(&no_name, 400, "bad_request");
    assert!(no_name.error().contains("name"), "{}", no_name.error());

    let no_types = app.post(MONITORS, &team.key, json!({ "name": "x" })).await;
    assert_error(&no_types, 400, "bad_request");
    assert!(
        no_types.error().contains("signal_types"),
        "{}",
        no_types.error()
    );

    let empty = app.post(MONITORS, &team.key, json!({})).await;
    assert_error(&empty, 400, "bad_request");

    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn an_unknown_signal_type_is_refused_with_the_list_of_allowed_values(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({ "name": "x", "signal_types": ["funding_round", "ipo"] }),
        )
        .await;

    assert_error(&refused, 400, "bad_request");
    let message = refused.error();
    assert!(
        message.contains("signal_types must be a non-empty array"),
        "{message}"
    );
    for allowed in ["funding_round", "acquisition", "job_change", "hiring"] {
        assert!(message.contains(allowed), "{message} names {allowed}");
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn an_empty_or_malformed_signal_types_list_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for signal_types in [
        json!([]),
        json!("hiring"),
        json!([42]),
        json!(null),
        json!(["Hiring"]),
    ] {
        let refused = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": "x", "signal_types": signal_types }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(
            refused.error().contains("signal_types"),
            "{signal_types}: {}",
            refused.error()
        );
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn a_monitor_name_must_have_1_to_255_characters(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for name in [json!(""), json!("   "), json!("a".repeat(256)), json!(42)] {
        let refused = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": name, "signal_types": ["hiring"] }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(refused.error().contains("name"), "{}", refused.error());
    }

    // Characters, not bytes: 255 two-byte characters are a valid name.
    for name in ["a".repeat(255), "é".repeat(255), "x".to_string()] {
        let created = create(
            &app,
            &team,
            json!({ "name": name, "signal_types": ["hiring"] }),
        )
        .await;
        assert_eq!(created.data()["name"], name);
        assert_eq!(fetch(&app, &team, &id_of(&created)).await["name"], name);
    }
}

async fn an_unknown_body_field_is_refused_by_name(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({ "name": "x", "signal_types": ["hiring"], "colour": "red" }),
        )
        .await;

    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("colour"), "{}", refused.error());
    assert!(list(&app, &team).await.is_empty(), "nothing was created");

    let id = app.create_monitor(&team, "Existing").await;
    let update = app
        .put(&monitor_path(&id), &team.key, json!({ "paused": true }))
        .await;
    assert_error(&update, 400, "bad_request");
    assert!(update.error().contains("paused"), "{}", update.error());
}

async fn a_webhook_url_must_be_http_or_https_and_at_most_500_characters(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let base = "https://hooks.example.com/";
    let longest = format!("{base}{}", "a".repeat(500 - base.len()));
    let too_long = format!("{longest}a");
    assert_eq!(longest.chars().count(), 500);

    for url in [
        json!("ftp://hooks.example.com/in"),
        json!("file:///etc/passwd"),
        json!("javascript:alert(1)"),
        json!("hooks.example.com/in"),
        json!("not a url"),
        json!(too_long),
        json!(42),
    ] {
        let refused = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": "x", "signal_types": ["hiring"], "webhook_url": url }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");

    for url in [longest.as_str(), "http://hooks.example.com/plain"] {
        let created = create_with_webhook(&app, &team, "ok", url).await;
        assert_eq!(created.data()["webhook"]["endpoint_url"], url);
    }
}

const PRIVATE_URLS: [&str; 7] = [
    "http://127.0.0.1/x",
    "http://10.0.0.1/x",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/x",
    "http://localhost/x",
    "http://localhost:8080/x",
    "http://192.168.1.20:9000/hook",
];

async fn a_webhook_url_pointing_at_a_private_address_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for url in PRIVATE_URLS {
        let refused = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": "x", "signal_types": ["hiring"], "webhook_url": url }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(
            refused.error().contains("webhook_url")
                && refused
                    .error()
                    .contains("Webhook URL must be a public address"),
            "{url}: {}",
            refused.error()
        );
    }
    assert!(list(&app, &team).await.is_empty(), "nothing was created");
}

async fn private_webhook_urls_are_accepted_when_the_operator_allows_them(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let team = app.create_team().await;

    for url in PRIVATE_URLS {
        let created = create_with_webhook(&app, &team, "local", url).await;
        assert!(
            created.data()["webhook"]["secret"]
                .as_str()
                .is_some_and(|s| s.starts_with("whsec_")),
            "{url}: {:?}",
            created.body
        );
    }
    assert_eq!(list(&app, &team).await.len(), PRIVATE_URLS.len());
}

// ---------------------------------------------------------------------------------------------
// GET /monitors, GET /monitors/{id}
// ---------------------------------------------------------------------------------------------

async fn listing_monitors_shows_every_monitor_newest_first_without_secrets(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let empty = app.get(MONITORS, &team.key).await;
    assert_eq!(empty.status, 200);
    assert_eq!(empty.data(), &json!([]));

    let first = app.create_monitor(&team, "First").await;
    let second =
        id_of(&create_with_webhook(&app, &team, "Second", "https://hooks.example.com/2").await);
    let third = app.create_monitor(&team, "Third").await;
    let paused = app
        .put(
            &monitor_path(&second),
            &team.key,
            json!({ "active": false }),
        )
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);

    let listed = app.get(MONITORS, &team.key).await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.body["success"], true);
    assert_eq!(
        listed.body["meta"],
        json!({ "endpoint": "monitors.list", "creditsUsed": 0 })
    );
    assert!(listed.body.get("pagination").is_none(), "not paginated");
    let monitors = listed.data().as_array().unwrap();
    let ids: Vec<&str> = monitors.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [third.as_str(), second.as_str(), first.as_str()]);
    assert_eq!(monitors[1]["active"], false, "paused monitors are listed");
    assert_eq!(
        monitors[1]["webhook"]["endpoint_url"],
        "https://hooks.example.com/2"
    );
    for monitor in monitors {
        if let Some(webhook) = monitor["webhook"].as_object() {
            assert!(!webhook.contains_key("secret"), "{monitor}");
        }
        assert_eq!(monitor["stats"]["targets"], 0, "{monitor}");
    }
}

async fn listing_monitors_refuses_query_parameters(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    app.create_monitor(&team, "One").await;

    let refused = app.get("/api/v2/monitors?limit=10", &team.key).await;

    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("limit"), "{}", refused.error());
}

async fn getting_a_monitor_returns_it_with_its_stats(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Watched", "https://hooks.example.com/w").await;
    let id = id_of(&created);

    let fetched = app.get(&monitor_path(&id), &team.key).await;

    assert_eq!(fetched.status, 200);
    assert_eq!(fetched.body["success"], true);
    assert_eq!(
        fetched.body["meta"],
        json!({ "endpoint": "monitors.get", "creditsUsed": 0 })
    );
    let monitor = fetched.data();
    assert_eq!(monitor["id"], id);
    assert_eq!(monitor["name"], "Watched");
    assert_eq!(monitor["signal_types"], json!(["funding_round"]));
    assert_eq!(monitor["active"], true);
    assert_eq!(
        monitor["webhook"],
        json!({ "id": created.data()["webhook"]["id"], "endpoint_url": "https://hooks.example.com/w" })
    );
    assert_eq!(
        monitor["stats"],
        json!({ "targets": 0, "resolved_targets": 0, "signals_30d": 0, "last_delivery_at": null })
    );
    assert_eq!(monitor["created_at"], created.data()["created_at"]);
}

async fn getting_an_unknown_or_malformed_monitor_id_is_not_found(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    app.create_monitor(&team, "Existing").await;

    for id in [
        uuid::Uuid::new_v4().to_string(),
        "not-a-uuid".to_string(),
        "123".to_string(),
    ] {
        let missing = app.get(&monitor_path(&id), &team.key).await;
        assert_error(&missing, 404, "not_found");
    }
}

async fn stats_count_the_targets_and_those_resolved_to_a_company(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let id = app.create_monitor(&team, "Accounts").await;

    let added = app
        .add_targets(&team, &id, json!(["acme.com", "unknown-co.io"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    let expected = json!({
        "targets": 2, "resolved_targets": 1, "signals_30d": 0, "last_delivery_at": null
    });
    assert_eq!(fetch(&app, &team, &id).await["stats"], expected);
    assert_eq!(list(&app, &team).await[0]["stats"], expected);
    let renamed = app
        .put(&monitor_path(&id), &team.key, json!({ "name": "Renamed" }))
        .await;
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    assert_eq!(renamed.data()["stats"], expected);
}

// ---------------------------------------------------------------------------------------------
// PUT /monitors/{id}
// ---------------------------------------------------------------------------------------------

async fn updating_a_monitor_changes_only_the_fields_sent(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Before", "https://hooks.example.com/a").await;
    let id = id_of(&created);

    let updated = app
        .put(&monitor_path(&id), &team.key, json!({ "name": "After" }))
        .await;

    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(updated.body["success"], true);
    assert_eq!(
        updated.body["meta"],
        json!({ "endpoint": "monitors.update", "creditsUsed": 0 })
    );
    let monitor = updated.data();
    assert_eq!(monitor["id"], id);
    assert_eq!(monitor["name"], "After");
    assert_eq!(monitor["signal_types"], json!(["funding_round"]));
    assert_eq!(monitor["active"], true);
    assert_eq!(monitor["webhook"]["id"], created.data()["webhook"]["id"]);
    assert_eq!(
        monitor["webhook"]["endpoint_url"],
        "https://hooks.example.com/a"
    );
    assert!(monitor["webhook"].get("secret").is_none());
    assert_eq!(monitor["created_at"], created.data()["created_at"]);
    assert!(monitor["stats"].is_object());

    let fetched = fetch(&app, &team, &id).await;
    assert_eq!(fetched["name"], "After");

    let unchanged = app.put(&monitor_path(&id), &team.key, json!({})).await;
    assert_eq!(unchanged.status, 200, "{:?}", unchanged.body);
    assert_eq!(unchanged.data()["name"], "After");
    assert_eq!(
        unchanged.data()["webhook"]["id"],
        created.data()["webhook"]["id"]
    );
}

async fn updating_signal_types_replaces_the_whole_list(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = id_of(
        &create(
            &app,
            &team,
            json!({ "name": "Types", "signal_types": ["funding_round", "hiring", "acquisition"] }),
        )
        .await,
    );

    let updated = app
        .put(
            &monitor_path(&id),
            &team.key,
            json!({ "signal_types": ["job_change", "job_change"] }),
        )
        .await;

    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(updated.data()["signal_types"], json!(["job_change"]));
    assert_eq!(
        fetch(&app, &team, &id).await["signal_types"],
        json!(["job_change"])
    );

    let emptied = app
        .put(&monitor_path(&id), &team.key, json!({ "signal_types": [] }))
        .await;
    assert_error(&emptied, 400, "bad_request");
    assert_eq!(
        fetch(&app, &team, &id).await["signal_types"],
        json!(["job_change"])
    );
}

async fn a_monitor_can_be_paused_and_resumed(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = app.create_monitor(&team, "Toggle").await;
    app.add_targets(&team, &id, json!(["example.org"])).await;

    let paused = app
        .put(&monitor_path(&id), &team.key, json!({ "active": false }))
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);
    assert_eq!(paused.data()["active"], false);
    let fetched = fetch(&app, &team, &id).await;
    assert_eq!(fetched["active"], false);
    assert_eq!(fetched["stats"]["targets"], 1, "targets are kept");

    let resumed = app
        .put(&monitor_path(&id), &team.key, json!({ "active": true }))
        .await;
    assert_eq!(resumed.status, 200, "{:?}", resumed.body);
    assert_eq!(resumed.data()["active"], true);
    assert_eq!(fetch(&app, &team, &id).await["active"], true);

    for active in [json!("false"), json!(0), json!(null), json!("yes")] {
        let refused = app
            .put(&monitor_path(&id), &team.key, json!({ "active": active }))
            .await;
        assert_error(&refused, 400, "bad_request");
        assert!(refused.error().contains("active"), "{}", refused.error());
    }
    assert_eq!(fetch(&app, &team, &id).await["active"], true);
}

async fn updating_with_the_same_webhook_url_keeps_the_webhook_and_its_secret_hidden(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Same", "https://hooks.example.com/same").await;
    let id = id_of(&created);

    let updated = app
        .put(
            &monitor_path(&id),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/same" }),
        )
        .await;

    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(
        updated.data()["webhook"],
        json!({
            "id": created.data()["webhook"]["id"],
            "endpoint_url": "https://hooks.example.com/same"
        })
    );
}

async fn updating_with_a_different_webhook_url_replaces_the_webhook_and_shows_the_new_secret_once(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Moving", "https://hooks.example.com/old").await;
    let id = id_of(&created);
    let old = created.data()["webhook"].clone();

    let updated = app
        .put(
            &monitor_path(&id),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/new" }),
        )
        .await;

    assert_eq!(updated.status, 200, "{:?}", updated.body);
    let new = &updated.data()["webhook"];
    assert_ne!(new["id"], old["id"], "a new subscription");
    assert_eq!(new["endpoint_url"], "https://hooks.example.com/new");
    let secret = new["secret"].as_str().expect("new secret shown");
    assert!(secret.starts_with("whsec_"));
    assert_ne!(secret, old["secret"].as_str().unwrap());

    let fetched = fetch(&app, &team, &id).await;
    assert_eq!(
        fetched["webhook"],
        json!({ "id": new["id"], "endpoint_url": "https://hooks.example.com/new" })
    );

    // A monitor without a webhook gets one, with its secret, the same way.
    let plain = app.create_monitor(&team, "Plain").await;
    let attached = app
        .put(
            &monitor_path(&plain),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/plain" }),
        )
        .await;
    assert_eq!(attached.status, 200, "{:?}", attached.body);
    assert!(
        attached.data()["webhook"]["secret"]
            .as_str()
            .is_some_and(|s| s.starts_with("whsec_"))
    );
}

async fn a_null_or_empty_webhook_url_detaches_the_webhook(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for detach in [json!(null), json!("")] {
        let id =
            id_of(&create_with_webhook(&app, &team, "Detach", "https://hooks.example.com/d").await);

        let updated = app
            .put(
                &monitor_path(&id),
                &team.key,
                json!({ "webhook_url": detach }),
            )
            .await;

        assert_eq!(updated.status, 200, "{detach}: {:?}", updated.body);
        assert_eq!(updated.data()["webhook"], json!(null), "{detach}");
        assert_eq!(updated.data()["active"], true, "{detach}");
        assert_eq!(
            fetch(&app, &team, &id).await["webhook"],
            json!(null),
            "{detach}"
        );
    }
}

async fn a_rejected_webhook_url_leaves_the_current_webhook_in_place(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Kept", "https://hooks.example.com/kept").await;
    let id = id_of(&created);
    let expected = json!({
        "id": created.data()["webhook"]["id"],
        "endpoint_url": "https://hooks.example.com/kept"
    });

    let too_long = format!("https://hooks.example.com/{}", "a".repeat(500));
    for rejected in [
        "http://127.0.0.1/x",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost/x",
        "ftp://hooks.example.com/x",
        too_long.as_str(),
    ] {
        let refused = app
            .put(
                &monitor_path(&id),
                &team.key,
                json!({ "webhook_url": rejected }),
            )
            .await;
        assert_error(&refused, 400, "bad_request");
        let fetched = fetch(&app, &team, &id).await;
        assert_eq!(fetched["webhook"], expected, "after {rejected}");
        assert_eq!(fetched["active"], true);
    }
}

async fn an_update_with_one_invalid_value_changes_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create_with_webhook(&app, &team, "Stable", "https://hooks.example.com/s").await;
    let id = id_of(&created);
    let before = fetch(&app, &team, &id).await;

    for body in [
        json!({ "name": "New", "signal_types": ["bogus"] }),
        json!({ "name": "", "active": false }),
        json!({ "active": false, "webhook_url": "http://10.0.0.1/x" }),
        json!({ "name": "New", "active": "no" }),
        json!({ "name": null }),
        json!({ "signal_types": null }),
        json!({ "signal_types": ["hiring"], "webhook_url": "https://hooks.example.com/other", "extra": 1 }),
    ] {
        let refused = app.put(&monitor_path(&id), &team.key, body.clone()).await;
        assert_error(&refused, 400, "bad_request");
        assert_eq!(fetch(&app, &team, &id).await, before, "after {body}");
    }
}

async fn updating_an_unknown_monitor_is_not_found(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for id in [uuid::Uuid::new_v4().to_string(), "nope".to_string()] {
        let missing = app
            .put(&monitor_path(&id), &team.key, json!({ "name": "x" }))
            .await;
        assert_error(&missing, 404, "not_found");
    }
    assert!(list(&app, &team).await.is_empty());
}

// ---------------------------------------------------------------------------------------------
// DELETE /monitors/{id}
// ---------------------------------------------------------------------------------------------

async fn deleting_a_monitor_returns_its_id_and_then_it_is_gone(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let kept = app.create_monitor(&team, "Kept").await;
    let id =
        id_of(&create_with_webhook(&app, &team, "Doomed", "https://hooks.example.com/x").await);
    app.add_targets(&team, &id, json!(["example.org"])).await;

    let deleted = app.delete(&monitor_path(&id), &team.key).await;

    assert_eq!(deleted.status, 200, "{:?}", deleted.body);
    assert_eq!(
        deleted.body,
        json!({
            "success": true,
            "data": { "id": id, "deleted": true },
            "meta": { "endpoint": "monitors.delete", "creditsUsed": 0 }
        })
    );
    assert_error(
        &app.get(&monitor_path(&id), &team.key).await,
        404,
        "not_found",
    );
    assert_error(
        &app.delete(&monitor_path(&id), &team.key).await,
        404,
        "not_found",
    );
    assert_error(
        &app.get(&format!("{}/targets", monitor_path(&id)), &team.key)
            .await,
        404,
        "not_found",
    );
    let remaining: Vec<Value> = list(&app, &team).await;
    assert_eq!(remaining.len(), 1);
    assert_eq!(remaining[0]["id"], kept);

    for missing in [uuid::Uuid::new_v4().to_string(), "not-a-uuid".to_string()] {
        assert_error(
            &app.delete(&monitor_path(&missing), &team.key).await,
            404,
            "not_found",
        );
    }
}

async fn deleting_a_monitor_deletes_its_targets(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let full = app.create_monitor(&team, "Full").await;
    for batch in 0..2 {
        let targets: Vec<String> = (0..500)
            .map(|i| format!("company-{batch}-{i}.com"))
            .collect();
        let added = app.add_targets(&team, &full, json!(targets)).await;
        assert_eq!(added.status, 200, "{:?}", added.body);
    }
    let other = app.create_monitor(&team, "Other").await;
    let over = app
        .add_targets(&team, &other, json!(["one-more.com"]))
        .await;
    assert_error(&over, 400, "bad_request");

    let deleted = app.delete(&monitor_path(&full), &team.key).await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);

    // The 1,000 targets no longer count toward the team's limit.
    for batch in 0..2 {
        let targets: Vec<String> = (0..500)
            .map(|i| format!("company-{batch}-{i}.com"))
            .collect();
        let added = app.add_targets(&team, &other, json!(targets)).await;
        assert_eq!(added.status, 200, "{:?}", added.body);
        assert_eq!(added.data()["added"].as_array().unwrap().len(), 500);
    }
    assert_eq!(fetch(&app, &team, &other).await["stats"]["targets"], 1000);
}

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

async fn create_monitors(app: &TestApp, team: &Team, count: usize) -> Vec<String> {
    let mut ids = Vec::with_capacity(count);
    for i in 0..count {
        ids.push(app.create_monitor(team, &format!("Monitor {i}")).await);
    }
    ids
}

async fn the_21st_monitor_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    create_monitors(&app, &team, 20).await;

    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({ "name": "One too many", "signal_types": ["hiring"] }),
        )
        .await;

    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("20"), "{}", refused.error());
    assert_eq!(list(&app, &team).await.len(), 20);

    // Another team has its own 20.
    let other = app.create_team().await;
    app.create_monitor(&other, "Elsewhere").await;
}

async fn paused_monitors_count_toward_the_monitor_limit(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let ids = create_monitors(&app, &team, 20).await;
    for id in &ids[..5] {
        let paused = app
            .put(&monitor_path(id), &team.key, json!({ "active": false }))
            .await;
        assert_eq!(paused.status, 200, "{:?}", paused.body);
    }

    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({ "name": "21st", "signal_types": ["hiring"] }),
        )
        .await;
    assert_error(&refused, 400, "bad_request");

    // Deleting one frees its place.
    let deleted = app.delete(&monitor_path(&ids[0]), &team.key).await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);
    app.create_monitor(&team, "Replacement").await;
    assert_eq!(list(&app, &team).await.len(), 20);
}

/// Sends `count` requests built by `body(i)` to `POST /monitors` all at once and returns their
/// statuses.
async fn create_concurrently(
    app: &Arc<TestApp>,
    team: &Team,
    count: usize,
    body: impl Fn(usize) -> Value,
) -> Vec<u16> {
    let barrier = Arc::new(Barrier::new(count));
    let mut requests = JoinSet::new();
    for i in 0..count {
        let app = Arc::clone(app);
        let barrier = Arc::clone(&barrier);
        let key = team.key.clone();
        let body = body(i);
        requests.spawn(async move {
            barrier.wait().await;
            let response = app.post(MONITORS, &key, body).await;
            assert!(
                response.status == 201 || response.status == 400,
                "{} {:?}",
                response.status,
                response.body
            );
            response.status
        });
    }
    requests.join_all().await
}

async fn thirty_concurrent_creations_give_exactly_20_monitors(backend: Backend) {
    let app = Arc::new(TestApp::start(backend).await);
    let team = app.create_team().await;

    let statuses = create_concurrently(
        &app,
        &team,
        30,
        |i| json!({ "name": format!("Racer {i}"), "signal_types": ["hiring"] }),
    )
    .await;

    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), 20);
    assert_eq!(statuses.iter().filter(|&&s| s == 400).count(), 10);
    assert_eq!(list(&app, &team).await.len(), 20);
}

const MAX_ACTIVE_WEBHOOKS: usize = 10;

async fn create_webhook_monitors(app: &TestApp, team: &Team, count: usize) -> Vec<String> {
    let mut ids = Vec::with_capacity(count);
    for i in 0..count {
        let url = format!("https://hooks.example.com/{i}");
        ids.push(id_of(
            &create_with_webhook(app, team, &format!("Hooked {i}"), &url).await,
        ));
    }
    ids
}

async fn an_11th_monitor_with_a_webhook_is_refused_but_one_without_is_fine(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    create_webhook_monitors(&app, &team, MAX_ACTIVE_WEBHOOKS).await;

    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({
                "name": "Eleventh",
                "signal_types": ["hiring"],
                "webhook_url": "https://hooks.example.com/11"
            }),
        )
        .await;
    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("10"), "{}", refused.error());
    assert_eq!(list(&app, &team).await.len(), MAX_ACTIVE_WEBHOOKS);

    let plain = app.create_monitor(&team, "Mail only").await;
    assert_eq!(list(&app, &team).await.len(), MAX_ACTIVE_WEBHOOKS + 1);

    // Giving the e-mail-only monitor a webhook would make 11.
    let attach = app
        .put(
            &monitor_path(&plain),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/11" }),
        )
        .await;
    assert_error(&attach, 400, "bad_request");
    assert_eq!(fetch(&app, &team, &plain).await["webhook"], json!(null));
}

async fn pausing_a_webhook_monitor_frees_its_webhook_place_until_it_resumes(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let hooked = create_webhook_monitors(&app, &team, MAX_ACTIVE_WEBHOOKS).await;
    let plain = app.create_monitor(&team, "Mail only").await;

    let paused = app
        .put(
            &monitor_path(&hooked[0]),
            &team.key,
            json!({ "active": false }),
        )
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);

    let attached = app
        .put(
            &monitor_path(&plain),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/new" }),
        )
        .await;
    assert_eq!(attached.status, 200, "{:?}", attached.body);
    assert!(attached.data()["webhook"]["id"].is_string());

    let resumed = app
        .put(
            &monitor_path(&hooked[0]),
            &team.key,
            json!({ "active": true }),
        )
        .await;
    assert_error(&resumed, 400, "bad_request");
    let still_paused = fetch(&app, &team, &hooked[0]).await;
    assert_eq!(still_paused["active"], false);
    assert!(
        still_paused["webhook"].is_object(),
        "keeps its webhook while paused"
    );

    // Resuming without the webhook fits.
    let resumed_without = app
        .put(
            &monitor_path(&hooked[0]),
            &team.key,
            json!({ "active": true, "webhook_url": null }),
        )
        .await;
    assert_eq!(resumed_without.status, 200, "{:?}", resumed_without.body);
    assert_eq!(resumed_without.data()["active"], true);
    assert_eq!(resumed_without.data()["webhook"], json!(null));
}

async fn deleting_a_webhook_monitor_frees_its_webhook_place(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let hooked = create_webhook_monitors(&app, &team, MAX_ACTIVE_WEBHOOKS).await;

    let deleted = app.delete(&monitor_path(&hooked[3]), &team.key).await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);

    create_with_webhook(&app, &team, "Replacement", "https://hooks.example.com/r").await;
    let refused = app
        .post(
            MONITORS,
            &team.key,
            json!({
                "name": "Over",
                "signal_types": ["hiring"],
                "webhook_url": "https://hooks.example.com/over"
            }),
        )
        .await;
    assert_error(&refused, 400, "bad_request");
}

async fn fifteen_concurrent_webhook_monitors_give_exactly_10(backend: Backend) {
    let app = Arc::new(TestApp::start(backend).await);
    let team = app.create_team().await;

    let statuses = create_concurrently(&app, &team, 15, |i| {
        json!({
            "name": format!("Hook racer {i}"),
            "signal_types": ["funding_round"],
            "webhook_url": format!("https://hooks.example.com/race/{i}")
        })
    })
    .await;

    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        MAX_ACTIVE_WEBHOOKS
    );
    let monitors = list(&app, &team).await;
    assert_eq!(monitors.len(), MAX_ACTIVE_WEBHOOKS);
    assert!(monitors.iter().all(|m| m["webhook"].is_object()));
}
