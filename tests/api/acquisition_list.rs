//! `GET /signals/acquisitions`: the envelope, the record with its acquiring company, filters on
//! either side of the deal, dates, sorting and paging, against the known data set.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    ACQUISITIONS, COMPANIES, Case, Lists, assert_common_refusals,
    assert_date_bounds_are_whole_inclusive_days, assert_every_date_preset_selects_its_days,
    assert_paging_past_the_end, assert_ties_are_broken_by_id_across_pages, company, deal::*,
    keys_of, sorted,
};
use crate::support::Backend;

each_backend!(
    the_acquisition_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    an_acquisition_record_has_exactly_the_documented_fields_and_values,
    every_acquisition_record_has_the_same_fields_with_their_types,
    an_acquirer_given_only_by_its_fields_becomes_a_company,
    countries_and_exclude_countries_apply_to_the_acquired_company,
    acquirer_name_and_countries_apply_to_the_acquiring_company,
    amount_currency_and_verification_status_filter_the_deal,
    company_size_age_categories_industry_and_search_apply_to_the_acquired_company,
    company_identity_names_the_acquired_company,
    subcategories_take_any_id_in_any_case,
    verification_errors_name_the_parameter_as_sent,
    date_from_and_date_to_are_inclusive_whole_days,
    a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out,
    every_date_preset_selects_exactly_its_days,
    acquisitions_sort_by_every_field_in_both_directions,
    ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row,
    a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages,
    invalid_parameters_are_refused_naming_them,
    parameters_of_other_lists_are_unknown_here,
);

/// Every acquisition, newest first (the default order).
const ALL_NEWEST_FIRST: [&str; 4] = [
    MASSIVE_BUYS_ACME,
    VANDELAY_BUYS_INITECH,
    GLOBEX_BUYS_UMBRELLA,
    HOOLI_BUYS_NOWHERE,
];

const NONE: [&str; 0] = [];

async fn the_acquisition_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists.get(ACQUISITIONS, &[]).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(response.body["success"], true);
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 1, "totalCount": 4,
                "hasNextPage": false, "hasPreviousPage": false })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "signals.acquisitions", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
    assert_eq!(lists.ids(ACQUISITIONS, &[]).await, ALL_NEWEST_FIRST);
}

async fn an_acquisition_record_has_exactly_the_documented_fields_and_values(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists
        .rows(ACQUISITIONS, &[("company_domain", "www.acme.com")])
        .await;

    assert_eq!(rows.len(), 1);
    let mut record = rows[0].clone();
    let categories = record["companyCategories"].as_str().expect("a string");
    assert_eq!(
        serde_json::from_str::<Value>(categories).unwrap(),
        json!(["Software", "SaaS"])
    );
    record["companyCategories"] = json!("(checked above)");
    assert_eq!(
        record,
        json!({
            "signalId": MASSIVE_BUYS_ACME,
            "signalType": "acquisition",
            "match_confidence": "exact",
            "occurredAt": "2025-04-15T12:00:00.000Z",
            "discoveredAt": "2025-04-16T12:00:00.000Z",
            "companyId": company::ACME,
            "companyName": "Acme Corporation",
            "companySlug": "acme-corporation",
            "companyLogo": "https://logos.example/acme.png",
            "companyWebsite": "https://www.acme.com",
            "companyLinkedin": "https://www.linkedin.com/company/acme-corp",
            "companyIndustry": "Software",
            "companyCountry": "DE",
            "companySubcategory": "saas",
            "companyFoundedYear": 2010,
            "companyCategories": "(checked above)",
            "companyDescription": "Acme makes tooling for large engineering teams",
            "companyEmployeeCount": 250,
            "acquiringCompanyId": company::MASSIVE,
            "amount": 300_000_000,
            "currency": "USD",
            "percentage": "100",
            "announcedDate": "2025-04-15",
            "isFreeAccess": true,
            "acquiringCompany": {
                "id": company::MASSIVE,
                "name": "Massive Dynamic",
                "slug": "massive-dynamic",
                "logo": "https://logos.example/massive.png",
                "website": "https://massivedynamic.com",
                "linkedin": "https://www.linkedin.com/company/massive-dynamic",
                "industry": "Conglomerate",
                "companyCountry": null,
                "companySubcategory": null,
                "foundedYear": 1990,
                "employeeCount": 20000
            },
            "sources": [{
                "url": "https://news.example/massive-acme", "sourceType": "news",
                "title": "Massive Dynamic buys Acme", "publishedAt": "2025-04-15T12:00:00.000Z",
                "isPrimary": true
            }]
        })
    );
}

async fn every_acquisition_record_has_the_same_fields_with_their_types(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists.rows(ACQUISITIONS, &[]).await;

    assert_eq!(rows.len(), 4);
    let expected_keys = sorted(&[
        "signalId",
        "signalType",
        "match_confidence",
        "occurredAt",
        "discoveredAt",
        "companyId",
        "companyName",
        "companySlug",
        "companyLogo",
        "companyWebsite",
        "companyLinkedin",
        "companyIndustry",
        "companyCountry",
        "companySubcategory",
        "companyFoundedYear",
        "companyCategories",
        "companyDescription",
        "companyEmployeeCount",
        "acquiringCompanyId",
        "amount",
        "currency",
        "percentage",
        "announcedDate",
        "isFreeAccess",
        "acquiringCompany",
        "sources",
    ]);
    let acquirer_keys = sorted(&[
        "id",
        "name",
        "slug",
        "logo",
        "website",
        "linkedin",
        "industry",
        "companyCountry",
        "companySubcategory",
        "foundedYear",
        "employeeCount",
    ]);
    for row in &rows {
        assert_eq!(keys_of(row), expected_keys, "{row}");
        assert_eq!(keys_of(&row["acquiringCompany"]), acquirer_keys, "{row}");
        assert_eq!(row["signalType"], "acquisition");
        assert_eq!(row["acquiringCompanyId"], row["acquiringCompany"]["id"]);
        assert!(row["amount"].is_i64(), "{row}");
        assert!(row["percentage"].is_string(), "{row}");
        assert!(row["companyCategories"].is_string(), "{row}");
        assert!(row["acquiringCompany"]["employeeCount"].is_i64(), "{row}");
    }
    let initech = rows
        .iter()
        .find(|r| r["signalId"] == VANDELAY_BUYS_INITECH)
        .unwrap();
    assert_eq!(initech["companyCountry"], "CH");
    assert_eq!(initech["acquiringCompany"]["name"], "Vandelay Industries");
    assert_eq!(initech["acquiringCompany"]["companyCountry"], "CN");
    assert_eq!(
        initech["acquiringCompany"]["companySubcategory"],
        "manufacturing"
    );
}

async fn an_acquirer_given_only_by_its_fields_becomes_a_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists
        .rows(COMPANIES, &[("domain", "massivedynamic.com")])
        .await;

    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["id"], company::MASSIVE);
    assert_eq!(rows[0]["name"], "Massive Dynamic");
    assert_eq!(rows[0]["employeeCount"], 20000);
    assert_eq!(rows[0]["headquartersCountry"], Value::Null);
}

async fn countries_and_exclude_countries_apply_to_the_acquired_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(ACQUISITIONS, &[("countries", "CH")]).await,
        [VANDELAY_BUYS_INITECH]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("countries", "Switzerland")])
            .await,
        [VANDELAY_BUYS_INITECH]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("countries", "DACH")]).await,
        [MASSIVE_BUYS_ACME, VANDELAY_BUYS_INITECH]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("countries", "CN")]).await,
        NONE,
        "Vandelay (CN) only acquires"
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("exclude_countries", "FR,CH")])
            .await,
        [MASSIVE_BUYS_ACME, HOOLI_BUYS_NOWHERE],
        "Nowhere Labs has no HQ country and is kept"
    );
}

async fn acquirer_name_and_countries_apply_to_the_acquiring_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquiring_company", "glob")])
            .await,
        [GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquiring_company", "DYNAMIC")])
            .await,
        [MASSIVE_BUYS_ACME]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquiring_company", "Initech")])
            .await,
        NONE,
        "Initech is acquired, not acquiring"
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquirer_countries", "US")])
            .await,
        [GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquirer_countries", "AT,China")])
            .await,
        [VANDELAY_BUYS_INITECH, HOOLI_BUYS_NOWHERE]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("acquirer_countries", "DE")])
            .await,
        NONE
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("exclude_acquirer_countries", "US,CN")])
            .await,
        [MASSIVE_BUYS_ACME, HOOLI_BUYS_NOWHERE],
        "Massive Dynamic has no HQ country and is kept"
    );
    assert_eq!(
        lists
            .ids(
                ACQUISITIONS,
                &[("countries", "DACH"), ("acquirer_countries", "CN")]
            )
            .await,
        [VANDELAY_BUYS_INITECH]
    );
}

async fn amount_currency_and_verification_status_filter_the_deal(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(ACQUISITIONS, &[("amount_min", "50000000")]).await,
        [MASSIVE_BUYS_ACME, VANDELAY_BUYS_INITECH, HOOLI_BUYS_NOWHERE]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("amount_max", "20000000")]).await,
        [GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists
            .ids(
                ACQUISITIONS,
                &[("amount_min", "50000000"), ("amount_max", "300000000")]
            )
            .await,
        [MASSIVE_BUYS_ACME, HOOLI_BUYS_NOWHERE]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("currency", "EUR")]).await,
        [GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("currency", "usd")]).await,
        [MASSIVE_BUYS_ACME, VANDELAY_BUYS_INITECH, HOOLI_BUYS_NOWHERE]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("verification_status", "pending")])
            .await,
        [VANDELAY_BUYS_INITECH]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("verification_status", "verified")])
            .await,
        [MASSIVE_BUYS_ACME, HOOLI_BUYS_NOWHERE]
    );
    let message = lists.refused(ACQUISITIONS, &[("currency", "GBP")]).await;
    assert!(message.contains("GBP"), "only USD and EUR: {message}");
    let message = lists
        .refused(ACQUISITIONS, &[("amount_min", "9"), ("amount_max", "1")])
        .await;
    assert!(message.contains("amount_min"), "{message}");
}

async fn company_size_age_categories_industry_and_search_apply_to_the_acquired_company(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let cases: &[Case] = &[
        (&[("employee_count_min", "1000")], &[VANDELAY_BUYS_INITECH]),
        (
            &[("employee_count_max", "12")],
            &[GLOBEX_BUYS_UMBRELLA, HOOLI_BUYS_NOWHERE],
        ),
        (
            &[("founded_year_min", "2020")],
            &[GLOBEX_BUYS_UMBRELLA, HOOLI_BUYS_NOWHERE],
        ),
        (
            &[("founded_year_max", "2010")],
            &[MASSIVE_BUYS_ACME, VANDELAY_BUYS_INITECH],
        ),
        (&[("categories", "security")], &[VANDELAY_BUYS_INITECH]),
        (
            &[("categories", "Biotech|developer tools")],
            &[GLOBEX_BUYS_UMBRELLA, HOOLI_BUYS_NOWHERE],
        ),
        (&[("subcategories", "healthcare")], &[GLOBEX_BUYS_UMBRELLA]),
        (
            &[("industry", "Software")],
            &[MASSIVE_BUYS_ACME, HOOLI_BUYS_NOWHERE],
        ),
        (&[("search", "health")], &[GLOBEX_BUYS_UMBRELLA]),
        (&[("search", "initech")], &[VANDELAY_BUYS_INITECH]),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.ids(ACQUISITIONS, params).await,
            *expected,
            "{params:?}"
        );
    }
}

async fn subcategories_take_any_id_in_any_case(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    lists
        .app
        .import_companies(json!([{ "id": company::INITECH, "name": "Initech",
                                   "subcategory": "Office Space" }]))
        .await;

    assert_eq!(
        lists
            .ids(
                ACQUISITIONS,
                &[("subcategories", "office space,HEALTHCARE")]
            )
            .await,
        [VANDELAY_BUYS_INITECH, GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("subcategories", "quantum")])
            .await,
        NONE
    );
}

async fn verification_errors_name_the_parameter_as_sent(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let message = lists
        .refused(ACQUISITIONS, &[("verification_status", "maybe")])
        .await;
    assert!(
        message.starts_with("Invalid verification_status value: maybe. Accepted values: "),
        "{message}"
    );
}

async fn company_identity_names_the_acquired_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for (params, confidence) in [
        (&[("company_domain", "https://initech.ch/")][..], "exact"),
        (
            &[("company_linkedin_url", "linkedin.com/company/initech")][..],
            "exact",
        ),
        (&[("company_name", "Initek")][..], "fuzzy"),
    ] {
        let rows = lists.rows(ACQUISITIONS, params).await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, [VANDELAY_BUYS_INITECH], "{params:?}");
        assert_eq!(rows[0]["match_confidence"], confidence, "{params:?}");
    }
    assert_eq!(
        lists
            .ids(ACQUISITIONS, &[("company_domain", "unknown-company.com")])
            .await,
        NONE
    );
    assert_eq!(
        lists
            .ids(
                ACQUISITIONS,
                &[
                    ("company_domain", "initech.ch"),
                    ("company_linkedin_url", "linkedin.com/company/acme-corp")
                ]
            )
            .await,
        NONE
    );
}

async fn date_from_and_date_to_are_inclusive_whole_days(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(
                ACQUISITIONS,
                &[("dateFrom", "2025-03-05"), ("dateTo", "2025-03-20")]
            )
            .await,
        [VANDELAY_BUYS_INITECH, GLOBEX_BUYS_UMBRELLA]
    );
    assert_eq!(
        lists.ids(ACQUISITIONS, &[("dateTo", "2025-03-04")]).await,
        [HOOLI_BUYS_NOWHERE]
    );
}

async fn a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    assert_date_bounds_are_whole_inclusive_days(&lists, "acquisitions").await;
}

async fn every_date_preset_selects_exactly_its_days(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_every_date_preset_selects_its_days(&lists, "acquisitions").await;
}

async fn acquisitions_sort_by_every_field_in_both_directions(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, [&str; 4]); 4] = [
        ("occurred_at", ALL_NEWEST_FIRST),
        (
            "discovered_at",
            [
                MASSIVE_BUYS_ACME,
                GLOBEX_BUYS_UMBRELLA,
                VANDELAY_BUYS_INITECH,
                HOOLI_BUYS_NOWHERE,
            ],
        ),
        (
            "amount",
            [
                VANDELAY_BUYS_INITECH,
                MASSIVE_BUYS_ACME,
                HOOLI_BUYS_NOWHERE,
                GLOBEX_BUYS_UMBRELLA,
            ],
        ),
        (
            "employee_count",
            [
                VANDELAY_BUYS_INITECH,
                MASSIVE_BUYS_ACME,
                HOOLI_BUYS_NOWHERE,
                GLOBEX_BUYS_UMBRELLA,
            ],
        ),
    ];
    for (sort_by, descending) in cases {
        assert_eq!(
            lists.ids(ACQUISITIONS, &[("sort_by", sort_by)]).await,
            descending,
            "{sort_by}, default direction desc"
        );
        let ascending: Vec<&str> = descending.iter().rev().copied().collect();
        assert_eq!(
            lists
                .ids(ACQUISITIONS, &[("sort_by", sort_by), ("sort_order", "asc")])
                .await,
            ascending,
            "{sort_by} asc"
        );
    }
}

async fn ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_ties_are_broken_by_id_across_pages(&lists, "acquisitions").await;
}

async fn a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_paging_past_the_end(
        &lists,
        ACQUISITIONS,
        4,
        ("acquiring_company", "nobody at all"),
    )
    .await;
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_common_refusals(&lists, ACQUISITIONS).await;
    let message = lists
        .refused(ACQUISITIONS, &[("sort_by", "founded_year")])
        .await;
    assert!(message.contains("sort_by"), "{message}");
}

async fn parameters_of_other_lists_are_unknown_here(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in [
        "round",
        "investor_name",
        "job_countries",
        "positions",
        "new_role",
        "acquirer_name",
    ] {
        let message = lists.refused(ACQUISITIONS, &[(name, "x")]).await;
        assert!(message.contains(name), "{name}: {message}");
    }
}
