//! Who may do what to a webhook: monitors' webhooks through the Webhooks API, other teams,
//! malformed ids and strict bodies.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp};
use crate::webhooks::{WEBHOOKS, assert_error, create_webhook, id_of, webhook_path};

each_backend!(
    monitor_webhooks_are_listed_with_their_monitor_id_while_the_monitor_is_active,
    a_paused_monitors_webhook_reads_as_inactive_until_the_monitor_resumes,
    changing_or_deleting_a_monitor_webhook_is_a_conflict_naming_the_monitor,
    rotating_a_monitor_webhook_secret_works,
    a_replaced_monitor_webhook_is_no_longer_found,
    another_teams_webhook_is_not_found_on_every_route,
    a_malformed_webhook_id_is_not_found_on_every_route,
    unknown_body_fields_are_refused_by_name,
    unknown_query_parameters_are_refused,
);

/// Creates a monitor with a webhook; returns (monitor id, webhook id, secret).
async fn monitor_with_webhook(app: &TestApp, team: &Team, url: &str) -> (String, String, String) {
    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hooked", "signal_types": ["funding_round", "hiring"], "webhook_url": url }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let webhook = &created.data()["webhook"];
    (
        id_of(&created),
        webhook["id"].as_str().unwrap().to_string(),
        webhook["secret"].as_str().unwrap().to_string(),
    )
}

/// Every route of one webhook, as (method, path, body).
fn routes_of(id: &str) -> Vec<(reqwest::Method, String, Option<Value>)> {
    use reqwest::Method;
    let some_delivery = "0190a3b4-0000-7000-8000-000000000000";
    vec![
        (Method::GET, webhook_path(id), None),
        (
            Method::PUT,
            webhook_path(id),
            Some(json!({ "rotate_secret": true })),
        ),
        (Method::DELETE, webhook_path(id), None),
        (Method::POST, format!("{}/test", webhook_path(id)), None),
        (
            Method::GET,
            format!("{}/deliveries", webhook_path(id)),
            None,
        ),
        (
            Method::GET,
            format!("{}/deliveries/{some_delivery}", webhook_path(id)),
            None,
        ),
        (
            Method::POST,
            format!("{}/deliveries/{some_delivery}/retry", webhook_path(id)),
            None,
        ),
        (
            Method::POST,
            format!("{}/deliveries/retry-failed", webhook_path(id)),
            Some(json!({ "since": chrono::Utc::now().to_rfc3339() })),
        ),
    ]
}

async fn monitor_webhooks_are_listed_with_their_monitor_id_while_the_monitor_is_active(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let standalone = id_of(&create_webhook(&app, &team, "https://hooks.example.com/alone").await);
    let (monitor_id, webhook_id, _) =
        monitor_with_webhook(&app, &team, "https://hooks.example.com/monitor").await;

    let listed = app.get(WEBHOOKS, &team.key).await;
    let items = listed.data().as_array().unwrap().clone();
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0]["id"], webhook_id.as_str());
    assert_eq!(items[0]["monitor_id"], monitor_id.as_str());
    assert_eq!(
        items[0]["endpoint_url"],
        "https://hooks.example.com/monitor"
    );
    assert_eq!(
        items[0]["event_types"],
        json!(["funding.created", "hiring.created"])
    );
    assert!(items[0].get("secret").is_none());
    assert_eq!(items[1]["id"], standalone.as_str());
    assert!(items[1].get("monitor_id").is_none(), "{}", items[1]);
    let fetched = app.get(&webhook_path(&webhook_id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    assert_eq!(fetched.data()["monitor_id"], monitor_id.as_str());

    let paused = app
        .put(
            &format!("/api/v2/monitors/{monitor_id}"),
            &team.key,
            json!({ "active": false }),
        )
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);
    let listed = app.get(WEBHOOKS, &team.key).await;
    let ids: Vec<&str> = listed
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [standalone.as_str()]);
}

async fn a_paused_monitors_webhook_reads_as_inactive_until_the_monitor_resumes(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let (monitor_id, webhook_id, _) =
        monitor_with_webhook(&app, &team, "https://hooks.example.com/paused").await;
    let monitor_path = format!("/api/v2/monitors/{monitor_id}");
    let set_active = |active: bool| app.put(&monitor_path, &team.key, json!({ "active": active }));

    assert_eq!(set_active(false).await.status, 200);

    let fetched = app.get(&webhook_path(&webhook_id), &team.key).await;
    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    assert_eq!(fetched.data()["active"], false, "{:?}", fetched.body);
    assert_eq!(fetched.data()["monitor_id"], monitor_id.as_str());
    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.data(), &json!([]), "{:?}", listed.body);

    assert_eq!(set_active(true).await.status, 200);

    let fetched = app.get(&webhook_path(&webhook_id), &team.key).await;
    assert_eq!(fetched.data()["active"], true, "{:?}", fetched.body);
    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.data()[0]["id"], webhook_id.as_str());
    assert_eq!(listed.data()[0]["active"], true);
}

async fn changing_or_deleting_a_monitor_webhook_is_a_conflict_naming_the_monitor(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let (monitor_id, webhook_id, _) =
        monitor_with_webhook(&app, &team, "https://hooks.example.com/owned").await;
    let path = webhook_path(&webhook_id);

    for body in [
        json!({ "endpoint_url": "https://hooks.example.com/elsewhere" }),
        json!({ "event_types": ["funding.created"] }),
        json!({ "filters": { "countries": "US" } }),
        json!({ "active": false }),
        json!({ "active": true, "rotate_secret": true }),
    ] {
        let refused = app.put(&path, &team.key, body.clone()).await;
        assert_error(&refused, 409, "conflict");
        assert!(
            refused.error().contains(&monitor_id),
            "{body}: {}",
            refused.error()
        );
    }
    let refused = app.delete(&path, &team.key).await;
    assert_error(&refused, 409, "conflict");
    assert!(refused.error().contains(&monitor_id), "{}", refused.error());

    let fetched = app.get(&path, &team.key).await;
    assert_eq!(
        fetched.data()["endpoint_url"],
        "https://hooks.example.com/owned"
    );
    assert_eq!(fetched.data()["active"], true);
}

async fn rotating_a_monitor_webhook_secret_works(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let (monitor_id, webhook_id, old_secret) =
        monitor_with_webhook(&app, &team, "https://hooks.example.com/owned").await;

    let rotated = app
        .put(
            &webhook_path(&webhook_id),
            &team.key,
            json!({ "rotate_secret": true }),
        )
        .await;

    assert_eq!(rotated.status, 200, "{:?}", rotated.body);
    let new_secret = rotated.data()["secret"].as_str().expect("new secret");
    assert!(new_secret.starts_with("whsec_"));
    assert_ne!(new_secret, old_secret);
    assert_eq!(rotated.data()["monitor_id"], monitor_id.as_str());
    let monitor = app
        .get(&format!("/api/v2/monitors/{monitor_id}"), &team.key)
        .await;
    assert_eq!(monitor.data()["webhook"]["id"], webhook_id.as_str());
    assert!(monitor.data()["webhook"].get("secret").is_none());
}

async fn a_replaced_monitor_webhook_is_no_longer_found(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let (monitor_id, old_webhook, _) =
        monitor_with_webhook(&app, &team, "https://hooks.example.com/old").await;

    let replaced = app
        .put(
            &format!("/api/v2/monitors/{monitor_id}"),
            &team.key,
            json!({ "webhook_url": "https://hooks.example.com/new" }),
        )
        .await;
    assert_eq!(replaced.status, 200, "{:?}", replaced.body);

    assert_error(
        &app.get(&webhook_path(&old_webhook), &team.key).await,
        404,
        "not_found",
    );
    let revive = app
        .put(
            &webhook_path(&old_webhook),
            &team.key,
            json!({ "active": true }),
        )
        .await;
    assert_error(&revive, 404, "not_found");
    let listed = app.get(WEBHOOKS, &team.key).await;
    assert_eq!(listed.data().as_array().unwrap().len(), 1);
    assert_eq!(
        listed.data()[0]["endpoint_url"],
        "https://hooks.example.com/new"
    );
}

async fn another_teams_webhook_is_not_found_on_every_route(backend: Backend) {
    let app = TestApp::start(backend).await;
    let owner = app.create_team().await;
    let stranger = app.create_team().await;
    let standalone = id_of(&create_webhook(&app, &owner, "https://hooks.example.com/mine").await);
    let (_, monitor_webhook, _) =
        monitor_with_webhook(&app, &owner, "https://hooks.example.com/monitor").await;

    for id in [&standalone, &monitor_webhook] {
        for (method, path, body) in routes_of(id) {
            let mut request = app.request(method.clone(), &path, &stranger.key);
            if let Some(body) = body {
                request = request.json(&body);
            }
            let response = app.send(request).await;
            assert_error(&response, 404, "not_found");
            assert!(!response.error().contains(id.as_str()), "{method} {path}");
        }
    }
    let listed = app.get(WEBHOOKS, &stranger.key).await;
    assert_eq!(listed.data(), &json!([]));
    let mine = app.get(&webhook_path(&standalone), &owner.key).await;
    assert_eq!(mine.status, 200, "the owner still sees it: {:?}", mine.body);
    assert_eq!(mine.data()["active"], true);
}

async fn a_malformed_webhook_id_is_not_found_on_every_route(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for id in [
        "not-a-uuid",
        "12345",
        "0190a3b4-0000-7000-8000-00000000000z",
    ] {
        for (method, path, body) in routes_of(id) {
            let mut request = app.request(method.clone(), &path, &team.key);
            if let Some(body) = body {
                request = request.json(&body);
            }
            assert_error(&app.send(request).await, 404, "not_found");
        }
    }
    let webhook = id_of(&create_webhook(&app, &team, "https://hooks.example.com/mine").await);
    let bad_delivery = app
        .get(
            &format!("{}/deliveries/not-a-uuid", webhook_path(&webhook)),
            &team.key,
        )
        .await;
    assert_error(&bad_delivery, 404, "not_found");
}

async fn unknown_body_fields_are_refused_by_name(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let refused = app
        .post(
            WEBHOOKS,
            &team.key,
            json!({ "endpoint_url": "https://hooks.example.com/in", "event_types": ["funding.created"], "colour": "red" }),
        )
        .await;
    assert_error(&refused, 400, "bad_request");
    assert!(refused.error().contains("colour"), "{}", refused.error());
    assert_eq!(app.get(WEBHOOKS, &team.key).await.data(), &json!([]));

    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/in").await);
    let update = app
        .put(&webhook_path(&id), &team.key, json!({ "paused": true }))
        .await;
    assert_error(&update, 400, "bad_request");
    assert!(update.error().contains("paused"), "{}", update.error());
}

async fn unknown_query_parameters_are_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let id = id_of(&create_webhook(&app, &team, "https://hooks.example.com/in").await);

    let get = app
        .get(&format!("{}?verbose=1", webhook_path(&id)), &team.key)
        .await;
    assert_error(&get, 400, "bad_request");
    assert!(get.error().contains("verbose"), "{}", get.error());
    let deliveries = app
        .get(
            &format!("{}/deliveries?page=2", webhook_path(&id)),
            &team.key,
        )
        .await;
    assert_error(&deliveries, 400, "bad_request");
    let delete = app
        .delete(&format!("{}?force=true", webhook_path(&id)), &team.key)
        .await;
    assert_error(&delete, 400, "bad_request");
    assert_eq!(app.get(&webhook_path(&id), &team.key).await.status, 200);
}
