//! Helpers of the CSV enrichment tests: submitting jobs in each of the three body forms,
//! waiting for a job to end, and reaching into the service's database to age a job or play a
//! crashed worker.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Team, TestApp, TestResponse};

pub const JOBS: &str = "/api/v2/csv-enrichment";

/// A day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// `GET /csv-enrichment/{id}` with optional query parameters.
pub fn job_path(id: &str, query: &str) -> String {
    if query.is_empty() {
        format!("{JOBS}/{id}")
    } else {
        format!("{JOBS}/{id}?{query}")
    }
}

/// Submits a JSON body.
pub async fn submit(app: &TestApp, team: &Team, body: Value) -> TestResponse {
    app.post(JOBS, &team.key, body).await
}

/// Submits `companies` and returns the job id, asserting acceptance.
pub async fn submit_companies(app: &TestApp, team: &Team, companies: Value) -> String {
    let response = submit(app, team, json!({ "companies": companies })).await;
    job_id_of(&response)
}

/// The job id of an accepted submission.
pub fn job_id_of(response: &TestResponse) -> String {
    assert_eq!(response.status, 200, "submission: {:?}", response.body);
    response.data()["jobId"]
        .as_str()
        .unwrap_or_else(|| panic!("no jobId in {:?}", response.body))
        .to_string()
}

/// Submits a raw CSV body, with `query` appended to the path.
pub async fn submit_csv(app: &TestApp, team: &Team, csv: &str, query: &str) -> TestResponse {
    let path = if query.is_empty() {
        JOBS.to_string()
    } else {
        format!("{JOBS}?{query}")
    };
    let request = app
        .request(reqwest::Method::POST, &path, &team.key)
        .header("Content-Type", "text/csv; charset=utf-8")
        .body(csv.to_string());
    app.send(request).await
}

/// One part of a multipart form: name, optional file name, content.
pub type Part<'a> = (&'a str, Option<&'a str>, &'a str);

/// Submits a multipart form built from `parts`.
pub async fn submit_form(app: &TestApp, team: &Team, parts: &[Part<'_>]) -> TestResponse {
    const BOUNDARY: &str = "signalwatch-test-boundary";
    let mut body = String::new();
    for (name, file_name, content) in parts {
        body.push_str(&format!("--{BOUNDARY}\r\n"));
        match file_name {
            Some(file) => body.push_str(&format!(
                "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\n\
                 Content-Type: text/csv\r\n\r\n"
            )),
            None => body.push_str(&format!(
                "Content-Disposition: form-data; name=\"{name}\"\r\n\r\n"
            )),
        }
        body.push_str(content);
        body.push_str("\r\n");
    }
    body.push_str(&format!("--{BOUNDARY}--\r\n"));
    let request = app
        .request(reqwest::Method::POST, JOBS, &team.key)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body);
    app.send(request).await
}

/// Polls the job until it is completed or failed (30 s at most) and returns its `data`.
pub async fn wait_until_done(app: &TestApp, team: &Team, id: &str) -> Value {
    wait_for_job(app, team, id, "", |data| {
        matches!(data["status"].as_str(), Some("completed" | "failed"))
    })
    .await
}

/// Polls the job (with `query`) until `done` holds (30 s at most) and returns its `data`.
pub async fn wait_for_job(
    app: &TestApp,
    team: &Team,
    id: &str,
    query: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let response = app.get(&job_path(id, query), &team.key).await;
        assert_eq!(response.status, 200, "job {id}: {:?}", response.body);
        if done(response.data()) {
            return response.data().clone();
        }
        assert!(
            Instant::now() < deadline,
            "job {id} did not get there in time: {:?}",
            response.body
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Asserts an error answer: status, `success: false`, code and a message.
pub fn assert_error(response: &TestResponse, status: u16, code: &str) {
    assert_eq!(response.status, status, "{:?}", response.body);
    assert_eq!(response.body["success"], false, "{:?}", response.body);
    assert_eq!(response.body["code"], code, "{:?}", response.body);
    assert!(!response.error().is_empty(), "{:?}", response.body);
}

/// Runs one statement on the service's database, bypassing the API (aging a job, playing a
/// crashed worker). Values are written into the statement: tests pass only their own literals.
pub async fn run_sql(database_url: &str, sql: &str) {
    use sqlx::Connection;
    let statement = sqlx::AssertSqlSafe(sql.to_string());
    if database_url.starts_with("postgres") {
        let mut conn = sqlx::PgConnection::connect(database_url)
            .await
            .expect("connect");
        sqlx::query(statement)
            .execute(&mut conn)
            .await
            .expect("statement runs");
        let _ = conn.close().await;
    } else {
        let mut conn = sqlx::SqliteConnection::connect(database_url)
            .await
            .expect("connect");
        sqlx::query(statement)
            .execute(&mut conn)
            .await
            .expect("statement runs");
        let _ = conn.close().await;
    }
}

/// Moves the service's clock `days` forward, so its jobs are that much older.
pub fn age_jobs(app: &TestApp, days: i64) {
    app.clock.advance(days * DAY_MS);
}

/// The result rows of a job's `data`.
pub fn results(data: &Value) -> Vec<Value> {
    data["results"]
        .as_array()
        .unwrap_or_else(|| panic!("results is an array: {data}"))
        .clone()
}

/// The `companyId` of every result row, in row order (null for an unmatched row).
pub fn company_ids(data: &Value) -> Vec<Value> {
    results(data)
        .iter()
        .map(|r| r["companyId"].clone())
        .collect()
}

/// The ids of the records of one signal type of a result row.
pub fn signal_ids(result: &Value, kind: &str) -> Vec<String> {
    result["signals"][kind]
        .as_array()
        .unwrap_or_else(|| panic!("signals.{kind} is an array: {result}"))
        .iter()
        .map(|record| {
            record
                .get("signalId")
                .or_else(|| record.get("id"))
                .and_then(Value::as_str)
                .expect("record id")
                .to_string()
        })
        .collect()
}
