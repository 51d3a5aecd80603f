//! `GET /people`: people records and job-change subjects, each with the newest of their signals
//! that matches (their own job change, a funding round or acquisition of their company), their
//! filters, paging and credits.

use chrono::{Days, NaiveDate, Utc};
use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{Lists, assert_bad_request, import_signals, keys_of, sorted};
use crate::support::Backend;

/// Query parameters of one request, and the names the answer lists, in order.
type QueryExpectation<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);

each_backend!(
    the_people_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    a_person_has_exactly_the_documented_fields_and_the_signal_that_matched,
    people_without_a_signal_in_the_window_are_left_out,
    titles_match_whole_words_and_their_abbreviations,
    functions_and_seniorities_come_from_the_title,
    countries_match_the_company_or_the_person,
    city_size_and_industry_filter_the_person_and_their_company,
    a_profile_or_a_company_names_who_is_listed_over_all_time,
    signal_types_pin_the_matched_signal,
    pages_follow_the_newest_matched_signal_and_counting_is_free,
    invalid_parameters_are_refused_naming_them,
);

const PEOPLE: &str = "/api/v2/people";

const ACME: &str = "c2000000-0000-4000-8000-000000000001";
const GLOBEX: &str = "c2000000-0000-4000-8000-000000000002";
const INITECH: &str = "c2000000-0000-4000-8000-000000000003";

/// The day `n` days before today, at noon UTC.
fn days_ago(n: u64) -> String {
    format!("{}T12:00:00Z", day_ago(n))
}

fn day_ago(n: u64) -> NaiveDate {
    Utc::now()
        .date_naive()
        .checked_sub_days(Days::new(n))
        .unwrap()
}

/// Three companies; Sarah (CTO at Acme), Tom (a cook at Globex), Eve (assistant to Globex's
/// CEO) and Olga (VP of Sales at Initech) as people records; Michael moved to Globex as VP of
/// Engineering 10 days ago. Acme raised 30 days ago and bought Initech 800 days ago; Globex
/// raised 5 and 400 days ago.
async fn people_fixture(backend: Backend) -> Lists {
    let lists = Lists::empty(backend).await;
    let app = &lists.app;
    app.import_companies(json!([
        { "id": ACME, "name": "Acme Corporation", "website": "https://www.acme.com",
          "linkedinUrl": "https://www.linkedin.com/company/acme-corp", "industry": "Software",
          "headquartersCountry": "DE", "employeeCount": 250 },
        { "id": GLOBEX, "name": "Globex", "website": "https://globex.io",
          "linkedinUrl": "https://www.linkedin.com/company/globex", "industry": "Financial Services",
          "headquartersCountry": "US", "employeeCount": 40 },
        { "id": INITECH, "name": "Initech", "website": "https://initech.co.uk",
          "headquartersCountry": "GB", "employeeCount": 5000 }
    ]))
    .await;
    app.import_people(json!([
        { "linkedinUrl": "https://www.linkedin.com/in/sarah-kim", "name": "Sarah Kim",
          "title": "Chief Technology Officer", "country": "DE", "companyId": ACME },
        { "linkedinUrl": "https://www.linkedin.com/in/tom-cook", "name": "Tom Cook",
          "title": "Cook", "companyId": GLOBEX },
        { "linkedinUrl": "https://www.linkedin.com/in/eve-adams", "name": "Eve Adams",
          "title": "Assistant to the CEO", "companyId": GLOBEX },
        { "linkedinUrl": "https://www.linkedin.com/in/olga-ivanova", "name": "Olga Ivanova",
          "title": "VP of Sales", "companyId": INITECH }
    ]))
    .await;
    let round = |company: &str, days: u64, amount: i64, lead: &str| {
        json!({
            "companyId": company, "occurredAt": days_ago(days), "roundType": "Seed",
            "amount": amount, "currency": "USD",
            "investors": [{ "name": lead, "type": "vc", "isLead": true }],
            "sources": [{ "url": format!("https://news.example/{company}/{days}"), "isPrimary": true }]
        })
    };
    import_signals(
        app,
        "funding",
        json!([
            round(ACME, 30, 40_000_000, "Accel"),
            round(GLOBEX, 5, 3_000_000, "Index"),
            round(GLOBEX, 400, 1_000_000, "Index"),
        ]),
    )
    .await;
    import_signals(
        app,
        "acquisitions",
        json!([{ "companyId": INITECH, "acquiringCompanyId": ACME, "occurredAt": days_ago(800),
                 "amount": 90_000_000, "currency": "USD", "sources": [] }]),
    )
    .await;
    import_signals(
        app,
        "job-changes",
        json!([{ "companyId": GLOBEX, "personName": "Michael Roe",
                 "personLinkedinUrl": "https://www.linkedin.com/in/michael-roe",
                 "newRole": "VP of Engineering", "personCity": "Berlin", "personCountry": "DE",
                 "occurredAt": days_ago(10) }]),
    )
    .await;
    lists
}

const SARAH: &str = "Sarah K.";
const TOM: &str = "Tom C.";
const EVE: &str = "Eve A.";
const OLGA: &str = "Olga I.";
const MICHAEL: &str = "Michael R.";

async fn the_people_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = people_fixture(backend).await;

    let response = lists.get(PEOPLE, &[]).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 1, "totalCount": 4,
                "hasNextPage": false, "hasPreviousPage": false })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "people.list", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
    assert_eq!(lists.balance().await, 99_999);
}

async fn a_person_has_exactly_the_documented_fields_and_the_signal_that_matched(backend: Backend) {
    let lists = people_fixture(backend).await;

    let rows = lists.rows(PEOPLE, &[("title", "CTO")]).await;

    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        rows[0],
        json!({
            "name": SARAH,
            "linkedin_url": "https://www.linkedin.com/in/sarah-kim",
            "title": "Chief Technology Officer",
            "status": "active",
            "city": null,
            "company": {
                "name": "Acme Corporation", "domain": "acme.com",
                "linkedin_url": "https://www.linkedin.com/company/acme-corp", "country": "DE",
                "city": null, "size_band": "101-250", "industry": "Software"
            },
            "is_latest_signal": true,
            "matched_signal": {
                "type": "funding_round",
                "date": day_ago(30).to_string(),
                "summary": "Seed, USD 40,000,000 led by Accel",
                "source_url": format!("https://news.example/{ACME}/30")
            }
        })
    );
    let michael = &lists.rows(PEOPLE, &[("city", "Berlin")]).await[0];
    assert_eq!(michael["name"], MICHAEL);
    assert_eq!(
        michael["linkedin_url"],
        "https://www.linkedin.com/in/michael-roe"
    );
    assert_eq!(michael["title"], "VP of Engineering");
    assert_eq!(michael["company"]["name"], "Globex");
    assert_eq!(michael["company"]["size_band"], "11-50");
    assert_eq!(
        michael["matched_signal"]["date"],
        day_ago(5).to_string(),
        "Globex's round 5 days ago is newer than his move"
    );
}

async fn people_without_a_signal_in_the_window_are_left_out(backend: Backend) {
    let lists = people_fixture(backend).await;

    assert_eq!(
        lists.sorted_names(PEOPLE, &[]).await,
        sorted(&[SARAH, TOM, EVE, MICHAEL]),
        "Olga's company was last in the news 800 days ago"
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("signal_date_range", "3y")])
            .await,
        sorted(&[SARAH, TOM, EVE, MICHAEL, OLGA])
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("signal_date_range", "7d")])
            .await,
        sorted(&[TOM, EVE, MICHAEL])
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("signal_date_range", "1w")])
            .await,
        sorted(&[TOM, EVE, MICHAEL])
    );
}

async fn titles_match_whole_words_and_their_abbreviations(backend: Backend) {
    let lists = people_fixture(backend).await;
    let cases: &[(&str, &[&str])] = &[
        ("CTO", &[SARAH]),
        ("chief technology officer", &[SARAH]),
        ("Vice President of Engineering", &[MICHAEL]),
        ("VP of Engineering,Cook", &[MICHAEL, TOM]),
        ("COO", &[]),
        ("CEO", &[]),
        ("Coo", &[]),
    ];
    for (title, expected) in cases {
        assert_eq!(
            lists
                .sorted_names(PEOPLE, &[("title", title), ("signal_date_range", "3y")])
                .await,
            sorted(expected),
            "title={title}"
        );
    }
}

async fn functions_and_seniorities_come_from_the_title(backend: Backend) {
    let lists = people_fixture(backend).await;
    let all_time = ("signal_date_range", "10y");
    let cases: &[QueryExpectation<'_>] = &[
        (&[("function", "engineering"), all_time], &[SARAH, MICHAEL]),
        (&[("function", "sales"), all_time], &[OLGA]),
        (
            &[("function", "sales,engineering"), all_time],
            &[SARAH, MICHAEL, OLGA],
        ),
        (&[("seniority", "c_level"), all_time], &[SARAH]),
        (&[("seniority", "vp"), all_time], &[MICHAEL, OLGA]),
        (
            &[("seniority", "vp"), ("function", "engineering"), all_time],
            &[MICHAEL],
        ),
        (&[("seniority", "founder"), all_time], &[]),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.sorted_names(PEOPLE, params).await,
            sorted(expected),
            "{params:?}"
        );
    }
}

async fn countries_match_the_company_or_the_person(backend: Backend) {
    let lists = people_fixture(backend).await;

    assert_eq!(
        lists.sorted_names(PEOPLE, &[("country", "DE")]).await,
        sorted(&[SARAH, MICHAEL]),
        "Michael lives in Germany; his company is American"
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("country", "US,GB"), ("signal_date_range", "3y")])
            .await,
        sorted(&[TOM, EVE, MICHAEL, OLGA])
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("exclude_countries", "DE")])
            .await,
        sorted(&[TOM, EVE])
    );
}

async fn city_size_and_industry_filter_the_person_and_their_company(backend: Backend) {
    let lists = people_fixture(backend).await;

    assert_eq!(
        lists.names(PEOPLE, &[("city", "ERL")]).await,
        sorted(&[MICHAEL])
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("company_size", "11-50")])
            .await,
        sorted(&[TOM, EVE, MICHAEL])
    );
    assert_eq!(
        lists
            .sorted_names(
                PEOPLE,
                &[
                    ("company_size", "101-250,1000-plus"),
                    ("signal_date_range", "3y")
                ]
            )
            .await,
        sorted(&[SARAH, OLGA])
    );
    assert_eq!(
        lists.names(PEOPLE, &[("industry", "software")]).await,
        sorted(&[SARAH])
    );
}

async fn a_profile_or_a_company_names_who_is_listed_over_all_time(backend: Backend) {
    let lists = people_fixture(backend).await;

    let olga = lists
        .rows(PEOPLE, &[("linkedin_url", "linkedin.com/in/olga-ivanova/")])
        .await;
    assert_eq!(
        olga.len(),
        1,
        "a lookup reaches back over all time: {olga:?}"
    );
    assert_eq!(olga[0]["matched_signal"]["type"], "acquisition");
    assert_eq!(
        olga[0]["matched_signal"]["summary"],
        "Initech acquired by Acme Corporation for USD 90,000,000"
    );
    assert_eq!(
        lists
            .names(
                PEOPLE,
                &[
                    ("linkedin_url", "https://www.linkedin.com/in/olga-ivanova"),
                    ("signal_date_range", "12m")
                ]
            )
            .await,
        sorted(&[]),
        "an explicit window still applies"
    );
    assert_eq!(
        lists
            .names(
                PEOPLE,
                &[("linkedin_url", "https://www.linkedin.com/in/nobody")]
            )
            .await,
        sorted(&[])
    );
    assert_eq!(
        lists
            .sorted_names(PEOPLE, &[("company_domain", "https://acme.com/about")])
            .await,
        sorted(&[SARAH])
    );
    assert_eq!(
        lists
            .sorted_names(
                PEOPLE,
                &[(
                    "company_linkedin_url",
                    "https://www.linkedin.com/company/globex"
                )]
            )
            .await,
        sorted(&[TOM, EVE, MICHAEL])
    );
}

async fn signal_types_pin_the_matched_signal(backend: Backend) {
    let lists = people_fixture(backend).await;

    let moved = lists.rows(PEOPLE, &[("signal_type", "job_change")]).await;
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(moved[0]["name"], MICHAEL);
    assert_eq!(moved[0]["matched_signal"]["type"], "job_change");
    assert_eq!(
        moved[0]["matched_signal"]["summary"],
        "Michael R. started as VP of Engineering at Globex"
    );
    assert_eq!(
        moved[0]["is_latest_signal"], false,
        "Globex's round is newer than his move"
    );

    let bought = lists
        .rows(
            PEOPLE,
            &[("signal_type", "acquisition"), ("signal_date_range", "3y")],
        )
        .await;
    let mut seen: Vec<(String, Value)> = bought
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["is_latest_signal"].clone(),
            )
        })
        .collect();
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        seen,
        [
            (OLGA.to_string(), json!(true)),
            (SARAH.to_string(), json!(false))
        ],
        "the acquisition concerns the buyer's people too"
    );
}

async fn pages_follow_the_newest_matched_signal_and_counting_is_free(backend: Backend) {
    let lists = people_fixture(backend).await;

    let first = lists.names(PEOPLE, &[("limit", "3")]).await;
    let second = lists.names(PEOPLE, &[("limit", "3"), ("page", "2")]).await;
    assert_eq!(
        first,
        [TOM, MICHAEL, EVE],
        "Globex's round (5 days ago) first, ties by profile, descending"
    );
    assert_eq!(second, [SARAH]);

    let counted = lists
        .get(PEOPLE, &[("count", "true"), ("company_size", "11-50")])
        .await;
    assert_eq!(counted.status, 200, "{:?}", counted.body);
    assert_eq!(counted.body["data"], json!([]));
    assert_eq!(counted.body["pagination"]["totalCount"], 3);
    assert_eq!(counted.body["meta"]["creditsUsed"], 0);
    assert_eq!(lists.balance().await, 99_998);
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = people_fixture(backend).await;
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("function", "marketing,cooking")], "function"),
        (&[("seniority", "exec")], "seniority"),
        (&[("company_size", "10-20")], "company_size"),
        (&[("signal_type", "hiring")], "signal_type"),
        (&[("signal_date_range", "12")], "signal_date_range"),
        (&[("signal_date_range", "0d")], "signal_date_range"),
        (&[("signal_date_range", "11y")], "signal_date_range"),
        (&[("signal_date_range", "6h")], "signal_date_range"),
        (&[("include_former", "true")], "include_former"),
        (
            &[("linkedin_url", "https://www.linkedin.com/company/acme-corp")],
            "linkedin_url",
        ),
        (&[("linkedin_url", "not a profile")], "linkedin_url"),
        (&[("company_domain", "not a domain")], "company_domain"),
        (&[("country", "Atlantis")], "country"),
        (&[("limit", "0")], "limit"),
        (&[("page", "0")], "page"),
        (&[("sort_by", "name")], "sort_by"),
    ];
    for (params, named) in cases {
        let response = lists.get(PEOPLE, params).await;
        assert_bad_request(&response);
        assert!(
            response.error().contains(named),
            "{params:?}: {:?}",
            response.error()
        );
    }
    assert_eq!(lists.balance().await, 100_000, "a 400 charges nothing");
}
