//! Updating, rotating, deleting and re-enabling standalone webhooks, and the limit of 10 active
//! webhooks per team.

use std::sync::Arc;

use serde_json::json;
use tokio::sync::Barrier;
use tokio::task::JoinSet;

use crate::each_backend;
use crate::support::{Backend, TestApp};
use crate::webhooks::{
    WEBHOOKS, assert_error, create_webhook, fetch, id_of, list, preview_of, webhook_path,
};

each_backend!(
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

const LIMIT: usize = 10;

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
