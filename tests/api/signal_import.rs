//! Loading signals: the admin import API (`POST /admin/v1/signals/{kind}`) and the
//! `signalwatch import DIR` command, seen through the lists.

use std::path::Path;

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    COMPANIES, FUNDING, HIRING, JOB_CHANGES, Lists, companies, company, funding, funding_rounds,
    hiring, job_postings, last_signal_types, record_id,
};
use crate::support::app::ADMIN_TOKEN;
use crate::support::command::{CommandRun, signalwatch};
use crate::support::{Backend, TestResponse};

each_backend!(
    importing_a_signal_reports_it_as_inserted_and_the_list_shows_it,
    re_importing_a_signal_id_updates_it_and_the_list_shows_one_row_with_the_new_values,
    re_importing_a_posting_id_updates_it_too,
    re_importing_a_round_for_another_company_moves_it_to_that_company,
    bad_records_are_reported_by_index_and_the_good_ones_kept,
    an_ndjson_body_is_imported_line_by_line,
    a_record_naming_an_unknown_company_by_name_creates_that_company,
    a_record_naming_a_known_company_by_website_or_linkedin_joins_it,
    a_record_without_any_company_is_refused,
    an_unknown_signal_kind_is_not_found,
    a_signal_import_needs_the_admin_token,
    the_import_command_loads_a_directory_and_the_lists_show_it,
    the_import_command_is_idempotent,
    a_count_asked_before_an_import_reflects_the_import_right_after_it,
    investors_and_sources_show_every_documented_field_whatever_was_imported,
    person_posts_imported_as_an_array_are_shown_as_a_json_encoded_string,
);

async fn import(lists: &Lists, kind: &str, body: Value) -> TestResponse {
    lists
        .app
        .admin(
            reqwest::Method::POST,
            &format!("/signals/{kind}"),
            Some(body),
        )
        .await
}

fn seed_round(id: &str, amount: i64, round: &str) -> Value {
    json!({
        "signalId": id, "companyId": company::ACME,
        "occurredAt": "2025-05-05T12:00:00Z", "roundType": round,
        "amount": amount, "currency": "USD", "verificationStatus": "unverified"
    })
}

async fn importing_a_signal_reports_it_as_inserted_and_the_list_shows_it(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let imported = import(
        &lists,
        "funding",
        json!([seed_round(funding::ACME_SERIES_A, 1_000_000, "seed")]),
    )
    .await;

    assert_eq!(imported.status, 200, "{:?}", imported.body);
    assert_eq!(
        imported.data(),
        &json!({ "inserted": 1, "updated": 0, "ids": [funding::ACME_SERIES_A], "invalid": [] })
    );
    let rows = lists.rows(FUNDING, &[]).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["signalId"], funding::ACME_SERIES_A);
    assert_eq!(rows[0]["companyName"], "Acme Corporation");
    assert_eq!(rows[0]["occurredAt"], "2025-05-05T12:00:00.000Z");
    assert_eq!(
        rows[0]["discoveredAt"], "2025-05-05T12:00:00.000Z",
        "discoveredAt defaults to occurredAt"
    );
}

async fn re_importing_a_signal_id_updates_it_and_the_list_shows_one_row_with_the_new_values(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    let first = import(
        &lists,
        "funding",
        json!([seed_round(funding::ACME_SERIES_A, 1_000_000, "seed")]),
    )
    .await;
    assert_eq!(first.data()["inserted"], 1);

    let again = import(
        &lists,
        "funding",
        json!([seed_round(funding::ACME_SERIES_A, 2_500_000, "series a")]),
    )
    .await;

    assert_eq!(again.status, 200, "{:?}", again.body);
    assert_eq!(
        again.data(),
        &json!({ "inserted": 0, "updated": 1, "ids": [funding::ACME_SERIES_A], "invalid": [] })
    );
    let rows = lists.rows(FUNDING, &[]).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["amount"], 2_500_000);
    assert_eq!(rows[0]["roundType"], "series a");
    assert_eq!(
        lists.ids(FUNDING, &[("round", "seed")]).await,
        Vec::<String>::new(),
        "the old round type no longer matches"
    );
    assert_eq!(
        lists.ids(FUNDING, &[("round", "series a")]).await,
        [funding::ACME_SERIES_A]
    );
}

async fn re_importing_a_posting_id_updates_it_too(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let posting = |title: &str, description: &str| {
        json!([{
            "id": hiring::ACME_VP_ENGINEERING, "companyId": company::ACME, "title": title,
            "datePosted": "2025-05-05T12:00:00Z", "descriptionText": description
        }])
    };
    import(
        &lists,
        "hiring",
        posting("Data Engineer", "Spark and Scala"),
    )
    .await;

    let again = import(
        &lists,
        "hiring",
        posting("Head of Design", "Figma and Rust"),
    )
    .await;

    assert_eq!(again.data()["updated"], 1, "{:?}", again.body);
    assert_eq!(again.data()["inserted"], 0);
    let rows = lists.rows(HIRING, &[]).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["title"], "Head of Design");
    let only = [hiring::ACME_VP_ENGINEERING];
    assert_eq!(lists.ids(HIRING, &[("description", "rust")]).await, only);
    assert_eq!(
        lists.ids(HIRING, &[("description", "scala")]).await,
        Vec::<String>::new(),
        "the old description is forgotten"
    );
    assert_eq!(lists.ids(HIRING, &[("departments", "design")]).await, only);
    assert_eq!(
        lists.ids(HIRING, &[("departments", "data")]).await,
        Vec::<String>::new(),
        "the old title's tags are forgotten"
    );
    assert_eq!(lists.ids(HIRING, &[("search", "design")]).await, only);
}

/// A monitor's targets show the last signal of their company: a round stored again for another
/// company leaves the first company's target with none, and the second's with the round.
async fn re_importing_a_round_for_another_company_moves_it_to_that_company(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let round = |company_id: &str| {
        json!([{
            "signalId": funding::ACME_SERIES_A, "companyId": company_id,
            "occurredAt": "2025-05-05T12:00:00Z", "roundType": "seed", "amount": 1_000_000,
            "currency": "USD", "investors": ["Sequoia"]
        }])
    };
    import(&lists, "funding", round(company::ACME)).await;

    let again = import(&lists, "funding", round(company::GLOBEX)).await;

    assert_eq!(again.data()["updated"], 1, "{:?}", again.body);
    let app = &lists.app;
    let monitor = app.create_monitor(&lists.team, "Both").await;
    let added = app
        .add_targets(&lists.team, &monitor, json!(["acme.com", "globex.io"]))
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let last_signals = last_signal_types(&added);
    assert_eq!(
        last_signals,
        [
            (json!("acme.com"), Value::Null),
            (json!("globex.io"), json!("funding_round"))
        ],
        "the round concerns only the company it names now"
    );
    let rows = lists.rows(FUNDING, &[("investors", "sequoia")]).await;
    assert_eq!(rows.len(), 1, "its investor tag once: {rows:?}");
}

async fn bad_records_are_reported_by_index_and_the_good_ones_kept(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let good = |n: u64| {
        seed_round(
            &format!("f9000000-0000-4000-8000-{n:012}"),
            1_000_000,
            "seed",
        )
    };

    let imported = import(
        &lists,
        "funding",
        json!([
            good(1),
            { "companyId": company::ACME, "roundType": "seed" },
            { "occurredAt": "2025-05-05T12:00:00Z", "roundType": "seed" },
            "not an object",
            { "companyId": company::ACME, "occurredAt": "last tuesday" },
            good(5)
        ]),
    )
    .await;

    assert_eq!(imported.status, 200, "{:?}", imported.body);
    let data = imported.data();
    assert_eq!(data["inserted"], 2);
    assert_eq!(data["updated"], 0);
    assert_eq!(
        data["ids"],
        json!([
            "f9000000-0000-4000-8000-000000000001",
            "f9000000-0000-4000-8000-000000000005"
        ])
    );
    let invalid = data["invalid"].as_array().expect("invalid");
    let indexes: Vec<&Value> = invalid.iter().map(|e| &e["index"]).collect();
    assert_eq!(indexes, [1, 2, 3, 4]);
    for entry in invalid {
        assert_eq!(
            crate::lists_support::keys_of(entry),
            ["error", "index"],
            "{entry}"
        );
        assert!(!entry["error"].as_str().unwrap_or("").is_empty(), "{entry}");
    }
    assert!(
        invalid[1]["error"].as_str().unwrap().contains("company"),
        "{invalid:?}"
    );
    assert!(
        invalid[0]["error"].as_str().unwrap().contains("occurredAt"),
        "{invalid:?}"
    );
    let listed: Vec<String> = lists
        .rows(FUNDING, &[])
        .await
        .iter()
        .map(record_id)
        .collect();
    assert_eq!(
        listed,
        [
            "f9000000-0000-4000-8000-000000000005",
            "f9000000-0000-4000-8000-000000000001"
        ]
    );
}

async fn an_ndjson_body_is_imported_line_by_line(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let postings = job_postings();
    let lines = [
        postings[0].to_string(),
        "{ this is not json".to_string(),
        String::new(),
        postings[1].to_string(),
    ]
    .join("\n");

    let response = lists
        .app
        .send(
            lists
                .app
                .request(
                    reqwest::Method::POST,
                    "/admin/v1/signals/hiring",
                    ADMIN_TOKEN,
                )
                .header("content-type", "application/x-ndjson")
                .body(lines),
        )
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.data()["inserted"], 2);
    let invalid = response.data()["invalid"].as_array().expect("invalid");
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0]["index"], 1);
    assert_eq!(
        lists.ids(HIRING, &[]).await,
        [hiring::GLOBEX_JAVA, hiring::ACME_VP_ENGINEERING]
    );
}

async fn a_record_naming_an_unknown_company_by_name_creates_that_company(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let round = json!({
        "signalId": "f9000000-0000-4000-8000-000000000010",
        "companyName": "Brand New Robotics", "companyWebsite": "https://www.brandnew.io/",
        "companyLinkedin": "https://www.linkedin.com/company/brand-new-robotics",
        "companyCountry": "Sweden", "companyIndustry": "Robotics",
        "companyEmployeeCount": 33, "companyFoundedYear": 2023,
        "companyCategories": "[\"Robots\"]", "companyDescription": "Warehouse robots",
        "occurredAt": "2025-05-05T12:00:00Z", "roundType": "seed", "amount": 3_000_000,
        "currency": "SEK"
    });
    let imported = import(&lists, "funding", json!([round])).await;
    assert_eq!(imported.data()["inserted"], 1, "{:?}", imported.body);

    let rows = lists
        .rows(FUNDING, &[("company_domain", "brandnew.io")])
        .await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["companyName"], "Brand New Robotics");
    assert_eq!(rows[0]["companyCountry"], "SE");
    assert_eq!(rows[0]["companyEmployeeCount"], 33);
    assert_eq!(rows[0]["companyIndustry"], "Robotics");

    let created = lists
        .rows(
            COMPANIES,
            &[("linkedin_url", "linkedin.com/company/brand-new-robotics")],
        )
        .await;
    assert_eq!(created.len(), 1, "{created:?}");
    let company = &created[0];
    assert_eq!(company["id"], rows[0]["companyId"]);
    assert_eq!(company["name"], "Brand New Robotics");
    assert_eq!(company["headquartersCountry"], "SE");
    assert_eq!(company["foundedYear"], 2023);
    assert_eq!(company["categories"], json!(["Robots"]));
    assert_eq!(company["description"], "Warehouse robots");

    // A second signal naming the company by its website joins it rather than creating another.
    let posting = json!({
        "id": "b9000000-0000-4000-8000-000000000010", "companyWebsite": "brandnew.io",
        "companyName": "Brand New Robotics", "title": "Robot Wrangler",
        "datePosted": "2025-05-06T12:00:00Z"
    });
    import(&lists, "hiring", json!([posting])).await;
    let postings = lists.rows(HIRING, &[]).await;
    assert_eq!(postings[0]["companyId"], company["id"]);
    let count = lists
        .get(
            COMPANIES,
            &[("search", "Brand New Robotics"), ("count", "true")],
        )
        .await;
    assert_eq!(count.body["pagination"]["totalCount"], 1);
    let all = lists.get(COMPANIES, &[("count", "true")]).await;
    assert_eq!(all.body["pagination"]["totalCount"], 8, "7 known + 1 new");
}

async fn a_record_naming_a_known_company_by_website_or_linkedin_joins_it(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    import(
        &lists,
        "funding",
        json!([{
            "signalId": "f9000000-0000-4000-8000-000000000020",
            "companyWebsite": "http://acme.com/", "companyName": "Some Other Name",
            "occurredAt": "2025-05-05", "roundType": "seed", "amount": 1
        }]),
    )
    .await;
    import(
        &lists,
        "job-changes",
        json!([{
            "signalId": "e9000000-0000-4000-8000-000000000020",
            "companyLinkedinUrl": "https://linkedin.com/company/hooli/",
            "personName": "Gavin Belson", "personLinkedinUrl": "https://www.linkedin.com/in/gavin",
            "newRole": "Chief Executive Officer", "occurredAt": "2025-05-05T12:00:00Z"
        }]),
    )
    .await;

    let rounds = lists.rows(FUNDING, &[]).await;
    assert_eq!(rounds[0]["companyId"], company::ACME);
    assert_eq!(
        rounds[0]["companyName"], "Acme Corporation",
        "company fields come from the company"
    );
    assert_eq!(rounds[0]["companyCountry"], "DE");
    assert_eq!(
        rounds[0]["occurredAt"], "2025-05-05T00:00:00.000Z",
        "a date alone is midnight UTC"
    );
    let changes = lists.rows(JOB_CHANGES, &[]).await;
    assert_eq!(changes[0]["companyName"], "Hooli");
    assert_eq!(changes[0]["personName"], "Gavin B.");
    let all = lists.get(COMPANIES, &[("count", "true")]).await;
    assert_eq!(
        all.body["pagination"]["totalCount"], 7,
        "no company created"
    );
}

async fn a_record_without_any_company_is_refused(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let imported = import(
        &lists,
        "acquisitions",
        json!([{
            "signalId": "a9000000-0000-4000-8000-000000000001",
            "companyWebsite": "https://not-known.example", "occurredAt": "2025-05-05T12:00:00Z"
        }]),
    )
    .await;

    assert_eq!(imported.status, 200, "{:?}", imported.body);
    assert_eq!(imported.data()["inserted"], 0);
    assert_eq!(imported.data()["invalid"][0]["index"], 0);
    let count = lists.get(COMPANIES, &[("count", "true")]).await;
    assert_eq!(count.body["pagination"]["totalCount"], 7);
}

async fn an_unknown_signal_kind_is_not_found(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let response = import(&lists, "ipos", json!([])).await;

    assert_eq!(response.status, 404, "{:?}", response.body);
    assert_eq!(response.body["code"], "not_found");
}

async fn a_signal_import_needs_the_admin_token(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let response = lists
        .app
        .post(
            "/admin/v1/signals/funding",
            &lists.team.key,
            json!([seed_round(funding::ACME_SERIES_A, 1, "seed")]),
        )
        .await;

    assert_eq!(response.status, 401, "{:?}", response.body);
    let count = lists.get(FUNDING, &[("count", "true")]).await;
    assert_eq!(count.body["pagination"]["totalCount"], 0);
}

// ---------------------------------------------------------------------------------------------
// signalwatch import DIR
// ---------------------------------------------------------------------------------------------

fn ndjson(records: &[&Value]) -> String {
    records
        .iter()
        .map(|r| r.to_string() + "\n")
        .collect::<String>()
}

fn find<'a>(records: &'a Value, key: &str, id: &str) -> &'a Value {
    records
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[key] == id)
        .unwrap_or_else(|| panic!("no record {id}"))
}

/// Writes companies, people, funding and hiring files (each funding and hiring file with one
/// bad line) into `dir`.
fn write_import_dir(dir: &Path) {
    let known = companies();
    let rounds = funding_rounds();
    let postings = job_postings();
    let files = [
        (
            "companies.ndjson",
            ndjson(&[
                find(&known, "id", company::ACME),
                find(&known, "id", company::GLOBEX),
            ]),
        ),
        (
            "people.ndjson",
            ndjson(&[&json!({
                "linkedinUrl": "https://www.linkedin.com/in/jane-doe", "name": "Jane Mary Doe",
                "title": "CTO", "companyWebsite": "https://acme.com"
            })]),
        ),
        (
            "funding.ndjson",
            ndjson(&[
                find(&rounds, "signalId", funding::ACME_SERIES_A),
                &json!("a string is not a record"),
                find(&rounds, "signalId", funding::GLOBEX_SEED),
            ]),
        ),
        (
            "hiring.ndjson",
            ndjson(&[
                find(&postings, "id", hiring::ACME_VP_ENGINEERING),
                find(&postings, "id", hiring::GLOBEX_JAVA),
                find(&postings, "id", hiring::GLOBEX_FRONTEND),
            ]) + "{ broken\n",
        ),
    ];
    for (name, content) in files {
        std::fs::write(dir.join(name), content).expect("write an import file");
    }
}

/// Runs `signalwatch import --database-url <url> <path>` in the directory of `path`.
async fn import_command(database_url: &str, path: &Path) -> CommandRun {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().expect("an import file's directory")
    };
    let path = path.display().to_string();
    signalwatch(dir, &["import", "--database-url", database_url, &path]).await
}

async fn the_import_command_loads_a_directory_and_the_lists_show_it(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let dir = tempfile::tempdir().expect("temp dir");
    write_import_dir(dir.path());

    let run = import_command(&lists.app.database_url, dir.path()).await;

    // One bad line in each signal file: the rest is stored, and the command says so and fails.
    assert!(!run.success, "{}", run.stdout);
    assert!(
        run.stderr.contains("2 of 10 records were refused"),
        "{}",
        run.stderr
    );
    let stdout = run.stdout;
    assert!(
        stdout.contains("  line 2: "),
        "the bad line is named: {stdout}"
    );
    for file in [
        "companies.ndjson",
        "people.ndjson",
        "funding.ndjson",
        "hiring.ndjson",
    ] {
        assert!(stdout.contains(file), "{file} is reported: {stdout}");
    }
    assert_eq!(
        lists.ids(COMPANIES, &[("sort_order", "asc")]).await,
        [company::ACME, company::GLOBEX]
    );
    assert_eq!(
        lists.ids(FUNDING, &[]).await,
        [funding::GLOBEX_SEED, funding::ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(HIRING, &[]).await,
        [
            hiring::GLOBEX_JAVA,
            hiring::GLOBEX_FRONTEND,
            hiring::ACME_VP_ENGINEERING
        ]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("positions", "vp of engineering")])
            .await,
        [hiring::ACME_VP_ENGINEERING],
        "imported postings are tagged like API-imported ones"
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "java")]).await,
        [hiring::GLOBEX_JAVA],
        "and indexed for the description search"
    );

    // The person was loaded: a monitor target on their profile resolves to their company.
    let monitor = lists.app.create_monitor(&lists.team, "People").await;
    let added = lists
        .app
        .add_targets(
            &lists.team,
            &monitor,
            json!(["https://www.linkedin.com/in/jane-doe"]),
        )
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    assert_eq!(added.data()["added"][0]["status"], "resolved");
    assert_eq!(added.data()["added"][0]["company"]["id"], company::ACME);
}

async fn the_import_command_is_idempotent(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let dir = tempfile::tempdir().expect("temp dir");
    write_import_dir(dir.path());

    import_command(&lists.app.database_url, dir.path()).await;
    import_command(&lists.app.database_url, dir.path()).await;
    import_command(&lists.app.database_url, &dir.path().join("funding.ndjson")).await;

    for (path, total) in [(COMPANIES, 2), (FUNDING, 2), (HIRING, 3)] {
        let count = lists.get(path, &[("count", "true")]).await;
        assert_eq!(count.body["pagination"]["totalCount"], total, "{path}");
    }
}

async fn a_count_asked_before_an_import_reflects_the_import_right_after_it(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let count = |response: TestResponse| response.body["pagination"]["totalCount"].clone();
    assert_eq!(
        count(lists.get(FUNDING, &[("count", "true")]).await),
        json!(0)
    );
    assert_eq!(
        count(lists.get(FUNDING, &[("count", "true")]).await),
        json!(0)
    );

    let imported = import(
        &lists,
        "funding",
        json!([seed_round(funding::ACME_SERIES_A, 1_000_000, "seed")]),
    )
    .await;
    assert_eq!(imported.status, 200, "{:?}", imported.body);

    assert_eq!(
        count(lists.get(FUNDING, &[("count", "true")]).await),
        json!(1)
    );
    assert_eq!(lists.ids(FUNDING, &[]).await, [funding::ACME_SERIES_A]);
}

async fn investors_and_sources_show_every_documented_field_whatever_was_imported(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let mut round = seed_round(funding::ACME_SERIES_A, 1_000_000, "seed");
    round["investors"] = json!(["Angel One", { "name": "Lead VC", "leadInvestor": true }]);
    round["sources"] = json!([{ "url": "https://news.example/a", "publishedAt":
        "2025-05-05T13:00:00Z", "note": "kept out" }]);

    let imported = import(&lists, "funding", json!([round])).await;

    assert_eq!(imported.status, 200, "{:?}", imported.body);
    let rows = lists.rows(FUNDING, &[]).await;
    assert_eq!(
        rows[0]["investors"],
        json!([
            { "id": null, "name": "Angel One", "type": null, "website": null, "linkedin": null,
              "isLead": false },
            { "id": null, "name": "Lead VC", "type": null, "website": null, "linkedin": null,
              "isLead": true }
        ])
    );
    assert_eq!(
        rows[0]["sources"],
        json!([{ "url": "https://news.example/a", "sourceType": null, "title": null,
            "publishedAt": "2025-05-05T13:00:00.000Z", "isPrimary": false }])
    );
}

async fn person_posts_imported_as_an_array_are_shown_as_a_json_encoded_string(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let imported = import(
        &lists,
        "job-changes",
        json!([{
            "signalId": "e9000000-0000-4000-8000-000000000021", "companyId": company::ACME,
            "personName": "Gavin Belson", "personLinkedinUrl": "https://www.linkedin.com/in/gavin",
            "newRole": "CTO", "occurredAt": "2025-05-05T12:00:00Z",
            "personPosts": [{ "text": "Hello" }], "sources": ["https://news.example/gavin"]
        }]),
    )
    .await;

    assert_eq!(imported.status, 200, "{:?}", imported.body);
    let changes = lists.rows(JOB_CHANGES, &[]).await;
    let posts = changes[0]["personPosts"].as_str().expect("a string");
    assert_eq!(
        serde_json::from_str::<Value>(posts).expect("holding JSON"),
        json!([{ "text": "Hello" }])
    );
    assert_eq!(
        changes[0]["sources"],
        json!([{ "url": "https://news.example/gavin", "sourceType": null }])
    );
}

/// `ANALYZE` after an import samples the tables for the planner, but the samples of the
/// full-text indexes' term tables are dropped: with them SQLite would prepare FTS5's term
/// look-up again at every search.
#[tokio::test]
async fn an_import_leaves_no_samples_of_the_full_text_term_tables_on_sqlite() {
    use sqlx::Connection;
    let lists = Lists::empty(Backend::Sqlite).await;
    let dir = tempfile::tempdir().expect("temp dir");
    write_import_dir(dir.path());

    import_command(&lists.app.database_url, dir.path()).await;

    let mut conn = sqlx::SqliteConnection::connect(&lists.app.database_url)
        .await
        .expect("connect");
    let (sampled, term_tables): (i64, i64) = sqlx::query_as(
        "SELECT count(*), count(*) FILTER (WHERE tbl LIKE '%\\_idx' ESCAPE '\\') FROM sqlite_stat4",
    )
    .fetch_one(&mut conn)
    .await
    .expect("the import analyzed the database");
    assert!(sampled > 0, "the tables are sampled");
    assert_eq!(term_tables, 0, "no samples of the term tables");
    let found = lists.get(COMPANIES, &[("search", "acme")]).await;
    assert_eq!(found.status, 200, "{:?}", found.body);
    assert!(found.body["pagination"]["totalCount"].as_i64() > Some(0));
}
