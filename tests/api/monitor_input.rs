//! How the values of a monitor body are read back: the name and the webhook URL as sent, the
//! one message for every refused `signal_types`, and free text that a database cannot store.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    every_refused_signal_types_value_names_the_four_allowed_values,
    a_monitor_name_is_kept_as_sent_and_a_blank_one_is_refused,
    a_monitor_name_with_control_characters_is_refused,
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
