//! The operator's admin API under `/admin/v1` and the `signalwatch admin` command: teams,
//! members, keys and data imports, and who may use them.

use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};

use crate::each_backend;
use crate::errors::assert_error;
use crate::support::app::ADMIN_TOKEN;
use crate::support::{Backend, TestApp, TestResponse};

each_backend!(
    creating_a_team_returns_201_with_its_owner_and_a_working_api_key,
    a_new_team_starts_active_with_1000_credits_and_the_default_rate_limit,
    a_team_can_be_created_with_its_own_starting_values,
    patching_a_team_changes_credits_subscription_and_rate_limit,
    invalid_team_values_are_refused_with_400,
    an_unknown_team_is_404,
    a_members_key_sees_the_same_monitors_as_the_owners_key,
    revoking_a_key_stops_only_that_key,
    the_admin_api_refuses_a_missing_or_wrong_token_and_team_keys_with_401,
    the_admin_token_is_accepted_whatever_the_case_of_the_bearer_scheme,
    team_names_and_e_mails_with_control_characters_are_refused,
    without_an_admin_token_configured_the_admin_api_answers_404,
    a_companies_import_takes_a_json_array_and_reports_bad_records_by_index,
    a_companies_import_takes_ndjson_and_upserts_by_website,
    an_import_without_a_json_content_type_is_refused_with_400,
    a_people_import_reports_a_person_at_an_unknown_company_as_invalid,
    an_imported_record_holding_a_nul_character_is_reported_invalid_and_the_rest_stored,
    the_admin_command_creates_a_team_whose_key_works_against_the_running_service,
    the_admin_command_updates_a_team_and_the_change_shows_in_the_admin_api,
    the_admin_command_adds_a_member_and_revokes_a_key,
    the_admin_commands_also_take_the_team_id_and_the_key_as_flags,
    the_admin_command_fails_for_an_unknown_team,
);

fn is_api_key(key: &str) -> bool {
    key.strip_prefix("sw_live_")
        .is_some_and(|rest| rest.len() == 40 && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn sorted_keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

async fn get_team(app: &TestApp, id: &str) -> TestResponse {
    app.admin(Method::GET, &format!("/teams/{id}"), None).await
}

/// Sends an import body as it is, with the admin token and the given Content-Type.
async fn import_raw(app: &TestApp, path: &str, content_type: &str, body: String) -> TestResponse {
    app.send(
        app.request(Method::POST, &format!("/admin/v1{path}"), ADMIN_TOKEN)
            .header(CONTENT_TYPE, content_type)
            .body(body),
    )
    .await
}

fn monitor_names(response: &TestResponse) -> Vec<String> {
    let mut names: Vec<String> = response
        .data()
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["name"].as_str().map(str::to_string))
        .collect();
    names.sort_unstable();
    names
}

async fn creating_a_team_returns_201_with_its_owner_and_a_working_api_key(backend: Backend) {
    let app = TestApp::start(backend).await;

    let created = app
        .admin(
            Method::POST,
            "/teams",
            Some(json!({ "name": "Acme Sales", "owner_email": "lead@acme.com" })),
        )
        .await;

    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["success"], true);
    let data = created.data();
    assert_eq!(sorted_keys(data), ["api_key", "team_id", "user_id"]);
    let key = data["api_key"].as_str().expect("api_key");
    assert!(
        is_api_key(key),
        "{key} is sw_live_ and 40 base62 characters"
    );
    assert!(uuid::Uuid::parse_str(data["team_id"].as_str().unwrap()).is_ok());
    assert!(data["user_id"].as_str().is_some_and(|id| !id.is_empty()));

    let listed = app.get("/api/v2/monitors", key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.data(), &json!([]));

    let another = app.create_team().await;
    assert_ne!(another.key, key);
    assert_ne!(another.id, data["team_id"].as_str().unwrap());
}

async fn a_new_team_starts_active_with_1000_credits_and_the_default_rate_limit(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "name": "Defaults" })).await;

    let fetched = get_team(&app, &team.id).await;

    assert_eq!(fetched.status, 200, "{:?}", fetched.body);
    let data = fetched.data();
    assert_eq!(
        sorted_keys(data),
        [
            "created_at",
            "credits",
            "id",
            "name",
            "rate_limit_per_minute",
            "subscription_status"
        ]
    );
    assert_eq!(data["id"], team.id.as_str());
    assert_eq!(data["name"], "Defaults");
    assert_eq!(data["credits"], 1000);
    assert_eq!(data["subscription_status"], "active");
    assert_eq!(data["rate_limit_per_minute"], 60);
    let created_at = data["created_at"].as_str().expect("created_at");
    assert!(
        chrono::DateTime::parse_from_rfc3339(created_at).is_ok()
            && created_at.ends_with('Z')
            && created_at.len() == "2026-05-29T10:30:00.000Z".len(),
        "{created_at} is RFC 3339 UTC with milliseconds"
    );
}

async fn a_team_can_be_created_with_its_own_starting_values(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app
        .create_team_with(json!({
            "credits": 25,
            "subscription_status": "trialing",
            "rate_limit_per_minute": 7,
        }))
        .await;

    let data = get_team(&app, &team.id).await.data().clone();

    assert_eq!(data["credits"], 25);
    assert_eq!(data["subscription_status"], "trialing");
    assert_eq!(data["rate_limit_per_minute"], 7);
    let listed = app.get("/api/v2/monitors", &team.key).await;
    assert_eq!(listed.header("X-RateLimit-Limit"), Some("7"));
}

async fn patching_a_team_changes_credits_subscription_and_rate_limit(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let path = format!("/teams/{}", team.id);

    let credits = app
        .admin(Method::PATCH, &path, Some(json!({ "credits": 5 })))
        .await;
    assert_eq!(credits.status, 200, "{:?}", credits.body);
    assert_eq!(credits.data()["credits"], 5);
    assert_eq!(credits.data()["subscription_status"], "active");

    let both = app
        .admin(
            Method::PATCH,
            &path,
            Some(json!({ "subscription_status": "past_due", "rate_limit_per_minute": 120 })),
        )
        .await;
    assert_eq!(both.status, 200, "{:?}", both.body);
    assert_eq!(both.data()["subscription_status"], "past_due");
    assert_eq!(both.data()["rate_limit_per_minute"], 120);
    assert_eq!(both.data()["credits"], 5, "fields left out stay");

    let fetched = get_team(&app, &team.id).await;
    assert_eq!(fetched.data(), both.data());
    for status in ["trialing", "canceled", "active"] {
        let changed = app
            .admin(
                Method::PATCH,
                &path,
                Some(json!({ "subscription_status": status })),
            )
            .await;
        assert_eq!(changed.data()["subscription_status"], status);
    }
    let zero = app
        .admin(Method::PATCH, &path, Some(json!({ "credits": 0 })))
        .await;
    assert_eq!(zero.data()["credits"], 0);
}

async fn invalid_team_values_are_refused_with_400(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let path = format!("/teams/{}", team.id);

    for body in [
        json!({ "name": "X", "owner_email": "a@b.co", "subscription_status": "paused" }),
        json!({ "name": "X", "owner_email": "a@b.co", "credits": -1 }),
        json!({ "name": "X", "owner_email": "a@b.co", "rate_limit_per_minute": 0 }),
        json!({ "name": "X", "owner_email": "not-an-email" }),
        json!({ "name": "X", "owner_email": "@example.com" }),
        json!({ "name": "", "owner_email": "a@b.co" }),
        json!({ "name": "X" }),
        json!({ "name": "X", "owner_email": "a@b.co", "plan": "pro" }),
    ] {
        let response = app.admin(Method::POST, "/teams", Some(body.clone())).await;
        assert_error(&response, 400, "bad_request");
    }
    for body in [
        json!({ "subscription_status": "expired" }),
        json!({ "subscription_status": "ACTIVE" }),
        json!({ "credits": -5 }),
        json!({ "credits": "lots" }),
        json!({ "rate_limit_per_minute": -1 }),
        json!({ "seats": 3 }),
    ] {
        let response = app.admin(Method::PATCH, &path, Some(body.clone())).await;
        assert_error(&response, 400, "bad_request");
    }
    let member = app
        .admin(
            Method::POST,
            &format!("/teams/{}/members", team.id),
            Some(json!({ "email": "nobody" })),
        )
        .await;
    assert_error(&member, 400, "bad_request");

    let unchanged = get_team(&app, &team.id).await;
    assert_eq!(unchanged.data()["credits"], 1000);
    assert_eq!(unchanged.data()["subscription_status"], "active");
}

async fn an_unknown_team_is_404(backend: Backend) {
    let app = TestApp::start(backend).await;
    let unknown = uuid::Uuid::new_v4();

    assert_error(
        &get_team(&app, &unknown.to_string()).await,
        404,
        "not_found",
    );
    assert_error(&get_team(&app, "not-a-uuid").await, 404, "not_found");
    let patch = app
        .admin(
            Method::PATCH,
            &format!("/teams/{unknown}"),
            Some(json!({ "credits": 5 })),
        )
        .await;
    assert_error(&patch, 404, "not_found");
    let member = app
        .admin(
            Method::POST,
            &format!("/teams/{unknown}/members"),
            Some(json!({ "email": "new@example.com" })),
        )
        .await;
    assert_error(&member, 404, "not_found");
    let revoke = app
        .admin(
            Method::POST,
            "/keys/revoke",
            Some(json!({ "api_key": "sw_live_0000000000000000000000000000000000000000" })),
        )
        .await;
    assert_error(&revoke, 404, "not_found");
}

async fn a_members_key_sees_the_same_monitors_as_the_owners_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let owner = app.create_team().await;
    let outsider = app.create_team().await;
    app.create_monitor(&owner, "Owner's").await;

    let added = app
        .admin(
            Method::POST,
            &format!("/teams/{}/members", owner.id),
            Some(json!({ "email": "colleague@example.com" })),
        )
        .await;
    assert_eq!(added.status, 201, "{:?}", added.body);
    assert_eq!(sorted_keys(added.data()), ["api_key", "user_id"]);
    let member_key = added.data()["api_key"].as_str().expect("api_key");
    assert!(is_api_key(member_key));
    assert_ne!(member_key, owner.key);
    assert_ne!(added.data()["user_id"], owner.user_id.as_str());

    let created = app
        .post(
            "/api/v2/monitors",
            member_key,
            json!({ "name": "Member's", "signal_types": ["hiring"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);

    let seen_by_member = app.get("/api/v2/monitors", member_key).await;
    let seen_by_owner = app.get("/api/v2/monitors", &owner.key).await;
    assert_eq!(monitor_names(&seen_by_member), ["Member's", "Owner's"]);
    assert_eq!(monitor_names(&seen_by_owner), ["Member's", "Owner's"]);
    assert_eq!(
        app.get("/api/v2/monitors", &outsider.key).await.data(),
        &json!([])
    );
}

async fn revoking_a_key_stops_only_that_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let owner = app.create_team().await;
    let member = app
        .admin(
            Method::POST,
            &format!("/teams/{}/members", owner.id),
            Some(json!({ "email": "leaver@example.com" })),
        )
        .await;
    let member_key = member.data()["api_key"].as_str().expect("api_key");

    let revoked = app
        .admin(
            Method::POST,
            "/keys/revoke",
            Some(json!({ "api_key": member_key })),
        )
        .await;
    assert_eq!(revoked.status, 200, "{:?}", revoked.body);
    assert_eq!(revoked.data(), &json!({ "revoked": true }));

    assert_error(
        &app.get("/api/v2/monitors", member_key).await,
        401,
        "invalid_api_key",
    );
    assert_eq!(app.get("/api/v2/monitors", &owner.key).await.status, 200);
}

async fn the_admin_api_refuses_a_missing_or_wrong_token_and_team_keys_with_401(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let path = format!("{}/admin/v1/teams/{}", app.base, team.id);

    for token in [Some("wrong-token"), Some(team.key.as_str()), None] {
        let mut request = app.client.get(&path);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = app.send(request).await;
        assert_error(&response, 401, "invalid_api_key");
    }
    let create = app
        .send(
            app.client
                .post(format!("{}/admin/v1/teams", app.base))
                .bearer_auth(&team.key)
                .json(&json!({ "name": "Sneaky", "owner_email": "a@b.co" })),
        )
        .await;
    assert_error(&create, 401, "invalid_api_key");
    let raise = app
        .send(
            app.client
                .patch(&path)
                .bearer_auth(&team.key)
                .json(&json!({ "credits": 1000000 })),
        )
        .await;
    assert_error(&raise, 401, "invalid_api_key");
    assert_eq!(get_team(&app, &team.id).await.data()["credits"], 1000);
}

async fn the_admin_token_is_accepted_whatever_the_case_of_the_bearer_scheme(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let path = format!("{}/admin/v1/teams/{}", app.base, team.id);

    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        for authorization in [
            format!("{scheme} {ADMIN_TOKEN}"),
            format!("  {scheme}   {ADMIN_TOKEN} "),
        ] {
            let response = app
                .send(
                    app.client
                        .get(&path)
                        .header("Authorization", &authorization),
                )
                .await;
            assert_eq!(
                response.status, 200,
                "{authorization:?}: {:?}",
                response.body
            );
            // The team API reads the same header the same way.
            let own = app
                .send(
                    app.client
                        .get(format!("{}/api/v2/monitors", app.base))
                        .header(
                            "Authorization",
                            authorization.replace(ADMIN_TOKEN, &team.key),
                        ),
                )
                .await;
            assert_eq!(own.status, 200, "{authorization:?}: {:?}", own.body);
        }
    }
    for authorization in [
        format!("Basic {ADMIN_TOKEN}"),
        format!("Bearer{ADMIN_TOKEN}"),
        "Bearer ".to_string(),
        ADMIN_TOKEN.to_string(),
    ] {
        let response = app
            .send(
                app.client
                    .get(&path)
                    .header("Authorization", &authorization),
            )
            .await;
        assert_error(&response, 401, "invalid_api_key");
    }
}

async fn team_names_and_e_mails_with_control_characters_are_refused(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    for body in [
        json!({ "name": "Nul\u{0}team", "owner_email": "a@b.co" }),
        json!({ "name": "Two\nlines", "owner_email": "a@b.co" }),
        json!({ "name": "Acme", "owner_email": "a\u{0}@b.co" }),
        json!({ "name": "Acme", "owner_email": "a@b.co\r\nBcc: c@d.co" }),
    ] {
        let response = app.admin(Method::POST, "/teams", Some(body.clone())).await;
        assert_error(&response, 400, "bad_request");
    }
    for email in ["m\u{0}@b.co", "m@b.co\nX: y", "m@b.\u{7}co"] {
        let member = app
            .admin(
                Method::POST,
                &format!("/teams/{}/members", team.id),
                Some(json!({ "email": email })),
            )
            .await;
        assert_error(&member, 400, "bad_request");
    }
    let created = app
        .admin(
            Method::POST,
            "/teams",
            Some(json!({ "name": "Plain name", "owner_email": "plain@b.co" })),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
}

async fn without_an_admin_token_configured_the_admin_api_answers_404(backend: Backend) {
    let app = TestApp::start_without_admin(backend).await;

    let create = app
        .admin(
            Method::POST,
            "/teams",
            Some(json!({ "name": "Nobody", "owner_email": "a@b.co" })),
        )
        .await;
    assert_error(&create, 404, "not_found");
    let read = get_team(&app, &uuid::Uuid::new_v4().to_string()).await;
    assert_error(&read, 404, "not_found");
    let anonymous = app
        .send(
            app.client
                .post(format!("{}/admin/v1/research/run", app.base)),
        )
        .await;
    assert_error(&anonymous, 404, "not_found");
}

async fn a_companies_import_takes_a_json_array_and_reports_bad_records_by_index(backend: Backend) {
    let app = TestApp::start(backend).await;

    let response = app
        .admin(
            Method::POST,
            "/companies",
            Some(json!([
                { "name": "Acme", "website": "https://acme.com" },
                { "website": "https://nameless.example" },
                { "name": "Globex", "website": "globex.com", "employeeCount": 250 },
                { "name": 5 },
            ])),
        )
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(data["upserted"], 2);
    assert_eq!(data["ids"].as_array().map(Vec::len), Some(2));
    let invalid = data["invalid"].as_array().expect("invalid");
    let indexes: Vec<u64> = invalid.iter().filter_map(|e| e["index"].as_u64()).collect();
    assert_eq!(indexes, [1, 3]);
    assert!(
        invalid
            .iter()
            .all(|e| e["error"].as_str().is_some_and(|m| !m.is_empty()))
    );

    let again = app
        .import_companies(json!([{ "name": "Acme Inc", "website": "acme.com" }]))
        .await;
    assert_eq!(
        again[0],
        data["ids"][0].as_str().unwrap(),
        "upsert by website"
    );
}

async fn a_companies_import_takes_ndjson_and_upserts_by_website(backend: Backend) {
    let app = TestApp::start(backend).await;
    let first = app
        .import_companies(json!([{ "name": "Initech", "website": "https://initech.com" }]))
        .await;
    let ndjson = [
        r#"{"name": "Initech Corporation", "website": "http://www.initech.com/"}"#,
        "",
        "this is not json",
        r#"{"name": "Hooli", "website": "hooli.xyz", "linkedinUrl": "https://www.linkedin.com/company/hooli"}"#,
    ]
    .join("\n");

    let response = import_raw(&app, "/companies", "application/x-ndjson", ndjson).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(data["upserted"], 2);
    assert_eq!(
        data["ids"][0],
        first[0].as_str(),
        "same website, same company"
    );
    assert_ne!(data["ids"][1], first[0].as_str());
    let invalid = data["invalid"].as_array().expect("invalid");
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0]["index"], 1, "blank lines are not records");
}

async fn an_import_without_a_json_content_type_is_refused_with_400(backend: Backend) {
    let app = TestApp::start(backend).await;

    let response = import_raw(
        &app,
        "/companies",
        "text/plain",
        r#"[{"name": "Acme", "website": "acme.com"}]"#.to_string(),
    )
    .await;

    assert_error(&response, 400, "bad_request");
    let garbage = import_raw(&app, "/companies", "application/json", "[{".to_string()).await;
    assert_error(&garbage, 400, "bad_request");
}

async fn a_people_import_reports_a_person_at_an_unknown_company_as_invalid(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.import_companies(json!([{ "name": "Acme", "website": "acme.com" }]))
        .await;

    let response = app
        .admin(
            Method::POST,
            "/people",
            Some(json!([
                { "linkedinUrl": "https://www.linkedin.com/in/jane-doe", "name": "Jane Doe",
                  "companyWebsite": "https://acme.com" },
                { "linkedinUrl": "https://www.linkedin.com/in/john-roe", "name": "John Roe",
                  "companyWebsite": "unknown-company.example" },
                { "linkedinUrl": "https://www.linkedin.com/company/acme", "companyWebsite": "acme.com" },
            ])),
        )
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(data["upserted"], 1);
    assert_eq!(data["ids"].as_array().map(Vec::len), Some(1));
    let invalid = data["invalid"].as_array().expect("invalid");
    let indexes: Vec<u64> = invalid.iter().filter_map(|e| e["index"].as_u64()).collect();
    assert_eq!(indexes, [1, 2]);
    assert!(invalid[0]["error"].as_str().unwrap().contains("company"));
}

async fn an_imported_record_holding_a_nul_character_is_reported_invalid_and_the_rest_stored(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;

    let companies = app
        .admin(
            Method::POST,
            "/companies",
            Some(json!([
                { "name": "Acme", "website": "acme.com" },
                { "name": "Nul\u{0}Corp", "website": "nul.example" },
                { "name": "Globex", "website": "globex.com", "description": "One\nTwo \\u0000" },
            ])),
        )
        .await;
    assert_eq!(companies.status, 200, "{:?}", companies.body);
    assert_eq!(companies.data()["upserted"], 2);
    let invalid = companies.data()["invalid"].as_array().expect("invalid");
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0]["index"], 1);
    assert!(invalid[0]["error"].as_str().unwrap().contains("NUL"));

    let round = |source: &str| {
        json!({
            "companyWebsite": "acme.com", "occurredAt": "2025-05-05T12:00:00Z",
            "roundType": "seed", "amount": 1000, "currency": "USD",
            "sources": [{ "url": source }]
        })
        .to_string()
    };
    let ndjson = format!(
        "{}\n{}\n",
        round("https://news.example/a"),
        round("https://news.example/\u{0}")
    );
    let signals = import_raw(&app, "/signals/funding", "application/x-ndjson", ndjson).await;
    assert_eq!(signals.status, 200, "{:?}", signals.body);
    assert_eq!(signals.data()["inserted"], 1);
    let invalid = signals.data()["invalid"].as_array().expect("invalid");
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0]["index"], 1);
}

/// Runs `signalwatch admin --database-url <url> <args…>` and returns its JSON output.
async fn admin_command(database_url: &str, args: &[&str]) -> Result<Value, String> {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_signalwatch"));
    command
        .arg("admin")
        .arg("--database-url")
        .arg(database_url)
        .args(args)
        .env_remove("SIGNALWATCH_DATABASE_URL");
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .expect("the command's thread")
        .expect("the signalwatch binary runs");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    serde_json::from_slice(&output.stdout).map_err(|err| {
        format!(
            "stdout is not JSON ({err}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

async fn the_admin_command_creates_a_team_whose_key_works_against_the_running_service(
    backend: Backend,
) {
    let app = TestApp::start(backend).await;

    let created = admin_command(
        &app.database_url,
        &[
            "team",
            "create",
            "--name",
            "From the CLI",
            "--owner-email",
            "a@b.co",
        ],
    )
    .await
    .expect("team create succeeds");

    let key = created["api_key"].as_str().expect("api_key");
    assert!(is_api_key(key), "{key}");
    let team_id = created["team_id"].as_str().expect("team_id");
    assert!(created["user_id"].is_string());
    let listed = app.get("/api/v2/monitors", key).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    let team = get_team(&app, team_id).await;
    assert_eq!(team.data()["name"], "From the CLI");
    assert_eq!(team.data()["credits"], 1000);
    assert_eq!(team.data()["subscription_status"], "active");
}

async fn the_admin_command_updates_a_team_and_the_change_shows_in_the_admin_api(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let updated = admin_command(
        &app.database_url,
        &["team", "update", &team.id, "--credits", "5"],
    )
    .await
    .expect("team update succeeds");

    assert_eq!(updated["credits"], 5);
    assert_eq!(get_team(&app, &team.id).await.data()["credits"], 5);

    admin_command(
        &app.database_url,
        &[
            "team",
            "update",
            &team.id,
            "--subscription-status",
            "canceled",
        ],
    )
    .await
    .expect("status update succeeds");
    assert_error(
        &app.get("/api/v2/monitors", &team.key).await,
        403,
        "subscription_expired",
    );
    let refused = admin_command(
        &app.database_url,
        &[
            "team",
            "update",
            &team.id,
            "--subscription-status",
            "paused",
        ],
    )
    .await;
    assert!(
        refused.is_err(),
        "an unknown status is refused: {refused:?}"
    );
}

async fn the_admin_command_adds_a_member_and_revokes_a_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    app.create_monitor(&team, "Shared").await;

    let member = admin_command(
        &app.database_url,
        &["member", "add", &team.id, "--email", "new.hire@example.com"],
    )
    .await
    .expect("member add succeeds");
    let member_key = member["api_key"].as_str().expect("api_key");
    assert!(is_api_key(member_key));
    assert!(member["user_id"].is_string());
    let seen = app.get("/api/v2/monitors", member_key).await;
    assert_eq!(monitor_names(&seen), ["Shared"]);

    let revoked = admin_command(&app.database_url, &["key", "revoke", member_key])
        .await
        .expect("key revoke succeeds");
    assert_eq!(revoked, json!({ "revoked": true }));
    assert_error(
        &app.get("/api/v2/monitors", member_key).await,
        401,
        "invalid_api_key",
    );
    assert_eq!(app.get("/api/v2/monitors", &team.key).await.status, 200);
}

async fn the_admin_command_fails_for_an_unknown_team(backend: Backend) {
    let app = TestApp::start(backend).await;
    let unknown = uuid::Uuid::new_v4().to_string();

    let update = admin_command(
        &app.database_url,
        &["team", "update", &unknown, "--credits", "5"],
    )
    .await;
    let member = admin_command(
        &app.database_url,
        &["member", "add", &unknown, "--email", "x@example.com"],
    )
    .await;

    assert!(update.is_err_and(|stderr| stderr.contains("not found")));
    assert!(member.is_err_and(|stderr| stderr.contains("not found")));
}

async fn the_admin_commands_also_take_the_team_id_and_the_key_as_flags(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;

    let updated = admin_command(
        &app.database_url,
        &["team", "update", "--team-id", &team.id, "--credits", "7"],
    )
    .await
    .expect("team update --team-id succeeds");
    let member = admin_command(
        &app.database_url,
        &[
            "member",
            "add",
            "--team-id",
            &team.id,
            "--email",
            "flag@example.com",
        ],
    )
    .await
    .expect("member add --team-id succeeds");
    let member_key = member["api_key"].as_str().expect("api_key");
    let revoked = admin_command(
        &app.database_url,
        &["key", "revoke", "--api-key", member_key],
    )
    .await
    .expect("key revoke --api-key succeeds");

    assert_eq!(updated["credits"], 7);
    assert_eq!(revoked, json!({ "revoked": true }));
    assert_error(
        &app.get("/api/v2/monitors", member_key).await,
        401,
        "invalid_api_key",
    );
}
