//! `POST /csv-enrichment`: the three body forms, the detected mapping, validation, defaults
//! and the one credit an accepted job costs.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::csv_enrichment_support::*;
use crate::each_backend;
use crate::lists_support::{Lists, balance_of, company};
use crate::support::{Backend, TestApp};

each_backend!(
    a_json_job_is_accepted_for_one_credit_with_its_detected_mapping,
    every_field_alias_of_the_reference_is_recognised,
    a_raw_csv_body_is_mapped_by_its_header_row,
    a_multipart_upload_is_read_from_its_file_field,
    a_multipart_upload_without_a_file_field_is_refused,
    a_company_without_any_identifier_is_refused_and_costs_nothing,
    a_nul_character_in_a_company_or_the_file_name_is_refused_and_costs_nothing,
    a_job_holds_one_to_a_thousand_companies,
    a_file_name_has_at_most_500_characters_and_a_default,
    the_timeout_is_an_integer_from_1_to_30,
    malformed_bodies_unknown_fields_and_other_content_types_are_refused,
    at_a_balance_of_zero_a_job_is_refused_with_402_and_nothing_is_stored,
    without_wait_the_answer_is_the_plain_job_reference,
    without_a_timeout_a_wait_lasts_thirty_seconds,
    every_endpoint_needs_a_key,
);

async fn a_json_job_is_accepted_for_one_credit_with_its_detected_mapping(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;

    let response = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": [
            { "company_name": "Acme Corporation", "website_url": "acme.com", "external_id": "acct_1" }
        ] }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["success"], true);
    let id = job_id_of(&response);
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    assert_eq!(
        response.data()["detectedMapping"],
        json!({ "companyName": "company_name", "websiteUrl": "website_url", "linkedinUrl": null })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "csv.enrichment", "creditsUsed": 1, "creditsRemaining": before - 1 })
    );
    assert_eq!(lists.balance().await, before - 1);
}

async fn every_field_alias_of_the_reference_is_recognised(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let cases = [
        (json!({ "companyName": "Globex" }), "companyName"),
        (json!({ "name": "Globex" }), "name"),
        (json!({ "websiteUrl": "globex.io" }), "websiteUrl"),
        (json!({ "website": "globex.io" }), "website"),
        (json!({ "domain": "globex.io" }), "domain"),
        (
            json!({ "linkedinUrl": "linkedin.com/company/globex" }),
            "linkedinUrl",
        ),
        (
            json!({ "linkedin": "linkedin.com/company/globex" }),
            "linkedin",
        ),
        (
            json!({ "company_linkedin_url": "linkedin.com/company/globex" }),
            "company_linkedin_url",
        ),
    ];
    for (company, field) in cases {
        let response = submit(
            &lists.app,
            &lists.team,
            json!({ "companies": [company.clone()], "wait": true }),
        )
        .await;
        let data = response.data();
        let mapping = &data["detectedMapping"];
        let mapped: Vec<&Value> = ["companyName", "websiteUrl", "linkedinUrl"]
            .iter()
            .map(|k| &mapping[*k])
            .filter(|v| !v.is_null())
            .collect();
        assert_eq!(mapped, [&json!(field)], "{company}: {:?}", response.body);
        assert_eq!(
            data["status"], "completed",
            "{company}: {:?}",
            response.body
        );
        assert_eq!(results(data)[0]["companyId"], company::GLOBEX, "{company}");
        assert_eq!(results(data)[0]["input"], company, "{company}");
    }
}

async fn a_raw_csv_body_is_mapped_by_its_header_row(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let csv = "Company Name,Website,LinkedIn URL,Notes\n\
               Acme Corporation,https://acme.com,,key account\n\
               Globex,,https://www.linkedin.com/company/globex/,\"Payments, US\"\n";

    let response = submit_csv(
        &lists.app,
        &lists.team,
        csv,
        "wait=true&fileName=accounts.csv",
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(
        data["detectedMapping"],
        json!({ "companyName": "Company Name", "websiteUrl": "Website", "linkedinUrl": "LinkedIn URL" })
    );
    assert_eq!(data["status"], "completed");
    assert_eq!(data["fileName"], "accounts.csv");
    let rows = results(data);
    assert_eq!(
        rows[0]["input"],
        json!({ "Company Name": "Acme Corporation", "Website": "https://acme.com",
                "LinkedIn URL": "", "Notes": "key account" })
    );
    assert_eq!(rows[0]["companyId"], company::ACME);
    assert_eq!(rows[1]["input"]["Notes"], "Payments, US");
    assert_eq!(rows[1]["companyId"], company::GLOBEX);
    assert_eq!(response.body["meta"]["creditsUsed"], 1);
}

async fn a_multipart_upload_is_read_from_its_file_field(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let csv = "company_name,domain,external_id\nHooli,hooli.at,42\nNobody Inc,,43\n";

    let response = submit_form(
        &lists.app,
        &lists.team,
        &[
            ("file", Some("targets.csv"), csv),
            ("wait", None, "true"),
            ("timeout", None, "10"),
        ],
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(
        data["detectedMapping"],
        json!({ "companyName": "company_name", "websiteUrl": "domain", "linkedinUrl": null })
    );
    assert_eq!(
        data["fileName"], "targets.csv",
        "the uploaded file's name is the default label"
    );
    let rows = results(data);
    assert_eq!(rows[0]["companyId"], company::HOOLI);
    assert_eq!(rows[0]["input"]["external_id"], "42");
    assert_eq!(rows[1]["matched"], false);
    assert_eq!(response.body["meta"]["creditsUsed"], 1);
}

async fn a_multipart_upload_without_a_file_field_is_refused(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;
    let missing = submit_form(&lists.app, &lists.team, &[("wait", None, "true")]).await;
    assert_error(&missing, 400, "invalid_company_payload");
    let unknown = submit_form(
        &lists.app,
        &lists.team,
        &[
            ("file", Some("a.csv"), "name\nAcme\n"),
            ("colour", None, "blue"),
        ],
    )
    .await;
    assert_error(&unknown, 400, "invalid_company_payload");
    assert!(unknown.error().contains("colour"), "{}", unknown.error());
    assert_eq!(lists.balance().await, before);
}

async fn a_company_without_any_identifier_is_refused_and_costs_nothing(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;
    let bodies = [
        json!({ "companies": [{ "company_name": "Acme" }, { "external_id": "x" }] }),
        json!({ "companies": [{ "company_name": "", "website_url": " " }] }),
        json!({ "companies": [{ "website_url": null }] }),
        json!({ "companies": ["acme.com"] }),
        json!({ "companies": "acme.com" }),
        json!({ "fileName": "x.json" }),
    ];
    for body in bodies {
        let response = submit(&lists.app, &lists.team, body.clone()).await;
        assert_error(&response, 400, "invalid_company_payload");
    }
    let csv = submit_csv(
        &lists.app,
        &lists.team,
        "name,notes\nAcme,\n,orphan note\n",
        "",
    )
    .await;
    assert_error(&csv, 400, "invalid_company_payload");
    let no_column = submit_csv(&lists.app, &lists.team, "id,notes\n1,x\n", "").await;
    assert_error(&no_column, 400, "invalid_company_payload");
    assert_eq!(lists.balance().await, before);
}

async fn a_nul_character_in_a_company_or_the_file_name_is_refused_and_costs_nothing(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;
    let bodies = [
        json!({ "companies": [{ "company_name": "Ac\0me" }] }),
        json!({ "companies": [{ "website_url": "acme.com\0" }] }),
        json!({ "companies": [{ "company_name": "Acme" }], "fileName": "a\0b.json" }),
    ];
    for body in bodies {
        let response = submit(&lists.app, &lists.team, body.clone()).await;
        assert_error(&response, 400, "invalid_company_payload");
    }
    assert_eq!(lists.balance().await, before);
}

async fn a_job_holds_one_to_a_thousand_companies(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let before = lists.balance().await;
    let many = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|i| json!({ "company_name": format!("Company {i}") }))
            .collect()
    };
    for refused in [many(0), many(1001)] {
        let response = submit(&lists.app, &lists.team, json!({ "companies": refused })).await;
        assert_error(&response, 400, "invalid_company_payload");
    }
    let csv_rows: String = (0..1001).map(|i| format!("Company {i}\n")).collect();
    let csv = submit_csv(&lists.app, &lists.team, &format!("name\n{csv_rows}"), "").await;
    assert_error(&csv, 400, "invalid_company_payload");
    assert_eq!(lists.balance().await, before);

    for accepted in [many(1), many(1000)] {
        let response = submit(&lists.app, &lists.team, json!({ "companies": accepted })).await;
        job_id_of(&response);
    }
    assert_eq!(lists.balance().await, before - 2);
}

async fn a_file_name_has_at_most_500_characters_and_a_default(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let companies = json!([{ "name": "Globex" }]);
    let too_long = "a".repeat(501);
    let refused = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": companies, "fileName": too_long }),
    )
    .await;
    assert_error(&refused, 400, "invalid_company_payload");
    assert!(refused.error().contains("fileName"), "{}", refused.error());
    let wrong_type = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": companies, "fileName": 7 }),
    )
    .await;
    assert_error(&wrong_type, 400, "invalid_company_payload");

    let longest = "b".repeat(500);
    let named = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": companies, "fileName": longest }),
    )
    .await;
    let data = wait_until_done(&lists.app, &lists.team, &job_id_of(&named)).await;
    assert_eq!(data["fileName"], longest);

    let unnamed = submit_companies(&lists.app, &lists.team, companies.clone()).await;
    let data = wait_until_done(&lists.app, &lists.team, &unnamed).await;
    assert_eq!(data["fileName"], "api-companies.json");
}

async fn the_timeout_is_an_integer_from_1_to_30(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;
    let companies = json!([{ "name": "Globex" }]);
    for timeout in [
        json!(0),
        json!(31),
        json!(-1),
        json!(1.5),
        json!("5"),
        json!(true),
    ] {
        let body = json!({ "companies": companies, "wait": true, "timeout": timeout });
        let response = submit(&lists.app, &lists.team, body).await;
        assert_error(&response, 400, "invalid_company_payload");
        assert!(response.error().contains("timeout"), "{}", response.error());
    }
    for wait in [json!("true"), json!(1)] {
        let response = submit(
            &lists.app,
            &lists.team,
            json!({ "companies": companies, "wait": wait }),
        )
        .await;
        assert_error(&response, 400, "invalid_company_payload");
    }
    let csv = submit_csv(&lists.app, &lists.team, "name\nGlobex\n", "timeout=60").await;
    assert_error(&csv, 400, "invalid_company_payload");
    // A query option is checked even when a JSON body gives its own.
    let body = json!({ "companies": companies, "timeout": 5 });
    let queried = lists
        .app
        .post(&format!("{JOBS}?timeout=null"), &lists.team.key, body)
        .await;
    assert_error(&queried, 400, "invalid_company_payload");
    assert!(queried.error().contains("timeout"), "{}", queried.error());
    assert_eq!(lists.balance().await, before);

    // JSON has one number type: 3.0 is the integer 3.
    let whole = json!({ "companies": companies, "wait": true, "timeout": 3.0 });
    job_id_of(&submit(&lists.app, &lists.team, whole).await);
    for timeout in [1, 30] {
        let body = json!({ "companies": companies, "wait": true, "timeout": timeout });
        job_id_of(&submit(&lists.app, &lists.team, body).await);
    }
}

async fn malformed_bodies_unknown_fields_and_other_content_types_are_refused(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let before = lists.balance().await;
    let unknown = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": [{ "name": "Acme" }], "webhook": "x" }),
    )
    .await;
    assert_error(&unknown, 400, "invalid_company_payload");
    assert!(unknown.error().contains("webhook"), "{}", unknown.error());

    let send = |content_type: &'static str, body: &'static str| {
        lists
            .app
            .request(reqwest::Method::POST, JOBS, &lists.team.key)
            .header("Content-Type", content_type)
            .body(body)
    };
    let malformed = lists
        .app
        .send(send("application/json", "{\"companies\": ["))
        .await;
    assert_error(&malformed, 400, "invalid_company_payload");
    let plain = lists.app.send(send("text/plain", "name\nAcme\n")).await;
    assert_error(&plain, 400, "invalid_company_payload");
    let unknown_param = submit_csv(&lists.app, &lists.team, "name\nAcme\n", "colour=blue").await;
    assert_error(&unknown_param, 400, "invalid_company_payload");
    let duplicate_header = submit_csv(&lists.app, &lists.team, "name,Name\nA,B\n", "").await;
    assert_error(&duplicate_header, 400, "invalid_company_payload");
    assert_eq!(lists.balance().await, before);
}

async fn at_a_balance_of_zero_a_job_is_refused_with_402_and_nothing_is_stored(backend: Backend) {
    let app = TestApp::start(backend).await;
    let team = app.create_team_with(json!({ "credits": 1 })).await;
    let body = json!({ "companies": [{ "company_name": "Acme" }] });

    let first = submit(&app, &team, body.clone()).await;
    assert_eq!(
        first.body["meta"]["creditsRemaining"], 0,
        "{:?}",
        first.body
    );
    let refused = submit(&app, &team, body).await;

    assert_error(&refused, 402, "insufficient_credits");
    assert_eq!(
        refused.error(),
        "out of credits, please contact support to increase your usage"
    );
    assert_eq!(balance_of(&app, &team).await, 0);
    let csv = submit_csv(&app, &team, "name\nAcme\n", "").await;
    assert_error(&csv, 402, "insufficient_credits");
    assert_eq!(balance_of(&app, &team).await, 0);
}

async fn without_wait_the_answer_is_the_plain_job_reference(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let response = submit(
        &lists.app,
        &lists.team,
        json!({ "companies": [{ "website_url": "acme.com" }] }),
    )
    .await;
    job_id_of(&response);
    let mut keys: Vec<&String> = response
        .data()
        .as_object()
        .expect("object")
        .keys()
        .collect();
    keys.sort();
    assert_eq!(keys, ["detectedMapping", "jobId"]);
}

async fn without_a_timeout_a_wait_lasts_thirty_seconds(backend: Backend) {
    // No worker runs in this process, so the job cannot finish while the call waits.
    let app = TestApp::start_with(backend, &["--role", "api"]).await;
    let team = app.create_team().await;
    let started = Instant::now();
    let response = submit(
        &app,
        &team,
        json!({ "companies": [{ "name": "Acme" }], "wait": true }),
    )
    .await;
    let waited = started.elapsed();
    job_id_of(&response);
    assert!(
        response.data().get("status").is_none(),
        "{:?}",
        response.body
    );
    assert!(
        waited >= Duration::from_secs(30) && waited < Duration::from_secs(40),
        "waited {waited:?}"
    );
}

async fn every_endpoint_needs_a_key(backend: Backend) {
    let app = TestApp::start(backend).await;
    let id = uuid::Uuid::new_v4();
    let calls = [
        app.client
            .post(format!("{}{JOBS}", app.base))
            .json(&json!({ "companies": [] })),
        app.client.get(format!("{}{JOBS}/{id}", app.base)),
        app.client
            .get(format!("{}{JOBS}/{id}/results.csv", app.base)),
    ];
    for call in calls {
        let response = app.send(call).await;
        assert_error(&response, 401, "invalid_api_key");
    }
}
