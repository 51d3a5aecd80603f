//! The dashboard's Monitors pages: list, `New monitor` with errors beside the fields, a
//! monitor's page with `Pause`/`Resume`, `Delete` after confirmation and its targets. Every
//! change goes through the API's use cases (the API sees it at once), stays in the team, and
//! needs the form token.

use serde_json::json;

use crate::each_backend;
use crate::support::dashboard::{Page, Visitor};
use crate::support::receiver::Receiver;
use crate::support::{Backend, TestApp};

each_backend!(
    the_monitors_page_says_what_to_do_when_there_are_none,
    a_monitor_made_in_the_dashboard_is_the_same_as_one_made_with_the_api,
    a_refused_form_shows_each_error_beside_its_field_and_creates_nothing,
    a_monitor_is_paused_resumed_and_deleted_after_a_confirmation,
    targets_are_added_one_per_line_with_the_api_report_and_removed,
    another_teams_monitor_is_not_found_and_stays_unchanged,
    a_post_without_the_right_form_token_is_refused_and_changes_nothing,
);

const OWNER: &str = "owner@example.com";

async fn the_monitors_page_says_what_to_do_when_there_are_none(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;

    let page = visitor.get("/app/monitors").await;

    assert_eq!(page.status, 200);
    page.assert_shows("No monitors yet");
    page.assert_shows("href=\"/app/monitors/new\">New monitor</a>");
    for nav in [
        "Monitors",
        "Signals",
        "Webhooks",
        "Enrichment",
        "API keys",
        "Usage",
    ] {
        page.assert_shows(&format!(">{nav}</a>"));
    }
}

async fn a_monitor_made_in_the_dashboard_is_the_same_as_one_made_with_the_api(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let form = visitor.get("/app/monitors/new").await;
    for label in ["Name", "Signal types", "Webhook URL"] {
        form.assert_shows(label);
    }
    form.assert_shows("<label for=\"name\">Name</label>");

    let created = visitor
        .submit(
            &form,
            "/app/monitors",
            &[
                ("name", "Competitors"),
                ("signal_types", "funding_round"),
                ("signal_types", "hiring"),
                ("webhook_url", &receiver.url),
            ],
        )
        .await;

    assert_eq!(created.status, 201, "{}", created.body);
    created.assert_shows("Monitor created.");
    created.assert_shows("shown only this once");
    let listed = app.get("/api/v2/monitors", &team.key).await;
    let id = listed.data()[0]["id"].as_str().unwrap().to_string();
    let location = format!("/app/monitors/{id}");
    let api = app.get(&format!("/api/v2/monitors/{id}"), &team.key).await;
    assert_eq!(api.status, 200);
    assert_eq!(api.data()["name"], "Competitors");
    assert_eq!(
        api.data()["signal_types"],
        json!(["funding_round", "hiring"])
    );
    let webhook_id = api.data()["webhook"]["id"].as_str().unwrap();
    let webhook = app
        .get(&format!("/api/v2/webhooks/{webhook_id}"), &team.key)
        .await;
    assert_eq!(
        webhook.data()["last_modified_via"],
        "dashboard",
        "{:?}",
        webhook.body
    );
    assert_eq!(webhook.data()["last_modified_by"], OWNER);

    let shown = visitor.get(&location).await;
    assert_eq!(shown.status, 200);
    shown.assert_shows("Competitors");
    shown.assert_shows("Funding rounds, Hiring");
    assert!(
        !shown.body.contains("shown only this once"),
        "the secret is shown once"
    );
    let listed = visitor.get("/app/monitors").await;
    listed.assert_shows(&format!("href=\"/app/monitors/{id}\">Competitors</a>"));
    listed.assert_shows("Active");
}

async fn a_refused_form_shows_each_error_beside_its_field_and_creates_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let form = visitor.get("/app/monitors/new").await;

    let refused = visitor
        .submit(
            &form,
            "/app/monitors",
            &[("name", "  "), ("webhook_url", "ftp://example.com/hook")],
        )
        .await;

    assert_eq!(refused.status, 400);
    refused.assert_shows("id=\"name-error\"");
    refused.assert_shows("name must be a string of 1-255 characters");
    refused.assert_shows("id=\"types-error\"");
    refused.assert_shows("Choose at least one signal type.");
    refused.assert_shows("id=\"url-error\"");
    refused.assert_shows("value=\"ftp://example.com/hook\"");
    let api = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(
        api.data().as_array().map(Vec::len),
        Some(0),
        "{:?}",
        api.body
    );
}

async fn a_monitor_is_paused_resumed_and_deleted_after_a_confirmation(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = app.create_monitor(&team, "Accounts").await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let path = format!("/app/monitors/{id}");
    let active = |page: &Page| page.body.contains(">Pause</button>");

    let page = visitor.get(&path).await;
    assert!(active(&page), "{}", page.body);
    let paused = visitor.submit(&page, &format!("{path}/pause"), &[]).await;
    assert_eq!(paused.status, 303);
    assert_eq!(app_active(&app, &team.key, &id).await, Some(false));
    let page = visitor.get(&path).await;
    page.assert_shows(">Resume</button>");
    page.assert_shows("Paused");
    visitor.submit(&page, &format!("{path}/resume"), &[]).await;
    assert_eq!(app_active(&app, &team.key, &id).await, Some(true));

    let confirm = visitor.get(&format!("{path}/delete")).await;
    assert_eq!(confirm.status, 200);
    confirm.assert_shows("Delete “Accounts”?");
    confirm.assert_shows(">Delete</button>");
    assert_eq!(
        app_active(&app, &team.key, &id).await,
        Some(true),
        "asking deletes nothing"
    );
    let deleted = visitor
        .submit(&confirm, &format!("{path}/delete"), &[])
        .await;
    assert_eq!(deleted.status, 303);
    assert_eq!(deleted.location(), Some("/app/monitors"));
    assert_eq!(
        app.get(&format!("/api/v2/monitors/{id}"), &team.key)
            .await
            .status,
        404
    );
    assert_eq!(visitor.get(&path).await.status, 404);
}

async fn targets_are_added_one_per_line_with_the_api_report_and_removed(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let id = app.create_monitor(&team, "Accounts").await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let path = format!("/app/monitors/{id}");
    let page = visitor.get(&path).await;
    page.assert_shows("<label for=\"entries\">Add targets</label>");
    page.assert_shows("No targets yet");

    let added = visitor
        .submit(
            &page,
            &format!("{path}/targets"),
            &[(
                "entries",
                "acme.com\r\nunknown-startup.io\r\nnot a target\r\nacme.com\r\n",
            )],
        )
        .await;

    assert_eq!(added.status, 200, "{}", added.body);
    added.assert_shows("Added 2, already there 1, pending research 1");
    added.assert_shows("<code>not a target</code>");
    added.assert_shows("Resolved");
    added.assert_shows("Pending");
    let api = app
        .get(&format!("/api/v2/monitors/{id}/targets"), &team.key)
        .await;
    let targets = api.data().as_array().unwrap().clone();
    assert_eq!(targets.len(), 2, "{:?}", api.body);

    let empty = visitor
        .submit(
            &page,
            &format!("{path}/targets"),
            &[("entries", "not a target")],
        )
        .await;
    assert_eq!(empty.status, 400);
    empty.assert_shows("id=\"entries-error\"");

    let target_id = targets
        .iter()
        .find(|t| t["value"] == "acme.com")
        .and_then(|t| t["id"].as_str())
        .unwrap();
    let removed = visitor
        .submit(&page, &format!("{path}/targets/{target_id}/remove"), &[])
        .await;
    assert_eq!(removed.status, 303);
    let api = app
        .get(&format!("/api/v2/monitors/{id}/targets"), &team.key)
        .await;
    assert_eq!(api.data().as_array().unwrap().len(), 1);
    let again = visitor
        .submit(&page, &format!("{path}/targets/{target_id}/remove"), &[])
        .await;
    assert_eq!(again.status, 404);
}

async fn another_teams_monitor_is_not_found_and_stays_unchanged(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let other = app
        .create_team_with(json!({ "owner_email": "rival@example.org" }))
        .await;
    let theirs = app.create_monitor(&other, "Theirs").await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let own = visitor.get("/app/monitors").await;
    let path = format!("/app/monitors/{theirs}");

    assert_eq!(visitor.get(&path).await.status, 404);
    assert_eq!(visitor.get(&format!("{path}/delete")).await.status, 404);
    for action in ["pause", "delete"] {
        let page = visitor.submit(&own, &format!("{path}/{action}"), &[]).await;
        assert_eq!(page.status, 404, "{action}");
    }
    let add = visitor
        .submit(&own, &format!("{path}/targets"), &[("entries", "acme.com")])
        .await;
    assert_eq!(add.status, 404);
    assert_eq!(visitor.get("/app/monitors/not-a-uuid").await.status, 404);
    assert!(!own.body.contains("Theirs"));
    assert_eq!(app_active(&app, &other.key, &theirs).await, Some(true));
    let targets = app
        .get(&format!("/api/v2/monitors/{theirs}/targets"), &other.key)
        .await;
    assert_eq!(targets.data().as_array().unwrap().len(), 0);
}

async fn a_post_without_the_right_form_token_is_refused_and_changes_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = app.create_monitor(&team, "Accounts").await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let fields = [("name", "Sneaky"), ("signal_types", "hiring")];

    let missing = visitor.post("/app/monitors", &fields).await;
    let mut with_wrong = vec![("csrf", "not-the-token")];
    with_wrong.extend_from_slice(&fields);
    let wrong = visitor.post("/app/monitors", &with_wrong).await;
    let pause = visitor
        .post(&format!("/app/monitors/{id}/pause"), &[("csrf", "x")])
        .await;
    let delete = visitor
        .post(&format!("/app/monitors/{id}/delete"), &[])
        .await;

    for page in [&missing, &wrong, &pause, &delete] {
        assert_eq!(page.status, 403, "{}", page.body);
        assert_eq!(
            page.header("content-security-policy"),
            Some("default-src 'self'")
        );
    }
    let other_session = Visitor::signed_in(&app, OWNER).await;
    let foreign_token = other_session.get("/app/monitors").await;
    let borrowed = visitor
        .submit(&foreign_token, &format!("/app/monitors/{id}/pause"), &[])
        .await;
    assert_eq!(borrowed.status, 403, "a token belongs to its own session");
    let api = app.get("/api/v2/monitors", &team.key).await;
    let names: Vec<&str> = api
        .data()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert_eq!(names, ["Accounts"]);
    assert_eq!(app_active(&app, &team.key, &id).await, Some(true));
}

async fn app_active(app: &TestApp, key: &str, id: &str) -> Option<bool> {
    app.get(&format!("/api/v2/monitors/{id}"), key).await.data()["active"].as_bool()
}
