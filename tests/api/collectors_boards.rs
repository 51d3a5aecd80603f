//! The job-board collectors: boards of watched companies become hiring signals through the
//! ingest path, once per posting; postings gone from a board are dated; boards are asked
//! conditionally and politely; failing boards are recorded and never stop a pass.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::delivery_support::{FAST, SOON, assert_stays_at};
use crate::each_backend;
use crate::lists_support::HIRING;
use crate::support::receiver::Receiver;
use crate::support::sources::{
    ASHBY_EXAMPLE, GREENHOUSE_EXAMPLE, LEVER_EXAMPLE, Page, Sources, WEBSITE_EXAMPLE,
    greenhouse_board,
};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    each_new_posting_of_a_watched_board_becomes_one_hiring_signal_delivered_once,
    a_posting_gone_from_its_board_gets_valid_through_and_an_unchanged_board_is_not_read_again,
    failing_boards_are_recorded_and_the_pass_goes_on_one_request_at_a_time,
    only_boards_of_companies_watched_by_an_active_monitor_are_polled,
    a_board_found_on_a_website_by_research_is_collected,
    an_enabled_collector_polls_on_its_own_every_interval,
    two_services_polling_the_same_boards_at_once_create_each_posting_once,
    job_boards_given_by_the_operator_are_checked,
);

/// A service pointed at `sources`, a team, and a monitor of hiring signals posting to a
/// receiver.
pub(crate) struct Watch {
    pub app: TestApp,
    team: Team,
    monitor: String,
    pub receiver: Receiver,
}

pub(crate) async fn watch(backend: Backend, sources: &Sources, extra: &[&str]) -> Watch {
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    settings.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let app = TestApp::start_with(backend, &args).await;
    let team = app.create_team().await;
    let receiver = Receiver::start().await;
    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({ "name": "Hiring", "signal_types": ["hiring"], "webhook_url": receiver.url }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    Watch {
        app,
        team,
        monitor,
        receiver,
    }
}

impl Watch {
    /// Imports a company with these boards and watches it.
    pub(crate) async fn company(&self, name: &str, domain: &str, boards: Value) -> String {
        let id = self
            .app
            .import_companies(
                json!([{ "name": name, "website": format!("https://{domain}"),
                "jobBoards": boards }]),
            )
            .await
            .remove(0);
        let added = self
            .app
            .add_targets(&self.team, &self.monitor, json!([domain]))
            .await;
        assert_eq!(added.status, 200, "{:?}", added.body);
        id
    }

    async fn run(&self, collector: &str) -> Value {
        run(&self.app, collector).await
    }

    async fn hiring(&self, query: &str) -> Vec<Value> {
        let listed = self
            .app
            .get(&format!("{HIRING}?limit=100{query}"), &self.team.key)
            .await;
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        listed.data().as_array().expect("records").clone()
    }
}

async fn run(app: &TestApp, collector: &str) -> Value {
    let run = app
        .admin(
            reqwest::Method::POST,
            &format!("/collectors/{collector}/run"),
            None,
        )
        .await;
    assert_eq!(run.status, 200, "{:?}", run.body);
    run.data().clone()
}

fn figures(run: &Value) -> (i64, i64, i64) {
    (
        run["sources_checked"].as_i64().expect("sources_checked"),
        run["items_seen"].as_i64().expect("items_seen"),
        run["signals_created"].as_i64().expect("signals_created"),
    )
}

async fn each_new_posting_of_a_watched_board_becomes_one_hiring_signal_delivered_once(
    backend: Backend,
) {
    let sources = Sources::start().await;
    sources.board(
        "greenhouse",
        "northwindlabs",
        Page::json(GREENHOUSE_EXAMPLE),
    );
    let watch = watch(backend, &sources, &[]).await;
    let company = watch
        .company(
            "Northwind Labs",
            "northwindlabs.com",
            json!([{ "provider": "greenhouse", "token": "northwindlabs" }]),
        )
        .await;

    let first = watch.run("greenhouse").await;
    assert_eq!(first["name"], "greenhouse");
    assert_eq!(figures(&first), (1, 2, 2), "{first}");
    assert_eq!(first["last_error"], Value::Null);
    assert!(first["last_run_at"].is_string(), "{first}");

    let delivered = watch.receiver.wait_for(2, SOON).await;
    for delivery in &delivered {
        let body = delivery.json();
        assert_eq!(body["event_type"], "hiring.created");
    }
    let records = watch.hiring("&sort_by=date_posted&sort_order=asc").await;
    assert_eq!(records.len(), 2, "{records:?}");
    let rust = records
        .iter()
        .find(|r| r["title"] == "Senior Backend Engineer (Rust)")
        .expect("the first posting");
    assert_eq!(rust["companyId"], company.as_str());
    assert_eq!(
        rust["jobUrl"],
        "https://job-boards.greenhouse.io/northwindlabs/jobs/7001234"
    );
    assert_eq!(rust["location"], "Berlin, Germany");
    assert_eq!(rust["city"], "Berlin");
    assert_eq!(rust["jobCountry"], "DE");
    assert_eq!(rust["jobId"], "7001234");
    assert_eq!(rust["datePosted"], "2026-11-17T20:02:10.000Z");
    assert_eq!(rust["validThrough"], Value::Null);
    assert_eq!(
        rust["descriptionText"],
        "We are looking for a Senior Backend Engineer to build our data platform.\nRust, PostgreSQL"
    );
    // Tagged like an imported posting: the title's department is a filter.
    let engineering = watch.hiring("&departments=engineering").await;
    let titles: Vec<&Value> = engineering.iter().map(|r| &r["title"]).collect();
    assert_eq!(titles, [&json!("Senior Backend Engineer (Rust)")]);
    let sales = watch.hiring("&departments=sales").await;
    assert_eq!(sales.len(), 1);
    assert_eq!(sales[0]["title"], "Account Executive, Mid-Market");

    let second = watch.run("greenhouse").await;
    assert_eq!(figures(&second), (1, 2, 0), "{second}");
    assert_stays_at(&watch.receiver, 2, Duration::from_secs(1)).await;
    assert_eq!(watch.hiring("").await.len(), 2);

    let listed = watch
        .app
        .admin(reqwest::Method::GET, "/collectors", None)
        .await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    let names: Vec<&str> = listed
        .data()
        .as_array()
        .expect("collectors")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["greenhouse", "lever", "ashby", "sec-form-d"]);
    assert_eq!(listed.data()[0], second);
    assert_eq!(listed.data()[0]["enabled"], false);

    let text = watch.app.metrics().await;
    assert!(
        text.contains("signalwatch_collector_signals_created_total{collector=\"greenhouse\"}"),
        "{text}"
    );
}

async fn a_posting_gone_from_its_board_gets_valid_through_and_an_unchanged_board_is_not_read_again(
    backend: Backend,
) {
    let sources = Sources::start().await;
    let mut two: Vec<Value> = serde_json::from_str(LEVER_EXAMPLE).expect("example");
    let mut other = two[0].clone();
    other["id"] = json!("aa000000-0000-4000-8000-000000000002");
    other["text"] = json!("Product Designer");
    other["hostedUrl"] = json!("https://jobs.lever.co/brightfieldai/aa000000");
    two.push(other);
    sources.board(
        "lever",
        "brightfieldai",
        Page::json_tagged(Value::from(two.clone()).to_string(), "v1"),
    );
    let watch = watch(backend, &sources, &[]).await;
    watch
        .company(
            "Brightfield AI",
            "brightfield.ai",
            json!([{ "provider": "lever", "token": "brightfieldai" }]),
        )
        .await;
    let path = Sources::board_path("lever", "brightfieldai");

    assert_eq!(figures(&watch.run("lever").await), (1, 2, 2));
    // Unchanged: the board answers 304 to the ETag it gave, and nothing is read.
    assert_eq!(figures(&watch.run("lever").await), (1, 0, 0));
    let asked = sources.requests_to(&path);
    assert_eq!(asked[0].header("if-none-match"), None);
    assert_eq!(asked[1].header("if-none-match"), Some("\"v1\""));

    // The designer posting is taken down.
    sources.board(
        "lever",
        "brightfieldai",
        Page::json_tagged(Value::from(vec![two[0].clone()]).to_string(), "v2"),
    );
    assert_eq!(figures(&watch.run("lever").await), (1, 1, 0));
    let records = watch.hiring("").await;
    let gone = records
        .iter()
        .find(|r| r["title"] == "Product Designer")
        .expect("the gone posting is still listed by default");
    let today = chrono::Utc::now()
        .format("%Y-%m-%dT00:00:00.000Z")
        .to_string();
    assert_eq!(gone["validThrough"], today.as_str());
    let open = records
        .iter()
        .find(|r| r["title"] == "Staff Site Reliability Engineer")
        .expect("the open posting");
    assert_eq!(open["validThrough"], Value::Null);
    assert_eq!(open["city"], "London");
    assert_eq!(open["jobCountry"], "GB");
    assert_eq!(open["employmentType"], "Full-time");
    assert_eq!(
        sources.requests_to(&path)[2].header("if-none-match"),
        Some("\"v1\"")
    );
}

async fn failing_boards_are_recorded_and_the_pass_goes_on_one_request_at_a_time(backend: Backend) {
    let sources = Sources::start().await;
    sources.board("ashby", "lumenparis", Page::json(ASHBY_EXAMPLE));
    sources.board("ashby", "down", Page::Status(500));
    sources.board("ashby", "garbled", Page::json("{\"jobs\": [oops"));
    let watch = watch(backend, &sources, &[]).await;
    watch
        .company(
            "Lumen",
            "lumen.fr",
            json!([{ "provider": "ashby", "token": "lumenparis" },
                   { "provider": "ashby", "token": "down" },
                   { "provider": "ashby", "token": "garbled" },
                   { "provider": "ashby", "token": "missing" }]),
        )
        .await;

    let pass = watch.run("ashby").await;
    assert_eq!(figures(&pass), (4, 1, 1), "{pass}");
    let error = pass["last_error"].as_str().expect("last_error");
    assert!(error.starts_with("3 boards failed"), "{error}");
    let records = watch.hiring("").await;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["city"], "Paris");
    assert_eq!(records[0]["region"], "Île-de-France");
    assert_eq!(records[0]["jobCountry"], "FR");

    // One request at a time, at most two per second, to the one host all the boards are on.
    let mut requests = sources.requests();
    requests.sort_by_key(|r| r.at);
    assert_eq!(requests.len(), 4);
    for pair in requests.windows(2) {
        let gap = pair[1].at - pair[0].at;
        assert!(
            gap >= Duration::from_millis(450),
            "{gap:?} between requests"
        );
    }

    // Each failure is kept on its board; the pass after it goes on.
    let again = watch.run("ashby").await;
    assert_eq!(figures(&again), (4, 1, 0), "{again}");
}

async fn only_boards_of_companies_watched_by_an_active_monitor_are_polled(backend: Backend) {
    let sources = Sources::start().await;
    sources.board("lever", "brightfieldai", Page::json(LEVER_EXAMPLE));
    let watch = watch(backend, &sources, &[]).await;
    watch
        .app
        .import_companies(
            json!([{ "name": "Brightfield", "website": "https://brightfield.ai",
            "jobBoards": [{ "provider": "lever", "token": "brightfieldai" }] }]),
        )
        .await;
    assert_eq!(figures(&watch.run("lever").await), (0, 0, 0));
    assert!(sources.requests().is_empty());

    watch
        .app
        .add_targets(&watch.team, &watch.monitor, json!(["brightfield.ai"]))
        .await;
    let paused = watch
        .app
        .put(
            &format!("/api/v2/monitors/{}", watch.monitor),
            &watch.team.key,
            json!({ "active": false }),
        )
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);
    assert_eq!(figures(&watch.run("lever").await), (0, 0, 0));

    let resumed = watch
        .app
        .put(
            &format!("/api/v2/monitors/{}", watch.monitor),
            &watch.team.key,
            json!({ "active": true }),
        )
        .await;
    assert_eq!(resumed.status, 200, "{:?}", resumed.body);
    assert_eq!(figures(&watch.run("lever").await), (1, 1, 1));
}

async fn a_board_found_on_a_website_by_research_is_collected(backend: Backend) {
    let sources = Sources::start().await;
    sources.website("northwind-labs.com", Page::html(WEBSITE_EXAMPLE));
    sources.board(
        "greenhouse",
        "northwindlabs",
        Page::json(GREENHOUSE_EXAMPLE),
    );
    let watch = watch(backend, &sources, &[]).await;
    watch
        .app
        .add_targets(&watch.team, &watch.monitor, json!(["northwind-labs.com"]))
        .await;
    // Research looks the domain up on its own, finds the company and its Greenhouse board.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let listed = watch
            .app
            .get(
                &format!("/api/v2/monitors/{}/targets", watch.monitor),
                &watch.team.key,
            )
            .await;
        if listed.data()[0]["status"] == "resolved" {
            break;
        }
        assert!(Instant::now() < until, "never resolved: {:?}", listed.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let pass = watch.run("greenhouse").await;
    assert_eq!(figures(&pass), (1, 2, 2), "{pass}");
    watch.receiver.wait_for(2, SOON).await;
}

async fn an_enabled_collector_polls_on_its_own_every_interval(backend: Backend) {
    let sources = Sources::start().await;
    sources.board("lever", "brightfieldai", Page::json(LEVER_EXAMPLE));
    let watch = watch(
        backend,
        &sources,
        &["--collectors", "lever", "--collect-interval-seconds", "1"],
    )
    .await;
    watch
        .company(
            "Brightfield AI",
            "brightfield.ai",
            json!([{ "provider": "lever", "token": "brightfieldai" }]),
        )
        .await;
    let delivered = watch.receiver.wait_for(1, Duration::from_secs(30)).await;
    assert_eq!(delivered[0].json()["event_type"], "hiring.created");

    let listed = watch
        .app
        .admin(reqwest::Method::GET, "/collectors", None)
        .await;
    let enabled: Vec<(String, bool)> = listed
        .data()
        .as_array()
        .expect("collectors")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_string(),
                c["enabled"] == true,
            )
        })
        .collect();
    assert_eq!(
        enabled,
        [
            ("greenhouse".to_string(), false),
            ("lever".to_string(), true),
            ("ashby".to_string(), false),
            ("sec-form-d".to_string(), false)
        ]
    );
    // Polled again and again, the posting stays one signal.
    let until = Instant::now() + Duration::from_secs(30);
    while sources
        .requests_to(&Sources::board_path("lever", "brightfieldai"))
        .len()
        < 3
    {
        assert!(Instant::now() < until, "the board was not polled again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(watch.hiring("").await.len(), 1);
    assert_eq!(watch.receiver.received().len(), 1);
}

async fn two_services_polling_the_same_boards_at_once_create_each_posting_once(backend: Backend) {
    let sources = Sources::start().await;
    let boards: Vec<String> = (0..4).map(|i| format!("board{i}")).collect();
    for (i, token) in boards.iter().enumerate() {
        let first = 1_000 * (i as u64 + 1);
        sources.board(
            "greenhouse",
            token,
            Page::json(greenhouse_board(token, first, 25)),
        );
    }
    let watch = watch(backend, &sources, &[]).await;
    let listed: Vec<Value> = boards
        .iter()
        .map(|token| json!({ "provider": "greenhouse", "token": token }))
        .collect();
    watch
        .company("Acme", "acme-boards.com", Value::from(listed))
        .await;
    let mut settings: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    settings.extend(sources.settings());
    let args: Vec<&str> = settings.iter().map(String::as_str).collect();
    let other = watch.app.start_beside(&args).await;

    let (one, two) = tokio::join!(run(&watch.app, "greenhouse"), run(&other, "greenhouse"));
    let (checked_one, _, created_one) = figures(&one);
    let (checked_two, _, created_two) = figures(&two);
    // Passes that start together split the boards (4 in all); a pass that starts only after the
    // other has polled a board (a loaded machine) polls it again, as a run of every board does.
    assert!(
        (4..=8).contains(&(checked_one + checked_two)),
        "every board polled, none twice by one pass: {checked_one} + {checked_two}"
    );
    assert_eq!(created_one + created_two, 100);
    let (three, four) = tokio::join!(run(&watch.app, "greenhouse"), run(&other, "greenhouse"));
    assert_eq!(figures(&three).2 + figures(&four).2, 0);

    let total = watch
        .app
        .get(&format!("{HIRING}?count=true"), &watch.team.key)
        .await;
    assert_eq!(total.status, 200, "{:?}", total.body);
    let delivered = watch.receiver.wait_for(100, SOON).await;
    assert_stays_at(&watch.receiver, 100, Duration::from_secs(1)).await;
    let mut ids: Vec<String> = delivered
        .iter()
        .map(|d| {
            d.json()["data"]["signal"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 100, "every posting delivered once");
}

async fn job_boards_given_by_the_operator_are_checked(backend: Backend) {
    let sources = Sources::start().await;
    let watch = watch(backend, &sources, &[]).await;
    let response = watch
        .app
        .admin(
            reqwest::Method::POST,
            "/companies",
            Some(json!([
                { "name": "Good", "website": "https://good.com",
                  "jobBoards": [{ "provider": "Lever", "token": "good" }] },
                { "name": "Bad provider", "jobBoards": [{ "provider": "workday", "token": "x" }] },
                { "name": "Bad token", "jobBoards": [{ "provider": "ashby", "token": "a/b" }] },
            ])),
        )
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.data()["upserted"], 1);
    let invalid = response.data()["invalid"]
        .as_array()
        .expect("invalid")
        .clone();
    assert_eq!(invalid.len(), 2, "{invalid:?}");
    assert!(
        invalid[0]["error"]
            .as_str()
            .unwrap_or_default()
            .contains("unknown provider")
    );
    assert_eq!(invalid[1]["index"], 2);

    let unknown = watch
        .app
        .admin(reqwest::Method::POST, "/collectors/workday/run", None)
        .await;
    assert_eq!(unknown.status, 404, "{:?}", unknown.body);
}
