//! The dashboard's main journeys in a real headless Chromium: sign in by link, create a monitor
//! with targets and a webhook, watch a signal arrive and its delivery show up, retry a failed
//! delivery, upload a CSV and download its results, create and revoke a key. The journeys save
//! the screenshots the README shows.

use std::time::Duration;

use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::json;

use crate::delivery_support::acme_round;
use crate::support::browser::Browser;
use crate::support::dashboard::wait_for_link;
use crate::support::receiver::{Answer, Receiver};
use crate::support::{Backend, TestApp};

const OWNER: &str = "owner@example.com";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run with --run-ignored all"]
async fn a_member_works_through_the_dashboard_in_a_real_browser() {
    let browser = Browser::start("dashboard_browser").await;
    let app = TestApp::start_with(
        Backend::Sqlite,
        &["--allow-private-webhooks", "true", "--retry-schedule", "1"],
    )
    .await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme Inc", "website": "https://acme.com",
        "industry": "Software", "headquartersCountry": "US" }]))
        .await;
    let receiver = Receiver::start().await;
    // Both automatic attempts fail; the manual retry succeeds.
    receiver.script([Answer::Status(500), Answer::Status(502)]);

    sign_in(&browser, &app).await;
    let monitor_path = create_monitor(&browser, &receiver).await;
    signal_arrives_and_its_delivery_fails_then_is_retried(&browser, &app, &monitor_path).await;
    upload_and_download(&browser, &app).await;
    create_and_revoke_a_key(&browser, &app, &team.key).await;
    browser.goto(&format!("{}/app/usage", app.base)).await;
    browser.wait_for_text("Credits used per day", false).await;
    browser.screenshot("usage").await;
    keyboard_and_phone_width(&browser, &app).await;
    browser.finish().await;
}

/// The first Tab reaches the skip link and the next ones the navigation, with a visible focus
/// style; at a phone's width no page scrolls sideways (wide tables scroll inside their box).
async fn keyboard_and_phone_width(browser: &Browser, app: &TestApp) {
    browser.goto(&format!("{}/app/monitors", app.base)).await;
    let body = browser
        .client
        .find(Locator::Css("body"))
        .await
        .expect("body");
    body.send_keys(&char::from(Key::Tab).to_string())
        .await
        .expect("tab");
    let focused = browser.client.active_element().await.expect("focus");
    assert_eq!(focused.text().await.expect("text"), "Skip to content");
    for _ in 0..2 {
        let active = browser.client.active_element().await.expect("focus");
        active
            .send_keys(&char::from(Key::Tab).to_string())
            .await
            .expect("tab");
    }
    let focused = browser.client.active_element().await.expect("focus");
    assert_eq!(focused.text().await.expect("text"), "Monitors");
    let outline = browser
        .client
        .execute(
            "return getComputedStyle(document.activeElement).outlineStyle;",
            vec![],
        )
        .await
        .expect("style");
    assert_eq!(outline, json!("solid"), "a visible focus ring");

    browser
        .client
        .set_window_size(390, 844)
        .await
        .expect("phone width");
    for page in [
        "monitors",
        "webhooks",
        "signals",
        "enrichment",
        "keys",
        "usage",
    ] {
        browser.goto(&format!("{}/app/{page}", app.base)).await;
        let fits = browser
            .client
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth;",
                vec![],
            )
            .await
            .expect("width");
        assert_eq!(
            fits,
            json!(true),
            "/app/{page} scrolls sideways at phone width"
        );
    }
    browser
        .client
        .set_window_size(1280, 1000)
        .await
        .expect("desktop width");
}

async fn sign_in(browser: &Browser, app: &TestApp) {
    browser.goto(&format!("{}/app/monitors", app.base)).await;
    assert_eq!(browser.path().await, "/app/login", "sent to sign in");
    browser.fill("email", OWNER).await;
    browser.press("Send sign-in link").await;
    browser
        .wait_for_text("a sign-in link is on its way", false)
        .await;
    let link = wait_for_link(app.mail_dir(), OWNER, 1).await;
    browser.goto(&link).await;
    assert_eq!(browser.path().await, "/app/monitors");
    browser.wait_for_text("No monitors yet", false).await;
}

async fn create_monitor(browser: &Browser, receiver: &Receiver) -> String {
    browser.follow("New monitor").await;
    browser.fill("name", "Competitors").await;
    let funding = browser
        .client
        .find(Locator::Css(
            "input[name=signal_types][value=funding_round]",
        ))
        .await
        .expect("funding checkbox");
    funding.click().await.expect("tick");
    browser.fill("webhook_url", &receiver.url).await;
    browser.press("Create monitor").await;
    browser.wait_for_text("shown only this once", false).await;
    let action = browser
        .client
        .find(Locator::Css("form[action$='/targets']"))
        .await
        .expect("the Add targets form")
        .attr("action")
        .await
        .expect("action")
        .expect("an action");
    let path = action.trim_end_matches("/targets").to_string();
    assert!(path.starts_with("/app/monitors/"), "{path}");
    browser
        .fill("entries", "acme.com\nwaiting-for-research.io")
        .await;
    browser.press("Add targets").await;
    browser.wait_for_text("Added 2", false).await;
    let html = browser.html().await;
    assert!(
        html.contains("Resolved") && html.contains("Pending"),
        "{html}"
    );
    path
}

async fn signal_arrives_and_its_delivery_fails_then_is_retried(
    browser: &Browser,
    app: &TestApp,
    monitor_path: &str,
) {
    let ingested = app
        .admin(
            reqwest::Method::POST,
            "/signals/funding",
            Some(json!([acme_round("round-1")])),
        )
        .await;
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);
    browser.goto(&format!("{}{monitor_path}", app.base)).await;
    browser.wait_for_text("2026-11-20 10:00 UTC", true).await;
    browser.goto(&format!("{}/app/monitors", app.base)).await;
    browser.screenshot("monitors").await;

    browser.follow("Webhooks").await;
    let webhook = browser
        .client
        .find(Locator::Css("table a[href^='/app/webhooks/']"))
        .await
        .expect("the monitor's webhook");
    webhook.click().await.expect("open webhook");
    browser.wait_for_text("funding.created", true).await;
    let delivery = browser
        .client
        .find(Locator::Css("table a[href*='/deliveries/']"))
        .await
        .expect("a delivery");
    delivery.click().await.expect("open delivery");
    browser.wait_for_text(">failed</span>", true).await;
    let html = browser.html().await;
    assert!(
        html.contains("<td>500</td>") && html.contains("<td>502</td>"),
        "{html}"
    );
    browser.screenshot("delivery").await;
    browser.press("Retry").await;
    browser.wait_for_text(">done</span>", true).await;
    let html = browser.html().await;
    assert!(html.contains("<td>200</td>"), "{html}");
}

async fn upload_and_download(browser: &Browser, app: &TestApp) {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("accounts.csv");
    std::fs::write(
        &csv,
        "name,website\nAcme Inc,acme.com\nNobody,nobody-here.example\n",
    )
    .expect("csv written");
    browser.goto(&format!("{}/app/enrichment", app.base)).await;
    let file = browser
        .client
        .find(Locator::Id("file"))
        .await
        .expect("CSV file field");
    file.send_keys(&csv.display().to_string())
        .await
        .expect("file chosen");
    browser.press("Upload and enrich (1 credit)").await;
    browser.wait_for_text("Download results", false).await;
    browser.wait_for_text("Acme Inc", false).await;
    let link = browser
        .client
        .find(Locator::LinkText("Download results"))
        .await
        .expect("download link");
    let href = link.attr("href").await.expect("href").expect("href value");
    let cookie = browser.session_cookie().await;
    let downloaded = reqwest::Client::new()
        .get(format!("{}{href}", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .expect("download");
    assert_eq!(downloaded.status(), 200);
    let text = downloaded.text().await.expect("csv");
    assert!(
        text.starts_with("name,website,matched,company_id"),
        "{text}"
    );
    assert!(text.contains("Acme Inc,acme.com,true,"), "{text}");
}

async fn create_and_revoke_a_key(browser: &Browser, app: &TestApp, owner_key: &str) {
    browser.goto(&format!("{}/app/keys", app.base)).await;
    browser.press("Create key").await;
    browser.wait_for_text("Your new API key", false).await;
    let key = browser
        .client
        .find(Locator::Id("new-key"))
        .await
        .expect("the new key")
        .prop("value")
        .await
        .expect("value")
        .expect("a key");
    assert!(key.starts_with("sw_live_"), "{key}");
    assert_eq!(app.get("/api/v2/monitors", &key).await.status, 200);

    let prefix: String = key.chars().take(12).collect();
    let revoke = format!("//button[@aria-label='Revoke {prefix}…']");
    browser
        .client
        .find(Locator::XPath(&revoke))
        .await
        .expect("the key's Revoke button")
        .click()
        .await
        .expect("revoke");
    browser.wait_for_text("API keys", false).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while app.get("/api/v2/monitors", &key).await.status != 401 {
        assert!(
            std::time::Instant::now() < deadline,
            "the revoked key still works"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(app.get("/api/v2/monitors", owner_key).await.status, 200);
}
