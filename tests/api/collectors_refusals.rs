//! Boards that misbehave the way hostile or broken servers do: a redirect to a private address
//! is refused before any connection to it, and a board that never answers times out. Either
//! is recorded as that board's failure, and the pass goes on with the other boards.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::delivery_support::FAST;
use crate::each_backend;
use crate::lists_support::HIRING;
use crate::support::sources::{GREENHOUSE_EXAMPLE, Page, Sources, WEBSITE_EXAMPLE};
use crate::support::{Backend, TestApp};

each_backend!(
    a_board_redirecting_to_a_private_address_is_refused_and_the_pass_goes_on,
    a_board_that_never_answers_times_out_and_the_pass_goes_on,
);

/// Longest a board request may take (the collectors' timeout).
const BOARD_TIMEOUT: Duration = Duration::from_secs(30);

/// Starts a service with `settings`, watches a company with these Greenhouse boards, and runs
/// one Greenhouse pass; returns the service and the pass's record.
async fn pass_over(backend: Backend, settings: Vec<String>, boards: &[&str]) -> (TestApp, Value) {
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Accounts").await;
    let boards: Vec<Value> = boards
        .iter()
        .map(|token| json!({ "provider": "greenhouse", "token": token }))
        .collect();
    app.import_companies(json!([{ "name": "Northwind Labs",
        "website": "https://northwindlabs.com", "jobBoards": boards }]))
        .await;
    let added = app
        .add_targets(&team, &monitor, json!(["northwindlabs.com"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let run = app
        .admin(reqwest::Method::POST, "/collectors/greenhouse/run", None)
        .await;
    assert_eq!(run.status, 200, "{:?}", run.body);
    let pass = run.data().clone();
    let listed = app.get(&format!("{HIRING}?limit=100"), &team.key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(
        listed.data().as_array().map(Vec::len),
        Some(2),
        "the good board's two postings are stored: {:?}",
        listed.body
    );
    (app, pass)
}

fn figures(pass: &Value) -> (i64, i64, i64) {
    (
        pass["sources_checked"].as_i64().unwrap_or(-1),
        pass["items_seen"].as_i64().unwrap_or(-1),
        pass["signals_created"].as_i64().unwrap_or(-1),
    )
}

async fn a_board_redirecting_to_a_private_address_is_refused_and_the_pass_goes_on(
    backend: Backend,
) {
    let sources = Sources::start().await;
    // Another server on the machine: a private address the collector must not reach.
    let internal = Sources::start().await;
    internal.website("admin", Page::html(WEBSITE_EXAMPLE));
    sources.board(
        "greenhouse",
        "northwindlabs",
        Page::json(GREENHOUSE_EXAMPLE),
    );
    sources.board(
        "greenhouse",
        "moved",
        Page::Redirect(format!("{}/sites/admin/", internal.base)),
    );
    sources.board(
        "greenhouse",
        "metadata",
        Page::Redirect("http://169.254.169.254/latest/meta-data/".into()),
    );
    let settings = sources.settings_refusing_other_private_addresses();

    let (_app, pass) = pass_over(backend, settings, &["northwindlabs", "moved", "metadata"]).await;

    assert_eq!(figures(&pass), (3, 2, 2), "{pass}");
    let error = pass["last_error"].as_str().unwrap_or_default();
    assert!(error.starts_with("2 boards failed"), "{error}");
    assert!(error.contains("redirect refused"), "{error}");
    for board in ["moved", "metadata"] {
        let asked = sources.requests_to(&Sources::board_path("greenhouse", board));
        assert_eq!(asked.len(), 1, "{board} asked once");
    }
    assert!(
        internal.requests().is_empty(),
        "nothing reached the private address: {:?}",
        internal.requests()
    );
}

async fn a_board_that_never_answers_times_out_and_the_pass_goes_on(backend: Backend) {
    let sources = Sources::start().await;
    sources.board("greenhouse", "hanging", Page::Hang);
    sources.board(
        "greenhouse",
        "northwindlabs",
        Page::json(GREENHOUSE_EXAMPLE),
    );
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());

    let started = Instant::now();
    let (_app, pass) = pass_over(backend, settings, &["hanging", "northwindlabs"]).await;
    let took = started.elapsed();

    assert_eq!(figures(&pass), (2, 2, 2), "{pass}");
    let error = pass["last_error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("hanging: ") && error.contains("timed out"),
        "{error}"
    );
    assert!(
        took >= BOARD_TIMEOUT && took < BOARD_TIMEOUT * 2,
        "the pass waited for the board's timeout and no longer: {took:?}"
    );
}
