//! E-mail alerts: every new signal of a watched company reaches the monitor's creator in a digest,
//! one message per monitor per window, through a real SMTP server or as `.eml` files.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::receiver::Receiver;
use crate::support::smtp_sink::{ReceivedMail, SmtpSink};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    a_signal_for_a_watched_company_is_mailed_to_the_monitor_creator,
    a_monitor_created_with_a_members_key_mails_that_member,
    the_digest_lists_the_type_company_facts_and_date_of_each_signal,
    signals_of_one_ingest_arrive_in_one_digest,
    signals_arriving_within_the_window_wait_for_the_next_digest,
    a_paused_monitor_sends_no_email,
    alerts_are_mailed_also_when_the_monitor_has_a_webhook,
    at_zero_credits_email_alerts_still_go_out_and_cost_nothing,
    a_refused_digest_is_sent_again_with_nothing_lost,
    a_mailed_digest_counts_as_the_monitors_last_delivery,
    the_mail_dir_gets_one_eml_file_per_digest_when_no_smtp_url_is_set,
);

/// How long a test waits for something the digest worker should do within its next tick.
const SOON: Duration = Duration::from_secs(10);

const SENDER: &str = "alerts@example.org";

/// A team whose e-mail-only monitor "Competitors" watches acme.com.
struct Mailing {
    app: TestApp,
    team: Team,
    monitor_id: String,
}

impl Mailing {
    /// Starts the app with `extra` settings and sets up the watch.
    async fn start(backend: Backend, extra: &[&str]) -> Mailing {
        let mut args = vec!["--mail-from", SENDER, "--allow-private-webhooks", "true"];
        args.extend_from_slice(extra);
        let app = TestApp::start_with(backend, &args).await;
        let team = app.create_team().await;
        app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
            .await;
        let monitor_id = watch_acme(&app, &team, json!({})).await;
        Mailing {
            app,
            team,
            monitor_id,
        }
    }

    /// Starts the app sending through `sink` with a digest window of `seconds`.
    async fn through(backend: Backend, sink: &SmtpSink, seconds: &str) -> Mailing {
        let url = sink.url();
        Mailing::start(
            backend,
            &["--smtp-url", &url, "--email-digest-seconds", seconds],
        )
        .await
    }

    /// Ingests funding rounds through the admin API.
    async fn ingest(&self, rounds: Vec<Value>) {
        let response = self
            .app
            .admin(
                reqwest::Method::POST,
                "/signals/funding",
                Some(Value::Array(rounds)),
            )
            .await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        assert!(
            response.data()["invalid"]
                .as_array()
                .is_some_and(Vec::is_empty),
            "{:?}",
            response.body
        );
    }

    async fn monitor(&self) -> Value {
        let path = format!("/api/v2/monitors/{}", self.monitor_id);
        let response = self.app.get(&path, &self.team.key).await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        response.data().clone()
    }
}

/// Creates a "Competitors" monitor with `extra` fields watching acme.com; returns its id.
async fn watch_acme(app: &TestApp, team: &Team, extra: Value) -> String {
    let mut body = json!({ "name": "Competitors", "signal_types": ["funding_round"] });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let created = app.post("/api/v2/monitors", &team.key, body).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor_id = created.data()["id"].as_str().expect("id").to_string();
    let added = app
        .add_targets(team, &monitor_id, json!(["acme.com"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    monitor_id
}

/// A funding round of acme.com; `n` makes the signal id.
fn round(n: u32, amount: i64) -> Value {
    json!({ "signalId": format!("e1000000-0000-4000-8000-{n:012}"), "companyWebsite": "acme.com",
        "companyName": "Acme", "occurredAt": "2026-11-20T10:00:00Z", "roundType": "seed",
        "amount": amount, "currency": "USD" })
}

/// Waits `quiet` and asserts the sink still holds exactly `n` messages.
async fn assert_stays_at(sink: &SmtpSink, n: usize, quiet: Duration) {
    tokio::time::sleep(quiet).await;
    assert_eq!(sink.messages().len(), n, "unexpected e-mails");
}

async fn a_signal_for_a_watched_company_is_mailed_to_the_monitor_creator(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;

    m.ingest(vec![round(1, 1_000_000)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.from, SENDER);
    assert_eq!(mail.to, ["owner@example.com"]);
    assert_eq!(mail.header("From").as_deref(), Some(SENDER));
    assert_eq!(mail.header("To").as_deref(), Some("owner@example.com"));
    assert_eq!(mail.subject(), "[signalwatch] Competitors: 1 new signal(s)");
}

async fn a_monitor_created_with_a_members_key_mails_that_member(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;
    let path = format!("/teams/{}/members", m.team.id);
    let member = m
        .app
        .admin(
            reqwest::Method::POST,
            &path,
            Some(json!({ "email": "analyst@example.com" })),
        )
        .await;
    assert_eq!(member.status, 201, "{:?}", member.body);
    let member_team = Team {
        key: member.data()["api_key"].as_str().expect("key").to_string(),
        user_id: member.data()["user_id"].as_str().expect("id").to_string(),
        ..m.team.clone()
    };
    m.app
        .put(
            &format!("/api/v2/monitors/{}", m.monitor_id),
            &m.team.key,
            json!({ "active": false }),
        )
        .await;
    watch_acme(&m.app, &member_team, json!({ "name": "Analyst watch" })).await;

    m.ingest(vec![round(2, 1_000_000)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.to, ["analyst@example.com"]);
    assert_eq!(
        mail.subject(),
        "[signalwatch] Analyst watch: 1 new signal(s)"
    );
}

async fn the_digest_lists_the_type_company_facts_and_date_of_each_signal(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;

    m.ingest(vec![round(3, 2_500_000)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    let content = mail.decoded();
    assert!(content.contains("multipart/alternative"), "{content}");
    assert!(content.contains("Content-Type: text/plain"), "{content}");
    assert!(content.contains("Content-Type: text/html"), "{content}");
    for part in [
        "Funding round",
        "Acme",
        "seed round, 2,500,000 USD",
        "2026-11-20",
    ] {
        assert_eq!(
            content.matches(part).count(),
            2,
            "{part:?} shows in both parts: {content}"
        );
    }
}

async fn signals_of_one_ingest_arrive_in_one_digest(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;

    m.ingest(vec![round(4, 1), round(5, 2), round(6, 3)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.subject(), "[signalwatch] Competitors: 3 new signal(s)");
    assert_stays_at(&sink, 1, Duration::from_millis(1500)).await;
}

async fn signals_arriving_within_the_window_wait_for_the_next_digest(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "3").await;
    m.ingest(vec![round(7, 1)]).await;
    let first = sink.wait_for(1, SOON).await;
    let first_at = Instant::now();

    m.ingest(vec![round(8, 2)]).await;
    m.ingest(vec![round(9, 3)]).await;

    let second = &sink.wait_for(2, SOON).await[1];
    assert!(
        first_at.elapsed() >= Duration::from_secs(2),
        "the second digest waited for the window"
    );
    assert_eq!(
        first[0].subject(),
        "[signalwatch] Competitors: 1 new signal(s)"
    );
    assert_eq!(
        second.subject(),
        "[signalwatch] Competitors: 2 new signal(s)"
    );
}

async fn a_paused_monitor_sends_no_email(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;
    let path = format!("/api/v2/monitors/{}", m.monitor_id);
    let paused = m
        .app
        .put(&path, &m.team.key, json!({ "active": false }))
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);

    m.ingest(vec![round(10, 1_000_000)]).await;
    assert_stays_at(&sink, 0, Duration::from_millis(1500)).await;

    m.app
        .put(&path, &m.team.key, json!({ "active": true }))
        .await;
    assert_stays_at(&sink, 0, Duration::from_millis(1500)).await;
    m.ingest(vec![round(11, 7_000_000)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.subject(), "[signalwatch] Competitors: 1 new signal(s)");
    assert!(
        mail.decoded().contains("7,000,000 USD"),
        "only the signal from after resuming: {}",
        mail.data
    );
}

async fn alerts_are_mailed_also_when_the_monitor_has_a_webhook(backend: Backend) {
    let sink = SmtpSink::start().await;
    let receiver = Receiver::start().await;
    let url = sink.url();
    let app = TestApp::start_with(
        backend,
        &[
            "--allow-private-webhooks",
            "true",
            "--smtp-url",
            &url,
            "--email-digest-seconds",
            "0",
        ],
    )
    .await;
    let team = app.create_team().await;
    app.import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    watch_acme(&app, &team, json!({ "webhook_url": receiver.url })).await;

    let ingested = app
        .admin(
            reqwest::Method::POST,
            "/signals/funding",
            Some(json!([round(12, 1)])),
        )
        .await;
    assert_eq!(ingested.status, 200, "{:?}", ingested.body);

    receiver.wait_for(1, SOON).await;
    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.subject(), "[signalwatch] Competitors: 1 new signal(s)");
}

async fn at_zero_credits_email_alerts_still_go_out_and_cost_nothing(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;
    let path = format!("/teams/{}", m.team.id);
    let emptied = m
        .app
        .admin(reqwest::Method::PATCH, &path, Some(json!({ "credits": 0 })))
        .await;
    assert_eq!(emptied.status, 200, "{:?}", emptied.body);

    m.ingest(vec![round(13, 1)]).await;

    sink.wait_for(1, SOON).await;
    let team = m.app.admin(reqwest::Method::GET, &path, None).await;
    assert_eq!(team.data()["credits"], 0);
}

async fn a_refused_digest_is_sent_again_with_nothing_lost(backend: Backend) {
    let sink = SmtpSink::start().await;
    sink.refuse_next(2);
    let m = Mailing::through(backend, &sink, "0").await;

    m.ingest(vec![round(14, 1), round(15, 2)]).await;

    let mail = &sink.wait_for(1, SOON).await[0];
    assert_eq!(mail.subject(), "[signalwatch] Competitors: 2 new signal(s)");
    assert_stays_at(&sink, 1, Duration::from_millis(1500)).await;
}

async fn a_mailed_digest_counts_as_the_monitors_last_delivery(backend: Backend) {
    let sink = SmtpSink::start().await;
    let m = Mailing::through(backend, &sink, "0").await;
    assert_eq!(m.monitor().await["stats"]["last_delivery_at"], Value::Null);

    m.ingest(vec![round(16, 1)]).await;
    sink.wait_for(1, SOON).await;

    // The worker records the delivery right after the server accepted the message.
    let until = Instant::now() + SOON;
    while m.monitor().await["stats"]["last_delivery_at"].is_null() {
        assert!(Instant::now() < until, "last_delivery_at was never set");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn the_mail_dir_gets_one_eml_file_per_digest_when_no_smtp_url_is_set(backend: Backend) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mail_dir = dir.path().join("mail");
    let mail_dir_arg = mail_dir.to_str().expect("utf-8 path").to_string();
    let m = Mailing::start(
        backend,
        &["--mail-dir", &mail_dir_arg, "--email-digest-seconds", "0"],
    )
    .await;

    m.ingest(vec![round(17, 1)]).await;
    let first = wait_for_eml_files(&mail_dir, 1).await;
    m.ingest(vec![round(18, 2), round(19, 3)]).await;
    let both = wait_for_eml_files(&mail_dir, 2).await;

    assert_eq!(first[0].header("To").as_deref(), Some("owner@example.com"));
    assert_eq!(
        first[0].subject(),
        "[signalwatch] Competitors: 1 new signal(s)"
    );
    let subjects: Vec<String> = both.iter().map(ReceivedMail::subject).collect();
    assert!(
        subjects.contains(&"[signalwatch] Competitors: 2 new signal(s)".to_string()),
        "{subjects:?}"
    );
}

/// Waits until `dir` holds at least `count` `.eml` files and reads them; panics after [`SOON`].
async fn wait_for_eml_files(dir: &Path, count: usize) -> Vec<ReceivedMail> {
    let until = Instant::now() + SOON;
    loop {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        if files.len() >= count {
            files.sort();
            return files
                .iter()
                .map(|path| ReceivedMail {
                    from: String::new(),
                    to: Vec::new(),
                    data: std::fs::read_to_string(path).expect("a complete .eml file"),
                })
                .collect();
        }
        assert!(
            Instant::now() < until,
            "{} .eml file(s) in {dir:?}, expected {count}",
            files.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
