//! `/companies?domain=…&enrich_on_miss=true`: a domain no known company has is looked up on its
//! website, and the company it names is stored (and announced) through the ingest path. With
//! `enrich_wait` the company is in the same answer when the look-up ends within
//! `enrich_timeout`; otherwise the answer is empty and a later request finds it. Each request is
//! charged as any page of the list; a failed look-up is an empty list, never an error.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::delivery_support::{FAST, SOON};
use crate::each_backend;
use crate::support::receiver::Receiver;
use crate::support::sources::{Page, Sources, WEBSITE_EXAMPLE};
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    a_missed_domain_is_researched_and_listed_in_the_same_answer_when_the_request_waits,
    without_waiting_the_first_answer_is_empty_and_a_later_request_finds_the_company,
    a_site_slower_than_the_timeout_answers_empty_within_about_the_timeout,
    a_site_that_fails_or_names_no_company_answers_an_empty_list_and_is_not_fetched_again_at_once,
    concurrent_requests_for_one_domain_fetch_its_website_once,
    without_enrich_on_miss_or_with_look_ups_off_nothing_is_fetched,
    a_team_without_credits_is_refused_before_anything_is_fetched,
);

const NORTHWIND: &str = "northwind-labs.com";
const NORTHWIND_SITE: &str = "/sites/northwind-labs.com/";

/// The service pointed at `sources` with website look-ups on, and a team with 100 credits.
async fn start(backend: Backend, sources: &Sources) -> (TestApp, Team) {
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team_with(json!({ "credits": 100 })).await;
    (app, team)
}

async fn companies(app: &TestApp, team: &Team, query: &str) -> TestResponse {
    let response = app
        .get(&format!("/api/v2/companies?{query}"), &team.key)
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    response
}

fn names(response: &TestResponse) -> Vec<String> {
    response
        .data()
        .as_array()
        .expect("rows")
        .iter()
        .map(|c| c["name"].as_str().expect("name").to_string())
        .collect()
}

/// Waits until the team's balance is `expected` (a delivery's charge is committed just after
/// the receiver answered).
async fn eventually_credits(app: &TestApp, team: &Team, expected: i64) {
    let deadline = std::time::Instant::now() + SOON;
    loop {
        let now = credits(app, team).await;
        if now == expected || std::time::Instant::now() > deadline {
            assert_eq!(now, expected);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

async fn credits(app: &TestApp, team: &Team) -> i64 {
    let team = app
        .admin(reqwest::Method::GET, &format!("/teams/{}", team.id), None)
        .await;
    team.data()["credits"].as_i64().expect("credits")
}

async fn a_missed_domain_is_researched_and_listed_in_the_same_answer_when_the_request_waits(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website(NORTHWIND, Page::html(WEBSITE_EXAMPLE));
    let (app, team) = start(backend, &sources).await;
    let feed = Receiver::start().await;
    let webhook = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": feed.url, "event_types": ["new_company.created"] }),
        )
        .await;
    assert_eq!(webhook.status, 201, "{:?}", webhook.body);

    let found = companies(
        &app,
        &team,
        "domain=https://www.northwind-labs.com&enrich_on_miss=true&enrich_wait=true",
    )
    .await;

    assert_eq!(names(&found), ["Northwind Labs GmbH"]);
    let company = &found.data()[0];
    assert_eq!(company["website"], "https://northwind-labs.com");
    assert_eq!(company["headquartersCountry"], "DE");
    assert_eq!(company["foundedYear"], 2019);
    assert_eq!(found.body["pagination"]["totalCount"], 1);
    assert_eq!(found.body["meta"]["creditsUsed"], 1);
    assert_eq!(sources.requests_to(NORTHWIND_SITE).len(), 1);

    let announced = feed.wait_for(1, SOON).await;
    assert_eq!(announced[0].json()["event_type"], "new_company.created");
    assert_eq!(
        announced[0].json()["data"]["company"]["name"],
        "Northwind Labs GmbH"
    );
    // One credit for the list and one for the delivered event; the delivery may be charged
    // before or after the list answer is written, so the balance is read once both are done.
    assert!(
        [98, 99].contains(&found.body["meta"]["creditsRemaining"].as_i64().unwrap_or(0)),
        "{:?}",
        found.body["meta"]
    );
    eventually_credits(&app, &team, 98).await;

    // Known now: asking again lists it without another look-up.
    let again = companies(&app, &team, "domain=northwind-labs.com&enrich_on_miss=true").await;
    assert_eq!(names(&again), ["Northwind Labs GmbH"]);
    assert_eq!(sources.requests_to(NORTHWIND_SITE).len(), 1);
}

async fn without_waiting_the_first_answer_is_empty_and_a_later_request_finds_the_company(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website(
        NORTHWIND,
        Page::Slow(
            Duration::from_millis(500),
            Box::new(Page::html(WEBSITE_EXAMPLE)),
        ),
    );
    let (app, team) = start(backend, &sources).await;

    let first = companies(&app, &team, "domain=northwind-labs.com&enrich_on_miss=true").await;
    assert_eq!(names(&first), Vec::<String>::new());
    assert_eq!(first.body["pagination"]["totalCount"], 0);
    assert_eq!(
        first.body["meta"]["creditsUsed"], 1,
        "an empty page is charged like any page"
    );

    let until = Instant::now() + SOON;
    let mut asked = 1;
    loop {
        let later = companies(&app, &team, "domain=northwind-labs.com").await;
        asked += 1;
        if names(&later) == ["Northwind Labs GmbH"] {
            break;
        }
        assert!(
            Instant::now() < until,
            "the look-up never stored the company"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(credits(&app, &team).await, 100 - asked);
    assert_eq!(sources.requests_to(NORTHWIND_SITE).len(), 1);
}

async fn a_site_slower_than_the_timeout_answers_empty_within_about_the_timeout(backend: Backend) {
    let sources = Sources::start().await;
    sources.website("slow-site.com", Page::Hang);
    let (app, team) = start(backend, &sources).await;

    let asked = Instant::now();
    let answer = companies(
        &app,
        &team,
        "domain=slow-site.com&enrich_on_miss=true&enrich_wait=true&enrich_timeout=1",
    )
    .await;
    let took = asked.elapsed();

    assert_eq!(names(&answer), Vec::<String>::new());
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(4),
        "answered after {took:?}"
    );
    assert_eq!(answer.body["meta"]["creditsUsed"], 1);
    assert_eq!(sources.requests_to("/sites/slow-site.com/").len(), 1);
}

async fn a_site_that_fails_or_names_no_company_answers_an_empty_list_and_is_not_fetched_again_at_once(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website("broken-site.com", Page::Status(500));
    sources.website(
        "nameless-site.com",
        Page::html("<html><head></head><body><p>Coming soon</p></body></html>"),
    );
    let (app, team) = start(backend, &sources).await;

    for domain in ["broken-site.com", "nameless-site.com"] {
        let query = format!("domain={domain}&enrich_on_miss=true&enrich_wait=true");
        let answer = companies(&app, &team, &query).await;
        assert_eq!(names(&answer), Vec::<String>::new(), "{domain}");
        assert_eq!(answer.body["meta"]["creditsUsed"], 1);

        // The failure is remembered: asking again at once fetches nothing.
        let again = companies(&app, &team, &query).await;
        assert_eq!(names(&again), Vec::<String>::new());
        let path = format!("/sites/{domain}/");
        assert_eq!(sources.requests_to(&path).len(), 1, "{domain}");
    }
    assert_eq!(credits(&app, &team).await, 96);
}

async fn concurrent_requests_for_one_domain_fetch_its_website_once(backend: Backend) {
    let sources = Sources::start().await;
    sources.website(
        NORTHWIND,
        Page::Slow(
            Duration::from_secs(1),
            Box::new(Page::html(WEBSITE_EXAMPLE)),
        ),
    );
    let (app, team) = start(backend, &sources).await;

    let query = "domain=northwind-labs.com&enrich_on_miss=true&enrich_wait=true&enrich_timeout=15";
    let answers = tokio::join!(
        companies(&app, &team, query),
        companies(&app, &team, query),
        companies(&app, &team, query),
        companies(&app, &team, query),
        companies(&app, &team, query),
    );

    for answer in [answers.0, answers.1, answers.2, answers.3, answers.4] {
        assert_eq!(names(&answer), ["Northwind Labs GmbH"]);
    }
    assert_eq!(sources.requests_to(NORTHWIND_SITE).len(), 1);
    let listed = companies(&app, &team, "search=Northwind").await;
    assert_eq!(listed.body["pagination"]["totalCount"], 1, "one company");
}

async fn without_enrich_on_miss_or_with_look_ups_off_nothing_is_fetched(backend: Backend) {
    let sources = Sources::start().await;
    sources.website(NORTHWIND, Page::html(WEBSITE_EXAMPLE));
    let (app, team) = start(backend.clone(), &sources).await;

    for query in [
        "domain=northwind-labs.com",
        "domain=northwind-labs.com&enrich_wait=true",
        "domain=northwind-labs.com&enrich_on_miss=false&enrich_wait=true",
    ] {
        let answer = companies(&app, &team, query).await;
        assert_eq!(names(&answer), Vec::<String>::new(), "{query}");
    }

    let template = format!("{}/sites/{{domain}}/", sources.base);
    let off = TestApp::start_with(
        backend,
        &[
            "--allow-private-webhooks",
            "true",
            "--research-url-template",
            &template,
            "--research-fetch",
            "false",
        ],
    )
    .await;
    let off_team = off.create_team().await;
    let answer = companies(
        &off,
        &off_team,
        "domain=northwind-labs.com&enrich_on_miss=true&enrich_wait=true",
    )
    .await;
    assert_eq!(names(&answer), Vec::<String>::new());
    assert_eq!(answer.body["meta"]["creditsUsed"], 1);

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sources.requests().len(), 0, "nothing was fetched");
}

async fn a_team_without_credits_is_refused_before_anything_is_fetched(backend: Backend) {
    let sources = Sources::start().await;
    sources.website(NORTHWIND, Page::html(WEBSITE_EXAMPLE));
    let (app, _) = start(backend, &sources).await;
    let broke = app.create_team_with(json!({ "credits": 0 })).await;

    let refused = app
        .get(
            "/api/v2/companies?domain=northwind-labs.com&enrich_on_miss=true&enrich_wait=true",
            &broke.key,
        )
        .await;
    assert_eq!(refused.status, 402, "{:?}", refused.body);
    assert_eq!(refused.body["code"], Value::from("insufficient_credits"));

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sources.requests().len(), 0, "nothing was fetched");
}
