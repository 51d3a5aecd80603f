//! Funding rounds from SEC Form D filings: a local EDGAR serves the latest-filings feed and the
//! filings in the SEC's shapes; the collector's passes are run through the admin API.

use std::time::Duration;

use serde_json::{Value, json};

use crate::delivery_support::{FAST, SOON, assert_stays_at};
use crate::each_backend;
use crate::support::edgar::{Filing, LocalEdgar};
use crate::support::receiver::Receiver;
use crate::support::sources::Sources;
use crate::support::{Backend, TestApp};

each_backend!(
    a_form_d_of_an_unknown_issuer_creates_the_company_and_its_funding_round,
    a_form_d_of_a_known_company_is_delivered_to_the_monitor_watching_it,
    an_amendment_updates_its_offerings_round_and_delivers_nothing_new,
    pooled_investment_funds_are_left_out,
    an_indefinite_offering_and_a_first_sale_yet_to_occur_still_make_a_round,
    no_filing_is_read_twice_across_passes_and_restarts,
    a_malformed_filing_is_recorded_and_the_pass_goes_on,
    a_403_from_the_sec_is_the_collectors_last_error,
    every_request_names_the_requester,
    requests_to_the_sec_are_spaced_under_its_rate_limit,
    two_workers_read_each_filing_once,
    the_feed_never_sends_the_collector_off_edgar,
);

const AGENT: &str = "Signalwatch tests ops@example.com";

/// Starts the service with the collector on, reading `edgar`, and waits for the pass it runs at
/// start to end (filings published after that are read by the next pass).
async fn start(backend: Backend, edgar: &LocalEdgar) -> TestApp {
    let app = TestApp::start_with(backend, &collector_settings(edgar)).await;
    first_pass_done(&app).await;
    app
}

/// Waits until the service's collector has ended a pass.
async fn first_pass_done(app: &TestApp) {
    let until = std::time::Instant::now() + SOON;
    loop {
        let listed = app.admin(reqwest::Method::GET, "/collectors", None).await;
        let ran = listed
            .data()
            .as_array()
            .into_iter()
            .flatten()
            .any(|c| c["name"] == "sec-form-d" && !c["last_run_at"].is_null());
        if ran {
            return;
        }
        assert!(
            std::time::Instant::now() < until,
            "no pass at start: {:?}",
            listed.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn collector_settings(edgar: &LocalEdgar) -> Vec<&str> {
    let mut args = FAST.to_vec();
    args.extend_from_slice(&[
        "--collectors",
        "sec-form-d",
        "--sec-url",
        &edgar.url,
        "--sec-user-agent",
        AGENT,
        "--collect-interval-seconds",
        "86400",
    ]);
    args
}

/// Runs one pass now; returns the collector's record.
async fn run_pass(app: &TestApp) -> Value {
    let response = app
        .admin(reqwest::Method::POST, "/collectors/sec-form-d/run", None)
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    response.data().clone()
}

/// The funding rounds of companies named like `name`, as the team API lists them.
async fn rounds(app: &TestApp, key: &str, name: &str) -> Vec<Value> {
    let path = format!(
        "/api/v2/signals/funding?limit=50&company_name={}",
        name.replace(' ', "%20")
    );
    let listed = app.get(&path, key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    listed.data().as_array().cloned().unwrap_or_default()
}

fn harbor_lane() -> Filing {
    Filing::form_d(
        "0002000101-26-000003",
        "0002000101",
        "Harbor Lane Analytics, Inc.",
    )
    .state("OR", "OREGON")
    .amounts("8500000", "6250000")
    .first_sale(Some("2026-11-12"))
    .build()
}

async fn a_form_d_of_an_unknown_issuer_creates_the_company_and_its_funding_round(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    edgar.publish(harbor_lane());
    let team = app.create_team().await;

    let pass = run_pass(&app).await;

    assert_eq!(pass["name"], "sec-form-d");
    assert_eq!(pass["enabled"], true);
    assert_eq!(pass["signals_created"], 1, "{pass}");
    assert_eq!(pass["last_error"], Value::Null);
    let rows = rounds(&app, &team.key, "Harbor Lane").await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    let round = &rows[0];
    assert_eq!(round["companyName"], "Harbor Lane Analytics");
    assert_eq!(round["companyCountry"], "US");
    assert_eq!(round["amount"], 6_250_000);
    assert_eq!(round["currency"], "USD");
    assert_eq!(round["roundType"], "undisclosed");
    assert_eq!(round["announcedDate"], "2026-11-12");
    assert_eq!(round["sources"][0]["sourceType"], "sec_filing");
    assert_eq!(round["sources"][0]["isPrimary"], true);
    assert_eq!(
        round["sources"][0]["url"],
        "https://www.sec.gov/Archives/edgar/data/2000101/000200010126000003/0002000101-26-000003-index.htm"
    );
}

async fn a_form_d_of_a_known_company_is_delivered_to_the_monitor_watching_it(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let receiver = Receiver::start().await;
    let app = start(backend, &edgar).await;
    let team = app.create_team().await;
    let company = app
        .import_companies(json!([{ "name": "Harbor Lane Analytics",
            "website": "https://harborlane.example", "country": "US" }]))
        .await
        .remove(0);
    let monitor = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Accounts", "signal_types": ["funding_round"],
                "webhook_url": receiver.url }),
        )
        .await;
    assert_eq!(monitor.status, 201, "{:?}", monitor.body);
    let monitor_id = monitor.data()["id"].as_str().unwrap().to_string();
    app.add_targets(&team, &monitor_id, json!(["harborlane.example"]))
        .await;

    edgar.publish(harbor_lane());
    run_pass(&app).await;

    let delivered = receiver.wait_for(1, SOON).await;
    let event = delivered[0].json();
    assert_eq!(event["data"]["company"]["id"], company, "{event}");
    assert_eq!(
        event["data"]["signal"]["externalId"],
        "0002000101-26-000003"
    );
    assert_eq!(
        event["data"]["fundingRound"]["amount"], 6_250_000,
        "{event}"
    );
    let rows = rounds(&app, &team.key, "Harbor Lane").await;
    assert_eq!(
        rows.len(),
        1,
        "the known company got the round, no twin: {rows:?}"
    );
    assert_eq!(rows[0]["companyId"], company);
}

async fn an_amendment_updates_its_offerings_round_and_delivers_nothing_new(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let receiver = Receiver::start().await;
    let app = start(backend, &edgar).await;
    let team = app.create_team().await;
    let webhook = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": receiver.url, "event_types": ["funding.created"] }),
        )
        .await;
    assert_eq!(webhook.status, 201, "{:?}", webhook.body);
    edgar.publish(harbor_lane());
    run_pass(&app).await;
    receiver.wait_for(1, SOON).await;

    edgar.publish(
        Filing::form_d(
            "0002000101-26-000007",
            "0002000101",
            "Harbor Lane Analytics, Inc.",
        )
        .state("OR", "OREGON")
        .amounts("8500000", "8500000")
        .first_sale(Some("2026-11-12"))
        .amends("0002000101-26-000003")
        .build(),
    );
    let pass = run_pass(&app).await;

    assert_eq!(pass["signals_created"], 0, "{pass}");
    let rows = rounds(&app, &team.key, "Harbor Lane").await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["amount"], 8_500_000, "the amendment's figure");
    // An update is never delivered again.
    assert_stays_at(&receiver, 1, Duration::from_millis(500)).await;
}

async fn pooled_investment_funds_are_left_out(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    edgar.publish(
        Filing::form_d(
            "0002000505-26-000001",
            "0002000505",
            "Evergreen Opportunity Fund LP",
        )
        .industry("Pooled Investment Fund")
        .build(),
    );
    let team = app.create_team().await;

    let pass = run_pass(&app).await;

    assert_eq!(pass["items_seen"], 1, "{pass}");
    assert_eq!(pass["signals_created"], 0, "{pass}");
    assert!(rounds(&app, &team.key, "Evergreen").await.is_empty());
}

async fn an_indefinite_offering_and_a_first_sale_yet_to_occur_still_make_a_round(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    edgar.publish(
        Filing::form_d("0002000606-26-000001", "0002000606", "Tidewater Labs Corp")
            .amounts("Indefinite", "0")
            .first_sale(None)
            .build(),
    );
    let team = app.create_team().await;

    run_pass(&app).await;

    let rows = rounds(&app, &team.key, "Tidewater").await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["amount"], Value::Null, "no figure to give");
    assert_eq!(rows[0]["announcedDate"], "2026-11-24", "the filing day");
}

async fn no_filing_is_read_twice_across_passes_and_restarts(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    edgar.publish(harbor_lane());
    let team = app.create_team().await;
    run_pass(&app).await;
    run_pass(&app).await;

    let restarted = app.start_beside(&collector_settings(&edgar)).await;
    first_pass_done(&restarted).await;
    let pass = run_pass(&restarted).await;

    assert_eq!(pass["signals_created"], 0, "{pass}");
    assert_eq!(edgar.document_reads("0002000101-26-000003"), 1);
    assert_eq!(rounds(&app, &team.key, "Harbor Lane").await.len(), 1);
}

async fn a_malformed_filing_is_recorded_and_the_pass_goes_on(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    let mut broken = Filing::form_d("0002000707-26-000001", "0002000707", "Broken Inc").build();
    broken.document = "<edgarSubmission><primaryIssuer><entityName>Bro".into();
    edgar.publish(broken);
    edgar.publish(harbor_lane());
    let team = app.create_team().await;

    let pass = run_pass(&app).await;

    assert_eq!(pass["signals_created"], 1, "{pass}");
    let error = pass["last_error"]
        .as_str()
        .expect("the failure is recorded");
    assert!(error.contains("0002000707-26-000001"), "{error}");
    assert_eq!(rounds(&app, &team.key, "Harbor Lane").await.len(), 1);
}

async fn the_feed_never_sends_the_collector_off_edgar(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let elsewhere = Sources::start().await;
    let app = start(backend, &edgar).await;
    let mut linked = Filing::form_d("0002000808-26-000001", "0002000808", "Linked Inc").build();
    linked.index_link = Some(format!(
        "{}/private/0002000808-26-000001-index.htm",
        elsewhere.base
    ));
    let mut redirected =
        Filing::form_d("0002000909-26-000001", "0002000909", "Redirected Inc").build();
    redirected.redirect_to = Some(format!("{}/private/primary_doc.xml", elsewhere.base));
    edgar.publish(linked);
    edgar.publish(redirected);
    edgar.publish(harbor_lane());
    let team = app.create_team().await;

    let pass = run_pass(&app).await;

    assert!(
        elsewhere.requests().is_empty(),
        "nothing but EDGAR was asked: {:?}",
        elsewhere
            .requests()
            .iter()
            .map(|r| r.path.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        pass["signals_created"], 1,
        "the other filing of the feed is read: {pass}"
    );
    assert_eq!(rounds(&app, &team.key, "Harbor Lane").await.len(), 1);
    assert!(
        rounds(&app, &team.key, "Linked Inc").await.is_empty()
            && rounds(&app, &team.key, "Redirected Inc").await.is_empty(),
        "neither filing off EDGAR makes a round"
    );
}

async fn a_403_from_the_sec_is_the_collectors_last_error(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    edgar.publish(harbor_lane());
    let mut settings = collector_settings(&edgar);
    let agent = settings.iter().position(|s| *s == AGENT).unwrap();
    settings[agent] = "anonymous";
    let app = TestApp::start_with(backend, &settings).await;

    let pass = run_pass(&app).await;

    let error = pass["last_error"].as_str().expect("an error");
    assert!(error.contains("403"), "{error}");
    assert_eq!(pass["signals_created"], 0);
    let listed = app.admin(reqwest::Method::GET, "/collectors", None).await;
    let sec = listed
        .data()
        .as_array()
        .expect("collectors")
        .iter()
        .find(|c| c["name"] == "sec-form-d")
        .cloned()
        .expect("the sec-form-d collector is listed");
    assert_eq!(sec["last_error"], pass["last_error"]);
}

async fn every_request_names_the_requester(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    edgar.publish(harbor_lane());

    run_pass(&app).await;

    let requests = edgar.requests();
    assert!(requests.iter().any(|r| r.path == "/cgi-bin/browse-edgar"));
    assert_eq!(edgar.document_reads("0002000101-26-000003"), 1);
    assert!(
        requests
            .iter()
            .all(|r| r.user_agent.as_deref() == Some(AGENT)),
        "{requests:?}"
    );
}

async fn two_workers_read_each_filing_once(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    let other = app.start_beside(&collector_settings(&edgar)).await;
    first_pass_done(&other).await;
    for n in 1..=12 {
        edgar.publish(
            Filing::form_d(
                &format!("0002001{n:03}-26-000001"),
                &format!("0002001{n:03}"),
                &format!("Parallel Company {n} Inc"),
            )
            .build(),
        );
    }
    let team = app.create_team().await;

    let (first, second) = tokio::join!(run_pass(&app), run_pass(&other));

    let created =
        first["signals_created"].as_i64().unwrap() + second["signals_created"].as_i64().unwrap();
    let rows = rounds(&app, &team.key, "Parallel Company").await;
    assert_eq!(rows.len(), 12, "{rows:?}");
    assert!(created <= 12, "{first} {second}");
    for n in 1..=12 {
        assert_eq!(
            edgar.document_reads(&format!("0002001{n:03}-26-000001")),
            1,
            "filing {n} read once"
        );
    }
}

async fn requests_to_the_sec_are_spaced_under_its_rate_limit(backend: Backend) {
    let edgar = LocalEdgar::start().await;
    let app = start(backend, &edgar).await;
    for n in 1..=4 {
        edgar.publish(
            Filing::form_d(
                &format!("0002002{n:03}-26-000001"),
                &format!("0002002{n:03}"),
                &format!("Paced Company {n} Inc"),
            )
            .build(),
        );
    }

    run_pass(&app).await;

    let requests = edgar.requests();
    let pass = &requests[requests.len() - 5..];
    assert!(pass[0].path.starts_with("/cgi-bin/"), "{requests:?}");
    for pair in pass.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        assert!(
            gap >= Duration::from_millis(100),
            "under 10 requests a second: {gap:?} between {:?} and {:?}",
            pair[0].path,
            pair[1].path
        );
    }
}
