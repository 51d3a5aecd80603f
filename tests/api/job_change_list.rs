//! `GET /signals/job-changes`: the envelope, the record with its masked person name, person and
//! company filters, role tags, dates, sorting and paging, against the known data set.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    Case, JOB_CHANGES, Lists, assert_common_refusals, assert_date_bounds_are_whole_inclusive_days,
    assert_every_date_preset_selects_its_days, assert_paging_past_the_end,
    assert_ties_are_broken_by_id_across_pages, job_change::*, keys_of, sorted,
};
use crate::support::Backend;

each_backend!(
    the_job_change_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    a_job_change_record_has_exactly_the_documented_fields_and_values,
    every_job_change_record_has_the_same_fields_and_a_masked_name,
    countries_match_the_person_country_or_the_headquarters,
    excluded_countries_drop_a_change_when_either_country_matches_and_keep_unknowns,
    city_matches_the_person_city_or_location,
    city_and_new_role_read_only_their_own_fields,
    both_spellings_of_company_linkedin_url_are_validated_and_read_as_one_list,
    unknown_tag_values_are_accepted_and_match_nothing,
    person_linkedin_url_is_an_exact_profile_match,
    company_linkedin_url_and_its_legacy_alias_name_the_new_company,
    new_role_source_and_keyword_filter_the_change,
    positions_departments_and_seniorities_come_from_the_new_role,
    search_matches_person_role_place_and_company,
    date_from_and_date_to_are_inclusive_whole_days,
    a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out,
    every_date_preset_selects_exactly_its_days,
    job_changes_sort_by_every_field_in_both_directions,
    ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row,
    a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages,
    invalid_parameters_are_refused_naming_them,
    parameters_of_other_lists_are_unknown_here,
);

/// Every job change, newest first (the default order).
const ALL_NEWEST_FIRST: [&str; 5] = [
    ANA_HEAD_OF_MARKETING_AT_NOWHERE,
    JOHN_VP_SALES_AT_GLOBEX,
    JANE_CTO_AT_ACME,
    LI_ENGINEERING_MANAGER_AT_VANDELAY,
    MAX_COFOUNDER_AT_HOOLI,
];

const NONE: [&str; 0] = [];

async fn the_job_change_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists
        .get(JOB_CHANGES, &[("limit", "2"), ("page", "2")])
        .await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 2, "totalPages": 3, "totalCount": 5,
                "hasNextPage": true, "hasPreviousPage": true })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "signals.jobChanges", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
    let ids: Vec<&Value> = response
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["signalId"])
        .collect();
    assert_eq!(ids, [JANE_CTO_AT_ACME, LI_ENGINEERING_MANAGER_AT_VANDELAY]);
    assert_eq!(lists.ids(JOB_CHANGES, &[]).await, ALL_NEWEST_FIRST);
}

async fn a_job_change_record_has_exactly_the_documented_fields_and_values(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists
        .rows(
            JOB_CHANGES,
            &[("company_linkedin_url", "linkedin.com/company/acme-corp")],
        )
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
            "signalId": JANE_CTO_AT_ACME,
            "signalType": "job_change",
            "match_confidence": "exact",
            "occurredAt": "2025-03-01T12:00:00.000Z",
            "discoveredAt": "2025-03-02T12:00:00.000Z",
            "personName": "Jane D.",
            "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe",
            "companyLinkedinUrl": "https://www.linkedin.com/company/acme-corp",
            "newRole": "Chief Technology Officer",
            "postContent": "Excited to start as Chief Technology Officer!",
            "takenFrom": "https://www.linkedin.com/posts/jane-doe-1",
            "source": "linkedin",
            "companyName": "Acme Corporation",
            "personCurrentTitle": "Chief Technology Officer",
            "personHeadline": "Chief Technology Officer | ex-something",
            "personLocation": "Berlin, Germany",
            "personCity": "Berlin",
            "personCountry": "DE",
            "personFollowers": 1200,
            "personConnections": 500,
            "personPosts": null,
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
            "companyLogo": "https://logos.example/acme.png",
            "sources": [{ "url": "https://www.linkedin.com/posts/jane-doe-1", "sourceType": "linkedin" }]
        })
    );
}

async fn every_job_change_record_has_the_same_fields_and_a_masked_name(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists.rows(JOB_CHANGES, &[]).await;

    let expected_keys = sorted(&[
        "signalId",
        "signalType",
        "match_confidence",
        "occurredAt",
        "discoveredAt",
        "personName",
        "personLinkedinUrl",
        "companyLinkedinUrl",
        "newRole",
        "postContent",
        "takenFrom",
        "source",
        "companyName",
        "personCurrentTitle",
        "personHeadline",
        "personLocation",
        "personCity",
        "personCountry",
        "personFollowers",
        "personConnections",
        "personPosts",
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
        "sources",
    ]);
    for row in &rows {
        assert_eq!(keys_of(row), expected_keys, "{row}");
        assert_eq!(row["signalType"], "job_change");
        assert!(row["personFollowers"].is_i64() && row["personConnections"].is_i64());
        assert!(row["companySpecialties"].is_string() && row["companyCategories"].is_string());
        for source in row["sources"].as_array().expect("sources") {
            assert_eq!(keys_of(source), sorted(&["url", "sourceType"]));
        }
    }
    let names: Vec<&Value> = rows.iter().map(|r| &r["personName"]).collect();
    assert_eq!(
        names,
        ["Ana L.", "John S.", "Jane D.", "Li W.", "Max M."],
        "first name and last initial only"
    );
}

async fn countries_match_the_person_country_or_the_headquarters(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(JOB_CHANGES, &[("countries", "DE")]).await,
        [JANE_CTO_AT_ACME, MAX_COFOUNDER_AT_HOOLI],
        "Max lives in Germany and joins Hooli (AT)"
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("countries", "Austria")]).await,
        [MAX_COFOUNDER_AT_HOOLI]
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("countries", "GB")]).await,
        [JOHN_VP_SALES_AT_GLOBEX]
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("countries", "US")]).await,
        [JOHN_VP_SALES_AT_GLOBEX],
        "John lives in London and joins Globex (US)"
    );
}

async fn excluded_countries_drop_a_change_when_either_country_matches_and_keep_unknowns(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(JOB_CHANGES, &[("exclude_countries", "DE")]).await,
        [
            ANA_HEAD_OF_MARKETING_AT_NOWHERE,
            JOHN_VP_SALES_AT_GLOBEX,
            LI_ENGINEERING_MANAGER_AT_VANDELAY
        ],
        "Ana has no country and Nowhere Labs no HQ: kept"
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("exclude_countries", "US")]).await,
        [
            ANA_HEAD_OF_MARKETING_AT_NOWHERE,
            JANE_CTO_AT_ACME,
            LI_ENGINEERING_MANAGER_AT_VANDELAY,
            MAX_COFOUNDER_AT_HOOLI
        ]
    );
}

async fn city_matches_the_person_city_or_location(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(JOB_CHANGES, &[("city", "munich")]).await,
        [MAX_COFOUNDER_AT_HOOLI]
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("city", "Berl")]).await,
        [JANE_CTO_AT_ACME]
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("city", "Bavaria")]).await,
        [MAX_COFOUNDER_AT_HOOLI],
        "Bavaria is only in Max's location"
    );
    assert_eq!(
        lists.ids(JOB_CHANGES, &[("city", "remote")]).await,
        [ANA_HEAD_OF_MARKETING_AT_NOWHERE],
        "Ana's only place is her location"
    );
}

async fn both_spellings_of_company_linkedin_url_are_validated_and_read_as_one_list(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(
                JOB_CHANGES,
                &[
                    ("company_linkedin_url", "linkedin.com/company/globex"),
                    (
                        "companyLinkedinUrl",
                        "https://www.linkedin.com/company/acme-corp/"
                    ),
                ]
            )
            .await,
        [JOHN_VP_SALES_AT_GLOBEX, JANE_CTO_AT_ACME]
    );
    let message = lists
        .refused(
            JOB_CHANGES,
            &[
                ("company_linkedin_url", "linkedin.com/company/globex"),
                ("companyLinkedinUrl", "https://www.linkedin.com/in/jane-doe"),
            ],
        )
        .await;
    assert!(message.contains("companyLinkedinUrl"), "{message}");
    let message = lists
        .refused(
            JOB_CHANGES,
            &[
                ("company_linkedin_url", "linkedin.com/in/jane-doe"),
                ("companyLinkedinUrl", "linkedin.com/company/globex"),
            ],
        )
        .await;
    assert!(message.contains("company_linkedin_url"), "{message}");
}

async fn city_and_new_role_read_only_their_own_fields(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[Case] = &[
        (&[("city", "Chief")], &[]),
        (&[("city", "Jane")], &[]),
        (&[("city", "Germany")], &[JANE_CTO_AT_ACME]),
        (&[("city", "GB")], &[]),
        (&[("new_role", "Berlin")], &[]),
        (&[("new_role", "Jane")], &[]),
        (&[("new_role", "China")], &[]),
        (&[("new_role", "chief tech")], &[JANE_CTO_AT_ACME]),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.ids(JOB_CHANGES, params).await,
            *expected,
            "{params:?}"
        );
    }
}

async fn unknown_tag_values_are_accepted_and_match_nothing(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    // The reference gives these values as examples only: an unknown one matches nothing.
    for (name, value) in [
        ("positions", "wizard"),
        ("departments", "alchemy"),
        ("seniorities", "exec"),
    ] {
        let response = lists.get(JOB_CHANGES, &[(name, value)]).await;
        assert_eq!(response.status, 200, "{name}={value}: {:?}", response.body);
        assert_eq!(response.data(), &serde_json::json!([]), "{name}={value}");
    }
}

async fn person_linkedin_url_is_an_exact_profile_match(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for spelling in [
        "https://www.linkedin.com/in/jane-doe",
        "http://linkedin.com/in/jane-doe/",
        "linkedin.com/in/Jane-Doe",
    ] {
        assert_eq!(
            lists
                .ids(JOB_CHANGES, &[("personLinkedinUrl", spelling)])
                .await,
            [JANE_CTO_AT_ACME],
            "personLinkedinUrl={spelling}"
        );
    }
    assert_eq!(
        lists
            .ids(
                JOB_CHANGES,
                &[("personLinkedinUrl", "linkedin.com/in/jane")]
            )
            .await,
        NONE,
        "not a partial match"
    );
    let message = lists
        .refused(
            JOB_CHANGES,
            &[(
                "personLinkedinUrl",
                "https://www.linkedin.com/company/acme-corp",
            )],
        )
        .await;
    assert!(message.contains("personLinkedinUrl"), "{message}");
}

async fn company_linkedin_url_and_its_legacy_alias_name_the_new_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in ["company_linkedin_url", "companyLinkedinUrl"] {
        let rows = lists
            .rows(
                JOB_CHANGES,
                &[(name, "https://www.linkedin.com/company/globex/")],
            )
            .await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, [JOHN_VP_SALES_AT_GLOBEX], "{name}");
        assert_eq!(rows[0]["match_confidence"], "exact");
        let message = lists
            .refused(
                JOB_CHANGES,
                &[(name, "https://www.linkedin.com/in/jane-doe")],
            )
            .await;
        assert!(message.contains(name), "{message}");
    }
    let rows = lists.rows(JOB_CHANGES, &[("company_name", "Hooli")]).await;
    let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
    assert_eq!(ids, [MAX_COFOUNDER_AT_HOOLI]);
    assert_eq!(rows[0]["match_confidence"], "fuzzy");
    assert_eq!(
        lists
            .ids(JOB_CHANGES, &[("company_domain", "vandelay.cn")])
            .await,
        [LI_ENGINEERING_MANAGER_AT_VANDELAY]
    );
}

async fn new_role_source_and_keyword_filter_the_change(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[Case] = &[
        (&[("new_role", "vp")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (&[("new_role", "Chief")], &[JANE_CTO_AT_ACME]),
        (
            &[("new_role", "MANAGER")],
            &[LI_ENGINEERING_MANAGER_AT_VANDELAY],
        ),
        (&[("source", "press_release")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (
            &[("source", "LinkedIn")],
            &[
                JANE_CTO_AT_ACME,
                LI_ENGINEERING_MANAGER_AT_VANDELAY,
                MAX_COFOUNDER_AT_HOOLI,
            ],
        ),
        (&[("source", "other")], &[ANA_HEAD_OF_MARKETING_AT_NOWHERE]),
        (&[("keyword", "kube")], &[JANE_CTO_AT_ACME]),
        (
            &[("keyword", "MANUFACT")],
            &[LI_ENGINEERING_MANAGER_AT_VANDELAY],
        ),
        (&[("keyword", "saas")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (&[("keyword", "blockchain")], &[]),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.ids(JOB_CHANGES, params).await,
            *expected,
            "{params:?}"
        );
    }
    let message = lists.refused(JOB_CHANGES, &[("source", "twitter")]).await;
    assert!(message.contains("twitter"), "{message}");
}

async fn positions_departments_and_seniorities_come_from_the_new_role(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[Case] = &[
        (&[("positions", "cto")], &[JANE_CTO_AT_ACME]),
        (
            &[("positions", "ceo,co-founder")],
            &[MAX_COFOUNDER_AT_HOOLI],
        ),
        (&[("positions", "vp of sales")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (
            &[("positions", "engineering manager")],
            &[LI_ENGINEERING_MANAGER_AT_VANDELAY],
        ),
        (
            &[("positions", "head of marketing")],
            &[ANA_HEAD_OF_MARKETING_AT_NOWHERE],
        ),
        (
            &[("departments", "engineering")],
            &[JANE_CTO_AT_ACME, LI_ENGINEERING_MANAGER_AT_VANDELAY],
        ),
        (&[("departments", "sales")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (
            &[("departments", "marketing")],
            &[ANA_HEAD_OF_MARKETING_AT_NOWHERE],
        ),
        (
            &[("seniorities", "c_level")],
            &[JANE_CTO_AT_ACME, MAX_COFOUNDER_AT_HOOLI],
        ),
        (&[("seniorities", "founder")], &[MAX_COFOUNDER_AT_HOOLI]),
        (&[("seniorities", "vp")], &[JOHN_VP_SALES_AT_GLOBEX]),
        (
            &[("seniorities", "head")],
            &[ANA_HEAD_OF_MARKETING_AT_NOWHERE],
        ),
        (
            &[("seniorities", "manager")],
            &[LI_ENGINEERING_MANAGER_AT_VANDELAY],
        ),
        (
            &[("departments", "engineering"), ("seniorities", "c_level")],
            &[JANE_CTO_AT_ACME],
        ),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.ids(JOB_CHANGES, params).await,
            *expected,
            "{params:?}"
        );
    }
}

async fn search_matches_person_role_place_and_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[(&str, &[&str])] = &[
        ("smith", &[JOHN_VP_SALES_AT_GLOBEX]),
        ("Acme", &[JANE_CTO_AT_ACME]),
        ("london", &[JOHN_VP_SALES_AT_GLOBEX]),
        ("Germany", &[JANE_CTO_AT_ACME, MAX_COFOUNDER_AT_HOOLI]),
        ("United Kingdom", &[JOHN_VP_SALES_AT_GLOBEX]),
        ("engineering manager", &[LI_ENGINEERING_MANAGER_AT_VANDELAY]),
        ("financial", &[JOHN_VP_SALES_AT_GLOBEX]),
        ("kubernetes", &[]),
    ];
    for (search, expected) in cases {
        assert_eq!(
            lists.ids(JOB_CHANGES, &[("search", search)]).await,
            *expected,
            "search={search}"
        );
    }
}

async fn date_from_and_date_to_are_inclusive_whole_days(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(
                JOB_CHANGES,
                &[("dateFrom", "2025-02-01"), ("dateTo", "2025-03-01")]
            )
            .await,
        [JANE_CTO_AT_ACME, LI_ENGINEERING_MANAGER_AT_VANDELAY]
    );
}

async fn a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    assert_date_bounds_are_whole_inclusive_days(&lists, "job-changes").await;
}

async fn every_date_preset_selects_exactly_its_days(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_every_date_preset_selects_its_days(&lists, "job-changes").await;
}

async fn job_changes_sort_by_every_field_in_both_directions(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, [&str; 5]); 4] = [
        ("occurred_at", ALL_NEWEST_FIRST),
        (
            "discovered_at",
            [
                ANA_HEAD_OF_MARKETING_AT_NOWHERE,
                JOHN_VP_SALES_AT_GLOBEX,
                LI_ENGINEERING_MANAGER_AT_VANDELAY,
                JANE_CTO_AT_ACME,
                MAX_COFOUNDER_AT_HOOLI,
            ],
        ),
        (
            "person_name",
            [
                MAX_COFOUNDER_AT_HOOLI,
                LI_ENGINEERING_MANAGER_AT_VANDELAY,
                JOHN_VP_SALES_AT_GLOBEX,
                JANE_CTO_AT_ACME,
                ANA_HEAD_OF_MARKETING_AT_NOWHERE,
            ],
        ),
        (
            "company_name",
            [
                LI_ENGINEERING_MANAGER_AT_VANDELAY,
                ANA_HEAD_OF_MARKETING_AT_NOWHERE,
                MAX_COFOUNDER_AT_HOOLI,
                JOHN_VP_SALES_AT_GLOBEX,
                JANE_CTO_AT_ACME,
            ],
        ),
    ];
    for (sort_by, descending) in cases {
        assert_eq!(
            lists.ids(JOB_CHANGES, &[("sort_by", sort_by)]).await,
            descending,
            "{sort_by}, default direction desc"
        );
        let ascending: Vec<&str> = descending.iter().rev().copied().collect();
        assert_eq!(
            lists
                .ids(JOB_CHANGES, &[("sort_by", sort_by), ("sort_order", "asc")])
                .await,
            ascending,
            "{sort_by} asc"
        );
    }
}

async fn ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_ties_are_broken_by_id_across_pages(&lists, "job-changes").await;
}

async fn a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_paging_past_the_end(&lists, JOB_CHANGES, 5, ("new_role", "astronaut")).await;
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_common_refusals(&lists, JOB_CHANGES).await;
    let message = lists.refused(JOB_CHANGES, &[("sort_by", "amount")]).await;
    assert!(message.contains("sort_by"), "{message}");
}

async fn parameters_of_other_lists_are_unknown_here(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in [
        "round",
        "job_countries",
        "description",
        "team_size",
        "acquiring_company",
        "industry",
        "include_expired",
    ] {
        let message = lists.refused(JOB_CHANGES, &[(name, "x")]).await;
        assert!(message.contains(name), "{name}: {message}");
    }
}
