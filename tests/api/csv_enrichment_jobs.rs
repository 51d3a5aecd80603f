//! The life of an enrichment job: pending until a worker takes it, finished even when no worker
//! ran when it was accepted or its worker crashed mid-way, private to its team, gone after 30
//! days. And the time a 1,000-row job takes.

use std::time::Instant;

use serde_json::{Value, json};

use crate::csv_enrichment_support::*;
use crate::each_backend;
use crate::lists_support::{Lists, companies, company};
use crate::support::{Backend, TestApp};

each_backend!(
    a_job_is_pending_until_a_worker_started_later_completes_it,
    a_job_left_running_by_a_crashed_worker_is_finished_by_another,
    an_unknown_malformed_or_other_teams_job_is_not_found,
    a_job_is_gone_thirty_days_after_submission,
    a_thousand_row_job_completes_with_every_row_matched,
);

/// A service that serves the API but runs no worker, with the known companies.
async fn api_only(backend: Backend) -> TestApp {
    let app = TestApp::start_with(backend, &["--role", "api"]).await;
    app.import_companies(companies()).await;
    app
}

async fn a_job_is_pending_until_a_worker_started_later_completes_it(backend: Backend) {
    let app = api_only(backend).await;
    let team = app.create_team().await;
    let first = submit_companies(
        &app,
        &team,
        json!([{ "website": "acme.com" }, { "name": "Zzz" }]),
    )
    .await;
    let second = submit_companies(&app, &team, json!([{ "website": "globex.io" }])).await;

    let pending = app.get(&job_path(&first, ""), &team.key).await;
    let data = pending.data();
    assert_eq!(data["status"], "pending", "{:?}", pending.body);
    assert_eq!(data["progress"], json!({ "processed": 0, "total": 2 }));
    assert_eq!(data["completedAt"], Value::Null);
    assert_eq!(data["results"], json!([]));
    assert_eq!(data["nextCursor"], Value::Null);
    assert_eq!(
        data["summary"],
        json!({ "totalInputs": 2, "matched": 0, "unmatched": 0, "withFundingSignals": 0,
                "withAcquisitionSignals": 0, "withHiringSignals": 0, "withJobChangeSignals": 0 })
    );

    let _worker = app.start_beside(&[]).await;
    let done = wait_until_done(&app, &team, &first).await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["progress"], json!({ "processed": 2, "total": 2 }));
    assert!(done["completedAt"].is_string());
    assert_eq!(done["summary"]["matched"], 1);
    assert_eq!(done["summary"]["unmatched"], 1);
    let other = wait_until_done(&app, &team, &second).await;
    assert_eq!(results(&other)[0]["companyId"], company::GLOBEX);
}

async fn a_job_left_running_by_a_crashed_worker_is_finished_by_another(backend: Backend) {
    let app = api_only(backend).await;
    let team = app.create_team().await;
    let id = submit_companies(
        &app,
        &team,
        json!([{ "website": "acme.com" }, { "website": "globex.io" }, { "website": "hooli.at" }]),
    )
    .await;
    // A worker claimed the job, recorded its first row (as unmatched) and died; its lease ran out.
    let now = chrono::Utc::now().timestamp_millis();
    run_sql(
        &app.database_url,
        &format!(
            "UPDATE enrichment_jobs SET status = 'running', lease_owner = 'crashed-worker', \
             lease_until = {}, attempts = 1, processed = 1 WHERE id = '{id}'",
            now - 1
        ),
    )
    .await;
    let snapshot = r#"{"funding_round":[],"acquisition":[],"hiring":[],"job_change":[]}"#;
    run_sql(
        &app.database_url,
        &format!(
            "UPDATE enrichment_rows SET matched = FALSE, signals = '{snapshot}' \
             WHERE job_id = '{id}' AND row_index = 0"
        ),
    )
    .await;
    let running = app.get(&job_path(&id, ""), &team.key).await;
    assert_eq!(running.data()["status"], "running");
    assert_eq!(
        running.data()["progress"],
        json!({ "processed": 1, "total": 3 })
    );
    assert_eq!(results(running.data()).len(), 1);

    let _worker = app.start_beside(&[]).await;
    let done = wait_until_done(&app, &team, &id).await;

    assert_eq!(done["status"], "completed");
    assert_eq!(done["progress"], json!({ "processed": 3, "total": 3 }));
    let ids = company_ids(&done);
    assert_eq!(
        ids,
        [Value::Null, json!(company::GLOBEX), json!(company::HOOLI)],
        "rows recorded before the crash are not processed again"
    );
    assert_eq!(done["summary"]["matched"], 2);
    assert_eq!(done["summary"]["unmatched"], 1);
}

async fn an_unknown_malformed_or_other_teams_job_is_not_found(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let stranger = lists.app.create_team().await;
    let id = submit_companies(&lists.app, &lists.team, json!([{ "name": "Globex" }])).await;
    wait_until_done(&lists.app, &lists.team, &id).await;
    let unknown = uuid::Uuid::new_v4().to_string();

    for (key, job) in [
        (&stranger.key, id.as_str()),
        (&lists.team.key, unknown.as_str()),
        (&lists.team.key, "not-a-uuid"),
    ] {
        let response = lists.app.get(&job_path(job, ""), key).await;
        assert_error(&response, 404, "job_not_found");
        assert_eq!(response.error(), "Job not found");
        let csv = lists
            .app
            .get(&format!("{JOBS}/{job}/results.csv"), key)
            .await;
        assert_error(&csv, 404, "job_not_found");
    }
}

async fn a_job_is_gone_thirty_days_after_submission(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let stranger = lists.app.create_team().await;
    let id = submit_companies(&lists.app, &lists.team, json!([{ "name": "Globex" }])).await;
    wait_until_done(&lists.app, &lists.team, &id).await;

    age_jobs(&lists.app, 29);
    let still_there = lists.app.get(&job_path(&id, ""), &lists.team.key).await;
    assert_eq!(still_there.status, 200, "{:?}", still_there.body);

    age_jobs(&lists.app, 1);
    let gone = lists.app.get(&job_path(&id, ""), &lists.team.key).await;
    assert_error(&gone, 410, "job_expired");
    assert_eq!(
        gone.error(),
        "CSV enrichment jobs are retrievable for 30 days."
    );
    let csv = lists
        .app
        .get(&format!("{JOBS}/{id}/results.csv"), &lists.team.key)
        .await;
    assert_error(&csv, 410, "job_expired");
    let foreign = lists.app.get(&job_path(&id, ""), &stranger.key).await;
    assert_error(&foreign, 404, "job_not_found");
}

async fn a_thousand_row_job_completes_with_every_row_matched(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let firms: Vec<Value> = (0..1000)
        .map(|i| {
            json!({ "name": format!("Firm {i:04} Holdings"), "website": format!("https://firm{i}.example.com"),
                    "linkedinUrl": format!("https://www.linkedin.com/company/firm-{i}") })
        })
        .collect();
    lists.app.import_companies(json!(firms)).await;
    // A third of the rows by LinkedIn page, a third by domain, a third by name.
    let rows: Vec<Value> = (0..1000)
        .map(|i| match i % 3 {
            0 => json!({ "linkedin_url": format!("linkedin.com/company/firm-{i}"), "external_id": i }),
            1 => json!({ "website_url": format!("firm{i}.example.com"), "external_id": i }),
            _ => json!({ "company_name": format!("firm {i:04} holdings"), "external_id": i }),
        })
        .collect();

    let started = Instant::now();
    let response = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": rows, "wait": true, "timeout": 30 }),
    )
    .await;
    let elapsed = started.elapsed();

    assert_eq!(
        response.data()["status"],
        "completed",
        "{:?}",
        response.body["data"]["status"]
    );
    assert_eq!(response.data()["summary"]["matched"], 1000);
    eprintln!("csv enrichment: 1,000-row job accepted and completed in {elapsed:?}");
}
