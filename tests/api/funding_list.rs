//! `GET /signals/funding`: the envelope, the record, every filter, dates, sorting and paging,
//! read against the known data set of `lists_support`.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    FUNDING, Lists, assert_common_refusals, assert_date_bounds_are_whole_inclusive_days,
    assert_every_date_preset_selects_its_days, assert_paging_past_the_end,
    assert_ties_are_broken_by_id_across_pages, company, funding::*, keys_of, sorted,
};
use crate::support::Backend;

each_backend!(
    the_funding_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    a_funding_record_has_exactly_the_documented_fields_and_values,
    every_funding_record_has_the_same_fields_with_their_types,
    countries_match_the_headquarters_by_code_name_or_region,
    excluded_countries_keep_companies_without_a_headquarters_country,
    country_filters_follow_a_company_whose_country_changes,
    an_unknown_country_is_refused_naming_it,
    round_types_match_exactly_in_any_case,
    an_unknown_round_type_is_refused_with_the_exact_list_of_accepted_values,
    round_flavor_amount_currency_and_verification_status_filter_the_deal,
    investor_name_is_a_partial_match_on_any_investor,
    employee_count_and_founded_year_ranges_filter_the_company,
    categories_subcategories_and_industry_filter_the_company,
    search_matches_company_name_and_industry_words,
    company_domain_is_strict_and_ignores_scheme_www_and_trailing_slash,
    an_unknown_company_domain_gives_an_empty_page_and_a_malformed_one_a_400,
    company_linkedin_url_is_strict_and_refuses_a_personal_profile,
    a_domain_and_a_linkedin_url_must_name_the_same_company,
    company_name_is_fuzzy_tolerates_a_typo_and_yields_to_a_domain,
    company_name_matches_any_part_of_the_name_in_any_case,
    investor_name_finds_investors_imported_as_bare_names,
    vocabulary_errors_name_the_parameter_as_sent,
    date_from_and_date_to_are_inclusive_whole_days,
    a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out,
    every_date_preset_selects_exactly_its_days,
    funding_rounds_sort_by_every_field_in_both_directions,
    ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row,
    pagination_reports_the_page_and_its_neighbours,
    a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages,
    invalid_parameters_are_refused_naming_them,
    parameters_of_other_lists_are_unknown_here,
);

/// Every funding round, newest first (the default order).
const ALL_NEWEST_FIRST: [&str; 7] = [
    INITECH_SERIES_B,
    VANDELAY_DEBT,
    NOWHERE_SEED,
    GLOBEX_SEED,
    ACME_SERIES_A,
    UMBRELLA_PRE_SEED,
    HOOLI_SERIES_A,
];

async fn the_funding_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists.get(FUNDING, &[("limit", "3")]).await;

    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(
        keys_of(&response.body),
        sorted(&["success", "data", "pagination", "meta"])
    );
    assert_eq!(response.body["success"], true);
    assert_eq!(response.data().as_array().map(Vec::len), Some(3));
    assert_eq!(
        response.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 3, "totalCount": 7,
                "hasNextPage": true, "hasPreviousPage": false })
    );
    assert_eq!(
        response.body["meta"],
        json!({ "endpoint": "signals.funding", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
}

async fn a_funding_record_has_exactly_the_documented_fields_and_values(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists.rows(FUNDING, &[("company_domain", "acme.com")]).await;

    assert_eq!(rows.len(), 1);
    let mut record = rows[0].clone();
    let categories = record["companyCategories"]
        .as_str()
        .expect("companyCategories is a string");
    assert_eq!(
        serde_json::from_str::<Value>(categories).expect("holding JSON"),
        json!(["Software", "SaaS"])
    );
    record["companyCategories"] = json!("(checked above)");
    assert_eq!(
        record,
        json!({
            "signalId": ACME_SERIES_A,
            "signalType": "funding_round",
            "match_confidence": "exact",
            "occurredAt": "2025-03-10T09:00:00.000Z",
            "discoveredAt": "2025-03-11T08:00:00.000Z",
            "companyId": company::ACME,
            "companyName": "Acme Corporation",
            "companySlug": "acme-corporation",
            "companyLogo": "https://logos.example/acme.png",
            "companyWebsite": "https://www.acme.com",
            "companyLinkedin": "https://www.linkedin.com/company/acme-corp",
            "companyIndustry": "Software",
            "companyCountry": "DE",
            "companySubcategory": "saas",
            "companyDescription": "Acme makes tooling for large engineering teams",
            "companyFoundedYear": 2010,
            "companyEmployeeCount": 250,
            "companyCategories": "(checked above)",
            "roundType": "series a",
            "roundFlavor": null,
            "amount": 15_000_000,
            "currency": "USD",
            "announcedDate": "2025-03-10",
            "confidenceScore": 0.92,
            "verificationStatus": "verified",
            "isFreeAccess": true,
            "investors": [
                {
                    "id": "inv-sequoia-capital", "name": "Sequoia Capital", "type": "vc",
                    "website": "https://sequoia-capital.example",
                    "linkedin": "https://www.linkedin.com/company/sequoia-capital", "isLead": true
                },
                {
                    "id": "inv-jane-angel", "name": "Jane Angel", "type": "angel",
                    "website": "https://jane-angel.example",
                    "linkedin": "https://www.linkedin.com/company/jane-angel", "isLead": false
                }
            ],
            "sources": [{
                "url": "https://news.example/acme", "sourceType": "news",
                "title": "Acme raises $15M", "publishedAt": "2025-03-10T10:00:00.000Z", "isPrimary": true
            }]
        })
    );
}

async fn every_funding_record_has_the_same_fields_with_their_types(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let rows = lists.rows(FUNDING, &[]).await;

    assert_eq!(rows.len(), 7);
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
        "companyDescription",
        "companyFoundedYear",
        "companyEmployeeCount",
        "companyCategories",
        "roundType",
        "roundFlavor",
        "amount",
        "currency",
        "announcedDate",
        "confidenceScore",
        "verificationStatus",
        "isFreeAccess",
        "investors",
        "sources",
    ]);
    for row in &rows {
        assert_eq!(keys_of(row), expected_keys, "{row}");
        assert_eq!(row["signalType"], "funding_round");
        assert_eq!(row["match_confidence"], "none");
        assert!(row["amount"].is_i64(), "amount is an integer: {row}");
        assert!(row["companyFoundedYear"].is_i64(), "{row}");
        assert!(row["companyEmployeeCount"].is_i64(), "{row}");
        assert!(row["companyCategories"].is_string(), "{row}");
        assert!(row["confidenceScore"].is_number(), "{row}");
        assert!(row["isFreeAccess"].is_boolean(), "{row}");
        assert!(
            row["investors"].is_array() && row["sources"].is_array(),
            "{row}"
        );
        let round = row["roundType"].as_str().expect("roundType");
        assert_eq!(round, round.to_lowercase(), "roundType is lower case");
        for stamp in ["occurredAt", "discoveredAt"] {
            let text = row[stamp].as_str().expect("a timestamp");
            assert!(
                chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with(".000Z"),
                "{stamp} {text} is RFC 3339 UTC with milliseconds"
            );
        }
    }
    let nowhere = rows
        .iter()
        .find(|r| r["signalId"] == NOWHERE_SEED)
        .expect("Nowhere's round");
    assert_eq!(nowhere["companyCountry"], Value::Null);
    assert_eq!(
        nowhere["isFreeAccess"], true,
        "always true for a caller with a key"
    );
    let initech = rows
        .iter()
        .find(|r| r["signalId"] == INITECH_SERIES_B)
        .expect("Initech's round");
    assert_eq!(
        initech["companyCountry"], "CH",
        "a country name is stored as its code"
    );
    assert_eq!(initech["roundFlavor"], "extension");
}

async fn countries_match_the_headquarters_by_code_name_or_region(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("countries", "DE")]).await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "Germany")]).await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "de")]).await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "DACH")]).await,
        [INITECH_SERIES_B, ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "US,France")]).await,
        [GLOBEX_SEED, UMBRELLA_PRE_SEED]
    );
}

async fn excluded_countries_keep_companies_without_a_headquarters_country(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("exclude_countries", "China")]).await,
        [
            INITECH_SERIES_B,
            NOWHERE_SEED,
            GLOBEX_SEED,
            ACME_SERIES_A,
            UMBRELLA_PRE_SEED,
            HOOLI_SERIES_A
        ]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("exclude_countries", "DACH,US")])
            .await,
        [VANDELAY_DEBT, NOWHERE_SEED, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("countries", "EU"), ("exclude_countries", "FR")])
            .await,
        [ACME_SERIES_A, HOOLI_SERIES_A]
    );
}

/// The signals keep a copy of their company's country for the filters: it follows a company
/// imported again with another country, and a company given one for the first time.
async fn country_filters_follow_a_company_whose_country_changes(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    lists
        .app
        .import_companies(json!([
            { "id": company::ACME, "name": "Acme Corporation", "headquartersCountry": "FR" },
            { "id": company::NOWHERE, "name": "Nowhere Labs", "headquartersCountry": "Japan" },
        ]))
        .await;

    assert!(lists.ids(FUNDING, &[("countries", "DE")]).await.is_empty());
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "FR")]).await,
        [ACME_SERIES_A, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("countries", "JP")]).await,
        [NOWHERE_SEED]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("exclude_countries", "FR,JP,US,CH")])
            .await,
        [VANDELAY_DEBT, HOOLI_SERIES_A]
    );
}

async fn an_unknown_country_is_refused_naming_it(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let message = lists
        .refused(FUNDING, &[("countries", "DE,Atlantis")])
        .await;
    assert!(message.contains("Atlantis"), "{message}");
    let message = lists.refused(FUNDING, &[("exclude_countries", "XX")]).await;
    assert!(message.contains("XX"), "{message}");
}

async fn round_types_match_exactly_in_any_case(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for spelling in ["Series A", "series a", "SERIES A"] {
        assert_eq!(
            lists.ids(FUNDING, &[("round", spelling)]).await,
            [ACME_SERIES_A, HOOLI_SERIES_A],
            "round={spelling}"
        );
    }
    assert_eq!(
        lists.ids(FUNDING, &[("round", "seed,Pre-Seed")]).await,
        [NOWHERE_SEED, GLOBEX_SEED, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("round", "debt financing")]).await,
        Vec::<String>::new(),
        "debt financing is not debt"
    );
}

async fn an_unknown_round_type_is_refused_with_the_exact_list_of_accepted_values(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists.get(FUNDING, &[("round", "foobar")]).await;

    assert_eq!(response.status, 400, "{:?}", response.body);
    assert_eq!(response.body["success"], false);
    assert_eq!(
        response.error(),
        "Invalid round value: foobar. Accepted values (case-insensitive): pre-seed, seed, series a, \
         series b, series c, series d, series e, series f, series g, series h, angel, grant, \
         crowdfunding, growth, debt, debt financing, equity, fund, ipo."
    );
}

async fn round_flavor_amount_currency_and_verification_status_filter_the_deal(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("round_flavor", "bridge")]).await,
        [UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("round_flavor", "extension,secondary")])
            .await,
        [INITECH_SERIES_B]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("amount_min", "2000000"), ("amount_max", "40000000")]
            )
            .await,
        [INITECH_SERIES_B, GLOBEX_SEED, ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("amount_min", "50000000")]).await,
        [VANDELAY_DEBT]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("amount_max", "1000000")]).await,
        [NOWHERE_SEED, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("currency", "EUR")]).await,
        [UMBRELLA_PRE_SEED, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("currency", "CHF")]).await,
        [INITECH_SERIES_B]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("currency", "GBP")]).await,
        Vec::<String>::new()
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("verification_status", "pending")])
            .await,
        [UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("verification_status", "unverified,pending")])
            .await,
        [NOWHERE_SEED, GLOBEX_SEED, UMBRELLA_PRE_SEED]
    );
    for (name, value) in [
        ("round_flavor", "sideways"),
        ("currency", "XYZ"),
        ("verification_status", "maybe"),
        ("amount_min", "a lot"),
        ("amount_min", "-1"),
        ("amount_max", "99999999999999999999"),
    ] {
        let message = lists.refused(FUNDING, &[(name, value)]).await;
        assert!(
            message.contains(name) || message.contains(value),
            "{name}={value}: {message}"
        );
    }
    let message = lists
        .refused(FUNDING, &[("amount_min", "10"), ("amount_max", "5")])
        .await;
    assert!(message.contains("amount_min"), "{message}");
}

async fn investor_name_is_a_partial_match_on_any_investor(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("investor_name", "sequoia")]).await,
        [ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("investor_name", "Capital")]).await,
        [INITECH_SERIES_B, ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("investor_name", "jane ang")]).await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("investor_name", "50%")]).await,
        Vec::<String>::new(),
        "% is a character, not a wildcard"
    );
}

async fn employee_count_and_founded_year_ranges_filter_the_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("employee_count_min", "500")]).await,
        [INITECH_SERIES_B, VANDELAY_DEBT, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("employee_count_max", "40")]).await,
        [NOWHERE_SEED, GLOBEX_SEED, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("employee_count_min", "250"), ("employee_count_max", "600")]
            )
            .await,
        [ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("founded_year_min", "2015"), ("founded_year_max", "2021")]
            )
            .await,
        [GLOBEX_SEED, UMBRELLA_PRE_SEED, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("founded_year_max", "1999")]).await,
        [INITECH_SERIES_B, VANDELAY_DEBT]
    );
    for (name, value) in [
        ("founded_year_min", "1699"),
        ("founded_year_max", "2101"),
        ("employee_count_min", "-5"),
        ("employee_count_max", "many"),
    ] {
        let message = lists.refused(FUNDING, &[(name, value)]).await;
        assert!(message.contains(name), "{name}={value}: {message}");
    }
    let message = lists
        .refused(
            FUNDING,
            &[("founded_year_min", "2020"), ("founded_year_max", "2010")],
        )
        .await;
    assert!(message.contains("founded_year"), "{message}");
}

async fn categories_subcategories_and_industry_filter_the_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(FUNDING, &[("categories", "software|HEALTH")])
            .await,
        [ACME_SERIES_A, UMBRELLA_PRE_SEED, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists
            .ids(FUNDING, &[("categories", "Developer Tools")])
            .await,
        [NOWHERE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("categories", "Soft")]).await,
        Vec::<String>::new(),
        "a category matches a whole element"
    );
    assert_eq!(
        lists.ids(FUNDING, &[("subcategories", "fintech,AI")]).await,
        [GLOBEX_SEED, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("industry", "Software")]).await,
        [NOWHERE_SEED, ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("industry", "information technology,Healthcare")]
            )
            .await,
        [INITECH_SERIES_B, UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("industry", "Soft")]).await,
        Vec::<String>::new(),
        "industry names match exactly"
    );
    let message = lists
        .refused(FUNDING, &[("subcategories", "ai,quantum")])
        .await;
    assert!(message.contains("quantum"), "{message}");
}

async fn search_matches_company_name_and_industry_words(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists.ids(FUNDING, &[("search", "acme")]).await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("search", "Umbrella Health")]).await,
        [UMBRELLA_PRE_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("search", "software")]).await,
        [NOWHERE_SEED, ACME_SERIES_A, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("search", "financial")]).await,
        [GLOBEX_SEED]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("search", "tooling")]).await,
        Vec::<String>::new(),
        "the description is not searched on the funding list"
    );
}

async fn company_domain_is_strict_and_ignores_scheme_www_and_trailing_slash(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for spelling in [
        "acme.com",
        "https://www.acme.com/",
        "http://acme.com",
        "www.acme.com",
        "ACME.com",
    ] {
        let rows = lists.rows(FUNDING, &[("company_domain", spelling)]).await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, [ACME_SERIES_A], "company_domain={spelling}");
        assert_eq!(rows[0]["match_confidence"], "exact");
    }
    assert_eq!(
        lists
            .ids(FUNDING, &[("company_domain", "acme.com,globex.io")])
            .await,
        [GLOBEX_SEED, ACME_SERIES_A]
    );
    assert_eq!(
        lists.ids(FUNDING, &[("company_domain", "acme.co")]).await,
        Vec::<String>::new(),
        "no fuzzy fallback"
    );
}

async fn an_unknown_company_domain_gives_an_empty_page_and_a_malformed_one_a_400(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let response = lists
        .get(FUNDING, &[("company_domain", "unknown-company.com")])
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["data"], json!([]));
    assert_eq!(response.body["pagination"]["totalCount"], 0);

    let message = lists
        .refused(FUNDING, &[("company_domain", "not a domain")])
        .await;
    assert!(message.contains("company_domain"), "{message}");
}

async fn company_linkedin_url_is_strict_and_refuses_a_personal_profile(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for spelling in [
        "https://www.linkedin.com/company/acme-corp",
        "http://linkedin.com/company/acme-corp/",
        "linkedin.com/company/acme-corp",
    ] {
        let rows = lists
            .rows(FUNDING, &[("company_linkedin_url", spelling)])
            .await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, [ACME_SERIES_A], "company_linkedin_url={spelling}");
        assert_eq!(rows[0]["match_confidence"], "exact");
    }
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("company_linkedin_url", "linkedin.com/company/nobody-here")]
            )
            .await,
        Vec::<String>::new()
    );
    let message = lists
        .refused(
            FUNDING,
            &[(
                "company_linkedin_url",
                "https://www.linkedin.com/in/jane-doe",
            )],
        )
        .await;
    assert!(message.contains("company_linkedin_url"), "{message}");
}

async fn a_domain_and_a_linkedin_url_must_name_the_same_company(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[
                    ("company_domain", "acme.com"),
                    ("company_linkedin_url", "linkedin.com/company/globex")
                ]
            )
            .await,
        Vec::<String>::new()
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[
                    ("company_domain", "acme.com"),
                    ("company_linkedin_url", "linkedin.com/company/acme-corp")
                ]
            )
            .await,
        [ACME_SERIES_A]
    );
}

async fn company_name_is_fuzzy_tolerates_a_typo_and_yields_to_a_domain(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for spelling in ["Acme Corporation", "acme corporaton", "Acme Corporaton"] {
        let rows = lists.rows(FUNDING, &[("company_name", spelling)]).await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, [ACME_SERIES_A], "company_name={spelling}");
        assert_eq!(rows[0]["match_confidence"], "fuzzy");
    }
    assert_eq!(
        lists.ids(FUNDING, &[("company_name", "Zyxwvut")]).await,
        Vec::<String>::new()
    );
    let rows = lists
        .rows(
            FUNDING,
            &[("company_name", "Globex"), ("company_domain", "acme.com")],
        )
        .await;
    let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
    assert_eq!(ids, [ACME_SERIES_A], "the domain wins over the name");
    assert_eq!(rows[0]["match_confidence"], "exact");
}

async fn vocabulary_errors_name_the_parameter_as_sent(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for (name, value) in [
        ("round_flavor", "sideways"),
        ("verification_status", "maybe"),
        ("subcategories", "quantum"),
    ] {
        let message = lists.refused(FUNDING, &[(name, value)]).await;
        assert!(
            message.starts_with(&format!("Invalid {name} value: {value}. Accepted values: ")),
            "{name}={value}: {message}"
        );
    }
}

async fn company_name_matches_any_part_of_the_name_in_any_case(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, &[&str]); 8] = [
        ("acme", &[ACME_SERIES_A]),
        ("CORPORATION", &[ACME_SERIES_A]),
        ("health", &[UMBRELLA_PRE_SEED]),
        ("mbrella hea", &[UMBRELLA_PRE_SEED]),
        ("ndel", &[VANDELAY_DEBT]),
        ("Labs", &[NOWHERE_SEED]),
        ("gl", &[GLOBEX_SEED]),
        (
            "H",
            &[
                INITECH_SERIES_B,
                NOWHERE_SEED,
                UMBRELLA_PRE_SEED,
                HOOLI_SERIES_A,
            ],
        ),
    ];
    for (name, expected) in cases {
        let rows = lists.rows(FUNDING, &[("company_name", name)]).await;
        let ids: Vec<&Value> = rows.iter().map(|r| &r["signalId"]).collect();
        assert_eq!(ids, expected, "company_name={name}");
        assert!(rows.iter().all(|r| r["match_confidence"] == "fuzzy"));
    }
    assert_eq!(
        lists.ids(FUNDING, &[("company_name", "ab")]).await,
        [NOWHERE_SEED],
        "a name shorter than three characters matches inside a name too"
    );
    for odd in ["ac\"me", "50%_", "a'b"] {
        assert_eq!(
            lists.ids(FUNDING, &[("company_name", odd)]).await,
            Vec::<String>::new(),
            "company_name={odd}"
        );
    }
}

async fn investor_name_finds_investors_imported_as_bare_names(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let round = json!({
        "signalId": "f6000000-0000-4000-8000-000000000001", "companyId": company::GLOBEX,
        "occurredAt": "2025-05-01T10:00:00Z", "roundType": "seed", "currency": "USD",
        "investors": ["Plain Ventures", { "name": "Object Capital" }]
    });
    crate::lists_support::import_signals(&lists.app, "funding", json!([round])).await;

    for name in ["plain", "PLAIN VENTURES", "object cap"] {
        assert_eq!(
            lists.ids(FUNDING, &[("investor_name", name)]).await,
            ["f6000000-0000-4000-8000-000000000001"],
            "investor_name={name}"
        );
    }
}

async fn date_from_and_date_to_are_inclusive_whole_days(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("dateFrom", "2025-03-12"), ("dateTo", "2025-03-31")]
            )
            .await,
        [NOWHERE_SEED, GLOBEX_SEED],
        "23:59:59 on dateTo is in"
    );
    assert_eq!(
        lists.ids(FUNDING, &[("dateFrom", "2025-04-01")]).await,
        [INITECH_SERIES_B, VANDELAY_DEBT],
        "00:00:00 on dateFrom is in"
    );
    assert_eq!(
        lists.ids(FUNDING, &[("dateTo", "2025-02-20")]).await,
        [UMBRELLA_PRE_SEED, HOOLI_SERIES_A]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("dateFrom", "2025-03-10"), ("dateTo", "2025-03-10")]
            )
            .await,
        [ACME_SERIES_A]
    );
    assert_eq!(
        lists
            .ids(
                FUNDING,
                &[("dateFrom", "2025-01-16"), ("dateTo", "2025-02-19")]
            )
            .await,
        Vec::<String>::new()
    );
}

async fn a_signal_at_the_last_second_of_date_to_is_in_and_one_at_midnight_after_is_out(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    assert_date_bounds_are_whole_inclusive_days(&lists, "funding").await;
}

async fn every_date_preset_selects_exactly_its_days(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_every_date_preset_selects_its_days(&lists, "funding").await;
}

async fn funding_rounds_sort_by_every_field_in_both_directions(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let cases: [(&str, [&str; 7]); 5] = [
        ("occurred_at", ALL_NEWEST_FIRST),
        (
            "discovered_at",
            [
                INITECH_SERIES_B,
                NOWHERE_SEED,
                VANDELAY_DEBT,
                GLOBEX_SEED,
                ACME_SERIES_A,
                UMBRELLA_PRE_SEED,
                HOOLI_SERIES_A,
            ],
        ),
        (
            "amount",
            [
                VANDELAY_DEBT,
                INITECH_SERIES_B,
                ACME_SERIES_A,
                HOOLI_SERIES_A,
                GLOBEX_SEED,
                NOWHERE_SEED,
                UMBRELLA_PRE_SEED,
            ],
        ),
        (
            "employee_count",
            [
                VANDELAY_DEBT,
                INITECH_SERIES_B,
                HOOLI_SERIES_A,
                ACME_SERIES_A,
                GLOBEX_SEED,
                NOWHERE_SEED,
                UMBRELLA_PRE_SEED,
            ],
        ),
        (
            "founded_year",
            [
                NOWHERE_SEED,
                UMBRELLA_PRE_SEED,
                GLOBEX_SEED,
                HOOLI_SERIES_A,
                ACME_SERIES_A,
                INITECH_SERIES_B,
                VANDELAY_DEBT,
            ],
        ),
    ];
    for (sort_by, descending) in cases {
        assert_eq!(
            lists.ids(FUNDING, &[("sort_by", sort_by)]).await,
            descending,
            "{sort_by}, default direction desc"
        );
        assert_eq!(
            lists
                .ids(FUNDING, &[("sort_by", sort_by), ("sort_order", "desc")])
                .await,
            descending,
            "{sort_by} desc"
        );
        let ascending: Vec<&str> = descending.iter().rev().copied().collect();
        assert_eq!(
            lists
                .ids(FUNDING, &[("sort_by", sort_by), ("sort_order", "asc")])
                .await,
            ascending,
            "{sort_by} asc"
        );
    }
    assert_eq!(lists.ids(FUNDING, &[]).await, ALL_NEWEST_FIRST);
}

async fn ties_are_broken_by_id_so_pages_never_repeat_or_skip_a_row(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    assert_ties_are_broken_by_id_across_pages(&lists, "funding").await;
}

async fn pagination_reports_the_page_and_its_neighbours(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    let mut seen = Vec::new();
    for (page, has_next, has_previous) in [
        ("1", true, false),
        ("2", true, true),
        ("3", true, true),
        ("4", false, true),
    ] {
        let response = lists.get(FUNDING, &[("limit", "2"), ("page", page)]).await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        assert_eq!(
            response.body["pagination"],
            json!({ "currentPage": page.parse::<i64>().unwrap(), "totalPages": 4,
                    "totalCount": 7, "hasNextPage": has_next, "hasPreviousPage": has_previous }),
            "page {page}"
        );
        seen.extend(
            response
                .data()
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["signalId"].as_str().unwrap().to_string()),
        );
    }
    assert_eq!(seen, ALL_NEWEST_FIRST);
    assert_eq!(
        lists.ids(FUNDING, &[("limit", "100")]).await,
        ALL_NEWEST_FIRST
    );
}

async fn a_page_past_the_end_is_empty_and_an_empty_result_has_no_pages(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_paging_past_the_end(&lists, FUNDING, 7, ("company_domain", "no-such.example")).await;
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;
    assert_common_refusals(&lists, FUNDING).await;
    let message = lists.refused(FUNDING, &[("sort_by", "title")]).await;
    assert!(message.contains("sort_by"), "{message}");
}

async fn parameters_of_other_lists_are_unknown_here(backend: Backend) {
    let lists = Lists::with_known_data(backend).await;

    for name in [
        "job_countries",
        "description",
        "positions",
        "acquiring_company",
        "source",
        "domain",
        "companyLinkedinUrl",
    ] {
        let message = lists.refused(FUNDING, &[(name, "x")]).await;
        assert!(message.contains(name), "{name}: {message}");
    }
}
