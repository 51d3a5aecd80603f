//! Targets: adding (classification, normalization, resolution, accounting), listing, removing one
//! or in bulk, pending targets resolving later, and the 1,000-target team limit.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    // Add Targets: response shape and rules.
    adding_targets_answers_with_added_skipped_invalid_pending_and_resolved_companies,
    adding_the_same_targets_twice_adds_nothing_the_second_time,
    entries_that_normalize_to_one_value_in_a_request_are_added_once_and_counted_as_skipped,
    invalid_entries_are_listed_as_sent_and_never_fail_the_call,
    an_entry_may_be_500_characters_long_but_not_501,
    every_entry_sent_is_accounted_for_exactly_once,
    a_request_with_no_valid_entry_is_rejected_with_400_and_adds_nothing,
    a_request_with_more_than_500_entries_is_rejected_with_400_and_adds_nothing,
    an_empty_missing_or_malformed_targets_field_is_rejected_with_400,
    adding_targets_to_an_unknown_monitor_is_404_not_found,
    // Classification and normalization.
    each_kind_of_entry_is_classified_and_normalized,
    // Resolution when added.
    a_domain_of_a_known_company_resolves_immediately_with_the_company,
    a_subdomain_resolves_by_its_registrable_domain,
    a_company_page_resolves_by_the_companys_linkedin_url,
    a_member_profile_resolves_to_the_persons_current_company,
    a_member_profile_added_after_a_job_change_resolves_to_the_new_company,
    a_member_profile_target_follows_the_latest_job_change_of_a_batch,
    an_unknown_domain_stays_pending_and_is_listed_in_pending,
    resolved_companies_counts_the_distinct_companies_of_the_whole_monitor,
    // Pending to resolved.
    importing_a_company_later_resolves_its_pending_targets_at_once,
    importing_a_person_later_resolves_a_pending_member_profile,
    a_member_profile_target_follows_the_person_to_a_new_company,
    the_research_sweep_reports_what_it_checked_and_resolves_newly_known_companies,
    // List Targets.
    targets_are_listed_newest_first_with_pagination_and_the_list_meta,
    the_target_list_filters_by_status,
    the_target_list_pages_with_limit_and_offset,
    the_target_list_rejects_invalid_and_unknown_query_parameters,
    listing_the_targets_of_an_unknown_monitor_is_404_not_found,
    // Remove one target.
    removing_a_target_answers_its_id_and_deleted_true,
    removing_a_target_twice_is_404_the_second_time,
    a_target_cannot_be_removed_through_another_monitor_of_the_team,
    removing_with_a_non_uuid_or_unknown_id_is_404_not_found,
    // Bulk remove.
    bulk_remove_matches_entries_as_sent_normalized_values_and_target_ids,
    bulk_remove_lists_unmatched_entries_and_ids_in_not_found_with_200,
    bulk_remove_never_touches_the_targets_of_another_monitor,
    bulk_remove_takes_1_to_500_entries_in_all,
    bulk_remove_accepts_ids_as_an_alias_of_target_ids,
    // Team limit.
    the_team_limit_of_1000_targets_spans_monitors_and_rejects_the_whole_request,
    the_team_limit_holds_under_concurrent_add_requests,
);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn targets_path(monitor_id: &str) -> String {
    format!("/api/v2/monitors/{monitor_id}/targets")
}

/// A started app, a team and one monitor of it.
async fn app_with_monitor(backend: Backend) -> (TestApp, Team, String) {
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "Accounts").await;
    (app, team, monitor)
}

/// Adds targets and insists on a 200.
async fn add_ok(app: &TestApp, team: &Team, monitor_id: &str, targets: Value) -> Value {
    let response = app.add_targets(team, monitor_id, targets).await;
    assert_eq!(response.status, 200, "add targets: {:?}", response.body);
    response.data().clone()
}

/// `GET /monitors/{id}/targets` with a raw query string (may be empty).
async fn list(app: &TestApp, team: &Team, monitor_id: &str, query: &str) -> TestResponse {
    let path = if query.is_empty() {
        targets_path(monitor_id)
    } else {
        format!("{}?{query}", targets_path(monitor_id))
    };
    app.get(&path, &team.key).await
}

/// Every target of a monitor, newest first, read page by page.
async fn all_targets(app: &TestApp, team: &Team, monitor_id: &str) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let page = list(
            app,
            team,
            monitor_id,
            &format!("limit=200&offset={}", all.len()),
        )
        .await;
        assert_eq!(page.status, 200, "list targets: {:?}", page.body);
        let items = page.data().as_array().expect("data array").clone();
        if items.is_empty() {
            return all;
        }
        all.extend(items);
    }
}

/// The `pagination.total` of a monitor's target list.
async fn total_targets(app: &TestApp, team: &Team, monitor_id: &str) -> i64 {
    let page = list(app, team, monitor_id, "limit=1").await;
    assert_eq!(page.status, 200, "list targets: {:?}", page.body);
    page.body["pagination"]["total"].as_i64().expect("total")
}

/// The `value` field of each target in a JSON array.
fn values(targets: &Value) -> Vec<String> {
    targets
        .as_array()
        .expect("array of targets")
        .iter()
        .map(|t| t["value"].as_str().expect("value").to_string())
        .collect()
}

/// The `id` field of each target in a JSON array.
fn ids(targets: &Value) -> Vec<String> {
    targets
        .as_array()
        .expect("array of targets")
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_string())
        .collect()
}

fn count(value: &Value) -> usize {
    value.as_u64().expect("non-negative integer") as usize
}

fn assert_bad_request(response: &TestResponse, context: &str) {
    assert_eq!(response.status, 400, "{context}: {:?}", response.body);
    assert_eq!(response.body["success"], false, "{context}");
    assert_eq!(response.body["code"], "bad_request", "{context}");
    assert!(!response.error().is_empty(), "{context}: an error message");
}

fn assert_not_found(response: &TestResponse, context: &str) {
    assert_eq!(response.status, 404, "{context}: {:?}", response.body);
    assert_eq!(response.body["success"], false, "{context}");
    assert_eq!(response.body["code"], "not_found", "{context}");
}

fn assert_timestamp(value: &Value, context: &str) {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("{context}: a timestamp, got {value}"));
    assert!(
        chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with('Z'),
        "{context}: RFC 3339 UTC timestamp, got {text}"
    );
}

/// Imports Acme Inc (website, LinkedIn page, industry, country) and returns its id.
async fn import_acme(app: &TestApp) -> String {
    app.import_companies(json!([{
        "name": "Acme Inc",
        "slug": "acme",
        "website": "https://www.acme.com",
        "linkedinUrl": "https://www.linkedin.com/company/acme",
        "industry": "Software",
        "headquartersCountry": "US"
    }]))
    .await
    .remove(0)
}

/// Imports Globex (website only) and returns its id.
async fn import_globex(app: &TestApp) -> String {
    app.import_companies(json!([{
        "name": "Globex",
        "slug": "globex",
        "website": "https://globex.com",
        "industry": "Manufacturing",
        "headquartersCountry": "DE"
    }]))
    .await
    .remove(0)
}

fn acme_summary(id: &str) -> Value {
    json!({
        "id": id,
        "name": "Acme Inc",
        "slug": "acme",
        "domain": "acme.com",
        "industry": "Software",
        "country": "US"
    })
}

/// Distinct domains `co-{request}-{j}.example` for `count` entries.
fn domains(request: usize, count: usize) -> Vec<String> {
    (0..count)
        .map(|j| format!("co-{request}-{j}.example"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Add Targets
// ---------------------------------------------------------------------------------------------

async fn adding_targets_answers_with_added_skipped_invalid_pending_and_resolved_companies(
    backend: Backend,
) {
    let (app, team, monitor) = app_with_monitor(backend).await;

    let response = app
        .add_targets(&team, &monitor, json!(["acme.com", "globex.com"]))
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["success"], true);
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "monitors.targets.add", "creditsUsed": 0 })
    );
    let data = response.data();
    let mut keys: Vec<&str> = data
        .as_object()
        .expect("data object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "added",
            "invalid",
            "pending",
            "resolved_companies",
            "skipped_existing"
        ]
    );
    assert_eq!(values(&data["added"]), ["acme.com", "globex.com"]);
    assert_eq!(data["skipped_existing"], 0);
    assert_eq!(data["invalid"], json!([]));
    assert_eq!(data["pending"], json!(["acme.com", "globex.com"]));
    assert_eq!(data["resolved_companies"], 0);

    let target = &data["added"][0];
    assert!(uuid::Uuid::parse_str(target["id"].as_str().unwrap()).is_ok());
    assert_eq!(target["monitor_id"], monitor.as_str());
    assert_eq!(target["type"], "domain");
    assert_eq!(target["status"], "pending");
    assert_eq!(target["company"], Value::Null);
    assert_eq!(target["resolved_at"], Value::Null);
    assert_eq!(target["last_signal_type"], Value::Null);
    assert_eq!(target["last_signal_at"], Value::Null);
    assert_timestamp(&target["created_at"], "created_at");
}

async fn adding_the_same_targets_twice_adds_nothing_the_second_time(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let entries = json!([
        "acme.com",
        "linkedin.com/company/globex",
        "linkedin.com/in/jane-doe"
    ]);
    let first = add_ok(&app, &team, &monitor, entries.clone()).await;
    assert_eq!(first["added"].as_array().unwrap().len(), 3);

    let second = add_ok(&app, &team, &monitor, entries).await;

    assert_eq!(second["added"], json!([]));
    assert_eq!(second["skipped_existing"], 3);
    assert_eq!(second["invalid"], json!([]));
    assert_eq!(second["pending"], json!([]));
    assert_eq!(total_targets(&app, &team, &monitor).await, 3);

    // The same targets written differently are the same targets.
    let third = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "https://www.ACME.com/",
            "https://uk.linkedin.com/company/Globex/about",
            "http://www.linkedin.com/in/Jane-Doe/?trk=x"
        ]),
    )
    .await;
    assert_eq!(third["added"], json!([]));
    assert_eq!(third["skipped_existing"], 3);
    assert_eq!(total_targets(&app, &team, &monitor).await, 3);
}

async fn entries_that_normalize_to_one_value_in_a_request_are_added_once_and_counted_as_skipped(
    backend: Backend,
) {
    let (app, team, monitor) = app_with_monitor(backend).await;

    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "acme.com",
            "https://www.ACME.com/pricing",
            "linkedin.com/in/jane",
            "https://de.linkedin.com/in/JANE/details"
        ]),
    )
    .await;

    assert_eq!(values(&data["added"]), ["acme.com", "linkedin.com/in/jane"]);
    assert_eq!(data["skipped_existing"], 2);
    assert_eq!(data["invalid"], json!([]));
    assert_eq!(total_targets(&app, &team, &monitor).await, 2);
}

async fn invalid_entries_are_listed_as_sent_and_never_fail_the_call(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let too_long = format!("acme.com/{}", "x".repeat(492));
    assert_eq!(too_long.chars().count(), 501);

    let response = app
        .add_targets(
            &team,
            &monitor,
            json!([
                "not a domain",
                "localhost",
                "127.0.0.1",
                "ftp://acme.com",
                "linkedin.com/feed",
                "",
                too_long,
                42,
                "globex.com"
            ]),
        )
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(
        data["invalid"],
        json!([
            "not a domain",
            "localhost",
            "127.0.0.1",
            "ftp://acme.com",
            "linkedin.com/feed",
            "",
            too_long,
            "42"
        ])
    );
    assert_eq!(values(&data["added"]), ["globex.com"]);
    assert_eq!(data["skipped_existing"], 0);
    let listed = all_targets(&app, &team, &monitor).await;
    assert_eq!(values(&json!(listed)), ["globex.com"]);
}

async fn an_entry_may_be_500_characters_long_but_not_501(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let longest = format!("https://acme.com/{}", "p".repeat(483));
    assert_eq!(longest.chars().count(), 500);
    let too_long = format!("https://globex.com/{}", "p".repeat(482));
    assert_eq!(too_long.chars().count(), 501);

    let data = add_ok(&app, &team, &monitor, json!([longest, too_long])).await;

    assert_eq!(values(&data["added"]), ["acme.com"]);
    assert_eq!(data["invalid"], json!([too_long]));
    assert_eq!(data["skipped_existing"], 0);
}

async fn every_entry_sent_is_accounted_for_exactly_once(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    add_ok(&app, &team, &monitor, json!(["acme.com", "initech.com"])).await;
    let entries = json!([
        "acme.com",                            // already in the monitor
        "https://www.initech.com/about",       // already in the monitor, written differently
        "globex.com",                          // new
        "GLOBEX.com",                          // repeats the previous entry
        "linkedin.com/company/hooli",          // new
        "https://linkedin.com/company/hooli/", // repeats the previous entry
        "linkedin.com/in/richard",             // new
        "not a domain",                        // invalid
        "",                                    // invalid
        null,                                  // invalid
        "linkedin.com/school/stanford"         // invalid
    ]);
    let sent = entries.as_array().unwrap().len();

    let data = add_ok(&app, &team, &monitor, entries).await;

    let added = data["added"].as_array().unwrap().len();
    let skipped = count(&data["skipped_existing"]);
    let invalid = data["invalid"].as_array().unwrap().len();
    assert_eq!((added, skipped, invalid), (3, 4, 4));
    assert_eq!(added + skipped + invalid, sent);
    assert_eq!(
        values(&data["added"]),
        [
            "globex.com",
            "linkedin.com/company/hooli",
            "linkedin.com/in/richard"
        ]
    );
    assert_eq!(
        data["invalid"],
        json!(["not a domain", "", "null", "linkedin.com/school/stanford"])
    );
    assert_eq!(total_targets(&app, &team, &monitor).await, 5);
}

async fn a_request_with_no_valid_entry_is_rejected_with_400_and_adds_nothing(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;

    let response = app
        .add_targets(
            &team,
            &monitor,
            json!(["not a domain", "localhost", "127.0.0.1", "", 42]),
        )
        .await;

    assert_bad_request(&response, "only invalid entries");
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
}

async fn a_request_with_more_than_500_entries_is_rejected_with_400_and_adds_nothing(
    backend: Backend,
) {
    let (app, team, monitor) = app_with_monitor(backend).await;

    let response = app
        .add_targets(&team, &monitor, json!(domains(0, 501)))
        .await;

    assert_bad_request(&response, "501 entries");
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
}

async fn an_empty_missing_or_malformed_targets_field_is_rejected_with_400(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let path = targets_path(&monitor);

    let bodies = [
        ("an empty array", json!({ "targets": [] })),
        ("a missing field", json!({})),
        ("null", json!({ "targets": null })),
        ("a string", json!({ "targets": "acme.com" })),
        ("an object", json!({ "targets": { "domain": "acme.com" } })),
        (
            "an unknown field beside it",
            json!({ "targets": ["acme.com"], "extra": true }),
        ),
        ("a JSON array body", json!(["acme.com"])),
    ];
    for (what, body) in bodies {
        let response = app.post(&path, &team.key, body).await;
        assert_bad_request(&response, what);
    }
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
}

async fn adding_targets_to_an_unknown_monitor_is_404_not_found(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let other_team = app.create_team().await;
    let foreign = app.create_monitor(&other_team, "Theirs").await;
    let deleted = app.create_monitor(&team, "Short-lived").await;
    let gone = app
        .delete(&format!("/api/v2/monitors/{deleted}"), &team.key)
        .await;
    assert_eq!(gone.status, 200, "{:?}", gone.body);

    for (what, id) in [
        ("a random id", uuid::Uuid::new_v4().to_string()),
        ("a non-UUID id", "not-a-uuid".to_string()),
        ("another team's monitor", foreign.clone()),
        ("a deleted monitor", deleted),
    ] {
        let response = app.add_targets(&team, &id, json!(["acme.com"])).await;
        assert_not_found(&response, what);
    }
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
    assert_eq!(total_targets(&app, &other_team, &foreign).await, 0);
}

// ---------------------------------------------------------------------------------------------
// Classification and normalization
// ---------------------------------------------------------------------------------------------

async fn each_kind_of_entry_is_classified_and_normalized(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;

    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "acme.com",
            "https://www.Globex.com/pricing?plan=pro#top",
            "http://initech.co.uk:8080/",
            "https://uk.linkedin.com/company/Acme-Inc/about",
            "linkedin.com/in/Jane-Doe?x=1",
            "https://www.linkedin.com/in/J%C3%BCrgen-M/"
        ]),
    )
    .await;

    let kinds: Vec<(String, String)> = data["added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["type"].as_str().unwrap().to_string(),
                t["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("domain", "acme.com"),
        ("domain", "globex.com"),
        ("domain", "initech.co.uk"),
        ("linkedin_company", "linkedin.com/company/acme-inc"),
        ("linkedin_profile", "linkedin.com/in/jane-doe"),
        ("linkedin_profile", "linkedin.com/in/jürgen-m"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()));
    assert_eq!(kinds, expected);
    assert_eq!(data["invalid"], json!([]));

    // The stored values are what the list shows.
    let mut listed = values(&json!(all_targets(&app, &team, &monitor).await));
    listed.sort();
    let mut stored: Vec<String> = expected.iter().map(|(_, v)| v.clone()).collect();
    stored.sort();
    assert_eq!(listed, stored);
}

// ---------------------------------------------------------------------------------------------
// Resolution when added
// ---------------------------------------------------------------------------------------------

async fn a_domain_of_a_known_company_resolves_immediately_with_the_company(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;

    let data = add_ok(&app, &team, &monitor, json!(["https://acme.com/about"])).await;

    let target = &data["added"][0];
    assert_eq!(target["type"], "domain");
    assert_eq!(target["value"], "acme.com");
    assert_eq!(target["status"], "resolved");
    assert_eq!(target["company"], acme_summary(&acme));
    assert_timestamp(&target["resolved_at"], "resolved_at");
    assert_eq!(data["pending"], json!([]));
    assert_eq!(data["resolved_companies"], 1);

    let listed = list(&app, &team, &monitor, "").await;
    assert_eq!(listed.data()[0]["company"], acme_summary(&acme));
    assert_eq!(listed.data()[0]["status"], "resolved");
    assert_eq!(listed.data()[0]["resolved_at"], target["resolved_at"]);
}

async fn a_subdomain_resolves_by_its_registrable_domain(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;

    let data = add_ok(&app, &team, &monitor, json!(["https://shop.acme.com/cart"])).await;

    let target = &data["added"][0];
    assert_eq!(target["value"], "shop.acme.com");
    assert_eq!(target["status"], "resolved");
    assert_eq!(target["company"]["id"], acme.as_str());
    assert_eq!(data["resolved_companies"], 1);
}

async fn a_company_page_resolves_by_the_companys_linkedin_url(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;

    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!(["https://fr.linkedin.com/company/ACME/jobs"]),
    )
    .await;

    let target = &data["added"][0];
    assert_eq!(target["type"], "linkedin_company");
    assert_eq!(target["value"], "linkedin.com/company/acme");
    assert_eq!(target["status"], "resolved");
    assert_eq!(target["company"], acme_summary(&acme));
    assert_eq!(data["pending"], json!([]));
}

async fn a_member_profile_resolves_to_the_persons_current_company(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;
    app.import_people(json!([{
        "linkedinUrl": "https://www.linkedin.com/in/jane-doe",
        "name": "Jane Doe",
        "companyWebsite": "https://acme.com"
    }]))
    .await;

    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!(["linkedin.com/in/Jane-Doe?x=1"]),
    )
    .await;

    let target = &data["added"][0];
    assert_eq!(target["type"], "linkedin_profile");
    assert_eq!(target["value"], "linkedin.com/in/jane-doe");
    assert_eq!(target["status"], "resolved");
    assert_eq!(target["company"], acme_summary(&acme));
    assert_timestamp(&target["resolved_at"], "resolved_at");
    assert_eq!(data["resolved_companies"], 1);
}

async fn a_member_profile_added_after_a_job_change_resolves_to_the_new_company(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;
    let globex = import_globex(&app).await;
    app.import_people(json!([{
        "linkedinUrl": "https://www.linkedin.com/in/jane-doe",
        "name": "Jane Doe",
        "companyWebsite": "https://acme.com"
    }]))
    .await;
    let moved = app
        .admin(
            reqwest::Method::POST,
            "/signals/job-changes",
            Some(json!([{
                "companyId": globex, "previousCompanyId": acme, "personName": "Jane Doe",
                "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe", "newRole": "CTO",
                "occurredAt": "2026-11-20T10:00:00Z"
            }])),
        )
        .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);

    let data = add_ok(&app, &team, &monitor, json!(["linkedin.com/in/jane-doe"])).await;

    assert_eq!(data["added"][0]["status"], "resolved");
    assert_eq!(data["added"][0]["company"]["id"], globex.as_str());
}

async fn a_member_profile_target_follows_the_latest_job_change_of_a_batch(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;
    let globex = import_globex(&app).await;
    app.import_people(json!([{
        "linkedinUrl": "https://www.linkedin.com/in/jane-doe", "name": "Jane Doe",
        "companyWebsite": "https://acme.com"
    }]))
    .await;
    let data = add_ok(&app, &team, &monitor, json!(["linkedin.com/in/jane-doe"])).await;
    assert_eq!(data["added"][0]["company"]["id"], acme.as_str());
    let change = |company: &str, at: &str| {
        json!({ "companyId": company, "personName": "Jane Doe", "newRole": "CTO",
            "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe", "occurredAt": at })
    };

    let moved = app
        .admin(
            reqwest::Method::POST,
            "/signals/job-changes",
            Some(json!([
                change(&globex, "2026-11-20T10:00:00Z"),
                change(&acme, "2026-01-10T10:00:00Z")
            ])),
        )
        .await;

    assert_eq!(moved.status, 200, "{:?}", moved.body);
    let listed = app
        .get(&format!("/api/v2/monitors/{monitor}/targets"), &team.key)
        .await;
    assert_eq!(listed.data()[0]["company"]["id"], globex.as_str());
}

async fn an_unknown_domain_stays_pending_and_is_listed_in_pending(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    import_acme(&app).await;

    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "acme.com",
            "https://www.Unknown-Startup.io/",
            "linkedin.com/company/nobody",
            "linkedin.com/in/stranger"
        ]),
    )
    .await;

    assert_eq!(
        data["pending"],
        json!([
            "unknown-startup.io",
            "linkedin.com/company/nobody",
            "linkedin.com/in/stranger"
        ])
    );
    for target in &data["added"].as_array().unwrap()[1..] {
        assert_eq!(target["status"], "pending", "{target}");
        assert_eq!(target["company"], Value::Null);
        assert_eq!(target["resolved_at"], Value::Null);
    }
    assert_eq!(data["added"][0]["status"], "resolved");
    assert_eq!(data["resolved_companies"], 1);
}

async fn resolved_companies_counts_the_distinct_companies_of_the_whole_monitor(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    import_acme(&app).await;
    import_globex(&app).await;

    let first = add_ok(&app, &team, &monitor, json!(["acme.com", "shop.acme.com"])).await;
    assert_eq!(first["resolved_companies"], 1);

    let second = add_ok(
        &app,
        &team,
        &monitor,
        json!(["linkedin.com/company/acme", "pending-co.com"]),
    )
    .await;
    assert_eq!(second["resolved_companies"], 1, "still only Acme");

    let third = add_ok(&app, &team, &monitor, json!(["globex.com"])).await;
    assert_eq!(third["resolved_companies"], 2, "Acme and Globex");

    // A request that adds nothing still reports the monitor's count.
    let again = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    assert_eq!(again["resolved_companies"], 2);

    // Another monitor's count is its own.
    let other = app.create_monitor(&team, "Other").await;
    let elsewhere = add_ok(&app, &team, &other, json!(["www.globex.com"])).await;
    assert_eq!(elsewhere["resolved_companies"], 1);

    // Removing the monitor's only Globex target leaves Acme alone.
    let removed = app
        .post(
            &format!("{}/remove", targets_path(&monitor)),
            &team.key,
            json!({ "targets": ["globex.com"] }),
        )
        .await;
    assert_eq!(removed.data()["removed_count"], 1, "{:?}", removed.body);
    let after = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    assert_eq!(after["resolved_companies"], 1);
}

// ---------------------------------------------------------------------------------------------
// Pending to resolved
// ---------------------------------------------------------------------------------------------

async fn importing_a_company_later_resolves_its_pending_targets_at_once(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "acme.com",
            "blog.acme.com",
            "linkedin.com/company/acme",
            "still-unknown.com"
        ]),
    )
    .await;
    assert_eq!(data["pending"].as_array().unwrap().len(), 4);
    assert_eq!(data["resolved_companies"], 0);

    let acme = import_acme(&app).await;

    let resolved = list(&app, &team, &monitor, "status=resolved").await;
    assert_eq!(resolved.status, 200, "{:?}", resolved.body);
    let mut resolved_values = values(resolved.data());
    resolved_values.sort();
    assert_eq!(
        resolved_values,
        ["acme.com", "blog.acme.com", "linkedin.com/company/acme"]
    );
    for target in resolved.data().as_array().unwrap() {
        assert_eq!(target["status"], "resolved");
        assert_eq!(target["company"], acme_summary(&acme));
        assert_timestamp(&target["resolved_at"], "resolved_at");
    }
    let pending = list(&app, &team, &monitor, "status=pending").await;
    assert_eq!(values(pending.data()), ["still-unknown.com"]);

    // The next add request sees the resolved company.
    let next = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    assert_eq!(next["resolved_companies"], 1);
}

async fn importing_a_person_later_resolves_a_pending_member_profile(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;
    let data = add_ok(&app, &team, &monitor, json!(["linkedin.com/in/jane-doe"])).await;
    assert_eq!(data["pending"], json!(["linkedin.com/in/jane-doe"]));

    app.import_people(json!([{
        "linkedinUrl": "https://uk.linkedin.com/in/Jane-Doe/",
        "name": "Jane Doe",
        "companyWebsite": "https://acme.com"
    }]))
    .await;

    let resolved = list(&app, &team, &monitor, "status=resolved").await;
    assert_eq!(values(resolved.data()), ["linkedin.com/in/jane-doe"]);
    assert_eq!(resolved.data()[0]["company"], acme_summary(&acme));
    assert_timestamp(&resolved.data()[0]["resolved_at"], "resolved_at");
}

async fn a_member_profile_target_follows_the_person_to_a_new_company(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let acme = import_acme(&app).await;
    let globex = import_globex(&app).await;
    app.import_people(json!([{
        "linkedinUrl": "https://www.linkedin.com/in/jane-doe",
        "name": "Jane Doe",
        "companyWebsite": "https://acme.com"
    }]))
    .await;
    let data = add_ok(&app, &team, &monitor, json!(["linkedin.com/in/jane-doe"])).await;
    assert_eq!(data["added"][0]["company"]["id"], acme.as_str());
    let target_id = data["added"][0]["id"].clone();

    app.import_people(json!([{
        "linkedinUrl": "https://www.linkedin.com/in/jane-doe",
        "name": "Jane Doe",
        "companyWebsite": "https://www.globex.com"
    }]))
    .await;

    let listed = list(&app, &team, &monitor, "").await;
    let target = &listed.data()[0];
    assert_eq!(target["id"], target_id);
    assert_eq!(target["status"], "resolved");
    assert_eq!(
        target["company"],
        json!({
            "id": globex,
            "name": "Globex",
            "slug": "globex",
            "domain": "globex.com",
            "industry": "Manufacturing",
            "country": "DE"
        })
    );
    assert_eq!(listed.body["pagination"]["total"], 1);

    // A domain target of the old company stays where it is.
    let domain = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    assert_eq!(domain["added"][0]["company"]["id"], acme.as_str());
    assert_eq!(domain["resolved_companies"], 2);
}

async fn the_research_sweep_reports_what_it_checked_and_resolves_newly_known_companies(
    backend: Backend,
) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    import_acme(&app).await;
    add_ok(
        &app,
        &team,
        &monitor,
        json!(["acme.com", "later.com", "never.com"]),
    )
    .await;

    let sweep = app
        .admin(reqwest::Method::POST, "/research/run", None)
        .await;
    assert_eq!(sweep.status, 200, "{:?}", sweep.body);
    assert_eq!(sweep.body["success"], true);
    assert_eq!(sweep.data(), &json!({ "checked": 2, "resolved": 0 }));

    // A company that entered the database by another way than the import path (as the nightly
    // re-check expects) is found by the next sweep.
    let company_id = insert_company_directly(&app.database_url, "Later Ltd", "later.com").await;
    let sweep = app
        .admin(reqwest::Method::POST, "/research/run", None)
        .await;
    assert_eq!(sweep.status, 200, "{:?}", sweep.body);
    assert_eq!(sweep.data(), &json!({ "checked": 2, "resolved": 1 }));

    let resolved = list(&app, &team, &monitor, "status=resolved").await;
    let mut resolved_values = values(resolved.data());
    resolved_values.sort();
    assert_eq!(resolved_values, ["acme.com", "later.com"]);
    let later = resolved
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["value"] == "later.com")
        .unwrap();
    assert_eq!(later["company"]["id"], company_id.as_str());
    assert_eq!(later["company"]["name"], "Later Ltd");
    assert_timestamp(&later["resolved_at"], "resolved_at");

    let sweep = app
        .admin(reqwest::Method::POST, "/research/run", None)
        .await;
    assert_eq!(sweep.data(), &json!({ "checked": 1, "resolved": 0 }));
}

/// Writes a company row straight into the service's database, bypassing the import path that
/// would resolve pending targets at once; only the research sweep can find it.
async fn insert_company_directly(database_url: &str, name: &str, domain: &str) -> String {
    use sqlx::Connection;
    let id = uuid::Uuid::new_v4().to_string();
    let now = chrono::Utc::now().timestamp_millis();
    let sql = "INSERT INTO companies (id, name, website, domain, registrable_domain, created_at, \
               updated_at) VALUES ($1, $2, $3, $4, $4, $5, $5)";
    let website = format!("https://{domain}");
    if database_url.starts_with("postgres") {
        let mut conn = sqlx::PgConnection::connect(database_url)
            .await
            .expect("connect");
        sqlx::query(sql)
            .bind(&id)
            .bind(name)
            .bind(&website)
            .bind(domain)
            .bind(now)
            .execute(&mut conn)
            .await
            .expect("insert company");
        let _ = conn.close().await;
    } else {
        let mut conn = sqlx::SqliteConnection::connect(database_url)
            .await
            .expect("connect");
        sqlx::query(sql)
            .bind(&id)
            .bind(name)
            .bind(&website)
            .bind(domain)
            .bind(now)
            .execute(&mut conn)
            .await
            .expect("insert company");
        let _ = conn.close().await;
    }
    id
}

// ---------------------------------------------------------------------------------------------
// List Targets
// ---------------------------------------------------------------------------------------------

async fn targets_are_listed_newest_first_with_pagination_and_the_list_meta(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    for domain in ["first.com", "second.com", "third.com"] {
        add_ok(&app, &team, &monitor, json!([domain])).await;
    }

    let listed = list(&app, &team, &monitor, "").await;

    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.body["success"], true);
    assert_eq!(
        listed.body["meta"],
        json!({ "endpoint": "monitors.targets.list", "creditsUsed": 0 })
    );
    assert_eq!(
        listed.body["pagination"],
        json!({ "limit": 100, "offset": 0, "count": 3, "total": 3 })
    );
    assert_eq!(
        values(listed.data()),
        ["third.com", "second.com", "first.com"]
    );
    let target = &listed.data()[0];
    for field in [
        "id",
        "monitor_id",
        "type",
        "value",
        "status",
        "company",
        "resolved_at",
        "last_signal_type",
        "last_signal_at",
        "created_at",
    ] {
        assert!(target.get(field).is_some(), "target field {field}");
    }
    assert_eq!(target["monitor_id"], monitor.as_str());

    // An empty monitor lists nothing.
    let empty = app.create_monitor(&team, "Empty").await;
    let none = list(&app, &team, &empty, "").await;
    assert_eq!(none.data(), &json!([]));
    assert_eq!(
        none.body["pagination"],
        json!({ "limit": 100, "offset": 0, "count": 0, "total": 0 })
    );
}

async fn the_target_list_filters_by_status(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    import_acme(&app).await;
    add_ok(
        &app,
        &team,
        &monitor,
        json!(["acme.com", "pending-one.com", "pending-two.com"]),
    )
    .await;

    let resolved = list(&app, &team, &monitor, "status=resolved").await;
    assert_eq!(resolved.status, 200, "{:?}", resolved.body);
    assert_eq!(values(resolved.data()), ["acme.com"]);
    assert_eq!(resolved.body["pagination"]["total"], 1);

    let pending = list(&app, &team, &monitor, "status=pending").await;
    let mut pending_values = values(pending.data());
    pending_values.sort();
    assert_eq!(pending_values, ["pending-one.com", "pending-two.com"]);
    assert_eq!(pending.body["pagination"]["total"], 2);
    assert!(
        pending
            .data()
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "pending")
    );

    let all = list(&app, &team, &monitor, "").await;
    assert_eq!(all.body["pagination"]["total"], 3);
}

async fn the_target_list_pages_with_limit_and_offset(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    for i in 0..5 {
        add_ok(&app, &team, &monitor, json!([format!("site-{i}.com")])).await;
    }
    let newest_first = [
        "site-4.com",
        "site-3.com",
        "site-2.com",
        "site-1.com",
        "site-0.com",
    ];

    let mut seen = Vec::new();
    for offset in [0, 2, 4] {
        let page = list(&app, &team, &monitor, &format!("limit=2&offset={offset}")).await;
        assert_eq!(page.status, 200, "{:?}", page.body);
        let expected_count = if offset == 4 { 1 } else { 2 };
        assert_eq!(
            page.body["pagination"],
            json!({ "limit": 2, "offset": offset, "count": expected_count, "total": 5 })
        );
        seen.extend(values(page.data()));
    }
    assert_eq!(seen, newest_first);

    let past_the_end = list(&app, &team, &monitor, "limit=2&offset=10").await;
    assert_eq!(past_the_end.data(), &json!([]));
    assert_eq!(
        past_the_end.body["pagination"],
        json!({ "limit": 2, "offset": 10, "count": 0, "total": 5 })
    );

    let largest = list(&app, &team, &monitor, "limit=200").await;
    assert_eq!(largest.status, 200, "{:?}", largest.body);
    assert_eq!(largest.body["pagination"]["limit"], 200);
    assert_eq!(largest.body["pagination"]["count"], 5);

    let filtered = list(&app, &team, &monitor, "status=pending&limit=1&offset=1").await;
    assert_eq!(values(filtered.data()), ["site-3.com"]);
    assert_eq!(
        filtered.body["pagination"],
        json!({ "limit": 1, "offset": 1, "count": 1, "total": 5 })
    );
}

async fn the_target_list_rejects_invalid_and_unknown_query_parameters(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    add_ok(&app, &team, &monitor, json!(["acme.com"])).await;

    for query in [
        "limit=0",
        "limit=201",
        "limit=abc",
        "limit=-1",
        "limit=",
        "offset=-1",
        "offset=abc",
        "offset=99999999999999999999",
        "limit=1.5",
        "status=foo",
        "status=RESOLVED",
        "page=2",
        "type=domain",
    ] {
        let response = list(&app, &team, &monitor, query).await;
        assert_bad_request(&response, query);
    }
    let unknown = list(&app, &team, &monitor, "sort=asc").await;
    assert!(
        unknown.error().contains("sort"),
        "the message names the unknown parameter: {}",
        unknown.error()
    );
}

async fn listing_the_targets_of_an_unknown_monitor_is_404_not_found(backend: Backend) {
    let (app, team, _monitor) = app_with_monitor(backend).await;
    let other_team = app.create_team().await;
    let foreign = app.create_monitor(&other_team, "Theirs").await;
    add_ok(&app, &other_team, &foreign, json!(["acme.com"])).await;

    for (what, id) in [
        ("a random id", uuid::Uuid::new_v4().to_string()),
        ("a non-UUID id", "123".to_string()),
        ("another team's monitor", foreign),
    ] {
        let response = list(&app, &team, &id, "").await;
        assert_not_found(&response, what);
    }
}

// ---------------------------------------------------------------------------------------------
// Remove one target
// ---------------------------------------------------------------------------------------------

async fn removing_a_target_answers_its_id_and_deleted_true(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(&app, &team, &monitor, json!(["acme.com", "globex.com"])).await;
    let acme_target = data["added"][0]["id"].as_str().unwrap().to_string();

    let response = app
        .delete(
            &format!("{}/{acme_target}", targets_path(&monitor)),
            &team.key,
        )
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["success"], true);
    assert_eq!(
        response.data(),
        &json!({ "id": acme_target, "deleted": true })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "monitors.targets.remove", "creditsUsed": 0 })
    );
    let listed = list(&app, &team, &monitor, "").await;
    assert_eq!(values(listed.data()), ["globex.com"]);

    // The removed entry can be added again, as a new target.
    let again = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    assert_eq!(values(&again["added"]), ["acme.com"]);
    assert_ne!(again["added"][0]["id"], acme_target.as_str());
}

async fn removing_a_target_twice_is_404_the_second_time(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    let path = format!(
        "{}/{}",
        targets_path(&monitor),
        data["added"][0]["id"].as_str().unwrap()
    );

    let first = app.delete(&path, &team.key).await;
    assert_eq!(first.status, 200, "{:?}", first.body);

    let second = app.delete(&path, &team.key).await;
    assert_not_found(&second, "second removal");
    assert!(
        second.error().to_lowercase().contains("target"),
        "the message is about the target: {}",
        second.error()
    );
}

async fn a_target_cannot_be_removed_through_another_monitor_of_the_team(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let other = app.create_monitor(&team, "Other").await;
    let data = add_ok(&app, &team, &other, json!(["acme.com"])).await;
    let target = data["added"][0]["id"].as_str().unwrap().to_string();

    let response = app
        .delete(&format!("{}/{target}", targets_path(&monitor)), &team.key)
        .await;

    assert_not_found(&response, "target of another monitor");
    assert_eq!(ids(list(&app, &team, &other, "").await.data()), [target]);
}

async fn removing_with_a_non_uuid_or_unknown_id_is_404_not_found(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(&app, &team, &monitor, json!(["acme.com"])).await;
    let target = data["added"][0]["id"].as_str().unwrap().to_string();
    let other_team = app.create_team().await;

    for (what, path, key) in [
        (
            "a non-UUID target id",
            format!("{}/not-a-uuid", targets_path(&monitor)),
            team.key.clone(),
        ),
        (
            "an unknown target id",
            format!("{}/{}", targets_path(&monitor), uuid::Uuid::new_v4()),
            team.key.clone(),
        ),
        (
            "an unknown monitor",
            format!(
                "{}/{target}",
                targets_path(&uuid::Uuid::new_v4().to_string())
            ),
            team.key.clone(),
        ),
        (
            "a non-UUID monitor id",
            format!("{}/{target}", targets_path("monitor-1")),
            team.key.clone(),
        ),
        (
            "another team's key",
            format!("{}/{target}", targets_path(&monitor)),
            other_team.key.clone(),
        ),
    ] {
        let response = app.delete(&path, &key).await;
        assert_not_found(&response, what);
    }
    assert_eq!(total_targets(&app, &team, &monitor).await, 1);
}

// ---------------------------------------------------------------------------------------------
// Bulk remove
// ---------------------------------------------------------------------------------------------

async fn bulk_remove(app: &TestApp, team: &Team, monitor_id: &str, body: Value) -> TestResponse {
    app.post(
        &format!("{}/remove", targets_path(monitor_id)),
        &team.key,
        body,
    )
    .await
}

async fn bulk_remove_matches_entries_as_sent_normalized_values_and_target_ids(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(
        &app,
        &team,
        &monitor,
        json!([
            "https://www.Acme.com/pricing",
            "https://uk.linkedin.com/company/Globex/about",
            "linkedin.com/in/jane-doe",
            "initech.com",
            "keep.com"
        ]),
    )
    .await;
    let added = ids(&data["added"]);

    let response = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({
            "targets": [
                "https://www.Acme.com/pricing",    // as sent
                "linkedin.com/company/globex",     // normalized
                "https://linkedin.com/in/Jane-Doe/" // written another way
            ],
            "target_ids": [added[3]]
        }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["success"], true);
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "monitors.targets.remove_bulk", "creditsUsed": 0 })
    );
    let result = response.data();
    let mut keys: Vec<&str> = result
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["not_found", "removed", "removed_count"]);
    let mut removed: Vec<String> = result["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_string())
        .collect();
    removed.sort();
    let mut expected = added[..4].to_vec();
    expected.sort();
    assert_eq!(removed, expected);
    assert_eq!(result["removed_count"], 4);
    assert_eq!(result["not_found"], json!([]));
    assert_eq!(
        values(list(&app, &team, &monitor, "").await.data()),
        ["keep.com"]
    );

    // The camelCase alias of target_ids works too.
    let by_alias = bulk_remove(&app, &team, &monitor, json!({ "targetIds": [added[4]] })).await;
    assert_eq!(by_alias.status, 200, "{:?}", by_alias.body);
    assert_eq!(by_alias.data()["removed"], json!([added[4]]));
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
}

async fn bulk_remove_lists_unmatched_entries_and_ids_in_not_found_with_200(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(&app, &team, &monitor, json!(["acme.com", "globex.com"])).await;
    let acme = data["added"][0]["id"].as_str().unwrap().to_string();
    let unknown_id = uuid::Uuid::new_v4().to_string();

    let response = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({
            "targets": ["acme.com", "never-added.com", "not a domain", ""],
            "target_ids": [unknown_id, "not-a-uuid", 7]
        }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let result = response.data();
    assert_eq!(result["removed"], json!([acme]));
    assert_eq!(result["removed_count"], 1);
    assert_eq!(
        result["not_found"],
        json!([
            "never-added.com",
            "not a domain",
            "",
            unknown_id,
            "not-a-uuid",
            "7"
        ])
    );
    assert_eq!(
        values(list(&app, &team, &monitor, "").await.data()),
        ["globex.com"]
    );

    // Removing what is already gone removes nothing and still answers 200.
    let again = bulk_remove(&app, &team, &monitor, json!({ "target_ids": [acme] })).await;
    assert_eq!(again.status, 200, "{:?}", again.body);
    assert_eq!(
        again.data(),
        &json!({ "removed": [], "removed_count": 0, "not_found": [acme] })
    );
}

async fn bulk_remove_never_touches_the_targets_of_another_monitor(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let other = app.create_monitor(&team, "Other").await;
    let theirs = add_ok(&app, &team, &other, json!(["acme.com", "globex.com"])).await;
    let globex = theirs["added"][1]["id"].as_str().unwrap().to_string();

    let response = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({ "targets": ["acme.com"], "target_ids": [globex] }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.data()["removed_count"], 0);
    assert_eq!(response.data()["not_found"], json!(["acme.com", globex]));
    assert_eq!(total_targets(&app, &team, &other).await, 2);

    let unknown = bulk_remove(
        &app,
        &team,
        &uuid::Uuid::new_v4().to_string(),
        json!({ "targets": ["acme.com"] }),
    )
    .await;
    assert_not_found(&unknown, "bulk remove on an unknown monitor");
}

async fn bulk_remove_takes_1_to_500_entries_in_all(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    add_ok(&app, &team, &monitor, json!(["acme.com"])).await;

    let ids_300: Vec<String> = (0..300).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    let bodies = [
        ("no field", json!({})),
        ("empty targets", json!({ "targets": [] })),
        ("both empty", json!({ "targets": [], "target_ids": [] })),
        ("501 targets", json!({ "targets": domains(0, 501) })),
        (
            "301 targets and 200 ids",
            json!({ "targets": domains(0, 301), "target_ids": ids_300[..200] }),
        ),
        ("a string", json!({ "targets": "acme.com" })),
        (
            "an unknown field",
            json!({ "targets": ["acme.com"], "values": [] }),
        ),
    ];
    for (what, body) in bodies {
        let response = bulk_remove(&app, &team, &monitor, body).await;
        assert_bad_request(&response, what);
    }
    assert_eq!(total_targets(&app, &team, &monitor).await, 1);

    // Exactly 500 in all is accepted.
    let mut entries = domains(0, 199);
    entries.push("acme.com".into());
    let response = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({ "targets": entries, "target_ids": ids_300 }),
    )
    .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.data()["removed_count"], 1);
    assert_eq!(response.data()["not_found"].as_array().unwrap().len(), 499);
    assert_eq!(total_targets(&app, &team, &monitor).await, 0);
}

async fn bulk_remove_accepts_ids_as_an_alias_of_target_ids(backend: Backend) {
    let (app, team, monitor) = app_with_monitor(backend).await;
    let data = add_ok(&app, &team, &monitor, json!(["acme.com", "globex.com"])).await;
    let added = ids(&data["added"]);
    let unknown = uuid::Uuid::new_v4().to_string();

    let response = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({ "ids": [added[0], unknown], "targets": ["initech.com"] }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        response.data(),
        &json!({ "removed": [added[0]], "removed_count": 1, "not_found": ["initech.com", unknown] })
    );
    assert_eq!(
        values(list(&app, &team, &monitor, "").await.data()),
        ["globex.com"]
    );
    // The alias is the same field: sending it beside its canonical name is a duplicate.
    let both = bulk_remove(
        &app,
        &team,
        &monitor,
        json!({ "ids": [added[1]], "target_ids": [added[1]] }),
    )
    .await;
    assert_bad_request(&both, "ids beside target_ids");
    let empty = bulk_remove(&app, &team, &monitor, json!({ "ids": [] })).await;
    assert_bad_request(&empty, "an empty ids list");
    assert_eq!(total_targets(&app, &team, &monitor).await, 1);
}

// ---------------------------------------------------------------------------------------------
// Team limit
// ---------------------------------------------------------------------------------------------

async fn the_team_limit_of_1000_targets_spans_monitors_and_rejects_the_whole_request(
    backend: Backend,
) {
    let (app, team, first) = app_with_monitor(backend).await;
    let second = app.create_monitor(&team, "Second").await;
    let full_first = add_ok(&app, &team, &first, json!(domains(1, 500))).await;
    assert_eq!(full_first["added"].as_array().unwrap().len(), 500);
    let full_second = add_ok(&app, &team, &second, json!(domains(2, 499))).await;
    assert_eq!(full_second["added"].as_array().unwrap().len(), 499);

    // 999 + 2 > 1,000: rejected, and neither entry is added.
    let over = app
        .add_targets(&team, &second, json!(["one-more.com", "two-more.com"]))
        .await;
    assert_bad_request(&over, "two over the limit");
    assert_eq!(total_targets(&app, &team, &first).await, 500);
    assert_eq!(total_targets(&app, &team, &second).await, 499);

    // Entries already in the monitor and invalid ones do not count: one new entry fits exactly.
    let fits = add_ok(
        &app,
        &team,
        &second,
        json!(["one-more.com", "co-2-0.example", "not a domain"]),
    )
    .await;
    assert_eq!(values(&fits["added"]), ["one-more.com"]);
    assert_eq!(fits["skipped_existing"], 1);
    assert_eq!(total_targets(&app, &team, &second).await, 500);

    // At 1,000, re-adding existing targets still answers 200 with nothing added.
    let existing = add_ok(&app, &team, &first, json!(["co-1-0.example"])).await;
    assert_eq!(existing["added"], json!([]));
    assert_eq!(existing["skipped_existing"], 1);

    // The same entry in another monitor is another target, so it counts.
    let elsewhere = app
        .add_targets(&team, &second, json!(["co-1-0.example"]))
        .await;
    assert_bad_request(
        &elsewhere,
        "an entry of the first monitor, added to the second",
    );
    let third = app.create_monitor(&team, "Third").await;
    let new_monitor = app.add_targets(&team, &third, json!(["fresh.com"])).await;
    assert_bad_request(&new_monitor, "a new monitor of a full team");
    assert_eq!(total_targets(&app, &team, &third).await, 0);

    // Another team is not affected.
    let other_team = app.create_team().await;
    let other_monitor = app.create_monitor(&other_team, "Theirs").await;
    add_ok(&app, &other_team, &other_monitor, json!(["fresh.com"])).await;

    // Removing a target makes room for one more.
    let removed = app
        .post(
            &format!("{}/remove", targets_path(&first)),
            &team.key,
            json!({ "targets": ["co-1-499.example"] }),
        )
        .await;
    assert_eq!(removed.status, 200, "{:?}", removed.body);
    assert_eq!(removed.data()["removed_count"], 1);
    let room = add_ok(&app, &team, &third, json!(["fresh.com"])).await;
    assert_eq!(values(&room["added"]), ["fresh.com"]);
    let sum = total_targets(&app, &team, &first).await
        + total_targets(&app, &team, &second).await
        + total_targets(&app, &team, &third).await;
    assert_eq!(sum, 1000);

    // Deleting a monitor deletes its targets (499), which frees their places.
    let deleted = app
        .delete(&format!("/api/v2/monitors/{first}"), &team.key)
        .await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);
    let refill = add_ok(&app, &team, &third, json!(domains(3, 499))).await;
    assert_eq!(refill["added"].as_array().unwrap().len(), 499);
    let over = app.add_targets(&team, &third, json!(["last.com"])).await;
    assert_bad_request(&over, "full again");
}

async fn the_team_limit_holds_under_concurrent_add_requests(backend: Backend) {
    const REQUESTS: usize = 20;
    const PER_REQUEST: usize = 60;
    let app = TestApp::start(backend).await;
    let team = app.create_team().await;
    let mut monitors = Vec::new();
    for i in 0..4 {
        monitors.push(app.create_monitor(&team, &format!("Monitor {i}")).await);
    }

    let mut requests = tokio::task::JoinSet::new();
    for i in 0..REQUESTS {
        let client = app.client.clone();
        let url = format!(
            "{}{}",
            app.base,
            targets_path(&monitors[i % monitors.len()])
        );
        let key = team.key.clone();
        let body = json!({ "targets": domains(i, PER_REQUEST) });
        requests.spawn(async move {
            let response = client
                .post(url)
                .bearer_auth(key)
                .json(&body)
                .send()
                .await
                .expect("request reaches the service");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("JSON body");
            (i, status, body)
        });
    }
    let outcomes = requests.join_all().await;

    let mut succeeded = Vec::new();
    let mut failed = Vec::new();
    for (i, status, body) in outcomes {
        match status {
            200 => {
                assert_eq!(
                    body["data"]["added"].as_array().map(Vec::len),
                    Some(PER_REQUEST),
                    "request {i} added all of its entries: {body}"
                );
                assert_eq!(body["data"]["skipped_existing"], 0);
                succeeded.push(i);
            }
            400 => {
                assert_eq!(body["code"], "bad_request", "request {i}: {body}");
                failed.push(i);
            }
            other => panic!("request {i}: unexpected status {other}: {body}"),
        }
    }
    // 16 × 60 = 960 fit; a 17th would make 1,020.
    assert_eq!(succeeded.len(), 16, "succeeded: {succeeded:?}");
    assert_eq!(failed.len(), REQUESTS - 16);

    let mut team_total = 0;
    let mut stored = Vec::new();
    for monitor in &monitors {
        team_total += total_targets(&app, &team, monitor).await;
        stored.extend(values(&json!(all_targets(&app, &team, monitor).await)));
    }
    assert!(team_total <= 1000, "team total {team_total}");
    assert_eq!(team_total as usize, succeeded.len() * PER_REQUEST);
    assert_eq!(stored.len(), team_total as usize);
    for i in failed {
        let prefix = format!("co-{i}-");
        assert!(
            !stored.iter().any(|v| v.starts_with(&prefix)),
            "rejected request {i} added nothing"
        );
    }
}
