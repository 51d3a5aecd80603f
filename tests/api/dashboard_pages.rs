//! The dashboard's other pages over HTTP: API keys, Webhooks with their deliveries, Signals
//! searches charged like the API, Enrichment uploads and downloads, and Usage charts. Each
//! action's effect is checked through the API, and another team's ids are not found.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::each_backend;
use crate::support::dashboard::{Page, Visitor};
use crate::support::receiver::{Answer, Receiver};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    api_keys_are_created_once_listed_by_prefix_and_revoked,
    a_webhook_is_created_edited_tested_rotated_and_deleted,
    a_refused_webhook_form_shows_each_error_beside_its_field,
    deliveries_are_filtered_by_status_and_failures_are_retried,
    a_search_is_charged_exactly_like_the_api_request,
    a_refused_search_names_the_field_and_charges_nothing,
    a_csv_upload_runs_to_completion_and_downloads_the_api_results,
    the_usage_page_draws_two_svg_charts_of_the_last_30_days,
    another_teams_webhooks_deliveries_and_jobs_are_not_found,
);

const OWNER: &str = "owner@example.com";

async fn api_keys_are_created_once_listed_by_prefix_and_revoked(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
    let visitor = Visitor::signed_in(&app, OWNER).await;

    let keys = visitor.get("/app/keys").await;
    assert_eq!(keys.status, 200);
    let owner_prefix: String = team.key.chars().take(12).collect();
    keys.assert_shows(&format!("<code>{owner_prefix}…</code>"));
    assert!(!keys.body.contains(&team.key), "a key is never shown again");
    assert!(
        !keys.body.contains("<td>Never</td>"),
        "the used key has a last use"
    );

    let created = visitor.submit(&keys, "/app/keys", &[]).await;
    assert_eq!(created.status, 200);
    created.assert_shows("shown only this once");
    let new_key = input_value(&created, "new-key");
    assert!(
        new_key.starts_with("sw_live_") && new_key.len() == 48,
        "{new_key}"
    );
    assert_eq!(app.get("/api/v2/monitors", &new_key).await.status, 200);
    let listed = visitor.get("/app/keys").await;
    assert!(!listed.body.contains(&new_key));
    assert_eq!(listed.body.matches(">Revoke</button>").count(), 2);

    let key_id = revoke_id_of(&listed, &new_key[..12]);
    let revoked = visitor
        .submit(&listed, &format!("/app/keys/{key_id}/revoke"), &[])
        .await;
    assert_eq!(revoked.status, 303);
    assert_eq!(app.get("/api/v2/monitors", &new_key).await.status, 401);
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
    let again = visitor
        .submit(&listed, &format!("/app/keys/{key_id}/revoke"), &[])
        .await;
    assert_eq!(again.status, 404);
}

async fn a_webhook_is_created_edited_tested_rotated_and_deleted(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let list = visitor.get("/app/webhooks").await;
    list.assert_shows("No webhooks yet");
    list.assert_shows("<label for=\"endpoint_url\">Endpoint URL</label>");
    list.assert_shows("<label for=\"filter-countries\">countries</label>");

    let created = visitor
        .submit(
            &list,
            "/app/webhooks",
            &[
                ("endpoint_url", &receiver.url),
                ("event_types", "funding.created"),
                ("countries", "US"),
            ],
        )
        .await;

    assert_eq!(created.status, 200, "{}", created.body);
    created.assert_shows("Signing secret");
    let secret = input_value(&created, "secret");
    assert!(
        secret.starts_with("whsec_") || secret.len() >= 24,
        "{secret}"
    );
    let api = app.get("/api/v2/webhooks", &team.key).await;
    let webhook = api.data()[0].clone();
    let id = webhook["id"].as_str().unwrap().to_string();
    assert_eq!(webhook["last_modified_via"], "dashboard");
    assert_eq!(webhook["last_modified_by"], OWNER);
    assert_eq!(webhook["filters"]["countries"], "US");
    let path = format!("/app/webhooks/{id}");

    let page = visitor.get(&path).await;
    let edited = visitor
        .submit(
            &page,
            &path,
            &[
                ("endpoint_url", &receiver.url),
                ("event_types", "funding.created"),
                ("event_types", "hiring.created"),
            ],
        )
        .await;
    assert_eq!(edited.status, 303, "{}", edited.body);
    let api = app.get(&format!("/api/v2/webhooks/{id}"), &team.key).await;
    assert_eq!(
        api.data()["event_types"],
        json!(["funding.created", "hiring.created"])
    );
    assert_eq!(api.data()["last_modified_via"], "dashboard");
    assert_eq!(api.data()["last_modified_by"], OWNER);

    let tested = visitor.submit(&page, &format!("{path}/test"), &[]).await;
    assert_eq!(tested.status, 303);
    let delivery = visitor.get(tested.location().unwrap()).await;
    assert_eq!(delivery.status, 200);
    delivery.assert_shows("system.test");
    delivery.assert_shows(">done</span>");
    delivery.assert_shows("<td>200</td>");
    assert_eq!(receiver.received().len(), 1);

    let rotated = visitor.submit(&page, &format!("{path}/rotate"), &[]).await;
    assert_eq!(rotated.status, 200);
    let new_secret = input_value(&rotated, "secret");
    assert_ne!(new_secret, secret);
    assert!(
        !visitor.get(&path).await.body.contains(&new_secret),
        "shown once"
    );

    let deleted = visitor.submit(&page, &format!("{path}/delete"), &[]).await;
    assert_eq!(deleted.status, 303);
    assert_eq!(
        app.get(&format!("/api/v2/webhooks/{id}"), &team.key)
            .await
            .status,
        404
    );
    assert_eq!(visitor.get(&path).await.status, 404);
}

async fn a_refused_webhook_form_shows_each_error_beside_its_field(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let list = visitor.get("/app/webhooks").await;

    let refused = visitor
        .submit(
            &list,
            "/app/webhooks",
            &[("endpoint_url", "not a url"), ("dateFrom", "yesterday-ish")],
        )
        .await;

    assert_eq!(refused.status, 400);
    refused.assert_shows("id=\"endpoint-error\"");
    refused.assert_shows("id=\"events-error\"");
    refused.assert_shows("Choose at least one event type.");
    refused.assert_shows("id=\"filters-error\"");
    refused.assert_shows("value=\"not a url\"");
    let api = app.get("/api/v2/webhooks", &team.key).await;
    assert_eq!(api.data().as_array().unwrap().len(), 0);
}

async fn deliveries_are_filtered_by_status_and_failures_are_retried(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    receiver.script([Answer::Status(500)]);
    let id = create_webhook(&app, &team, &receiver.url).await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let path = format!("/app/webhooks/{id}");
    let page = visitor.get(&path).await;
    let failed = visitor.submit(&page, &format!("{path}/test"), &[]).await;
    let failed_path = failed.location().unwrap().to_string();
    let failed_page = visitor.get(&failed_path).await;
    failed_page.assert_shows(">failed</span>");
    failed_page.assert_shows("<td>500</td>");
    failed_page.assert_shows(">Retry</button>");

    let only_done = visitor.get(&format!("{path}?status=done")).await;
    only_done.assert_shows("No deliveries with status done yet");
    let only_failed = visitor.get(&format!("{path}?status=failed")).await;
    only_failed.assert_shows(&failed_path);
    let bogus = visitor.get(&format!("{path}?status=sideways")).await;
    assert_eq!(bogus.status, 400);

    let retried = visitor
        .submit(&failed_page, &format!("{failed_path}/retry"), &[])
        .await;
    assert_eq!(retried.status, 303);
    let new_path = retried.location().unwrap().to_string();
    assert_ne!(new_path, failed_path);
    let fresh = visitor.get(&new_path).await;
    fresh.assert_shows(">done</span>");
    assert!(
        !fresh.body.contains(">Retry</button>"),
        "a success is not retried"
    );

    let since = (chrono::Utc::now() - chrono::Duration::hours(1)).format("%Y-%m-%dT%H:%M");
    let replay = visitor
        .submit(
            &page,
            &format!("{path}/retry-failed"),
            &[("since", &since.to_string())],
        )
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    replay.assert_shows("1 failed deliveries queued to be sent again.");
    let too_old = visitor
        .submit(
            &page,
            &format!("{path}/retry-failed"),
            &[("since", "2020-01-01T00:00")],
        )
        .await;
    assert_eq!(too_old.status, 400);
    too_old.assert_shows("id=\"since-error\"");
}

async fn a_search_is_charged_exactly_like_the_api_request(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "credits": 10 })).await;
    app.import_companies(json!([{ "name": "Acme Inc", "website": "https://acme.com" }]))
        .await;
    let round = json!([{ "signalId": "r1", "companyWebsite": "acme.com",
        "occurredAt": "2026-11-20T10:00:00Z", "roundType": "Seed", "amount": 1000 }]);
    let ingested = app
        .admin(reqwest::Method::POST, "/signals/funding", Some(round))
        .await;
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);
    let visitor = Visitor::signed_in(&app, OWNER).await;

    let form = visitor.get("/app/signals").await;
    assert_eq!(form.status, 200);
    form.assert_shows("costs <strong>1 credit</strong>");
    form.assert_shows("<label for=\"f-date_preset\">date_preset</label>");
    form.assert_shows("name=\"dateFrom\"");
    assert_eq!(credits(&app, &team).await, 10, "showing the form is free");

    let found = visitor
        .submit(
            &form,
            "/app/signals",
            &[("list", "funding"), ("limit", "10")],
        )
        .await;

    assert_eq!(found.status, 200, "{}", found.body);
    found.assert_shows("1 found");
    found.assert_shows("Acme Inc");
    found.assert_shows("This search cost 1 credit; your team has 9 left.");
    assert_eq!(credits(&app, &team).await, 9);
    let api = app.get("/api/v2/signals/funding?limit=10", &team.key).await;
    assert_eq!(
        api.body["meta"]["creditsRemaining"], 8,
        "{:?}",
        api.body["meta"]
    );

    let companies = visitor
        .submit(
            &form,
            "/app/signals",
            &[("list", "companies"), ("search", "Acme")],
        )
        .await;
    assert_eq!(companies.status, 200, "{}", companies.body);
    companies.assert_shows("your team has 7 left.");
    let hiring_form = visitor.get("/app/signals?list=hiring").await;
    hiring_form.assert_shows("value=\"hiring\" selected");

    app.admin(
        reqwest::Method::PATCH,
        &format!("/teams/{}", team.id),
        Some(json!({ "credits": 0 })),
    )
    .await;
    let broke = visitor
        .submit(&form, "/app/signals", &[("list", "funding")])
        .await;
    assert_eq!(broke.status, 402);
    broke.assert_shows("out of credits");
}

async fn a_refused_search_names_the_field_and_charges_nothing(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "credits": 5 })).await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let form = visitor.get("/app/signals").await;

    let refused = visitor
        .submit(
            &form,
            "/app/signals",
            &[("list", "funding"), ("date_preset", "someday")],
        )
        .await;

    assert_eq!(refused.status, 400, "{}", refused.body);
    refused.assert_shows("id=\"e-date_preset\"");
    refused.assert_shows("value=\"someday\"");
    assert_eq!(credits(&app, &team).await, 5);
    let unsent = visitor.post("/app/signals", &[("list", "funding")]).await;
    assert_eq!(unsent.status, 403, "a search needs the form token");
    assert_eq!(credits(&app, &team).await, 5);
}

async fn a_csv_upload_runs_to_completion_and_downloads_the_api_results(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "credits": 5 })).await;
    app.import_companies(json!([{ "name": "Acme Inc", "website": "https://acme.com" }]))
        .await;
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let page = visitor.get("/app/enrichment").await;
    page.assert_shows("<label for=\"file\">CSV file</label>");
    page.assert_shows("No enrichment jobs yet");
    let csv = "name,website\nAcme Inc,acme.com\nNobody,nobody-here.example\n";

    let token = page.csrf();
    let without = upload(&visitor, None, csv).await;
    assert_eq!(without.status, 403);
    let empty = upload(&visitor, Some(&token), "").await;
    assert_eq!(empty.status, 400);
    empty.assert_shows("id=\"file-error\"");
    assert_eq!(credits(&app, &team).await, 5, "refusals charge nothing");

    let accepted = upload(&visitor, Some(&token), csv).await;
    assert_eq!(accepted.status, 303, "{}", accepted.body);
    let job_path = accepted.location().unwrap().to_string();
    let job_id = job_path.rsplit('/').next().unwrap().to_string();
    assert_eq!(credits(&app, &team).await, 4, "one credit, like the API");
    let done = wait_for_page(&visitor, &job_path, ">completed</span>").await;
    done.assert_shows("Download results");
    done.assert_shows("Acme Inc");
    done.assert_shows("2 of 2 rows");

    let ours = visitor.get(&format!("{job_path}/results.csv")).await;
    assert_eq!(ours.status, 200);
    assert_eq!(ours.header("content-type"), Some("text/csv; charset=utf-8"));
    let api = app
        .client
        .get(format!(
            "{}/api/v2/csv-enrichment/{job_id}/results.csv",
            app.base
        ))
        .bearer_auth(&team.key)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(ours.body, api);
    assert!(api.contains("Acme Inc,acme.com,true,"), "{api}");
    visitor
        .get("/app/enrichment")
        .await
        .assert_shows("accounts.csv");
}

async fn the_usage_page_draws_two_svg_charts_of_the_last_30_days(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "credits": 50 })).await;
    assert_eq!(
        app.get("/api/v2/signals/funding", &team.key).await.status,
        200
    );
    let visitor = Visitor::signed_in(&app, OWNER).await;

    let usage = visitor.get("/app/usage").await;

    assert_eq!(usage.status, 200);
    usage.assert_shows("<dt>Credit balance</dt><dd>49</dd>");
    usage.assert_shows("<dt>Subscription</dt><dd>active</dd>");
    usage.assert_shows("60 requests / minute");
    usage.assert_shows("<dt>Credits used (30 days)</dt><dd>1</dd>");
    assert_eq!(usage.body.matches("<svg").count(), 2, "{}", usage.body);
    usage.assert_shows("Succeeded");
    usage.assert_shows("Failed");
    assert!(!usage.body.contains("<script>"), "no inline script");
}

async fn another_teams_webhooks_deliveries_and_jobs_are_not_found(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    app.create_team().await;
    let other = app
        .create_team_with(json!({ "owner_email": "rival@example.org" }))
        .await;
    let receiver = Receiver::start().await;
    let theirs = create_webhook(&app, &other, &receiver.url).await;
    let test = app
        .post(
            &format!("/api/v2/webhooks/{theirs}/test"),
            &other.key,
            json!({}),
        )
        .await;
    let delivery = test.data()["delivery_id"]
        .as_str()
        .or_else(|| test.data()["id"].as_str())
        .unwrap_or("00000000-0000-0000-0000-000000000000")
        .to_string();
    let visitor = Visitor::signed_in(&app, OWNER).await;
    let own = visitor.get("/app/webhooks").await;
    assert!(!own.body.contains(&theirs));

    let webhook = format!("/app/webhooks/{theirs}");
    assert_eq!(visitor.get(&webhook).await.status, 404);
    assert_eq!(
        visitor
            .get(&format!("{webhook}/deliveries/{delivery}"))
            .await
            .status,
        404
    );
    for action in ["test", "rotate", "delete"] {
        let page = visitor
            .submit(&own, &format!("{webhook}/{action}"), &[])
            .await;
        assert_eq!(page.status, 404, "{action}");
    }
    let retry = visitor
        .submit(&own, &format!("{webhook}/deliveries/{delivery}/retry"), &[])
        .await;
    assert_eq!(retry.status, 404);
    assert_eq!(
        receiver.received().len(),
        1,
        "only their own test reached them"
    );
    assert_eq!(
        app.get(&format!("/api/v2/webhooks/{theirs}"), &other.key)
            .await
            .status,
        200
    );
    for path in [
        "/app/enrichment/00000000-0000-0000-0000-000000000000",
        "/app/enrichment/x",
    ] {
        assert_eq!(visitor.get(path).await.status, 404, "{path}");
    }
}

/// The value of the input with this id.
fn input_value(page: &Page, id: &str) -> String {
    let marker = format!("id=\"{id}\" readonly value=\"");
    let start = page.body.find(&marker).expect(id) + marker.len();
    let end = page.body[start..].find('"').unwrap() + start;
    page.body[start..end].to_string()
}

/// The key id in the Revoke form of the key starting with `prefix`.
fn revoke_id_of(page: &Page, prefix: &str) -> String {
    let row = page
        .body
        .split("<tr>")
        .find(|row| row.contains(&format!("<code>{prefix}…</code>")))
        .expect("the key's row");
    let start = row.find("/app/keys/").unwrap() + "/app/keys/".len();
    let end = row[start..].find('/').unwrap() + start;
    row[start..end].to_string()
}

async fn credits(app: &TestApp, team: &Team) -> i64 {
    let data = app
        .admin(reqwest::Method::GET, &format!("/teams/{}", team.id), None)
        .await;
    data.data()["credits"].as_i64().expect("credits")
}

async fn create_webhook(app: &TestApp, team: &Team, url: &str) -> String {
    let created = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": url, "event_types": ["funding.created"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    created.data()["id"].as_str().unwrap().to_string()
}

/// Uploads `csv` as the `file` of the enrichment form, with the form token in the action.
async fn upload(visitor: &Visitor<'_>, token: Option<&str>, csv: &str) -> Page {
    let boundary = "----signalwatch-test-boundary";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"accounts.csv\"\r\n\
         Content-Type: text/csv\r\n\r\n{csv}\r\n--{boundary}--\r\n"
    );
    let query = token.map(|t| format!("?csrf={t}")).unwrap_or_default();
    visitor
        .post_raw(
            &format!("/app/enrichment{query}"),
            &format!("multipart/form-data; boundary={boundary}"),
            body,
        )
        .await
}

/// Reloads `path` until it shows `text`.
async fn wait_for_page(visitor: &Visitor<'_>, path: &str, text: &str) -> Page {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let page = visitor.get(path).await;
        if page.body.contains(text) {
            return page;
        }
        assert!(
            Instant::now() < deadline,
            "{path} never showed {text:?}:\n{}",
            page.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
