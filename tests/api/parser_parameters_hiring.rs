//! `GET /signals/hiring` with the parameters the real service's parser accepts beyond its
//! reference: each is accepted with its effect, and a value outside its enum or range is a 400
//! naming it.

use serde_json::{Value, json};

use crate::each_backend;
use crate::parser_parameters_support::*;
use crate::support::Backend;

each_backend!(
    include_expired_false_hides_postings_expired_before_today_and_omitting_it_keeps_them,
    open_as_of_and_posted_min_days_ago_select_postings_by_their_age,
    job_locations_and_city_match_any_part_of_the_place_in_any_letter_case,
    work_mode_matches_the_postings_mode_and_remote_places,
    company_exclusions_and_attributes_filter_the_postings_company,
    team_size_takes_any_range_of_employee_counts,
    funding_filters_keep_funded_companies_and_rows_carry_the_matched_funding,
    open_tag_vocabularies_and_role_logic_and_scope_select_by_title,
    count_companies_and_per_company_limits_change_what_is_counted_and_kept,
    flags_without_effect_are_accepted_and_checked,
);

const ALL: [&str; 5] = [
    SOFTWARE_ENGINEER,
    SALES_MANAGER,
    DATA_SCIENTIST,
    FITNESS_COACH,
    MARKETING_MANAGER,
];

async fn include_expired_false_hides_postings_expired_before_today_and_omitting_it_keeps_them(
    backend: Backend,
) {
    let lists = with_data(backend).await;

    assert_eq!(ids_of(&lists, HIRING, &[]).await, set(&ALL));
    assert_eq!(
        ids_of(&lists, HIRING, &[("include_expired", "true")]).await,
        set(&ALL)
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("include_expired", "false")]).await,
        set(&[
            SALES_MANAGER,
            DATA_SCIENTIST,
            FITNESS_COACH,
            MARKETING_MANAGER
        ]),
        "the posting valid through yesterday is left out; one valid through today is kept"
    );
    refused_naming(
        &lists,
        HIRING,
        &[("include_expired", "no")],
        "include_expired",
    )
    .await;
}

async fn open_as_of_and_posted_min_days_ago_select_postings_by_their_age(backend: Backend) {
    let lists = with_data(backend).await;

    let twenty_days_ago = day(20);
    assert_eq!(
        ids_of(&lists, HIRING, &[("open_as_of", &twenty_days_ago)]).await,
        set(&[SOFTWARE_ENGINEER, FITNESS_COACH])
    );
    let as_timestamp = format!("{}T18:30:00.000Z", day(20));
    assert_eq!(
        ids_of(&lists, HIRING, &[("open_as_of", &as_timestamp)]).await,
        set(&[SOFTWARE_ENGINEER, FITNESS_COACH])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("open_as_of", &day(0))]).await,
        set(&[
            SALES_MANAGER,
            DATA_SCIENTIST,
            FITNESS_COACH,
            MARKETING_MANAGER
        ])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("posted_min_days_ago", "10")]).await,
        set(&[SOFTWARE_ENGINEER, FITNESS_COACH, MARKETING_MANAGER])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("posted_min_days_ago", "0")]).await,
        set(&ALL)
    );
    refused_naming(
        &lists,
        HIRING,
        &[("posted_min_days_ago", "3651")],
        "posted_min_days_ago",
    )
    .await;
    refused_naming(&lists, HIRING, &[("open_as_of", "soon")], "open_as_of").await;
}

async fn job_locations_and_city_match_any_part_of_the_place_in_any_letter_case(backend: Backend) {
    let lists = with_data(backend).await;
    let berlin = set(&[SOFTWARE_ENGINEER, MARKETING_MANAGER]);

    assert_eq!(
        ids_of(&lists, HIRING, &[("job_locations", r#"["ERLI"]"#)]).await,
        berlin
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("job_locations", "toronto, VARIA")]).await,
        set(&[SALES_MANAGER, FITNESS_COACH]),
        "a comma list; the region is read too"
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("job_locations", r#"["Berlin","Remote"]"#)]
        )
        .await,
        set(&[SOFTWARE_ENGINEER, DATA_SCIENTIST, MARKETING_MANAGER])
    );
    assert_eq!(ids_of(&lists, HIRING, &[("city", "ERLIN")]).await, berlin);
    assert_eq!(
        ids_of(&lists, HIRING, &[("city", "er")]).await,
        berlin,
        "a needle shorter than a trigram"
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("city", "ntari")]).await,
        set(&[FITNESS_COACH])
    );
    let too_many = vec!["x"; 31].join(",");
    refused_naming(
        &lists,
        HIRING,
        &[("job_locations", &too_many)],
        "job_locations",
    )
    .await;
    let too_long = "y".repeat(101);
    refused_naming(
        &lists,
        HIRING,
        &[("job_locations", &too_long)],
        "job_locations",
    )
    .await;
    refused_naming(
        &lists,
        HIRING,
        &[("job_locations", "[1, 2]")],
        "job_locations",
    )
    .await;
}

async fn work_mode_matches_the_postings_mode_and_remote_places(backend: Backend) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(&lists, HIRING, &[("work_mode", "remote")]).await,
        set(&[SOFTWARE_ENGINEER, DATA_SCIENTIST])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("work_mode", "hybrid")]).await,
        set(&[SALES_MANAGER])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("work_mode", "onsite")]).await,
        set(&[FITNESS_COACH])
    );
    refused_naming(&lists, HIRING, &[("work_mode", "office")], "work_mode").await;
}

async fn company_exclusions_and_attributes_filter_the_postings_company(backend: Backend) {
    let lists = with_data(backend).await;
    let gamma = set(&[SOFTWARE_ENGINEER, SALES_MANAGER, MARKETING_MANAGER]);

    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("exclude_company_countries", "NORTH_AMERICA")]
        )
        .await,
        gamma
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("company_countries", "north_america")]).await,
        set(&[DATA_SCIENTIST, FITNESS_COACH])
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("exclude_company_domain", "www.gamma.example")]
        )
        .await,
        set(&[DATA_SCIENTIST, FITNESS_COACH])
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("exclude_company_ids", &format!("{ALPHA},{BETA}"))]
        )
        .await,
        gamma
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("exclude_staffing_agencies", "true")]).await,
        set(&[
            SOFTWARE_ENGINEER,
            SALES_MANAGER,
            FITNESS_COACH,
            MARKETING_MANAGER
        ])
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("founded_year_min", "1700"), ("founded_year_max", "1800")]
        )
        .await,
        set(&[DATA_SCIENTIST])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("headcount_growth_min", "10")]).await,
        set(&[DATA_SCIENTIST]),
        "the 12-month growth by default"
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[
                ("headcount_growth_min", "10"),
                ("headcount_growth_window", "3m")
            ]
        )
        .await,
        gamma
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("business_model", "fitness_wellness_operators")]
        )
        .await,
        set(&[FITNESS_COACH])
    );
    for (parameter, value) in [
        ("founded_year_min", "1699"),
        ("founded_year_max", "2101"),
        ("headcount_growth_min", "10001"),
        ("headcount_growth_min", "lots"),
        ("headcount_growth_window", "2m"),
        ("business_model", "saas"),
        ("exclude_staffing_agencies", "1"),
        ("exclude_company_countries", "Atlantis"),
        ("exclude_company_domain", "not a domain"),
    ] {
        refused_naming(&lists, HIRING, &[(parameter, value)], parameter).await;
    }
    let ids: Vec<String> = (0..51).map(|i| format!("id-{i}")).collect();
    refused_naming(
        &lists,
        HIRING,
        &[("exclude_company_ids", &ids.join(","))],
        "exclude_company_ids",
    )
    .await;
}

async fn team_size_takes_any_range_of_employee_counts(backend: Backend) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(&lists, HIRING, &[("team_size", "1-9")]).await,
        set(&[DATA_SCIENTIST])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("team_size", "100-plus")]).await,
        set(&[FITNESS_COACH])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("team_size", "1-9,40-40")]).await,
        set(&[
            SOFTWARE_ENGINEER,
            SALES_MANAGER,
            DATA_SCIENTIST,
            MARKETING_MANAGER
        ])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("team_size", "11-50")]).await,
        set(&[SOFTWARE_ENGINEER, SALES_MANAGER, MARKETING_MANAGER]),
        "a documented bucket keeps its meaning"
    );
    for bad in ["9-1", "ten", "5-", "1-9-20"] {
        refused_naming(&lists, HIRING, &[("team_size", bad)], "team_size").await;
    }
}

async fn funding_filters_keep_funded_companies_and_rows_carry_the_matched_funding(
    backend: Backend,
) {
    let lists = with_data(backend).await;
    let gamma = set(&[SOFTWARE_ENGINEER, SALES_MANAGER, MARKETING_MANAGER]);

    let plain = lists.rows(HIRING, &[]).await;
    assert!(
        plain.iter().all(|r| r.get("matchedFunding").is_none()),
        "no funding filter, no matchedFunding"
    );

    let seed = lists.rows(HIRING, &[("funding_rounds", "Seed")]).await;
    assert_eq!(sorted_ids(&seed), gamma);
    assert_eq!(
        seed[0]["matchedFunding"],
        json!({
            "signalId": GAMMA_SEED, "roundType": "seed", "amount": 3_000_000, "currency": "EUR",
            "announcedDate": "2025-06-01",
            "investors": seed[0]["matchedFunding"]["investors"].clone(),
        })
    );
    assert_eq!(
        seed[0]["matchedFunding"]["investors"][0]["name"],
        "Sequoia Capital"
    );

    let by_type = lists.rows(HIRING, &[("funding_investor_type", "pe")]).await;
    assert_eq!(sorted_ids(&by_type), gamma);
    assert!(
        by_type
            .iter()
            .all(|r| r["matchedFunding"]["signalId"] == GAMMA_SERIES_A),
        "the round that satisfied the filter, not the newest of all"
    );

    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("funding_investors", "SEQUOIA CAPITAL,nobody")]
        )
        .await,
        gamma
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("funding_investors", "Sequoia")]).await,
        set(&[]),
        "investor names match exactly"
    );

    let since = lists
        .rows(HIRING, &[("funding_date_from", "2025-01-01T00:00:00Z")])
        .await;
    assert_eq!(
        sorted_ids(&since),
        set(&[
            SOFTWARE_ENGINEER,
            SALES_MANAGER,
            DATA_SCIENTIST,
            MARKETING_MANAGER
        ])
    );
    for row in &since {
        let expected = if row["companyId"] == ALPHA {
            ALPHA_SERIES_A
        } else {
            GAMMA_SEED
        };
        assert_eq!(row["matchedFunding"]["signalId"], expected, "{row}");
    }
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[
                ("funding_date_from", "2024-01-01"),
                ("funding_date_to", "2024-12-31"),
                ("funding_rounds", "series a")
            ]
        )
        .await,
        gamma
    );

    for (parameter, value) in [
        ("funding_rounds", "series z"),
        ("funding_investor_type", "angel"),
        ("funding_date_from", "last year"),
    ] {
        refused_naming(&lists, HIRING, &[(parameter, value)], parameter).await;
    }
    refused_naming(
        &lists,
        HIRING,
        &[
            ("funding_date_from", "2025-02-01"),
            ("funding_date_to", "2025-01-01"),
        ],
        "funding_date_from",
    )
    .await;
}

async fn open_tag_vocabularies_and_role_logic_and_scope_select_by_title(backend: Backend) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(&lists, HIRING, &[("positions", "sales manager")]).await,
        set(&[SALES_MANAGER])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("positions", "Marketing Manager")]).await,
        set(&[MARKETING_MANAGER])
    );
    for (parameter, value) in [
        ("positions", "data scientist"),
        ("departments", "research"),
        ("seniorities", "intern"),
    ] {
        let response = lists.get(HIRING, &[(parameter, value)]).await;
        assert_eq!(
            response.status, 200,
            "{parameter}={value}: {:?}",
            response.body
        );
        assert_eq!(
            response.data(),
            &json!([]),
            "an unknown value matches nothing"
        );
    }
    let sales_or_engineering = [("departments", "sales"), ("seniorities", "director")];
    assert_eq!(
        ids_of(&lists, HIRING, &sales_or_engineering).await,
        set(&[]),
        "groups combine with AND by default"
    );
    let mut with_or = sales_or_engineering.to_vec();
    with_or.push(("role_logic", "or"));
    assert_eq!(
        ids_of(&lists, HIRING, &with_or).await,
        set(&[SALES_MANAGER])
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("role_scope", "software")]).await,
        set(&[SOFTWARE_ENGINEER])
    );
    refused_naming(&lists, HIRING, &[("role_logic", "xor")], "role_logic").await;
    refused_naming(&lists, HIRING, &[("role_scope", "hardware")], "role_scope").await;
}

async fn count_companies_and_per_company_limits_change_what_is_counted_and_kept(backend: Backend) {
    let lists = with_data(backend).await;

    for extra in [&[][..], &[("count", "true")][..]] {
        let mut params = vec![("count_companies", "true")];
        params.extend_from_slice(extra);
        let response = lists.get(HIRING, &params).await;
        assert_eq!(response.status, 200, "{:?}", response.body);
        assert_eq!(
            response.body["pagination"]["totalCount"], 3,
            "{params:?}: three companies among five postings"
        );
    }
    let postings = lists.get(HIRING, &[("count", "true")]).await;
    assert_eq!(postings.body["pagination"]["totalCount"], 5);

    assert_eq!(
        ids_of(&lists, HIRING, &[("max_company_postings", "2")]).await,
        set(&[DATA_SCIENTIST, FITNESS_COACH]),
        "Gamma has three matching postings"
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("max_company_postings", "2"), ("city", "berlin")]
        )
        .await,
        set(&[SOFTWARE_ENGINEER, MARKETING_MANAGER]),
        "only matching postings are counted"
    );
    assert_eq!(
        ids_of(&lists, HIRING, &[("min_distinct_titles", "2")]).await,
        set(&[SOFTWARE_ENGINEER, SALES_MANAGER, MARKETING_MANAGER])
    );
    for (parameter, value) in [
        ("max_company_postings", "0"),
        ("max_company_postings", "101"),
        ("min_distinct_titles", "1"),
        ("count_companies", "yes"),
    ] {
        refused_naming(&lists, HIRING, &[(parameter, value)], parameter).await;
    }
}

async fn flags_without_effect_are_accepted_and_checked(backend: Backend) {
    let lists = with_data(backend).await;

    let accepted = [
        ("filter_version", "1"),
        ("filter_version", "2"),
        ("include_total", "true"),
        ("workflow_evidence", "false"),
        ("date_preset", "all_time"),
    ];
    for param in accepted {
        assert_eq!(
            ids_of(&lists, HIRING, &[param]).await,
            set(&ALL),
            "{param:?}"
        );
    }
    assert_eq!(
        ids_of(&lists, HIRING, &[("date_preset", "last_3y")]).await,
        set(&ALL)
    );
    assert_eq!(
        ids_of(
            &lists,
            HIRING,
            &[("dateTo", &format!("{}T08:00:00Z", day(10)))]
        )
        .await,
        set(&[SOFTWARE_ENGINEER, FITNESS_COACH, MARKETING_MANAGER]),
        "a timestamp stands for its whole UTC day"
    );
    for (parameter, value) in [
        ("filter_version", "3"),
        ("include_total", "maybe"),
        ("workflow_evidence", "2"),
    ] {
        refused_naming(&lists, HIRING, &[(parameter, value)], parameter).await;
    }
}

fn sorted_ids(rows: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = rows
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    ids.sort();
    ids
}
