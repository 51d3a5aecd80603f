//! How the values of a monitor body are read back: the name and the webhook URL as sent, the
//! one message for every refused `signal_types`, and free text that a database cannot store.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    every_refused_signal_types_value_names_the_four_allowed_values,
    a_monitor_name_is_kept_as_sent_and_a_blank_one_is_refused,
    a_monitor_name_with_control_characters_is_refused,
    a_webhook_url_is_returned_exactly_as_sent_without_surrounding_spaces,
    the_same_webhook_url_written_another_way_keeps_the_subscription,
);

const MONITORS: &str = "/api/v2/monitors";

const SIGNAL_TYPES_MESSAGE: &str = "signal_types must be a non-empty array of the four allowed \
                                    values: funding_round, acquisition, job_change, hiring";

fn monitor_path(id: &str) -> String {
    format!("{MONITORS}/{id}")
}

fn assert_bad_request(response: &TestResponse, what: &str) {
    assert_eq!(response.status, 400, "{what}: {:?}", response.body);
    assert_eq!(response.body["success"], false, "{what}");
    assert_eq!(response.body["code"], "bad_request", "{what}");
}

/// Creates a monitor from `body`, asserting a 201, and returns its `data`.
async fn create(app: &TestApp, team: &Team, body: Value) -> Value {
    let created = app.post(MONITORS, &team.key, body).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    created.data().clone()
}

async fn fetch(app: &TestApp, team: &Team, id: &str) -> Value {
    let fetched = app.get(&monitor_path(id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    fetched.data().clone()
}

async fn names(app: &TestApp, team: &Team) -> Vec<Value> {
    let listed = app.get(MONITORS, &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    let monitors = listed.data().as_array().expect("a list").clone();
    monitors.iter().map(|m| m["name"].clone()).collect()
}

async fn every_refused_signal_types_value_names_the_four_allowed_values(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let existing = app.create_monitor(&team, "Existing").await;

    for signal_types in [
        json!(["funding_round", "ipo"]),
        json!([]),
        json!("hiring"),
        json!([42]),
        json!(null),
        json!({ "hiring": true }),
    ] {
        let created = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": "x", "signal_types": signal_types }),
            )
            .await;
        assert_bad_request(&created, &format!("create with {signal_types}"));
        assert_eq!(created.error(), SIGNAL_TYPES_MESSAGE, "{signal_types}");

        let updated = app
            .put(
                &monitor_path(&existing),
                &team.key,
                json!({ "signalTypes": signal_types }),
            )
            .await;
        assert_bad_request(&updated, &format!("update with {signal_types}"));
        assert_eq!(updated.error(), SIGNAL_TYPES_MESSAGE, "{signal_types}");
    }
    assert_eq!(names(&app, &team).await, [json!("Existing")]);
}

async fn a_monitor_name_is_kept_as_sent_and_a_blank_one_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let created = create(
        &app,
        &team,
        json!({ "name": "  Padded name ", "signal_types": ["hiring"] }),
    )
    .await;
    assert_eq!(created["name"], "  Padded name ");
    let id = created["id"].as_str().expect("id").to_string();
    assert_eq!(fetch(&app, &team, &id).await["name"], "  Padded name ");

    let renamed = app
        .put(&monitor_path(&id), &team.key, json!({ "name": " Renamed" }))
        .await;
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    assert_eq!(renamed.data()["name"], " Renamed");
    assert_eq!(names(&app, &team).await, [json!(" Renamed")]);

    // The limit counts the name as sent; a name that is only spaces is still refused.
    let padded_255 = format!(" {} ", "a".repeat(253));
    create(
        &app,
        &team,
        json!({ "name": padded_255, "signal_types": ["hiring"] }),
    )
    .await;
    for name in [" ".repeat(3), format!(" {} ", "a".repeat(254))] {
        let refused = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": name, "signal_types": ["hiring"] }),
            )
            .await;
        assert_bad_request(&refused, &format!("{name:?}"));
        let blanked = app
            .put(&monitor_path(&id), &team.key, json!({ "name": name }))
            .await;
        assert_bad_request(&blanked, &format!("rename to {name:?}"));
    }
    assert_eq!(fetch(&app, &team, &id).await["name"], " Renamed");
}

async fn a_monitor_name_with_control_characters_is_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = app.create_monitor(&team, "Clean").await;

    for name in [
        "nul\u{0}byte",
        "bell\u{7}",
        "two\nlines",
        "tab\tbed",
        "del\u{7f}",
    ] {
        let created = app
            .post(
                MONITORS,
                &team.key,
                json!({ "name": name, "signal_types": ["hiring"] }),
            )
            .await;
        assert_bad_request(&created, &format!("create {name:?}"));
        assert!(created.error().contains("name"), "{}", created.error());

        let renamed = app
            .put(&monitor_path(&id), &team.key, json!({ "name": name }))
            .await;
        assert_bad_request(&renamed, &format!("rename to {name:?}"));
    }
    assert_eq!(names(&app, &team).await, [json!("Clean")]);
}

async fn a_webhook_url_is_returned_exactly_as_sent_without_surrounding_spaces(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for (sent, shown) in [
        ("https://example.com", "https://example.com"),
        (
            "HTTPS://Hooks.Example.COM/Path",
            "HTTPS://Hooks.Example.COM/Path",
        ),
        (
            "https://b\u{fc}cher.example/in",
            "https://b\u{fc}cher.example/in",
        ),
        ("https://example.com:443/x", "https://example.com:443/x"),
        (
            "  https://example.com/padded  ",
            "https://example.com/padded",
        ),
    ] {
        let created = create(
            &app,
            &team,
            json!({ "name": sent, "signal_types": ["hiring"], "webhook_url": sent }),
        )
        .await;
        assert_eq!(created["webhook"]["endpoint_url"], shown, "{sent:?}");
        let id = created["id"].as_str().expect("id");
        assert_eq!(
            fetch(&app, &team, id).await["webhook"]["endpoint_url"],
            shown
        );
        let webhook_id = created["webhook"]["id"].as_str().expect("webhook id");
        let webhook = app
            .get(&format!("/api/v2/webhooks/{webhook_id}"), &team.key)
            .await;
        assert_eq!(webhook.status, 200, "{:?}", webhook.body);
        assert_eq!(webhook.data()["endpoint_url"], shown, "{sent:?}");

        // Giving an e-mail-only monitor a webhook echoes the URL the same way.
        let plain = app.create_monitor(&team, "Plain").await;
        let attached = app
            .put(
                &monitor_path(&plain),
                &team.key,
                json!({ "webhook_url": sent }),
            )
            .await;
        assert_eq!(attached.status, 200, "{:?}", attached.body);
        assert_eq!(attached.data()["webhook"]["endpoint_url"], shown);
        for id in [id, plain.as_str()] {
            assert_eq!(app.delete(&monitor_path(id), &team.key).await.status, 200);
        }
    }
}

async fn the_same_webhook_url_written_another_way_keeps_the_subscription(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let created = create(
        &app,
        &team,
        json!({
            "name": "Kept",
            "signal_types": ["hiring"],
            "webhook_url": "https://Hooks.Example.com"
        }),
    )
    .await;
    let id = created["id"].as_str().expect("id");
    let webhook_id = created["webhook"]["id"].clone();

    for same in [
        "https://hooks.example.com/",
        " HTTPS://HOOKS.EXAMPLE.COM:443 ",
        "https://Hooks.Example.com",
    ] {
        let updated = app
            .put(&monitor_path(id), &team.key, json!({ "webhook_url": same }))
            .await;
        assert_eq!(updated.status, 200, "{same:?}: {:?}", updated.body);
        assert_eq!(
            updated.data()["webhook"],
            json!({ "id": webhook_id, "endpoint_url": same.trim() }),
            "{same:?}: the subscription and its secret stay, the URL reads as sent"
        );
        assert_eq!(
            fetch(&app, &team, id).await["webhook"],
            json!({ "id": webhook_id, "endpoint_url": same.trim() })
        );
    }

    let moved = app
        .put(
            &monitor_path(id),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/other" }),
        )
        .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    assert_ne!(moved.data()["webhook"]["id"], webhook_id);
    assert!(moved.data()["webhook"]["secret"].is_string());
}
