//! Research looks a pending domain target up on its website: the page's facts make the company,
//! the company resolves the targets and is announced; a website that cannot be read leaves the
//! target pending with the reason, and a later look-up tries again. LinkedIn is never asked.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::delivery_support::{FAST, SOON};
use crate::each_backend;
use crate::support::receiver::Receiver;
use crate::support::sources::{Page, Sources, WEBSITE_EXAMPLE};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    a_pending_domain_is_looked_up_soon_after_it_is_added_and_becomes_the_company_of_its_website,
    a_website_that_cannot_be_read_leaves_its_target_pending_with_the_reason_until_a_later_look_up,
    linkedin_is_never_asked_and_its_targets_resolve_through_the_company_a_website_names,
    a_website_redirecting_to_a_private_address_is_refused_and_that_address_is_never_asked,
);

/// How long research may take to look a new target up (the contract: within a minute).
const WITHIN_A_MINUTE: Duration = Duration::from_secs(60);

/// The service pointed at `sources` with website look-ups on, and a team with a monitor.
async fn start(backend: Backend, sources: &Sources) -> (TestApp, Team, String) {
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Accounts").await;
    (app, team, monitor)
}

async fn targets(app: &TestApp, team: &Team, monitor: &str) -> Vec<Value> {
    let listed = app
        .get(&format!("/api/v2/monitors/{monitor}/targets"), &team.key)
        .await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    listed.data().as_array().expect("targets").clone()
}

fn by_value<'a>(targets: &'a [Value], value: &str) -> &'a Value {
    targets
        .iter()
        .find(|t| t["value"] == value)
        .unwrap_or_else(|| panic!("no target {value} in {targets:?}"))
}

/// Waits until the monitor's target `value` satisfies `done`, and returns it.
async fn wait_for_target(
    app: &TestApp,
    team: &Team,
    monitor: &str,
    value: &str,
    deadline: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let until = Instant::now() + deadline;
    loop {
        let all = targets(app, team, monitor).await;
        let target = by_value(&all, value).clone();
        if done(&target) {
            return target;
        }
        assert!(Instant::now() < until, "target never got there: {target}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn run_research(app: &TestApp) -> Value {
    let run = app
        .admin(reqwest::Method::POST, "/research/run", None)
        .await;
    assert_eq!(run.status, 200, "{:?}", run.body);
    run.data().clone()
}

async fn a_pending_domain_is_looked_up_soon_after_it_is_added_and_becomes_the_company_of_its_website(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website("northwind-labs.com", Page::html(WEBSITE_EXAMPLE));
    let (app, team, monitor) = start(backend, &sources).await;
    let feed = Receiver::start().await;
    let webhook = app
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": feed.url, "event_types": ["new_company.created"] }),
        )
        .await;
    assert_eq!(webhook.status, 201, "{:?}", webhook.body);

    let added = app
        .add_targets(
            &team,
            &monitor,
            json!(["https://www.northwind-labs.com/about"]),
        )
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    let target = wait_for_target(
        &app,
        &team,
        &monitor,
        "northwind-labs.com",
        WITHIN_A_MINUTE,
        |t| t["status"] == "resolved",
    )
    .await;
    assert_eq!(target["company"]["name"], "Northwind Labs GmbH");
    assert_eq!(target["company"]["domain"], "northwind-labs.com");
    assert_eq!(target["company"]["country"], "DE");
    assert_eq!(target["research_error"], Value::Null);

    let announced = feed.wait_for(1, SOON).await;
    let body = announced[0].json();
    assert_eq!(body["event_type"], "new_company.created");
    assert_eq!(body["data"]["company"]["name"], "Northwind Labs GmbH");

    let company = &body["data"]["company"];
    assert_eq!(company["website"], "https://northwind-labs.com");
    assert_eq!(
        company["linkedinUrl"],
        "https://www.linkedin.com/company/northwind-labs"
    );
    assert_eq!(
        company["description"],
        "Northwind Labs builds data infrastructure for logistics teams."
    );
    assert_eq!(
        company["logoUrl"],
        "https://northwindlabs.example/static/logo.png"
    );
    assert_eq!(company["foundedYear"], 2019);
    assert_eq!(company["employeeCount"], 140);
    let asked = sources.requests_to("/sites/northwind-labs.com/");
    assert_eq!(asked.len(), 1, "one look-up, then the target is resolved");
    assert!(
        asked[0]
            .header("user-agent")
            .is_some_and(|ua| ua.starts_with("signalwatch/"))
    );
}

async fn a_website_that_cannot_be_read_leaves_its_target_pending_with_the_reason_until_a_later_look_up(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website("broken-site.com", Page::Status(500));
    sources.website(
        "nameless-site.com",
        Page::html("<html><head></head><body><p>Coming soon</p></body></html>"),
    );
    sources.website(
        "huge-site.com",
        Page::html(format!(
            "<html><head><title>Huge</title></head><body>{}</body></html>",
            "x".repeat(2 * 1024 * 1024 + 1)
        )),
    );
    sources.website("junk-site.com", Page::json("{\"not\": \"html\"}"));
    // Four redirects in a row: one more than a look-up follows.
    for (from, to) in [
        ("loop-a", "loop-b"),
        ("loop-b", "loop-c"),
        ("loop-c", "loop-d"),
    ] {
        sources.website(
            &format!("{from}.com"),
            Page::Redirect(format!("{}/sites/{to}.com/", sources.base)),
        );
    }
    sources.website(
        "loop-d.com",
        Page::Redirect(format!("{}/sites/loop-e.com/", sources.base)),
    );
    sources.website("loop-e.com", Page::html(WEBSITE_EXAMPLE));
    sources.website("slow-site.com", Page::Hang);
    let (app, team, monitor) = start(backend, &sources).await;
    let domains = [
        "broken-site.com",
        "nameless-site.com",
        "huge-site.com",
        "junk-site.com",
        "unknown-site.com",
        "loop-a.com",
        "slow-site.com",
    ];
    let added = app.add_targets(&team, &monitor, json!(domains)).await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    // Each is looked up soon after being added, and each look-up fails with its reason.
    let until = Instant::now() + WITHIN_A_MINUTE;
    let listed = loop {
        let listed = targets(&app, &team, &monitor).await;
        if listed.iter().all(|t| t["research_error"].is_string()) {
            break listed;
        }
        assert!(
            Instant::now() < until,
            "not every look-up failed: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    for (domain, reason) in [
        ("broken-site.com", "HTTP 500"),
        ("nameless-site.com", "no company name"),
        ("huge-site.com", "larger than"),
        ("junk-site.com", "no company name"),
        ("unknown-site.com", "HTTP 404"),
        ("loop-a.com", "more than 3 redirects"),
        ("slow-site.com", "timed out"),
    ] {
        let target = by_value(&listed, domain);
        assert_eq!(target["status"], "pending", "{domain}: {target}");
        let error = target["research_error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{domain}: {error:?}");
    }

    // A failed look-up is not repeated at once: the next waits (minutes, then longer).
    assert_eq!(sources.requests_to("/sites/broken-site.com/").len(), 1);
    // The site is fixed; the next look-up (here asked for at once) finds the company.
    sources.website("broken-site.com", Page::html(WEBSITE_EXAMPLE));
    let run = run_research(&app).await;
    assert!(run["resolved"].as_i64().unwrap_or_default() >= 1, "{run}");
    let listed = targets(&app, &team, &monitor).await;
    let fixed = by_value(&listed, "broken-site.com");
    assert_eq!(fixed["status"], "resolved", "{fixed}");
    assert_eq!(fixed["research_error"], Value::Null);
    assert_eq!(sources.requests_to("/sites/broken-site.com/").len(), 2);
}

async fn linkedin_is_never_asked_and_its_targets_resolve_through_the_company_a_website_names(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.website("northwind-labs.com", Page::html(WEBSITE_EXAMPLE));
    let (app, team, monitor) = start(backend, &sources).await;
    let added = app
        .add_targets(
            &team,
            &monitor,
            json!([
                "https://www.linkedin.com/company/northwind-labs",
                "https://www.linkedin.com/company/somebody-else",
                "https://www.linkedin.com/in/jane-doe"
            ]),
        )
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    run_research(&app).await;
    let listed = targets(&app, &team, &monitor).await;
    assert!(
        listed.iter().all(|t| t["status"] == "pending"),
        "{listed:?}"
    );
    assert!(
        sources.requests().is_empty(),
        "nothing was fetched for LinkedIn targets"
    );

    // Research of the website that names the LinkedIn page resolves that page's target too.
    app.add_targets(&team, &monitor, json!(["northwind-labs.com"]))
        .await;
    let page = wait_for_target(
        &app,
        &team,
        &monitor,
        "linkedin.com/company/northwind-labs",
        WITHIN_A_MINUTE,
        |t| t["status"] == "resolved",
    )
    .await;
    assert_eq!(page["company"]["name"], "Northwind Labs GmbH");
    let listed = targets(&app, &team, &monitor).await;
    assert_eq!(
        by_value(&listed, "linkedin.com/company/somebody-else")["status"],
        "pending"
    );
    let asked: Vec<String> = sources.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(asked, ["/sites/northwind-labs.com/"]);
}

async fn a_website_redirecting_to_a_private_address_is_refused_and_that_address_is_never_asked(
    backend: Backend,
) {
    let sources = Sources::start().await;
    // Another server on the machine: a private address the look-up must not reach.
    let internal = Sources::start().await;
    internal.website("admin", Page::html(WEBSITE_EXAMPLE));
    sources.website(
        "moved-site.com",
        Page::Redirect(format!("{}/sites/admin/", internal.base)),
    );
    sources.website(
        "metadata-site.com",
        Page::Redirect("http://169.254.169.254/latest/meta-data/".into()),
    );
    sources.website("northwind-labs.com", Page::html(WEBSITE_EXAMPLE));
    let settings = sources.settings_refusing_other_private_addresses();
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Accounts").await;
    let domains = ["moved-site.com", "metadata-site.com", "northwind-labs.com"];
    let added = app.add_targets(&team, &monitor, json!(domains)).await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    // The sources' own address is let through: the website without a redirect is read.
    let read = wait_for_target(
        &app,
        &team,
        &monitor,
        "northwind-labs.com",
        WITHIN_A_MINUTE,
        |t| t["status"] == "resolved",
    )
    .await;
    assert_eq!(read["company"]["name"], "Northwind Labs GmbH");
    for domain in ["moved-site.com", "metadata-site.com"] {
        let refused = wait_for_target(&app, &team, &monitor, domain, WITHIN_A_MINUTE, |t| {
            t["research_error"].is_string()
        })
        .await;
        assert_eq!(refused["status"], "pending", "{refused}");
        let error = refused["research_error"].as_str().unwrap_or_default();
        assert!(error.contains("redirect refused"), "{domain}: {error:?}");
        assert_eq!(sources.requests_to(&format!("/sites/{domain}/")).len(), 1);
    }
    assert!(
        internal.requests().is_empty(),
        "nothing reached the private address: {:?}",
        internal.requests()
    );
}
