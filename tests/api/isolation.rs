//! Team isolation: another team's monitors and targets do not exist for a caller — every route
//! answers 404 `not_found`, exactly as for an id that was never used, and changes nothing.

use serde_json::json;

use crate::each_backend;
use crate::errors::assert_error;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    another_team_cannot_read_a_monitor_or_its_targets,
    another_team_cannot_change_delete_or_empty_a_monitor,
    another_teams_monitor_is_reported_exactly_like_a_monitor_that_never_existed,
    the_monitor_list_shows_only_the_callers_own_monitors,
    a_team_cannot_remove_another_teams_target_through_its_own_monitor,
);

/// Team A with one monitor holding one target, and an unrelated team B.
struct TwoTeams {
    app: TestApp,
    a: Team,
    b: Team,
    monitor: String,
    target: String,
}

async fn two_teams(backend: Backend) -> TwoTeams {
    let app = TestApp::start(backend).await;
    let a = app.create_team().await;
    let b = app
        .create_team_with(json!({ "name": "Other team", "owner_email": "other@example.org" }))
        .await;
    let monitor = app.create_monitor(&a, "A's competitors").await;
    let added = app.add_targets(&a, &monitor, json!(["acme.com"])).await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let target = added.data()["added"][0]["id"]
        .as_str()
        .expect("target id")
        .to_string();
    TwoTeams {
        app,
        a,
        b,
        monitor,
        target,
    }
}

impl TwoTeams {
    /// Asserts that team A's monitor still has its name and its one target.
    async fn assert_a_is_intact(&self) {
        let monitor = self
            .app
            .get(&format!("/api/v2/monitors/{}", self.monitor), &self.a.key)
            .await;
        assert_eq!(monitor.status, 200, "{:?}", monitor.body);
        assert_eq!(monitor.data()["name"], "A's competitors");
        assert_eq!(monitor.data()["active"], true);
        assert_eq!(
            monitor.data()["signal_types"],
            json!(["funding_round", "hiring"])
        );
        assert_eq!(monitor.data()["stats"]["targets"], 1);

        let targets = self
            .app
            .get(
                &format!("/api/v2/monitors/{}/targets", self.monitor),
                &self.a.key,
            )
            .await;
        assert_eq!(targets.status, 200);
        assert_eq!(targets.data().as_array().map(Vec::len), Some(1));
        assert_eq!(targets.data()[0]["id"], self.target.as_str());
        assert_eq!(targets.data()[0]["value"], "acme.com");
    }
}

fn assert_not_found(response: &TestResponse, what: &str) {
    assert_eq!(response.status, 404, "{what}: {:?}", response.body);
    assert_error(response, 404, "not_found");
}

async fn another_team_cannot_read_a_monitor_or_its_targets(backend: Backend) {
    let t = two_teams(backend).await;
    let (app, b) = (&t.app, &t.b);

    let monitor = app
        .get(&format!("/api/v2/monitors/{}", t.monitor), &b.key)
        .await;
    assert_not_found(&monitor, "GET /monitors/{id}");
    let targets = app
        .get(&format!("/api/v2/monitors/{}/targets", t.monitor), &b.key)
        .await;
    assert_not_found(&targets, "GET /monitors/{id}/targets");
    let filtered = app
        .get(
            &format!(
                "/api/v2/monitors/{}/targets?status=pending&limit=5",
                t.monitor
            ),
            &b.key,
        )
        .await;
    assert_not_found(&filtered, "GET /monitors/{id}/targets?status=pending");

    t.assert_a_is_intact().await;
}

async fn another_team_cannot_change_delete_or_empty_a_monitor(backend: Backend) {
    let t = two_teams(backend).await;
    let (app, b, id, target) = (&t.app, &t.b, &t.monitor, &t.target);

    let update = app
        .put(
            &format!("/api/v2/monitors/{id}"),
            &b.key,
            json!({ "name": "Hijacked", "signal_types": ["acquisition"], "active": false }),
        )
        .await;
    assert_not_found(&update, "PUT /monitors/{id}");
    let add = app
        .post(
            &format!("/api/v2/monitors/{id}/targets"),
            &b.key,
            json!({ "targets": ["globex.com"] }),
        )
        .await;
    assert_not_found(&add, "POST /monitors/{id}/targets");
    let remove_one = app
        .delete(&format!("/api/v2/monitors/{id}/targets/{target}"), &b.key)
        .await;
    assert_not_found(&remove_one, "DELETE /monitors/{id}/targets/{targetId}");
    let remove_bulk = app
        .post(
            &format!("/api/v2/monitors/{id}/targets/remove"),
            &b.key,
            json!({ "targets": ["acme.com"], "target_ids": [target] }),
        )
        .await;
    assert_not_found(&remove_bulk, "POST /monitors/{id}/targets/remove");
    let delete = app.delete(&format!("/api/v2/monitors/{id}"), &b.key).await;
    assert_not_found(&delete, "DELETE /monitors/{id}");

    t.assert_a_is_intact().await;
    let a_list = app.get("/api/v2/monitors", &t.a.key).await;
    assert_eq!(a_list.data().as_array().map(Vec::len), Some(1));
}

async fn another_teams_monitor_is_reported_exactly_like_a_monitor_that_never_existed(
    backend: Backend,
) {
    let t = two_teams(backend).await;
    let (app, b) = (&t.app, &t.b);
    let never = uuid::Uuid::new_v4().to_string();
    let never_target = uuid::Uuid::new_v4().to_string();

    let foreign = app
        .get(&format!("/api/v2/monitors/{}", t.monitor), &b.key)
        .await;
    let unknown = app.get(&format!("/api/v2/monitors/{never}"), &b.key).await;
    assert_eq!(foreign.body, unknown.body);

    let foreign = app
        .delete(
            &format!("/api/v2/monitors/{}/targets/{}", t.monitor, t.target),
            &b.key,
        )
        .await;
    let unknown = app
        .delete(
            &format!("/api/v2/monitors/{never}/targets/{never_target}"),
            &b.key,
        )
        .await;
    assert_eq!(foreign.body, unknown.body);
}

async fn the_monitor_list_shows_only_the_callers_own_monitors(backend: Backend) {
    let t = two_teams(backend).await;
    let (app, a, b) = (&t.app, &t.a, &t.b);
    app.create_monitor(a, "A's second").await;
    let b_monitor = app.create_monitor(b, "B's only").await;

    let b_list = app.get("/api/v2/monitors", &b.key).await;
    assert_eq!(b_list.status, 200);
    let b_ids: Vec<&str> = b_list
        .data()
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert_eq!(b_ids, [b_monitor.as_str()]);

    let a_list = app.get("/api/v2/monitors", &a.key).await;
    let mut a_names: Vec<&str> = a_list
        .data()
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    a_names.sort_unstable();
    assert_eq!(a_names, ["A's competitors", "A's second"]);
}

async fn a_team_cannot_remove_another_teams_target_through_its_own_monitor(backend: Backend) {
    let t = two_teams(backend).await;
    let (app, b, target) = (&t.app, &t.b, &t.target);
    let b_monitor = app.create_monitor(b, "B's own").await;

    let one = app
        .delete(
            &format!("/api/v2/monitors/{b_monitor}/targets/{target}"),
            &b.key,
        )
        .await;
    assert_not_found(&one, "A's target under B's monitor");

    let bulk = app
        .post(
            &format!("/api/v2/monitors/{b_monitor}/targets/remove"),
            &b.key,
            json!({ "targets": ["acme.com"], "target_ids": [target] }),
        )
        .await;
    assert_eq!(bulk.status, 200, "{:?}", bulk.body);
    assert_eq!(bulk.data()["removed"], json!([]));
    assert_eq!(bulk.data()["removed_count"], 0);
    assert_eq!(bulk.data()["not_found"], json!(["acme.com", target]));

    let b_targets = app
        .get(&format!("/api/v2/monitors/{b_monitor}/targets"), &b.key)
        .await;
    assert_eq!(b_targets.data(), &json!([]));
    t.assert_a_is_intact().await;
}
