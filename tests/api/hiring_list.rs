//! `GET /signals/hiring`: the envelope, the record, job and company filters, the description
//! query language, title tags, buckets, dates, sorting and paging, against the known data set.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    Case, HIRING, JOB_CHANGES, Lists, assert_common_refusals,
    assert_date_bounds_are_whole_inclusive_days, assert_every_date_preset_selects_its_days,
    assert_paging_past_the_end, assert_ties_are_broken_by_id_across_pages, company, hiring::*,
    import_signals, job_change, keys_of, sorted,
};
use crate::support::Backend;

each_backend!(
    the_hiring_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    a_hiring_record_has_exactly_the_documented_fields_and_values,
    every_hiring_record_has_the_same_fields_with_their_types,
    countries_match_the_job_country_or_the_headquarters,
    excluded_countries_drop_a_posting_when_either_country_matches_and_keep_unknowns,
    job_countries_and_company_countries_scope_one_side_and_combine_with_and,
    states_match_the_us_state_code_and_refuse_anything_else,
    city_matches_the_city_location_or_region,
    city_matches_neither_the_title_nor_the_country,
    states_match_a_state_given_by_name_or_by_the_end_of_a_us_location,
    vocabulary_errors_name_the_parameter_as_sent,
    subcategories_take_any_id_in_any_case,
    company_name_matches_part_of_the_name,
    search_matches_company_name_industry_title_location_and_city,
    description_matches_whole_words_only,
    description_combines_terms_with_and_phrases_or_and_exclusions,
    a_description_of_only_exclusions_keeps_what_lacks_them_and_one_without_words_matches_nothing,
    a_description_counts_postings_only_whatever_other_records_describe,
    positions_departments_and_seniorities_come_from_the_title,
    tag_groups_count_the_postings_they_list_and_never_a_job_change_with_the_same_tags,
    team_size_buckets_use_the_company_employee_count,
    applicant_buckets_use_the_number_of_applicants,
    categories_subcategories_and_company_identity_filter_the_company,
    date_from_and_date_to_filter_on_the_posting_date,
    a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out,
    every_date_preset_selects_exactly_its_days,
    postings_sort_by_every_field_in_both_directions,
    ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row,
    a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages,
    invalid_parameters_are_refused_naming_them,
    parameters_of_other_lists_are_unknown_here,
);

/// Every posting, most recently created first (the default order).
const ALL_NEWEST_FIRST: [&str; 8] = [
    HOOLI_COFOUNDER,
    NOWHERE_BACKEND,
    VANDELAY_DATA,
    NOWHERE_MARKETING,
    GLOBEX_JAVA,
    GLOBEX_FRONTEND,
    ACME_VP_ENGINEERING,
    INITECH_HEAD_OF_PRODUCT,
];

const NONE: [&str; 0] = [];

async fn the_hiring_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists.get(HIRING, &[("limit", "5")]).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(response.body["success"], true);
    assert_eq!(response.data().as_array().map(Vec::len), Some(5));
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 2, "totalCount": 8,
                "hasNextPage": true, "hasPreviousPage": false })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "signals.hiring", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
    assert_eq!(lists.ids(HIRING, &[]).await, ALL_NEWEST_FIRST);
}

async fn a_hiring_record_has_exactly_the_documented_fields_and_values(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists
        .rows(HIRING, &[("company_domain", "https://acme.com")])
        .await;

    assert_eq!(rows.len(), 1);
    let mut record = rows[0].clone();
    for (key, expected) in [
        ("companyCategories", json!(["Software", "SaaS"])),
        ("companySpecialties", json!(["Continuous integration"])),
    ] {
        let text = record[key].as_str().expect("a string holding JSON");
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), expected);
        record[key] = json!("(checked above)");
    }
    assert_eq!(
        record,
        json!({
            "id": ACME_VP_ENGINEERING,
            "match_confidence": "exact",
            "jobId": "job-01",
            "jobUrl": format!("https://jobs.example/{ACME_VP_ENGINEERING}"),
            "title": "VP of Engineering",
            "location": "Berlin, Germany",
            "city": "Berlin",
            "region": "BE",
            "jobCountry": "DE",
            "datePosted": "2025-03-10T12:00:00.000Z",
            "validThrough": "2025-04-10T00:00:00.000Z",
            "employmentType": "Full-time",
            "seniorityLevel": "Executive",
            "jobFunction": "Engineering",
            "industries": "Technology",
            "numApplicants": "42",
            "descriptionText": "We build with Rust and TypeScript. You will grow a team of distributed systems engineers.",
            "createdAt": "2025-03-11T08:00:00.000Z",
            "companyId": company::ACME,
            "companyName": "Acme Corporation",
            "companyWebsite": "https://www.acme.com",
            "companyIndustry": "Software",
            "companyCountry": "DE",
            "companySubcategory": "saas",
            "companyEmployeeCount": 250,
            "companyFoundedYear": 2010,
            "companyLogoUrl": "https://logos.example/acme.png",
            "companyDescription": "Acme makes tooling for large engineering teams",
            "companySpecialties": "(checked above)",
            "companyCategories": "(checked above)",
            "isFreeAccess": true,
            "companyLogo": "https://logos.example/acme.png"
        })
    );
}

async fn every_hiring_record_has_the_same_fields_with_their_types(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists.rows(HIRING, &[]).await;

    assert_eq!(rows.len(), 8);
    let expected_keys = sorted(&[
        "id",
        "match_confidence",
        "jobId",
        "jobUrl",
        "title",
        "location",
        "city",
        "region",
        "jobCountry",
        "datePosted",
        "validThrough",
        "employmentType",
        "seniorityLevel",
        "jobFunction",
        "industries",
        "numApplicants",
        "descriptionText",
        "createdAt",
        "companyId",
        "companyName",
        "companyWebsite",
        "companyIndustry",
        "companyCountry",
        "companySubcategory",
        "companyEmployeeCount",
        "companyFoundedYear",
        "companyLogoUrl",
        "companyDescription",
        "companySpecialties",
        "companyCategories",
        "isFreeAccess",
        "companyLogo",
    ]);
    for row in &rows {
        assert_eq!(keys_of(row), expected_keys, "{row}");
        assert_eq!(row["match_confidence"], "none");
        assert!(row["companyEmployeeCount"].is_i64(), "{row}");
        assert!(row["companyFoundedYear"].is_i64(), "{row}");
        assert!(row["companySpecialties"].is_string(), "{row}");
        assert!(row["companyCategories"].is_string(), "{row}");
        assert!(row["isFreeAccess"].is_boolean(), "{row}");
        assert!(
            row["numApplicants"].is_string() || row["numApplicants"].is_null(),
            "numApplicants is a string: {row}"
        );
    }
    let by_id = |id: &str| rows.iter().find(|r| r["id"] == id).expect("the posting");
    assert_eq!(
        by_id(GLOBEX_FRONTEND)["numApplicants"],
        "Over 200 applicants"
    );
    assert_eq!(by_id(HOOLI_COFOUNDER)["numApplicants"], Value::Null);
    assert_eq!(by_id(NOWHERE_BACKEND)["companyCountry"], Value::Null);
    assert_eq!(
        by_id(NOWHERE_BACKEND)["isFreeAccess"],
        true,
        "always true for a caller with a key"
    );
}

async fn countries_match_the_job_country_or_the_headquarters(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("countries", "DE")]).await,
        [GLOBEX_FRONTEND, ACME_VP_ENGINEERING],
        "Globex (US) posts a job in Munich"
    );
    assert_eq!(
        lists.ids(HIRING, &[("countries", "Germany")]).await,
        [GLOBEX_FRONTEND, ACME_VP_ENGINEERING]
    );
    assert_eq!(
        lists.ids(HIRING, &[("countries", "US")]).await,
        [NOWHERE_MARKETING, GLOBEX_JAVA, GLOBEX_FRONTEND],
        "a Globex job anywhere, or any job in the US"
    );
    assert_eq!(
        lists.ids(HIRING, &[("countries", "DACH")]).await,
        [
            HOOLI_COFOUNDER,
            GLOBEX_FRONTEND,
            ACME_VP_ENGINEERING,
            INITECH_HEAD_OF_PRODUCT
        ]
    );
}

async fn excluded_countries_drop_a_posting_when_either_country_matches_and_keep_unknowns(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("exclude_countries", "US")]).await,
        [
            HOOLI_COFOUNDER,
            NOWHERE_BACKEND,
            VANDELAY_DATA,
            ACME_VP_ENGINEERING,
            INITECH_HEAD_OF_PRODUCT
        ],
        "Nowhere's remote job has no country at all and stays"
    );
    assert_eq!(
        lists.ids(HIRING, &[("exclude_countries", "Germany")]).await,
        [
            HOOLI_COFOUNDER,
            NOWHERE_BACKEND,
            VANDELAY_DATA,
            NOWHERE_MARKETING,
            GLOBEX_JAVA,
            INITECH_HEAD_OF_PRODUCT
        ]
    );
}

async fn job_countries_and_company_countries_scope_one_side_and_combine_with_and(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("job_countries", "DE")]).await,
        [GLOBEX_FRONTEND, ACME_VP_ENGINEERING]
    );
    assert_eq!(
        lists.ids(HIRING, &[("job_countries", "US")]).await,
        [NOWHERE_MARKETING, GLOBEX_JAVA]
    );
    assert_eq!(
        lists.ids(HIRING, &[("company_countries", "US")]).await,
        [GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("company_countries", "DE")]).await,
        [ACME_VP_ENGINEERING]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("countries", "US"), ("job_countries", "DE")])
            .await,
        [GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists
            .ids(
                HIRING,
                &[("job_countries", "US"), ("company_countries", "US")]
            )
            .await,
        [GLOBEX_JAVA]
    );
    let message = lists.refused(HIRING, &[("job_countries", "Narnia")]).await;
    assert!(message.contains("Narnia"), "{message}");
}

async fn states_match_the_us_state_code_and_refuse_anything_else(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(lists.ids(HIRING, &[("states", "NY")]).await, [GLOBEX_JAVA]);
    assert_eq!(
        lists.ids(HIRING, &[("states", "ny,TX")]).await,
        [NOWHERE_MARKETING, GLOBEX_JAVA]
    );
    assert_eq!(lists.ids(HIRING, &[("states", "CA")]).await, NONE);
    let message = lists.refused(HIRING, &[("states", "NY,Narnia")]).await;
    assert!(message.contains("Narnia"), "{message}");
}

async fn city_matches_the_city_location_or_region(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("city", "munich")]).await,
        [GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("city", "Zur")]).await,
        [INITECH_HEAD_OF_PRODUCT]
    );
    assert_eq!(
        lists.ids(HIRING, &[("city", "TX")]).await,
        [NOWHERE_MARKETING]
    );
    assert_eq!(
        lists.ids(HIRING, &[("city", "remote")]).await,
        [NOWHERE_BACKEND],
        "the only place of the remote job is its location"
    );
}

async fn states_match_a_state_given_by_name_or_by_the_end_of_a_us_location(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let posting = |id: &str, place: Value| {
        let mut record = json!({
            "id": id, "companyId": company::GLOBEX, "title": "Engineer",
            "datePosted": "2025-05-01T12:00:00Z"
        });
        record
            .as_object_mut()
            .unwrap()
            .extend(place.as_object().unwrap().clone());
        record
    };
    let (named, located, abroad) = (
        "b6000000-0000-4000-8000-000000000001",
        "b6000000-0000-4000-8000-000000000002",
        "b6000000-0000-4000-8000-000000000003",
    );
    crate::lists_support::import_signals(
        &lists.app,
        "hiring",
        json!([
            posting(
                named,
                json!({ "location": "San Francisco", "region": "California",
                                   "jobCountry": "US" })
            ),
            posting(
                located,
                json!({ "location": "Seattle, WA", "jobCountry": "United States" })
            ),
            posting(
                abroad,
                json!({ "location": "Perth, WA", "jobCountry": "AU" })
            ),
        ]),
    )
    .await;

    assert_eq!(lists.ids(HIRING, &[("states", "CA")]).await, [named]);
    assert_eq!(lists.ids(HIRING, &[("states", "wa")]).await, [located]);
    assert_eq!(
        lists.ids(HIRING, &[("states", "CA,WA")]).await,
        [located, named]
    );
    let rows = lists.rows(HIRING, &[("states", "CA")]).await;
    assert_eq!(
        rows[0]["region"], "California",
        "the record shows the region as imported"
    );
}

async fn city_matches_neither_the_title_nor_the_country(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for city in [
        "Engineer",
        "java",
        "Head of Product",
        "United States",
        "Senior",
    ] {
        assert_eq!(
            lists.ids(HIRING, &[("city", city)]).await,
            NONE,
            "city={city} is only in titles or job countries"
        );
    }
    assert_eq!(
        lists.ids(HIRING, &[("city", "Berlin")]).await,
        [ACME_VP_ENGINEERING]
    );
}

async fn vocabulary_errors_name_the_parameter_as_sent(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for (name, value) in [("states", "Narnia"), ("applicants", "lots")] {
        let message = lists.refused(HIRING, &[(name, value)]).await;
        assert!(
            message.starts_with(&format!("Invalid {name} value: {value}. Accepted values: ")),
            "{name}={value}: {message}"
        );
    }
    let message = lists.refused(HIRING, &[("team_size", "huge")]).await;
    assert!(
        message.starts_with("Invalid team_size value: huge. Expected a range"),
        "{message}"
    );
}

async fn subcategories_take_any_id_in_any_case(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    lists
        .app
        .import_companies(json!([{ "id": company::GLOBEX, "name": "Globex",
                                   "subcategory": "Space Tourism" }]))
        .await;

    assert_eq!(
        lists
            .ids(HIRING, &[("subcategories", "space tourism,AI")])
            .await,
        [HOOLI_COFOUNDER, GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("subcategories", "quantum")]).await,
        NONE
    );
}

async fn company_name_matches_part_of_the_name(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in ["labs", "WHERE", "No"] {
        let rows = lists.rows(HIRING, &[("company_name", name)]).await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["id"]).collect();
        assert_eq!(
            ids,
            [NOWHERE_BACKEND, NOWHERE_MARKETING],
            "company_name={name}"
        );
        assert!(rows.iter().all(|r| r["match_confidence"] == "fuzzy"));
    }
}

async fn search_matches_company_name_industry_title_location_and_city(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("search", "globex")]).await,
        [GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "financial services")]).await,
        [GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "analyst")]).await,
        [VANDELAY_DATA]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "Head of Product")]).await,
        [INITECH_HEAD_OF_PRODUCT]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "zurich")]).await,
        [INITECH_HEAD_OF_PRODUCT]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "Austin")]).await,
        [NOWHERE_MARKETING]
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "remote")]).await,
        [NOWHERE_BACKEND],
        "the location is searched, the company description is not"
    );
    assert_eq!(
        lists.ids(HIRING, &[("search", "dashboards")]).await,
        NONE,
        "the job description is not searched by search"
    );
}

async fn description_matches_whole_words_only(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("description", "java")]).await,
        [VANDELAY_DATA, GLOBEX_JAVA],
        "java does not match JavaScript"
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "JAVA")]).await,
        [VANDELAY_DATA, GLOBEX_JAVA]
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "javascript")]).await,
        [GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "node.js")]).await,
        [GLOBEX_FRONTEND]
    );
    assert_eq!(lists.ids(HIRING, &[("description", "jav")]).await, NONE);
    assert_eq!(
        lists.ids(HIRING, &[("description", "analyst")]).await,
        NONE,
        "the title is not part of the description"
    );
}

async fn description_combines_terms_with_and_phrases_or_and_exclusions(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(HIRING, &[("description", "kubernetes java")])
            .await,
        [GLOBEX_JAVA]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("description", "\"machine learning\"")])
            .await,
        [HOOLI_COFOUNDER]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("description", "\"learning machine\"")])
            .await,
        NONE,
        "a phrase keeps its word order"
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("description", "rust OR python")])
            .await,
        [VANDELAY_DATA, ACME_VP_ENGINEERING]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("description", "kubernetes -java")])
            .await,
        [INITECH_HEAD_OF_PRODUCT]
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "remote")]).await,
        [NOWHERE_BACKEND, NOWHERE_MARKETING]
    );
    assert_eq!(
        lists
            .ids(HIRING, &[("description", "remote -\"brand campaigns\"")])
            .await,
        [NOWHERE_BACKEND]
    );
}

async fn a_description_of_only_exclusions_keeps_what_lacks_them_and_one_without_words_matches_nothing(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let without_java: Vec<&str> = ALL_NEWEST_FIRST
        .into_iter()
        .filter(|id| ![VANDELAY_DATA, GLOBEX_JAVA].contains(id))
        .collect();
    assert_eq!(
        lists.ids(HIRING, &[("description", "-java")]).await,
        without_java
    );
    assert_eq!(
        lists.ids(HIRING, &[("description", "}]")]).await,
        NONE,
        "a query without a word matches nothing, as web search syntax does"
    );
    let too_long = "java ".repeat(201);
    let message = lists
        .refused(HIRING, &[("description", too_long.as_str())])
        .await;
    assert!(message.contains("description"), "{message}");
}

/// The description filter searches postings' descriptions. A funding round or a job change whose
/// record carries a description too is never counted with them (counts of a description alone
/// are read off the full-text index, which holds postings' descriptions only).
async fn a_description_counts_postings_only_whatever_other_records_describe(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    let kubernetes = [("description", "kubernetes")];
    let postings = lists.ids(HIRING, &kubernetes).await;
    assert!(!postings.is_empty());

    import_signals(
        &lists.app,
        "funding",
        json!([{ "companyId": company::ACME, "occurredAt": "2025-02-10T12:00:00Z",
            "roundType": "seed", "amount": 1_000_000, "currency": "USD",
            "descriptionText": "Acme raises to grow its Kubernetes platform" }]),
    )
    .await;
    import_signals(
        &lists.app,
        "job-changes",
        json!([{ "companyId": company::ACME, "personName": "Kim Lee",
            "newRole": "Platform Engineer", "occurredAt": "2025-02-11T12:00:00Z",
            "descriptionText": "Kim runs Kubernetes at Acme" }]),
    )
    .await;

    assert_eq!(lists.ids(HIRING, &kubernetes).await, postings);
    let counted = lists
        .get(HIRING, &[("description", "kubernetes"), ("count", "true")])
        .await;
    assert_eq!(
        counted.body["pagination"]["totalCount"],
        json!(postings.len()),
        "{:?}",
        counted.body
    );
}

async fn positions_departments_and_seniorities_come_from_the_title(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[Case] = &[
        (
            &[("positions", "vp of engineering")],
            &[ACME_VP_ENGINEERING],
        ),
        (&[("seniorities", "vp")], &[ACME_VP_ENGINEERING]),
        (
            &[("departments", "engineering"), ("seniorities", "vp")],
            &[ACME_VP_ENGINEERING],
        ),
        (
            &[("positions", "Head of Product")],
            &[INITECH_HEAD_OF_PRODUCT],
        ),
        (&[("seniorities", "head")], &[INITECH_HEAD_OF_PRODUCT]),
        (&[("departments", "product")], &[INITECH_HEAD_OF_PRODUCT]),
        (&[("positions", "cto,co-founder")], &[HOOLI_COFOUNDER]),
        (&[("seniorities", "founder")], &[HOOLI_COFOUNDER]),
        (&[("seniorities", "c_level")], &[HOOLI_COFOUNDER]),
        (
            &[("departments", "engineering")],
            &[
                HOOLI_COFOUNDER,
                NOWHERE_BACKEND,
                GLOBEX_JAVA,
                GLOBEX_FRONTEND,
                ACME_VP_ENGINEERING,
            ],
        ),
        (&[("departments", "marketing")], &[NOWHERE_MARKETING]),
        (&[("seniorities", "manager")], &[NOWHERE_MARKETING]),
        (&[("departments", "data")], &[VANDELAY_DATA]),
        (
            &[("departments", "data,marketing")],
            &[VANDELAY_DATA, NOWHERE_MARKETING],
        ),
        (&[("positions", "ceo")], &[]),
        (&[("positions", "cto"), ("departments", "marketing")], &[]),
    ];
    for (params, expected) in cases {
        assert_eq!(lists.ids(HIRING, params).await, *expected, "{params:?}");
    }
    // The reference gives these values as examples only: an unknown one matches nothing.
    for (name, value) in [
        ("positions", "janitor"),
        ("departments", "catering"),
        ("seniorities", "exec"),
    ] {
        assert_eq!(
            lists.ids(HIRING, &[(name, value)]).await,
            NONE,
            "{name}={value}"
        );
    }
}

async fn tag_groups_count_the_postings_they_list_and_never_a_job_change_with_the_same_tags(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;
    // Ana's job change ("Head of Marketing") carries both tags; no posting does.
    let both = [("seniorities", "head"), ("departments", "marketing")];
    assert_eq!(lists.ids(HIRING, &both).await, NONE);
    assert_eq!(
        lists.ids(JOB_CHANGES, &both).await,
        [job_change::ANA_HEAD_OF_MARKETING_AT_NOWHERE]
    );
    let cases: &[Case] = &[
        // Two tags in a group: a posting carrying either is counted once.
        (
            &[
                ("seniorities", "head,vp"),
                ("departments", "engineering,product"),
            ],
            &[ACME_VP_ENGINEERING, INITECH_HEAD_OF_PRODUCT],
        ),
        // With another filter, the count reads the postings themselves.
        (
            &[
                ("seniorities", "head,vp"),
                ("departments", "engineering,product"),
                ("dateTo", "2025-02-01"),
            ],
            &[INITECH_HEAD_OF_PRODUCT],
        ),
        (
            &[
                ("positions", "vp of engineering"),
                ("departments", "engineering"),
            ],
            &[ACME_VP_ENGINEERING],
        ),
    ];
    // `ids` also checks that each answer's `totalCount` equals the rows listed.
    for (params, expected) in cases {
        let mut ids = lists.ids(HIRING, params).await;
        ids.sort();
        let mut expected = expected.to_vec();
        expected.sort();
        assert_eq!(ids, expected, "{params:?}");
    }
}

async fn team_size_buckets_use_the_company_employee_count(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(HIRING, &[("team_size", "11-50")]).await,
        [
            NOWHERE_BACKEND,
            NOWHERE_MARKETING,
            GLOBEX_JAVA,
            GLOBEX_FRONTEND
        ]
    );
    assert_eq!(
        lists.ids(HIRING, &[("team_size", "1000-plus")]).await,
        [VANDELAY_DATA, INITECH_HEAD_OF_PRODUCT]
    );
    assert_eq!(
        lists.ids(HIRING, &[("team_size", "1-10,201-1000")]).await,
        [HOOLI_COFOUNDER, ACME_VP_ENGINEERING]
    );
    assert_eq!(lists.ids(HIRING, &[("team_size", "51-200")]).await, NONE);
    let message = lists.refused(HIRING, &[("team_size", "3-2")]).await;
    assert!(message.contains("3-2"), "{message}");
}

async fn applicant_buckets_use_the_number_of_applicants(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, &[&str]); 6] = [
        ("0-25", &[NOWHERE_BACKEND, INITECH_HEAD_OF_PRODUCT]),
        ("26-50", &[NOWHERE_MARKETING, ACME_VP_ENGINEERING]),
        ("51-100", &[VANDELAY_DATA]),
        ("101-200", &[GLOBEX_JAVA]),
        ("201-plus", &[GLOBEX_FRONTEND]),
        ("51-100,101-200", &[VANDELAY_DATA, GLOBEX_JAVA]),
    ];
    for (bucket, expected) in cases {
        assert_eq!(
            lists.ids(HIRING, &[("applicants", bucket)]).await,
            expected,
            "applicants={bucket}"
        );
    }
    let message = lists.refused(HIRING, &[("applicants", "lots")]).await;
    assert!(message.contains("lots"), "{message}");
}

async fn categories_subcategories_and_company_identity_filter_the_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(HIRING, &[("categories", "payments|hardware")])
            .await,
        [VANDELAY_DATA, GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    assert_eq!(
        lists.ids(HIRING, &[("subcategories", "ai")]).await,
        [HOOLI_COFOUNDER]
    );
    assert_eq!(
        lists
            .ids(
                HIRING,
                &[(
                    "company_linkedin_url",
                    "https://www.linkedin.com/company/globex/"
                )]
            )
            .await,
        [GLOBEX_JAVA, GLOBEX_FRONTEND]
    );
    let rows = lists.rows(HIRING, &[("company_name", "Nowhere Lbs")]).await;
    let ids: Vec<&Value> = rows.iter().map(|r| &r["id"]).collect();
    assert_eq!(ids, [NOWHERE_BACKEND, NOWHERE_MARKETING]);
    assert!(rows.iter().all(|r| r["match_confidence"] == "fuzzy"));
    assert_eq!(
        lists
            .ids(
                HIRING,
                &[
                    ("company_domain", "globex.io"),
                    ("company_linkedin_url", "linkedin.com/company/hooli")
                ]
            )
            .await,
        NONE
    );
    let message = lists
        .refused(
            HIRING,
            &[("company_linkedin_url", "linkedin.com/in/someone")],
        )
        .await;
    assert!(message.contains("company_linkedin_url"), "{message}");
}

async fn date_from_and_date_to_filter_on_the_posting_date(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    // Vandelay posted on 20 January but the posting was created on 25 March.
    assert_eq!(
        lists
            .ids(
                HIRING,
                &[("dateFrom", "2025-01-01"), ("dateTo", "2025-01-31")]
            )
            .await,
        [VANDELAY_DATA]
    );
    assert_eq!(
        lists
            .ids(
                HIRING,
                &[("dateFrom", "2025-03-20"), ("dateTo", "2025-03-28")]
            )
            .await,
        [NOWHERE_BACKEND, NOWHERE_MARKETING]
    );
}

async fn a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    assert_date_bounds_are_whole_inclusive_days(&lists, "hiring").await;
}

async fn every_date_preset_selects_exactly_its_days(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_every_date_preset_selects_its_days(&lists, "hiring").await;
}

async fn postings_sort_by_every_field_in_both_directions(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, [&str; 8]); 5] = [
        (
            "date_posted",
            [
                HOOLI_COFOUNDER,
                NOWHERE_BACKEND,
                NOWHERE_MARKETING,
                GLOBEX_FRONTEND,
                ACME_VP_ENGINEERING,
                GLOBEX_JAVA,
                INITECH_HEAD_OF_PRODUCT,
                VANDELAY_DATA,
            ],
        ),
        ("created_at", ALL_NEWEST_FIRST),
        (
            "title",
            [
                ACME_VP_ENGINEERING,
                GLOBEX_JAVA,
                NOWHERE_MARKETING,
                INITECH_HEAD_OF_PRODUCT,
                GLOBEX_FRONTEND,
                VANDELAY_DATA,
                HOOLI_COFOUNDER,
                NOWHERE_BACKEND,
            ],
        ),
        (
            // Two Globex and two Nowhere postings tie on the name and are ordered by id.
            "company_name",
            [
                VANDELAY_DATA,
                NOWHERE_BACKEND,
                NOWHERE_MARKETING,
                INITECH_HEAD_OF_PRODUCT,
                HOOLI_COFOUNDER,
                GLOBEX_FRONTEND,
                GLOBEX_JAVA,
                ACME_VP_ENGINEERING,
            ],
        ),
        (
            "location",
            [
                INITECH_HEAD_OF_PRODUCT,
                HOOLI_COFOUNDER,
                VANDELAY_DATA,
                NOWHERE_BACKEND,
                GLOBEX_JAVA,
                GLOBEX_FRONTEND,
                ACME_VP_ENGINEERING,
                NOWHERE_MARKETING,
            ],
        ),
    ];
    for (sort_by, descending) in cases {
        assert_eq!(
            lists.ids(HIRING, &[("sort_by", sort_by)]).await,
            descending,
            "{sort_by}, default direction desc"
        );
        let ascending: Vec<&str> = descending.iter().rev().copied().collect();
        assert_eq!(
            lists
                .ids(HIRING, &[("sort_by", sort_by), ("sort_order", "asc")])
                .await,
            ascending,
            "{sort_by} asc"
        );
    }
}

async fn ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_ties_are_broken_by_id_across_pages(&lists, "hiring").await;
}

async fn a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_paging_past_the_end(&lists, HIRING, 8, ("company_domain", "no-such.example")).await;
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_common_refusals(&lists, HIRING).await;
    let message = lists.refused(HIRING, &[("sort_by", "occurred_at")]).await;
    assert!(message.contains("sort_by"), "{message}");
}

async fn parameters_of_other_lists_are_unknown_here(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in [
        "round",
        "amount_min",
        "investor_name",
        "acquiring_company",
        "new_role",
        "personLinkedinUrl",
        "employee_count_min",
    ] {
        let message = lists.refused(HIRING, &[(name, "1")]).await;
        assert!(message.contains(name), "{name}: {message}");
    }
}
