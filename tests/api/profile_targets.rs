//! Member-profile targets follow the person to the company of their latest job change by date,
//! whatever order the job changes arrive in.

use serde_json::{Value, json};

use crate::each_backend;
use crate::support::{Backend, Team, TestApp};

each_backend!(
    a_backfilled_older_job_change_does_not_move_a_profile_target_back,
    a_newer_job_change_in_a_later_batch_moves_the_profile_target,
    a_profile_added_after_a_backfill_resolves_to_the_latest_job,
);

const JANE: &str = "https://www.linkedin.com/in/jane-doe";

/// Imports Acme, Globex and Initech; returns their ids in that order.
async fn three_companies(app: &TestApp) -> (String, String, String) {
    let ids = app
        .import_companies(json!([
            { "name": "Acme", "website": "https://acme.com" },
            { "name": "Globex", "website": "https://globex.com" },
            { "name": "Initech", "website": "https://initech.com" }
        ]))
        .await;
    (ids[0].clone(), ids[1].clone(), ids[2].clone())
}

/// A job change of Jane to `company` on `at`.
fn jane_joins(company: &str, at: &str) -> Value {
    json!({ "companyId": company, "personName": "Jane Doe", "personLinkedinUrl": JANE,
            "newRole": "CTO", "occurredAt": at })
}

/// Sends one batch of job changes through the admin API.
async fn ingest_job_changes(app: &TestApp, changes: Value) {
    let stored = app
        .admin(reqwest::Method::POST, "/signals/job-changes", Some(changes))
        .await;
    assert_eq!(stored.status, 200, "{:?}", stored.body);
    assert_eq!(stored.data()["invalid"], json!([]), "{:?}", stored.body);
}

/// A team with one monitor watching Jane's profile, Jane working at `company`.
async fn watching_jane_at(app: &TestApp, company: &str) -> (Team, String) {
    app.import_people(json!([{ "linkedinUrl": JANE, "name": "Jane Doe", "companyId": company }]))
        .await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "People").await;
    let added = app
        .add_targets(&team, &monitor, json!(["linkedin.com/in/jane-doe"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    assert_eq!(added.data()["added"][0]["company"]["id"], company);
    (team, monitor)
}

/// The company id of the monitor's only target.
async fn watched_company(app: &TestApp, team: &Team, monitor: &str) -> Value {
    let listed = app
        .get(&format!("/api/v2/monitors/{monitor}/targets"), &team.key)
        .await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.body["pagination"]["total"], 1, "{:?}", listed.body);
    listed.data()[0]["company"]["id"].clone()
}

async fn a_backfilled_older_job_change_does_not_move_a_profile_target_back(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (acme, globex, initech) = three_companies(&app).await;
    let (team, monitor) = watching_jane_at(&app, &acme).await;
    ingest_job_changes(&app, json!([jane_joins(&globex, "2026-11-20T10:00:00Z")])).await;
    assert_eq!(
        watched_company(&app, &team, &monitor).await,
        globex.as_str()
    );

    ingest_job_changes(&app, json!([jane_joins(&initech, "2025-03-01T09:00:00Z")])).await;

    assert_eq!(
        watched_company(&app, &team, &monitor).await,
        globex.as_str()
    );
}

async fn a_newer_job_change_in_a_later_batch_moves_the_profile_target(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (acme, globex, initech) = three_companies(&app).await;
    let (team, monitor) = watching_jane_at(&app, &acme).await;
    ingest_job_changes(&app, json!([jane_joins(&globex, "2026-11-20T10:00:00Z")])).await;
    ingest_job_changes(&app, json!([jane_joins(&acme, "2025-03-01T09:00:00Z")])).await;

    ingest_job_changes(&app, json!([jane_joins(&initech, "2026-11-21T08:00:00Z")])).await;

    assert_eq!(
        watched_company(&app, &team, &monitor).await,
        initech.as_str()
    );
}

async fn a_profile_added_after_a_backfill_resolves_to_the_latest_job(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (acme, globex, initech) = three_companies(&app).await;
    app.import_people(json!([{ "linkedinUrl": JANE, "name": "Jane Doe", "companyId": acme }]))
        .await;
    ingest_job_changes(&app, json!([jane_joins(&globex, "2026-11-20T10:00:00Z")])).await;
    ingest_job_changes(&app, json!([jane_joins(&initech, "2025-03-01T09:00:00Z")])).await;
    let team = app.create_team().await;
    let monitor = app.create_monitor(&team, "People").await;

    let added = app
        .add_targets(
            &team,
            &monitor,
            json!(["https://linkedin.com/in/jane-doe/"]),
        )
        .await;

    assert_eq!(added.status, 200, "{:?}", added.body);
    assert_eq!(added.data()["added"][0]["company"]["id"], globex.as_str());
}
