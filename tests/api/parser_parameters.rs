//! The funding, job-change, acquisition and company lists with the parameters the real
//! service's parser accepts beyond its reference, partial matches on any substring, and the
//! smaller differences found by the same client: founding-year bounds and a NUL in a CSV query.

use serde_json::json;

use crate::csv_enrichment_support::{assert_error, submit_csv};
use crate::each_backend;
use crate::lists_support::import_signals;
use crate::parser_parameters_support::*;
use crate::support::Backend;

each_backend!(
    funding_date_basis_investors_and_investor_type_select_rounds,
    funding_dates_take_timestamps_and_the_longer_presets_and_regions_include_north_america,
    founding_years_from_1700_to_2100_are_accepted_on_signal_lists_and_from_1800_on_companies,
    job_changes_take_the_snake_case_profile_url_company_categories_and_exclusions,
    new_role_and_city_match_any_substring_of_a_job_change,
    acquisitions_match_any_substring_of_the_acquirer_and_accept_filter_version,
    investor_name_and_company_name_match_any_substring,
    the_company_list_accepts_filter_version_and_the_enrichment_parameters,
    a_nul_in_a_csv_query_parameter_is_an_invalid_company_payload,
);

async fn funding_date_basis_investors_and_investor_type_select_rounds(backend: Backend) {
    let lists = with_data(backend).await;

    let june = [("dateFrom", "2025-06-01"), ("dateTo", "2025-06-30")];
    assert_eq!(ids_of(&lists, FUNDING, &june).await, set(&[GAMMA_SEED]));
    for basis in ["discovered", "discovered_at"] {
        let mut params = june.to_vec();
        params.push(("date_basis", basis));
        assert_eq!(
            ids_of(&lists, FUNDING, &params).await,
            set(&[GAMMA_SEED, ALPHA_SERIES_A]),
            "{basis}: both were discovered in June"
        );
    }
    for basis in ["occurred", "occurred_at", "announced"] {
        let mut params = june.to_vec();
        params.push(("date_basis", basis));
        assert_eq!(ids_of(&lists, FUNDING, &params).await, set(&[GAMMA_SEED]));
    }
    assert_eq!(
        ids_of(
            &lists,
            FUNDING,
            &[("investors", "sequoia capital, JANE ANGEL")]
        )
        .await,
        set(&[GAMMA_SEED, ALPHA_SERIES_A])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("investors", "Plain Name Fund")]).await,
        set(&[ALPHA_SERIES_A]),
        "an investor given by a bare name"
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("investors", "Sequoia")]).await,
        set(&[])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("investor_type", "angel")]).await,
        set(&[ALPHA_SERIES_A])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("investor_type", "PE")]).await,
        set(&[GAMMA_SERIES_A])
    );
    for (parameter, value) in [
        ("date_basis", "created"),
        ("investor_type", "family_office"),
    ] {
        refused_naming(&lists, FUNDING, &[(parameter, value)], parameter).await;
    }
    let many: Vec<String> = (0..51).map(|i| format!("fund {i}")).collect();
    refused_naming(
        &lists,
        FUNDING,
        &[("investors", &many.join(","))],
        "investors",
    )
    .await;
}

async fn funding_dates_take_timestamps_and_the_longer_presets_and_regions_include_north_america(
    backend: Backend,
) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(
            &lists,
            FUNDING,
            &[
                ("dateFrom", "2025-06-01T23:59:00+00:00"),
                ("dateTo", "2025-06-01T00:00:00.000Z")
            ]
        )
        .await,
        set(&[GAMMA_SEED]),
        "each timestamp stands for its whole UTC day"
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("dateTo", "2025-01-31T22:00:00-03:00")]).await,
        set(&[GAMMA_SERIES_A, ALPHA_SERIES_A]),
        "the UTC day of 22:00 at UTC-3 is 1 February"
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("date_preset", "all_time")]).await,
        set(&[GAMMA_SEED, GAMMA_SERIES_A, ALPHA_SERIES_A])
    );
    for preset in ["last_3y", "last_5y"] {
        let response = lists.get(FUNDING, &[("date_preset", preset)]).await;
        assert_eq!(response.status, 200, "{preset}: {:?}", response.body);
    }
    assert_eq!(
        ids_of(&lists, FUNDING, &[("countries", "NORTH_AMERICA")]).await,
        set(&[ALPHA_SERIES_A])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("exclude_countries", "north_america")]).await,
        set(&[GAMMA_SEED, GAMMA_SERIES_A])
    );
    refused_naming(
        &lists,
        FUNDING,
        &[("dateTo", "2025-13-01T00:00:00Z")],
        "dateTo",
    )
    .await;
    refused_naming(
        &lists,
        FUNDING,
        &[("date_preset", "last_4y")],
        "date_preset",
    )
    .await;
    refused_naming(
        &lists,
        FUNDING,
        &[("filter_version", "0")],
        "filter_version",
    )
    .await;
}

async fn founding_years_from_1700_to_2100_are_accepted_on_signal_lists_and_from_1800_on_companies(
    backend: Backend,
) {
    let lists = with_data(backend).await;

    for path in [FUNDING, ACQUISITIONS] {
        let response = lists
            .get(
                path,
                &[("founded_year_min", "1700"), ("founded_year_max", "2100")],
            )
            .await;
        assert_eq!(response.status, 200, "{path}: {:?}", response.body);
        refused_naming(
            &lists,
            path,
            &[("founded_year_min", "1699")],
            "founded_year_min",
        )
        .await;
        refused_naming(
            &lists,
            path,
            &[("founded_year_max", "2101")],
            "founded_year_max",
        )
        .await;
    }
    assert_eq!(
        ids_of(&lists, FUNDING, &[("founded_year_max", "1800")]).await,
        set(&[ALPHA_SERIES_A])
    );
    refused_naming(
        &lists,
        COMPANIES,
        &[("founded_year_min", "1799")],
        "founded_year_min",
    )
    .await;
    let response = lists.get(COMPANIES, &[("founded_year_min", "1800")]).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
}

async fn job_changes_take_the_snake_case_profile_url_company_categories_and_exclusions(
    backend: Backend,
) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(
            &lists,
            JOB_CHANGES,
            &[(
                "person_linkedin_url",
                "https://www.linkedin.com/in/jane-doe/"
            )]
        )
        .await,
        set(&[JANE_ENGINEER])
    );
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &[("categories", "health|nothing")]).await,
        set(&[JOHN_VP_SALES])
    );
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &[("subcategories", "SaaS")]).await,
        set(&[JANE_ENGINEER])
    );
    assert_eq!(
        ids_of(
            &lists,
            JOB_CHANGES,
            &[("exclude_signal_ids", JANE_ENGINEER)]
        )
        .await,
        set(&[JOHN_VP_SALES])
    );
    let tags = [("departments", "engineering"), ("seniorities", "vp")];
    assert_eq!(ids_of(&lists, JOB_CHANGES, &tags).await, set(&[]));
    let mut with_or = tags.to_vec();
    with_or.push(("role_logic", "or"));
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &with_or).await,
        set(&[JANE_ENGINEER, JOHN_VP_SALES])
    );
    refused_naming(
        &lists,
        JOB_CHANGES,
        &[("person_linkedin_url", "https://example.com/jane")],
        "person_linkedin_url",
    )
    .await;
    refused_naming(&lists, JOB_CHANGES, &[("role_logic", "any")], "role_logic").await;
}

async fn new_role_and_city_match_any_substring_of_a_job_change(backend: Backend) {
    let lists = with_data(backend).await;

    for needle in ["ngineer", "NGINEER", "senior eng", "ng"] {
        assert_eq!(
            ids_of(&lists, JOB_CHANGES, &[("new_role", needle)]).await,
            set(&[JANE_ENGINEER]),
            "new_role={needle}"
        );
    }
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &[("new_role", "p sal")]).await,
        set(&[JOHN_VP_SALES])
    );
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &[("city", "COUVE")]).await,
        set(&[JOHN_VP_SALES])
    );
    assert_eq!(
        ids_of(&lists, JOB_CHANGES, &[("new_role", "xyz")]).await,
        set(&[])
    );
}

async fn acquisitions_match_any_substring_of_the_acquirer_and_accept_filter_version(
    backend: Backend,
) {
    let lists = with_data(backend).await;
    let deal = "a1000000-0000-4000-8000-000000000001";
    import_signals(
        &lists.app,
        "acquisitions",
        json!([{
            "signalId": deal, "companyId": BETA, "acquiringCompanyId": GAMMA,
            "occurredAt": "2025-05-05T10:00:00Z", "amount": 5_000_000
        }]),
    )
    .await;

    for needle in ["amma so", "GAMMA", "ft", "Gamma Soft"] {
        assert_eq!(
            ids_of(&lists, ACQUISITIONS, &[("acquiring_company", needle)]).await,
            set(&[deal]),
            "acquiring_company={needle}"
        );
    }
    assert_eq!(
        ids_of(&lists, ACQUISITIONS, &[("acquiring_company", "beta")]).await,
        set(&[])
    );
    assert_eq!(
        ids_of(&lists, ACQUISITIONS, &[("filter_version", "2")]).await,
        set(&[deal])
    );
    refused_naming(
        &lists,
        ACQUISITIONS,
        &[("filter_version", "v2")],
        "filter_version",
    )
    .await;
}

async fn investor_name_and_company_name_match_any_substring(backend: Backend) {
    let lists = with_data(backend).await;

    assert_eq!(
        ids_of(&lists, FUNDING, &[("investor_name", "QUOIA")]).await,
        set(&[GAMMA_SEED])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("company_name", "MMA S")]).await,
        set(&[GAMMA_SEED, GAMMA_SERIES_A])
    );
    assert_eq!(
        ids_of(&lists, FUNDING, &[("company_name", "ph")]).await,
        set(&[ALPHA_SERIES_A]),
        "a needle shorter than a trigram matches inside a name too"
    );
}

async fn the_company_list_accepts_filter_version_and_the_enrichment_parameters(backend: Backend) {
    let lists = with_data(backend).await;

    let response = lists
        .get(
            COMPANIES,
            &[
                ("filter_version", "2"),
                ("domain", "gamma.example"),
                ("enrich_on_miss", "true"),
                ("enrich_wait", "false"),
                ("enrich_timeout", "30"),
            ],
        )
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.data()[0]["id"], GAMMA);
    for (parameter, value) in [
        ("enrich_timeout", "0"),
        ("enrich_timeout", "31"),
        ("enrich_on_miss", "sometimes"),
        ("enrich_wait", "1"),
        ("filter_version", "3"),
    ] {
        refused_naming(&lists, COMPANIES, &[(parameter, value)], parameter).await;
    }
}

async fn a_nul_in_a_csv_query_parameter_is_an_invalid_company_payload(backend: Backend) {
    let lists = with_data(backend).await;

    let response = submit_csv(
        &lists.app,
        &lists.team,
        "company_name\nGamma Soft\n",
        "timeout=5%00",
    )
    .await;
    assert_error(&response, 400, "invalid_company_payload");
    let read = lists
        .app
        .get(
            "/api/v2/csv-enrichment/00000000-0000-4000-8000-000000000000?cursor=%00",
            &lists.team.key,
        )
        .await;
    assert_error(&read, 400, "invalid_company_payload");
}
