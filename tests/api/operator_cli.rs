//! The operator's commands: `admin team list|show`, `admin key create`, the `--create` guard
//! against new empty SQLite files, and an `import` that is idempotent and says what it refused.

use std::time::Duration;

use serde_json::json;

use crate::each_backend;
use crate::support::command::{signalwatch, signalwatch_with};
use crate::support::receiver::{Answer, Receiver};
use crate::support::{Backend, TestApp};

each_backend!(
    an_operator_lists_teams_shows_one_and_issues_a_new_key_that_works,
    reimporting_signals_without_ids_stores_and_delivers_nothing_new,
);

#[tokio::test]
async fn admin_and_import_refuse_to_create_a_database_file_unless_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("fresh.db");
    let url = format!("sqlite://{}", file.display());
    std::fs::write(dir.path().join("companies.ndjson"), "{\"name\":\"Acme\"}\n")
        .expect("import file");

    let admin = signalwatch(
        dir.path(),
        &["admin", "--database-url", &url, "team", "list"],
    )
    .await;
    let import = signalwatch(dir.path(), &["import", "--database-url", &url, "."]).await;

    for refused in [&admin, &import] {
        assert!(!refused.success, "{refused:?}");
        assert!(
            refused
                .stderr
                .contains(&format!("no database at {}", file.display())),
            "the path is named: {}",
            refused.stderr
        );
        assert!(refused.stderr.contains("--create"), "{}", refused.stderr);
    }
    assert!(!file.exists(), "no file was made");

    let created = signalwatch(
        dir.path(),
        &["admin", "--database-url", &url, "--create", "team", "list"],
    )
    .await;
    assert!(created.success, "{created:?}");
    assert!(
        created
            .stderr
            .contains(&format!("creating SQLite file {}", file.display())),
        "{}",
        created.stderr
    );
    assert_eq!(created.json(), json!([]));
    let opened = signalwatch(dir.path(), &["import", "--database-url", &url, "."]).await;
    assert!(opened.success, "{opened:?}");
    assert!(
        opened
            .stderr
            .contains(&format!("database: SQLite file {}", file.display())),
        "{}",
        opened.stderr
    );
}

async fn an_operator_lists_teams_shows_one_and_issues_a_new_key_that_works(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({"name": "Acme ops"})).await;
    let member = app
        .admin(
            reqwest::Method::POST,
            &format!("/teams/{}/members", team.id),
            Some(json!({"email": "dev@acme.example"})),
        )
        .await;
    assert_eq!(member.status, 201, "{:?}", member.body);
    let dir = tempfile::tempdir().expect("temp dir");
    let url = app.database_url.as_str();

    let listed = signalwatch(
        dir.path(),
        &["admin", "--database-url", url, "team", "list"],
    )
    .await;
    let shown = signalwatch(
        dir.path(),
        &["admin", "--database-url", url, "team", "show", &team.id],
    )
    .await;
    let owner_key = signalwatch(
        dir.path(),
        &[
            "admin",
            "--database-url",
            url,
            "key",
            "create",
            "--team",
            &team.id,
        ],
    )
    .await;
    let member_key = signalwatch(
        dir.path(),
        &[
            "admin",
            "--database-url",
            url,
            "key",
            "create",
            "--team",
            &team.id,
            "--email",
            "dev@acme.example",
        ],
    )
    .await;
    let stranger = signalwatch(
        dir.path(),
        &[
            "admin",
            "--database-url",
            url,
            "key",
            "create",
            "--team",
            &team.id,
            "--email",
            "nobody@acme.example",
        ],
    )
    .await;

    let teams = listed.json();
    assert_eq!(teams.as_array().map(Vec::len), Some(1), "{teams}");
    assert_eq!(teams[0]["id"], team.id.as_str());
    assert_eq!(teams[0]["name"], "Acme ops");
    let shown = shown.json();
    assert_eq!(shown["id"], team.id.as_str());
    let emails: Vec<&str> = shown["members"]
        .as_array()
        .expect("members")
        .iter()
        .filter_map(|m| m["email"].as_str())
        .collect();
    assert_eq!(emails, ["owner@example.com", "dev@acme.example"]);
    assert_eq!(shown["members"][0]["live_keys"], 1);
    assert!(!shown.to_string().contains(&team.key), "no key is shown");

    let issued = owner_key.json();
    assert_eq!(issued["user_id"], team.user_id.as_str());
    let new_key = issued["api_key"].as_str().expect("api_key");
    assert_ne!(new_key, team.key);
    assert_eq!(app.get("/api/v2/monitors", new_key).await.status, 200);
    assert_eq!(
        app.get("/api/v2/monitors", &team.key).await.status,
        200,
        "the old key still works"
    );
    let for_member = member_key.json();
    assert_eq!(for_member["user_id"], member.data()["user_id"]);
    assert!(!stranger.success, "{stranger:?}");
    assert!(
        stranger
            .stderr
            .contains("nobody@acme.example is not a member"),
        "{}",
        stranger.stderr
    );
}

/// Two funding rounds without ids, for the company at acme.example.
fn rounds_without_ids() -> String {
    [
        json!({"companyWebsite": "https://acme.example", "announcedDate": "2026-03-02",
               "roundType": "seed", "amount": 2_000_000}),
        json!({"companyWebsite": "https://acme.example", "announcedDate": "2026-06-10",
               "roundType": "series a", "amount": 9_000_000}),
    ]
    .iter()
    .map(|r| format!("{r}\n"))
    .collect()
}

async fn reimporting_signals_without_ids_stores_and_delivers_nothing_new(backend: Backend) {
    let app = TestApp::start_with(backend, &["--allow-private-webhooks", "true"]).await;
    let receiver = Receiver::start().await;
    receiver.always(Answer::Status(200));
    app.import_companies(json!([{"name": "Acme", "website": "https://acme.example"}]))
        .await;
    let team = app.create_team().await;
    let created = app
        .post(
            "/api/v2/monitors",
            &team.key,
            json!({"name": "Acme", "signal_types": ["funding_round"],
                   "webhook_url": receiver.url}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let monitor = created.data()["id"].as_str().expect("id").to_string();
    let webhook = created.data()["webhook"]["id"]
        .as_str()
        .expect("webhook")
        .to_string();
    let added = app
        .add_targets(&team, &monitor, json!(["acme.example"]))
        .await;
    assert_eq!(
        added.data()["added"][0]["status"],
        "resolved",
        "{:?}",
        added.body
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("funding.ndjson");
    std::fs::write(&file, rounds_without_ids()).expect("import file");
    let file = file.display().to_string();
    let url = app.database_url.as_str();

    let first = signalwatch(dir.path(), &["import", "--database-url", url, &file]).await;
    let second = signalwatch(dir.path(), &["import", "--database-url", url, &file]).await;

    assert!(first.success && second.success, "{first:?}\n{second:?}");
    let listed = app
        .get("/api/v2/signals/funding?count=true", &team.key)
        .await;
    assert_eq!(
        listed.body["pagination"]["totalCount"], 2,
        "{:?}",
        listed.body
    );
    let deliveries = app
        .get(&format!("/api/v2/webhooks/{webhook}/deliveries"), &team.key)
        .await;
    assert_eq!(deliveries.status, 200, "{:?}", deliveries.body);
    let rows = deliveries.data().as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2, "one delivery per round: {rows:?}");
    let received = receiver.wait_for(2, Duration::from_secs(20)).await;
    assert_eq!(received.len(), 2);
}

#[tokio::test]
async fn an_import_names_the_line_the_field_and_the_expected_type_and_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("db.sqlite").display());
    let companies = "{\"name\":\"Acme\",\"website\":\"https://acme.example\"}\n\n\
                     {\"name\":\"Globex\",\"employeeCount\":\"many\"}\n";
    std::fs::write(dir.path().join("companies.ndjson"), companies).expect("import file");
    let funding = "{\"companyWebsite\":\"https://acme.example\",\"announcedDate\":\"soon\"}\n";
    std::fs::write(dir.path().join("funding.ndjson"), funding).expect("import file");

    let run = signalwatch(
        dir.path(),
        &["import", "--create", "--database-url", &url, "."],
    )
    .await;

    assert!(!run.success, "refusals fail the command: {run:?}");
    assert!(
        run.stdout.contains(
            "  line 3: field `employeeCount`: invalid type: string \"many\", expected an integer"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "  line 1: field `announcedDate`: expected an RFC 3339 timestamp or a YYYY-MM-DD \
             date, got \"soon\""
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("companies.ndjson: 2 records, 1 stored, 1 refused"),
        "a summary per file: {}",
        run.stdout
    );
    assert!(
        run.stderr.contains("2 of 3 records were refused"),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn a_missing_file_and_an_unreachable_database_each_get_one_sentence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("db.sqlite").display());
    let missing = dir.path().join("nope.ndjson").display().to_string();
    // Nothing listens on port 1.
    let unreachable = "postgres://postgres@127.0.0.1:1/signalwatch";

    let no_file = signalwatch(
        dir.path(),
        &["import", "--create", "--database-url", &url, &missing],
    )
    .await;
    let no_server = signalwatch(
        dir.path(),
        &["admin", "--database-url", unreachable, "team", "list"],
    )
    .await;

    assert!(!no_file.success);
    assert_eq!(
        last_line(&no_file.stderr),
        format!("error: no such file or directory: {missing}")
    );
    assert!(
        !dir.path().join("db.sqlite").exists(),
        "no database is opened for a missing file"
    );
    assert!(!no_server.success);
    assert!(
        last_line(&no_server.stderr).starts_with("error: cannot reach PostgreSQL at 127.0.0.1:1: "),
        "{}",
        no_server.stderr
    );
}

#[tokio::test]
async fn an_import_logs_warnings_only_unless_signalwatch_log_asks_for_more() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("companies.ndjson"),
        "{\"name\":\"Acme\",\"website\":\"https://acme.example\"}\n",
    )
    .expect("import file");
    let url = format!("sqlite://{}", dir.path().join("db.sqlite").display());
    let args = ["import", "--create", "--database-url", &url, "."];

    let quiet = signalwatch(dir.path(), &args).await;
    let asked = signalwatch_with(dir.path(), &args, &[("SIGNALWATCH_LOG", "sqlx=debug")]).await;

    assert!(quiet.success && asked.success, "{quiet:?} {asked:?}");
    assert!(
        !quiet.stderr.contains("sqlx::query") && !quiet.stderr.contains(" INFO "),
        "without SIGNALWATCH_LOG only warnings and errors are logged: {}",
        quiet.stderr
    );
    assert!(
        asked.stderr.contains("DEBUG") && asked.stderr.contains("sqlx::query"),
        "SIGNALWATCH_LOG=sqlx=debug logs the statements to stderr: {}",
        asked.stderr
    );
    assert!(
        !asked.stdout.contains("sqlx::query"),
        "stdout keeps the import's own lines: {}",
        asked.stdout
    );
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}
