//! `GET /companies`: the envelope, the Company record, search, strict domain and LinkedIn
//! lookups, attribute filters, sorting and paging, against the known companies.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{COMPANIES, Case, Lists, company::*, keys_of, record_id, sorted, url};
use crate::support::Backend;

each_backend!(
    the_company_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    a_company_record_has_exactly_the_documented_fields_and_values,
    every_company_record_has_the_same_fields_with_their_types,
    search_matches_name_industry_description_keywords_and_specialties,
    a_company_stored_again_is_found_by_its_new_words_and_no_longer_by_its_old_ones,
    domain_is_an_exact_lookup_that_normalizes_scheme_www_port_path_and_slash,
    linkedin_url_is_an_exact_lookup_and_refuses_a_personal_profile,
    a_domain_and_a_linkedin_url_of_different_companies_give_nothing,
    countries_and_exclude_countries_use_the_headquarters,
    industry_categories_and_subcategories_filter_companies,
    employee_count_and_founded_year_ranges_filter_companies,
    all_filters_are_combined_with_and,
    date_parameters_are_ignored,
    companies_sort_by_name_by_default_descending,
    companies_sort_by_every_field_in_both_directions,
    companies_sort_by_creation_time,
    ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row,
    a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages,
    invalid_parameters_are_refused_naming_them,
);

/// Every known company by name, Z to A (the default order).
const BY_NAME_DESC: [&str; 7] = [VANDELAY, UMBRELLA, NOWHERE, INITECH, HOOLI, GLOBEX, ACME];

const NONE: [&str; 0] = [];

async fn the_company_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;

    let response = lists.get(COMPANIES, &[("limit", "3"), ("page", "3")]).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(response.body["success"], true);
    let ids: Vec<String> = response
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(record_id)
        .collect();
    assert_eq!(ids, [ACME]);
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 3, "totalPages": 3, "totalCount": 7,
                "hasNextPage": false, "hasPreviousPage": true })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "companies.list", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
}

async fn a_company_record_has_exactly_the_documented_fields_and_values(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let rows = lists.rows(COMPANIES, &[("domain", "acme.com")]).await;

    assert_eq!(rows.len(), 1);
    let mut record = rows[0].clone();
    for stamp in ["createdAt", "updatedAt"] {
        let text = record[stamp].as_str().expect("a timestamp");
        assert!(
            chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with('Z'),
            "{stamp} {text} is RFC 3339 UTC"
        );
        record[stamp] = json!("(checked above)");
    }
    assert_eq!(
        record,
        json!({
            "id": ACME,
            "name": "Acme Corporation",
            "slug": "acme-corporation",
            "description": "Acme makes tooling for large engineering teams",
            "website": "https://www.acme.com",
            "linkedinUrl": "https://www.linkedin.com/company/acme-corp",
            "twitterUrl": "https://twitter.com/acme",
            "logoUrl": "https://logos.example/acme.png",
            "industry": "Software",
            "foundedYear": 2010,
            "headquartersCountry": "DE",
            "employeeCount": 250,
            "categories": ["Software", "SaaS"],
            "keywords": ["build automation"],
            "specialties": ["Continuous integration"],
            "growthInfo": {
                "growth_1m": 0.01, "growth_3m": 0.04, "growth_6m": 0.08,
                "growth_9m": 0.1, "growth_12m": 0.15
            },
            "createdAt": "(checked above)",
            "updatedAt": "(checked above)"
        })
    );
}

async fn every_company_record_has_the_same_fields_with_their_types(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let rows = lists.rows(COMPANIES, &[]).await;

    assert_eq!(rows.len(), 7);
    let expected_keys = sorted(&[
        "id",
        "name",
        "slug",
        "description",
        "website",
        "linkedinUrl",
        "twitterUrl",
        "logoUrl",
        "industry",
        "foundedYear",
        "headquartersCountry",
        "employeeCount",
        "categories",
        "keywords",
        "specialties",
        "growthInfo",
        "createdAt",
        "updatedAt",
    ]);
    for row in &rows {
        assert_eq!(keys_of(row), expected_keys, "{row}");
        assert!(
            row["foundedYear"].is_i64() && row["employeeCount"].is_i64(),
            "{row}"
        );
        for list in ["categories", "keywords", "specialties"] {
            assert!(row[list].is_array(), "{list} is an array: {row}");
        }
    }
    let globex = rows.iter().find(|r| r["id"] == GLOBEX).unwrap();
    assert_eq!(globex["twitterUrl"], Value::Null);
    assert_eq!(globex["growthInfo"], Value::Null);
    let initech = rows.iter().find(|r| r["id"] == INITECH).unwrap();
    assert_eq!(initech["headquartersCountry"], "CH", "stored as its code");
    let nowhere = rows.iter().find(|r| r["id"] == NOWHERE).unwrap();
    assert_eq!(nowhere["headquartersCountry"], Value::Null);
}

async fn search_matches_name_industry_description_keywords_and_specialties(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: &[(&str, &[&str])] = &[
        ("globex", &[GLOBEX]),
        ("Umbrella Health", &[UMBRELLA]),
        ("software", &[NOWHERE, HOOLI, ACME]),
        ("tooling", &[ACME]),
        ("platform", &[UMBRELLA, NOWHERE]),
        ("automation", &[ACME]),
        ("compression", &[HOOLI]),
        ("latex", &[VANDELAY]),
        ("quantum", &[]),
    ];
    for (search, expected) in cases {
        assert_eq!(
            lists.ids(COMPANIES, &[("search", search)]).await,
            *expected,
            "search={search}"
        );
    }
}

async fn a_company_stored_again_is_found_by_its_new_words_and_no_longer_by_its_old_ones(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    assert_eq!(lists.ids(COMPANIES, &[("search", "tooling")]).await, [ACME]);

    lists
        .app
        .import_companies(json!([{
            "id": ACME, "name": "Acme Corporation",
            "description": "Acme builds warehouse robots",
            "industry": "Robotics", "keywords": ["fleet orchestration"],
        }]))
        .await;

    for word in ["warehouse", "robotics", "orchestration"] {
        assert_eq!(
            lists.ids(COMPANIES, &[("search", word)]).await,
            [ACME],
            "search={word}"
        );
    }
    for word in ["tooling", "automation"] {
        assert_eq!(
            lists.ids(COMPANIES, &[("search", word)]).await,
            NONE,
            "search={word}"
        );
    }
}

async fn domain_is_an_exact_lookup_that_normalizes_scheme_www_port_path_and_slash(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;

    for spelling in [
        "acme.com",
        "ACME.COM",
        "https://www.acme.com/",
        "http://acme.com:8080/about/team?ref=x",
        "www.acme.com/",
    ] {
        assert_eq!(
            lists.ids(COMPANIES, &[("domain", spelling)]).await,
            [ACME],
            "domain={spelling}"
        );
    }
    assert_eq!(
        lists
            .ids(COMPANIES, &[("domain", "acme.com,hooli.at")])
            .await,
        [HOOLI, ACME]
    );
    let response = lists.get(COMPANIES, &[("domain", "unknown.org")]).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["data"], json!([]));
    assert_eq!(response.body["pagination"]["totalCount"], 0);
    assert_eq!(
        lists.ids(COMPANIES, &[("domain", "acme.co")]).await,
        NONE,
        "no fuzzy fallback"
    );
    for bad in ["not a domain", "localhost", "ftp://acme.com"] {
        let message = lists.refused(COMPANIES, &[("domain", bad)]).await;
        assert!(message.contains("domain"), "domain={bad}: {message}");
    }
}

async fn linkedin_url_is_an_exact_lookup_and_refuses_a_personal_profile(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    for spelling in [
        "https://linkedin.com/company/globex/",
        "http://www.linkedin.com/company/globex",
        "linkedin.com/company/globex",
    ] {
        assert_eq!(
            lists.ids(COMPANIES, &[("linkedin_url", spelling)]).await,
            [GLOBEX],
            "linkedin_url={spelling}"
        );
    }
    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[("linkedin_url", "linkedin.com/company/globex-corp")]
            )
            .await,
        NONE
    );
    for bad in [
        "https://www.linkedin.com/in/jane-doe",
        "https://example.com/company/globex",
    ] {
        let message = lists.refused(COMPANIES, &[("linkedin_url", bad)]).await;
        assert!(message.contains("linkedin_url"), "{bad}: {message}");
    }
}

async fn a_domain_and_a_linkedin_url_of_different_companies_give_nothing(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[
                    ("domain", "acme.com"),
                    ("linkedin_url", "linkedin.com/company/globex")
                ]
            )
            .await,
        NONE
    );
    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[
                    ("domain", "acme.com"),
                    ("linkedin_url", "linkedin.com/company/acme-corp")
                ]
            )
            .await,
        [ACME]
    );
}

async fn countries_and_exclude_countries_use_the_headquarters(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: &[Case] = &[
        (&[("countries", "CH")], &[INITECH]),
        (&[("countries", "switzerland")], &[INITECH]),
        (&[("countries", "DACH")], &[INITECH, HOOLI, ACME]),
        (&[("countries", "NA")], &[GLOBEX]),
        (
            &[("exclude_countries", "DACH")],
            &[VANDELAY, UMBRELLA, NOWHERE, GLOBEX],
        ),
        (
            &[("exclude_countries", "China,FR,US")],
            &[NOWHERE, INITECH, HOOLI, ACME],
        ),
    ];
    for (params, expected) in cases {
        assert_eq!(lists.ids(COMPANIES, params).await, *expected, "{params:?}");
    }
    let message = lists.refused(COMPANIES, &[("countries", "Atlantis")]).await;
    assert!(message.contains("Atlantis"), "{message}");
}

async fn industry_categories_and_subcategories_filter_companies(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: &[Case] = &[
        (&[("industry", "Software")], &[NOWHERE, HOOLI, ACME]),
        (
            &[("industry", "healthcare,MANUFACTURING")],
            &[VANDELAY, UMBRELLA],
        ),
        (&[("industry", "Soft")], &[]),
        (&[("categories", "ai|payments")], &[HOOLI, GLOBEX]),
        (&[("categories", "SOFTWARE")], &[HOOLI, ACME]),
        (&[("subcategories", "healthcare,saas")], &[UMBRELLA, ACME]),
        (&[("subcategories", "HealthCare")], &[UMBRELLA]),
        // The reference types `subcategories` here as any string: ids beyond the funding
        // list's vocabulary are matched too.
        (&[("subcategories", "spaceflight")], &[]),
    ];
    for (params, expected) in cases {
        assert_eq!(lists.ids(COMPANIES, params).await, *expected, "{params:?}");
    }
    lists
        .app
        .import_companies(json!([{ "id": HOOLI, "name": "Hooli", "subcategory": "Spaceflight" }]))
        .await;
    assert_eq!(
        lists
            .ids(COMPANIES, &[("subcategories", "spaceflight,fintech")])
            .await,
        [HOOLI, GLOBEX]
    );
}

async fn employee_count_and_founded_year_ranges_filter_companies(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: &[Case] = &[
        (
            &[("employee_count_min", "500")],
            &[VANDELAY, INITECH, HOOLI],
        ),
        (&[("employee_count_max", "12")], &[UMBRELLA, NOWHERE]),
        (
            &[("employee_count_min", "0"), ("employee_count_max", "40")],
            &[UMBRELLA, NOWHERE, GLOBEX],
        ),
        (&[("founded_year_max", "1999")], &[VANDELAY, INITECH]),
        (
            &[("founded_year_min", "2018"), ("founded_year_max", "2021")],
            &[UMBRELLA, GLOBEX],
        ),
        (&[("founded_year_min", "1800")], &BY_NAME_DESC),
    ];
    for (params, expected) in cases {
        assert_eq!(lists.ids(COMPANIES, params).await, *expected, "{params:?}");
    }
    for (name, value) in [
        ("employee_count_min", "-1"),
        ("employee_count_max", "lots"),
        ("founded_year_min", "1799"),
        ("founded_year_max", "1066"),
    ] {
        let message = lists.refused(COMPANIES, &[(name, value)]).await;
        assert!(message.contains(name), "{name}={value}: {message}");
    }
    let message = lists
        .refused(
            COMPANIES,
            &[("employee_count_min", "100"), ("employee_count_max", "10")],
        )
        .await;
    assert!(message.contains("employee_count"), "{message}");
}

async fn all_filters_are_combined_with_and(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[
                    ("industry", "Software"),
                    ("countries", "DACH"),
                    ("employee_count_min", "300")
                ]
            )
            .await,
        [HOOLI]
    );
    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[("search", "software"), ("exclude_countries", "AT,DE")]
            )
            .await,
        [NOWHERE]
    );
}

async fn date_parameters_are_ignored(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    for params in [
        &[("date_preset", "today")][..],
        &[("dateFrom", "2030-01-01")][..],
        &[("dateFrom", "2020-01-01"), ("dateTo", "2020-01-02")][..],
    ] {
        assert_eq!(
            lists.ids(COMPANIES, params).await,
            BY_NAME_DESC,
            "{}",
            url(COMPANIES, params)
        );
    }
}

async fn companies_sort_by_name_by_default_descending(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    assert_eq!(lists.ids(COMPANIES, &[]).await, BY_NAME_DESC);
    assert_eq!(
        lists.ids(COMPANIES, &[("sort_order", "asc")]).await,
        BY_NAME_DESC.iter().rev().copied().collect::<Vec<_>>()
    );
}

async fn companies_sort_by_every_field_in_both_directions(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: [(&str, [&str; 7]); 3] = [
        ("name", BY_NAME_DESC),
        (
            "employee_count",
            [VANDELAY, INITECH, HOOLI, ACME, GLOBEX, NOWHERE, UMBRELLA],
        ),
        (
            "founded_year",
            [NOWHERE, UMBRELLA, GLOBEX, HOOLI, ACME, INITECH, VANDELAY],
        ),
    ];
    for (sort_by, descending) in cases {
        assert_eq!(
            lists
                .ids(COMPANIES, &[("sort_by", sort_by), ("sort_order", "desc")])
                .await,
            descending,
            "{sort_by} desc"
        );
        let ascending: Vec<&str> = descending.iter().rev().copied().collect();
        assert_eq!(
            lists
                .ids(COMPANIES, &[("sort_by", sort_by), ("sort_order", "asc")])
                .await,
            ascending,
            "{sort_by} asc"
        );
    }
}

/// Imports one company and returns its `createdAt` in epoch milliseconds.
async fn create_company(lists: &Lists, id: &str, name: &str) -> i64 {
    lists
        .app
        .import_companies(json!([{ "id": id, "name": name }]))
        .await;
    let rows = lists.rows(COMPANIES, &[("search", name)]).await;
    let created = rows[0]["createdAt"].as_str().expect("createdAt");
    chrono::DateTime::parse_from_rfc3339(created)
        .expect("RFC 3339")
        .timestamp_millis()
}

async fn companies_sort_by_creation_time(backend: Backend) {
    let lists = Lists::empty(backend).await;
    // Created in the order Zulu, Yankee, X-ray, with ids in the opposite order, each strictly
    // later than the one before (the clock is read, not slept on).
    let ids = [
        "c2000000-0000-4000-8000-000000000003",
        "c2000000-0000-4000-8000-000000000002",
        "c2000000-0000-4000-8000-000000000001",
    ];
    let mut last = 0;
    for (id, name) in ids.iter().zip(["Zulu", "Yankee", "Xray"]) {
        while chrono::Utc::now().timestamp_millis() <= last {
            tokio::task::yield_now().await;
        }
        last = create_company(&lists, id, name).await;
    }

    assert_eq!(
        lists
            .ids(
                COMPANIES,
                &[("sort_by", "created_at"), ("sort_order", "asc")]
            )
            .await,
        ids
    );
    assert_eq!(
        lists.ids(COMPANIES, &[("sort_by", "created_at")]).await,
        ids.iter().rev().copied().collect::<Vec<_>>()
    );
}

async fn ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row(backend: Backend) {
    let lists = Lists::empty(backend).await;
    let ids: Vec<String> = (1..=25)
        .map(|n| format!("c3000000-0000-4000-8000-{n:012}"))
        .collect();
    let twins: Vec<Value> = ids
        .iter()
        .map(|id| json!({ "id": id, "name": "Twin Company", "employeeCount": 10, "foundedYear": 2000 }))
        .collect();
    lists.app.import_companies(json!(twins)).await;
    let descending: Vec<String> = ids.iter().rev().cloned().collect();

    for sort_by in ["name", "employee_count", "founded_year", "created_at"] {
        for (order, expected) in [("asc", &ids), ("desc", &descending)] {
            let whole = lists
                .ids(
                    COMPANIES,
                    &[
                        ("sort_by", sort_by),
                        ("sort_order", order),
                        ("limit", "100"),
                    ],
                )
                .await;
            if sort_by != "created_at" {
                assert_eq!(&whole, expected, "{sort_by} {order}: ties ordered by id");
            }
            let mut paged = Vec::new();
            for page in ["1", "2", "3"] {
                paged.extend(
                    lists
                        .ids(
                            COMPANIES,
                            &[
                                ("sort_by", sort_by),
                                ("sort_order", order),
                                ("limit", "10"),
                                ("page", page),
                            ],
                        )
                        .await,
                );
            }
            assert_eq!(
                paged, whole,
                "{sort_by} {order}: pages match the whole list"
            );
        }
    }
}

async fn a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    crate::lists_support::assert_paging_past_the_end(
        &lists,
        COMPANIES,
        7,
        ("domain", "no-such.example"),
    )
    .await;
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = Lists::with_companies(backend).await;

    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("limit", "0")], "limit"),
        (&[("limit", "101")], "limit"),
        (&[("page", "0")], "page"),
        (&[("page", "first")], "page"),
        (&[("sort_by", "revenue")], "sort_by"),
        (&[("sort_by", "occurred_at")], "sort_by"),
        (&[("sort_order", "sideways")], "sort_order"),
        (&[("count", "maybe")], "count"),
        (&[("company_domain", "acme.com")], "company_domain"),
        (&[("company_name", "Acme")], "company_name"),
        (&[("round", "seed")], "round"),
        (&[("colour", "blue")], "colour"),
    ];
    for (params, named) in cases {
        let message = lists.refused(COMPANIES, params).await;
        assert!(
            message.contains(named),
            "{params:?} names {named}: {message}"
        );
    }
}
