//! How the values of a monitor body are read back: the name and the webhook URL as sent, the
//! one message for every refused `signal_types`, and free text that a database cannot store.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(every_refused_signal_types_value_names_the_four_allowed_values,);

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
