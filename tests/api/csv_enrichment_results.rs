//! What a finished job holds: one result per row with the input as sent, the matched company
//! and its signals by type; matching precedence and typo tolerance; the summary; cursor pages;
//! the CSV download.

use serde_json::{Value, json};

use crate::csv_enrichment_support::*;
use crate::each_backend;
use crate::lists_support::{
    Lists, company, deal, funding, hiring, import_signals, job_change, numbered_id, plain_signal,
};
use crate::support::Backend;

each_backend!(
    each_row_holds_its_input_the_company_and_its_signals_by_type,
    acquisitions_count_for_the_acquirer_too_and_unmatched_rows_have_no_signals,
    signals_are_newest_first_and_at_most_ten_per_type,
    linkedin_wins_over_the_domain_and_the_domain_over_the_name,
    a_stronger_identifier_that_matches_nothing_leaves_the_row_unmatched,
    names_match_ignoring_case_and_tolerating_typos,
    the_summary_counts_matches_and_companies_with_signals_of_each_type,
    wait_true_returns_the_completed_job_inline,
    results_are_paged_by_cursor_in_input_order,
    the_page_size_is_1_to_100_and_defaults_to_50,
    results_csv_has_the_input_columns_then_the_result_columns,
    extra_input_values_come_back_as_strings_and_nulls_are_left_out,
);

/// Runs one job over `companies` with the known data set and returns its `data`.
async fn enrich(lists: &Lists, companies: Value) -> Value {
    let id = submit_companies(&lists.app, &lists.team, companies).await;
    let data = wait_until_done(&lists.app, &lists.team, &id).await;
    assert_eq!(data["status"], "completed", "{data}");
    data
}

async fn each_row_holds_its_input_the_company_and_its_signals_by_type(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    let input = json!({ "company_name": "Acme", "website_url": "https://www.acme.com/about",
                        "external_id": "acct_123", "owner": "sam" });

    let data = enrich(&lists, json!([input.clone()])).await;

    let row = &results(&data)[0];
    assert_eq!(row["input"], input);
    assert_eq!(row["matched"], true);
    assert_eq!(row["companyId"], company::ACME);
    let found = &row["company"];
    assert_eq!(found["name"], "Acme Corporation");
    assert_eq!(found["domain"], "acme.com");
    assert_eq!(found["industry"], "Software");
    assert_eq!(found["country"], "DE");
    assert_eq!(found["employeeCount"], 250);
    assert_eq!(found["id"], company::ACME);
    assert_eq!(
        found["linkedinUrl"],
        "https://www.linkedin.com/company/acme-corp"
    );
    assert_eq!(signal_ids(row, "funding"), [funding::ACME_SERIES_A]);
    assert_eq!(signal_ids(row, "acquisition"), [deal::MASSIVE_BUYS_ACME]);
    assert_eq!(signal_ids(row, "hiring"), [hiring::ACME_VP_ENGINEERING]);
    assert_eq!(
        signal_ids(row, "job_change"),
        [job_change::JANE_CTO_AT_ACME]
    );
    let funding_record = &row["signals"]["funding"][0];
    assert_eq!(funding_record["roundType"], "series a");
    assert_eq!(funding_record["match_confidence"], "exact");
    assert_eq!(row["signals"]["job_change"][0]["personName"], "Jane D.");
    let investors: Vec<&Value> = row["signals"]["investors"]
        .as_array()
        .expect("investors")
        .iter()
        .map(|i| &i["name"])
        .collect();
    assert_eq!(investors, [&json!("Sequoia Capital"), &json!("Jane Angel")]);
}

async fn acquisitions_count_for_the_acquirer_too_and_unmatched_rows_have_no_signals(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;
    let data = enrich(
        &lists,
        json!([{ "linkedin_url": "https://linkedin.com/company/hooli" }, { "website_url": "unknown.example" }]),
    )
    .await;
    let rows = results(&data);
    assert_eq!(rows[0]["companyId"], company::HOOLI);
    assert_eq!(
        signal_ids(&rows[0], "acquisition"),
        [deal::HOOLI_BUYS_NOWHERE]
    );
    assert_eq!(
        signal_ids(&rows[0], "job_change"),
        [job_change::MAX_COFOUNDER_AT_HOOLI]
    );
    assert_eq!(rows[1]["matched"], false);
    assert_eq!(rows[1]["companyId"], Value::Null);
    assert_eq!(rows[1]["company"], Value::Null);
    assert_eq!(
        rows[1]["signals"],
        json!({ "funding": [], "acquisition": [], "hiring": [], "job_change": [], "investors": [] })
    );
}

async fn signals_are_newest_first_and_at_most_ten_per_type(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let postings: Vec<Value> = (1..=12)
        .map(|day| {
            let at = format!("2025-05-{day:02}T12:00:00Z");
            plain_signal("hiring", &numbered_id(day), company::GLOBEX, &at)
        })
        .collect();
    import_signals(&lists.app, "hiring", json!(postings)).await;

    let data = enrich(&lists, json!([{ "name": "Globex" }])).await;

    let expected: Vec<String> = (3..=12).rev().map(numbered_id).collect();
    assert_eq!(signal_ids(&results(&data)[0], "hiring"), expected);
    assert_eq!(data["summary"]["withHiringSignals"], 1);
}

async fn linkedin_wins_over_the_domain_and_the_domain_over_the_name(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let data = enrich(
        &lists,
        json!([
            { "name": "Globex", "website": "acme.com", "linkedin": "linkedin.com/company/hooli" },
            { "name": "Globex", "website": "acme.com" },
            { "name": "Globex" },
            { "name": "Globex", "website": "shop.initech.ch" },
        ]),
    )
    .await;
    let ids = company_ids(&data);
    assert_eq!(
        ids,
        [
            json!(company::HOOLI),
            json!(company::ACME),
            json!(company::GLOBEX),
            json!(company::INITECH)
        ]
    );
}

async fn a_stronger_identifier_that_matches_nothing_leaves_the_row_unmatched(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let data = enrich(
        &lists,
        json!([
            { "name": "Acme Corporation", "linkedin_url": "https://www.linkedin.com/company/nobody" },
            { "name": "Acme Corporation", "linkedin_url": "https://www.linkedin.com/in/jane-doe" },
            { "name": "Acme Corporation", "website_url": "nobody.example" },
            { "name": "Acme Corporation", "website_url": "not a website" },
            { "name": "Acme Corporation", "website_url": "acme.com", "linkedin_url": "linkedin.com/company/nobody" },
        ]),
    )
    .await;
    for row in results(&data) {
        assert_eq!(row["matched"], false, "{row}");
        assert_eq!(row["companyId"], Value::Null, "{row}");
    }
    assert_eq!(data["summary"]["unmatched"], 5);
}

async fn names_match_ignoring_case_and_tolerating_typos(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let data = enrich(
        &lists,
        json!([
            { "name": "ACME CORPORATION" },
            { "name": "Acme Corporaton" },
            { "name": "Globx" },
            { "name": "Umbrela Health" },
            { "name": "Completely Different Business" },
        ]),
    )
    .await;
    let ids = company_ids(&data);
    assert_eq!(
        ids,
        [
            json!(company::ACME),
            json!(company::ACME),
            json!(company::GLOBEX),
            json!(company::UMBRELLA),
            Value::Null
        ]
    );
}

async fn the_summary_counts_matches_and_companies_with_signals_of_each_type(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    // Umbrella: funding and acquisition; Globex: funding, hiring, job change (and an
    // acquisition as acquirer); Acme twice: everything; one unknown.
    let data = enrich(
        &lists,
        json!([
            { "website": "umbrella.fr" },
            { "website": "globex.io" },
            { "website": "acme.com" },
            { "name": "Acme Corporation" },
            { "website": "unknown.example" },
        ]),
    )
    .await;
    assert_eq!(
        data["summary"],
        json!({
            "totalInputs": 5, "matched": 4, "unmatched": 1,
            "withFundingSignals": 4, "withAcquisitionSignals": 4,
            "withHiringSignals": 3, "withJobChangeSignals": 3
        })
    );
    assert_eq!(data["progress"], json!({ "processed": 5, "total": 5 }));
}

async fn wait_true_returns_the_completed_job_inline(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    let response = submit(
        &lists.app,
        &lists.team,
        json!({ "fileName": "target-accounts.csv", "wait": true, "timeout": 30,
                "companies": [{ "company_name": "Hooli", "website_url": "hooli.at", "external_id": "acct_9" }] }),
    )
    .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    let data = response.data();
    assert_eq!(data["status"], "completed");
    assert!(
        data["jobId"]
            .as_str()
            .is_some_and(|id| uuid::Uuid::parse_str(id).is_ok())
    );
    assert_eq!(
        data["detectedMapping"],
        json!({ "companyName": "company_name", "websiteUrl": "website_url", "linkedinUrl": null })
    );
    assert_eq!(data["progress"], json!({ "processed": 1, "total": 1 }));
    assert!(
        data["submittedAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    assert!(
        data["completedAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    assert_eq!(data["summary"]["matched"], 1);
    assert_eq!(data["nextCursor"], Value::Null);
    let rows = results(data);
    assert_eq!(rows[0]["input"]["external_id"], "acct_9");
    assert_eq!(rows[0]["companyId"], company::HOOLI);
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "csv.enrichment", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
}

async fn results_are_paged_by_cursor_in_input_order(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let companies: Vec<Value> = (0..7)
        .map(|i| json!({ "name": format!("Company {i}"), "external_id": i.to_string() }))
        .collect();
    let id = submit_companies(&lists.app, &lists.team, json!(companies)).await;
    wait_until_done(&lists.app, &lists.team, &id).await;
    let before = lists.balance().await;

    let mut seen = Vec::new();
    let mut query = "limit=3".to_string();
    let mut pages = 0;
    loop {
        let response = lists.app.get(&job_path(&id, &query), &lists.team.key).await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        assert_eq!(
            response.body["meta"],
            json!({ "endpoint": "csv.enrichment.get", "creditsUsed": 0 })
        );
        pages += 1;
        seen.extend(
            results(response.data())
                .iter()
                .map(|r| r["input"]["external_id"].clone()),
        );
        match response.data()["nextCursor"].as_str() {
            Some(cursor) => query = format!("limit=3&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let expected: Vec<Value> = (0..7).map(|i| json!(i.to_string())).collect();
    assert_eq!(seen, expected);
    assert_eq!(lists.balance().await, before, "reading a job is free");
    let empty_cursor = lists
        .app
        .get(&job_path(&id, "limit=3&cursor="), &lists.team.key)
        .await;
    assert_eq!(
        results(empty_cursor.data())[0]["input"]["external_id"],
        "0",
        "an empty cursor asks for the first page"
    );

    let bad_cursor = lists
        .app
        .get(&job_path(&id, "cursor=not-a-cursor"), &lists.team.key)
        .await;
    assert_error(&bad_cursor, 400, "invalid_company_payload");
    let unknown = lists
        .app
        .get(&job_path(&id, "page=2"), &lists.team.key)
        .await;
    assert_error(&unknown, 400, "invalid_company_payload");
}

async fn the_page_size_is_1_to_100_and_defaults_to_50(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let companies: Vec<Value> = (0..120)
        .map(|i| json!({ "name": format!("Firm {i}") }))
        .collect();
    let id = submit_companies(&lists.app, &lists.team, json!(companies)).await;
    let first = wait_until_done(&lists.app, &lists.team, &id).await;
    assert_eq!(results(&first).len(), 50);
    assert!(first["nextCursor"].is_string());
    let largest = lists
        .app
        .get(&job_path(&id, "limit=100"), &lists.team.key)
        .await;
    assert_eq!(results(largest.data()).len(), 100);
    for limit in ["0", "101", "ten"] {
        let response = lists
            .app
            .get(&job_path(&id, &format!("limit={limit}")), &lists.team.key)
            .await;
        assert_error(&response, 400, "invalid_company_payload");
    }
}

async fn results_csv_has_the_input_columns_then_the_result_columns(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    // Sent as raw text: the columns follow the field order of the body as sent.
    let body = r#"{"companies": [
        {"website_url": "acme.com", "external_id": "a-1"},
        {"name": "Nobody, Inc.", "notes": "said \"hi\""},
        {"website_url": "nowhere.dev", "external_id": 7}
    ]}"#;
    let accepted = lists
        .app
        .send(
            lists
                .app
                .request(reqwest::Method::POST, JOBS, &lists.team.key)
                .header("Content-Type", "application/json")
                .body(body),
        )
        .await;
    let id = job_id_of(&accepted);
    wait_until_done(&lists.app, &lists.team, &id).await;

    let response = lists
        .app
        .send(lists.app.request(
            reqwest::Method::GET,
            &format!("{JOBS}/{id}/results.csv"),
            &lists.team.key,
        ))
        .await;
    assert_eq!(response.status, 200);
    assert!(
        response
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/csv"))
    );
    let text = raw_body(&lists, &id).await;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "website_url,external_id,name,notes,matched,company_id,company_name,company_domain,industry,country,employee_count",
            &format!(
                "acme.com,a-1,,,true,{},Acme Corporation,acme.com,Software,DE,250",
                company::ACME
            ),
            ",,\"Nobody, Inc.\",\"said \"\"hi\"\"\",false,,,,,,",
            &format!(
                "nowhere.dev,7,,,true,{},Nowhere Labs,nowhere.dev,Software,,12",
                company::NOWHERE
            ),
        ]
    );
}

/// The body of the job's `results.csv` as text.
async fn raw_body(lists: &Lists, id: &str) -> String {
    let url = format!("{}{JOBS}/{id}/results.csv", lists.app.base);
    let response = lists
        .app
        .client
        .get(url)
        .bearer_auth(&lists.team.key)
        .send()
        .await
        .expect("download");
    response.text().await.expect("text")
}

async fn extra_input_values_come_back_as_strings_and_nulls_are_left_out(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    let input = json!({ "company_name": "Acme", "employees": 250, "customer": true,
                        "owner": null });

    let data = enrich(&lists, json!([input])).await;

    assert_eq!(
        results(&data)[0]["input"],
        json!({ "company_name": "Acme", "employees": "250", "customer": "true" })
    );
}
