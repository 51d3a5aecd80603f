//! `GET /signals/investors`: the investors named on stored funding rounds, one record per name
//! whatever its letter case, with their filters, sorting, paging and credits.

use chrono::{Days, Utc};
use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{Lists, assert_bad_request, import_signals, keys_of, sorted};
use crate::support::Backend;

/// Query parameters of one request, and the names the answer lists, in order.
type QueryExpectation<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);

each_backend!(
    the_investor_list_answers_in_the_paginated_envelope_and_charges_one_credit,
    an_investor_is_aggregated_over_every_round_that_names_it,
    type_groups_match_the_free_text_types_of_their_group,
    search_matches_any_part_of_the_name_or_the_type,
    countries_are_those_of_the_funded_companies_and_unknowns_survive_exclusion,
    ticket_sizes_bound_the_smallest_and_largest_dollar_round,
    headquarters_is_never_known_so_it_matches_nothing,
    the_first_seen_day_is_what_the_dates_filter,
    investors_sort_by_every_field_and_page_without_repeats,
    counting_is_free_and_a_page_at_zero_balance_is_refused,
    invalid_parameters_are_refused_naming_them,
);

const INVESTORS: &str = "/api/v2/signals/investors";

const SEQUOIA: &str = "Sequoia Capital";
const JANE: &str = "Jane Angel";
const BARE: &str = "Bare Name Fund";
const INITRODE: &str = "Initrode Ventures";
const FAMILY: &str = "Family Office X";

fn investor(name: &str, kind: &str, lead: bool) -> Value {
    let slug = name.to_lowercase().replace(' ', "-");
    json!({
        "name": name, "type": kind, "isLead": lead,
        "website": format!("https://{slug}.example"),
        "linkedin": format!("https://www.linkedin.com/company/{slug}")
    })
}

/// Three companies (Germany, the US, unknown) and four rounds naming five investors: Sequoia
/// twice (in two spellings), one as a bare name, one in euros.
async fn investors_fixture(backend: Backend) -> Lists {
    let lists = Lists::empty(backend).await;
    lists
        .app
        .import_companies(json!([
            { "id": "c1000000-0000-4000-8000-000000000001", "name": "Acme", "website": "https://acme.com",
              "headquartersCountry": "DE", "employeeCount": 250 },
            { "id": "c1000000-0000-4000-8000-000000000002", "name": "Globex", "website": "https://globex.io",
              "headquartersCountry": "US", "employeeCount": 40 },
            { "id": "c1000000-0000-4000-8000-000000000003", "name": "Initech", "website": "https://initech.net" }
        ]))
        .await;
    let round = |company: u8, occurred: &str, amount: i64, currency: &str, investors: Value| {
        json!({
            "companyId": format!("c1000000-0000-4000-8000-00000000000{company}"),
            "occurredAt": occurred, "roundType": "seed", "amount": amount, "currency": currency,
            "investors": investors, "sources": []
        })
    };
    import_signals(
        &lists.app,
        "funding",
        json!([
            round(
                1,
                "2025-03-10T09:00:00Z",
                15_000_000,
                "USD",
                json!([
                    investor(SEQUOIA, "VC", true),
                    investor(JANE, "Angel network", false)
                ])
            ),
            round(
                2,
                "2025-04-01T09:00:00Z",
                2_000_000,
                "USD",
                json!([investor("sequoia capital", "Venture Capital", true), BARE])
            ),
            round(
                3,
                "2025-02-01T09:00:00Z",
                8_000_000,
                "EUR",
                json!([investor(INITRODE, "Corporate VC", true)])
            ),
            round(
                1,
                "2025-05-01T09:00:00Z",
                500_000,
                "USD",
                json!([investor(FAMILY, "family_office", true)])
            ),
        ]),
    )
    .await;
    lists
}

async fn the_investor_list_answers_in_the_paginated_envelope_and_charges_one_credit(
    backend: Backend,
) {
    let lists = investors_fixture(backend).await;

    let response = lists.get(INVESTORS, &[("limit", "2"), ("page", "2")]).await;

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
        json!({ "endpoint": "signals.investors", "creditsUsed": 1, "creditsRemaining": 99_999 })
    );
    assert_eq!(response.data().as_array().map(Vec::len), Some(2));
    assert_eq!(lists.balance().await, 99_999);
}

async fn an_investor_is_aggregated_over_every_round_that_names_it(backend: Backend) {
    let lists = investors_fixture(backend).await;

    let rows = lists.rows(INVESTORS, &[("search", "sequoia")]).await;

    assert_eq!(rows.len(), 1, "both spellings are one investor: {rows:?}");
    let sequoia = &rows[0];
    assert_eq!(
        keys_of(sequoia),
        sorted(&[
            "id",
            "name",
            "type",
            "linkedinUrl",
            "website",
            "logoUrl",
            "countries",
            "ticketSizeMin",
            "ticketSizeMax",
            "headquarters",
            "createdAt",
            "isFreeAccess",
            "roundCount",
            "lastRoundAt"
        ])
    );
    assert_eq!(sequoia["name"], SEQUOIA);
    assert!(uuid::Uuid::parse_str(sequoia["id"].as_str().unwrap()).is_ok());
    assert_eq!(sequoia["website"], "https://sequoia-capital.example");
    assert_eq!(
        sequoia["linkedinUrl"],
        "https://www.linkedin.com/company/sequoia-capital"
    );
    assert_eq!(sequoia["logoUrl"], Value::Null);
    assert_eq!(sequoia["countries"], "[\"DE\",\"US\"]");
    assert_eq!(sequoia["ticketSizeMin"], 2_000_000);
    assert_eq!(sequoia["ticketSizeMax"], 15_000_000);
    assert_eq!(sequoia["headquarters"], Value::Null);
    assert_eq!(sequoia["isFreeAccess"], true);
    assert_eq!(sequoia["roundCount"], 2);
    assert_eq!(sequoia["lastRoundAt"], "2025-04-01T09:00:00.000Z");
    assert!(sequoia["createdAt"].as_str().unwrap().ends_with('Z'));

    let again = lists.rows(INVESTORS, &[("search", "sequoia")]).await;
    assert_eq!(again[0]["id"], sequoia["id"], "the id is stable");

    let bare = &lists.rows(INVESTORS, &[("search", "bare")]).await[0];
    assert_eq!(
        (&bare["type"], &bare["website"], &bare["countries"]),
        (&Value::Null, &Value::Null, &json!("[\"US\"]"))
    );
    let euro = &lists.rows(INVESTORS, &[("search", "initrode")]).await[0];
    assert_eq!(
        (
            &euro["ticketSizeMin"],
            &euro["ticketSizeMax"],
            &euro["countries"]
        ),
        (&Value::Null, &Value::Null, &Value::Null),
        "a euro round gives no dollar ticket; a company without a country gives none"
    );
}

async fn type_groups_match_the_free_text_types_of_their_group(backend: Backend) {
    let lists = investors_fixture(backend).await;
    let cases: &[QueryExpectation<'_>] = &[
        (&[("type", "vc")], &[SEQUOIA, INITRODE]),
        (&[("type", "corporate")], &[INITRODE]),
        (&[("type", "angel")], &[JANE]),
        (&[("type", "family_office")], &[FAMILY]),
        (&[("type", "angel,family_office")], &[JANE, FAMILY]),
        (&[("categories", "angel|family_office")], &[JANE, FAMILY]),
        (&[("type", "pe")], &[]),
    ];
    for (params, expected) in cases {
        assert_eq!(
            lists.sorted_names(INVESTORS, params).await,
            sorted(expected),
            "{params:?}"
        );
    }
}

async fn search_matches_any_part_of_the_name_or_the_type(backend: Backend) {
    let lists = investors_fixture(backend).await;

    assert_eq!(
        lists.sorted_names(INVESTORS, &[("search", "APITAL")]).await,
        sorted(&[SEQUOIA])
    );
    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("search", "network")])
            .await,
        sorted(&[JANE])
    );
    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("search", "nothing like it")])
            .await,
        sorted(&[])
    );
}

async fn countries_are_those_of_the_funded_companies_and_unknowns_survive_exclusion(
    backend: Backend,
) {
    let lists = investors_fixture(backend).await;

    assert_eq!(
        lists.sorted_names(INVESTORS, &[("countries", "US")]).await,
        sorted(&[SEQUOIA, BARE])
    );
    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("countries", "Germany")])
            .await,
        sorted(&[SEQUOIA, JANE, FAMILY])
    );
    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("exclude_countries", "DE")])
            .await,
        sorted(&[BARE, INITRODE])
    );
}

async fn ticket_sizes_bound_the_smallest_and_largest_dollar_round(backend: Backend) {
    let lists = investors_fixture(backend).await;

    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("ticket_size_min", "1000000")])
            .await,
        sorted(&[SEQUOIA, JANE, BARE])
    );
    assert_eq!(
        lists
            .sorted_names(INVESTORS, &[("ticket_size_max", "2000000")])
            .await,
        sorted(&[BARE, FAMILY])
    );
    assert_eq!(
        lists
            .sorted_names(
                INVESTORS,
                &[
                    ("ticket_size_min", "1000000"),
                    ("ticket_size_max", "2000000")
                ]
            )
            .await,
        sorted(&[BARE])
    );
}

async fn headquarters_is_never_known_so_it_matches_nothing(backend: Backend) {
    let lists = investors_fixture(backend).await;

    assert_eq!(
        lists
            .names(INVESTORS, &[("headquarters", "Menlo Park")])
            .await,
        sorted(&[])
    );
}

async fn the_first_seen_day_is_what_the_dates_filter(backend: Backend) {
    let lists = investors_fixture(backend).await;
    let today = Utc::now().date_naive();
    let yesterday = today.checked_sub_days(Days::new(1)).unwrap().to_string();

    assert_eq!(
        lists
            .names(INVESTORS, &[("dateFrom", &today.to_string())])
            .await
            .len(),
        5
    );
    assert_eq!(
        lists.names(INVESTORS, &[("dateTo", &yesterday)]).await,
        sorted(&[])
    );
    assert_eq!(
        lists
            .names(INVESTORS, &[("date_preset", "today")])
            .await
            .len(),
        5
    );
}

async fn investors_sort_by_every_field_and_page_without_repeats(backend: Backend) {
    let lists = investors_fixture(backend).await;

    assert_eq!(
        lists
            .names(INVESTORS, &[("sort_by", "name"), ("sort_order", "asc")])
            .await,
        [BARE, FAMILY, INITRODE, JANE, SEQUOIA]
    );
    assert_eq!(
        lists
            .names(INVESTORS, &[("sort_by", "ticket_size_max")])
            .await,
        [SEQUOIA, JANE, BARE, FAMILY, INITRODE],
        "largest first (ties by name, descending), unknown last"
    );
    assert_eq!(
        lists
            .names(
                INVESTORS,
                &[("sort_by", "ticket_size_min"), ("sort_order", "asc")]
            )
            .await,
        [FAMILY, BARE, SEQUOIA, JANE, INITRODE]
    );
    let mut paged = Vec::new();
    for page in ["1", "2", "3"] {
        paged.extend(
            lists
                .names(INVESTORS, &[("limit", "2"), ("page", page)])
                .await,
        );
    }
    assert_eq!(paged.len(), 5);
    paged.sort();
    assert_eq!(paged, sorted(&[SEQUOIA, JANE, BARE, INITRODE, FAMILY]));
    assert_eq!(
        lists
            .names(INVESTORS, &[("page", "4"), ("limit", "2")])
            .await,
        sorted(&[])
    );
}

async fn counting_is_free_and_a_page_at_zero_balance_is_refused(backend: Backend) {
    let lists = investors_fixture(backend).await;

    let counted = lists
        .get(INVESTORS, &[("count", "true"), ("type", "vc")])
        .await;
    assert_eq!(counted.status, 200, "{:?}", counted.body);
    assert_eq!(counted.body["data"], json!([]));
    assert_eq!(counted.body["pagination"]["totalCount"], 2);
    assert_eq!(counted.body["meta"]["creditsUsed"], 0);
    assert_eq!(lists.balance().await, 100_000);

    lists
        .app
        .admin(
            reqwest::Method::PATCH,
            &format!("/teams/{}", lists.team.id),
            Some(json!({ "credits": 0 })),
        )
        .await;
    let refused = lists.get(INVESTORS, &[]).await;
    assert_eq!(refused.status, 402, "{:?}", refused.body);
    assert_eq!(refused.body["code"], "insufficient_credits");
    assert_eq!(lists.get(INVESTORS, &[("count", "true")]).await.status, 200);
}

async fn invalid_parameters_are_refused_naming_them(backend: Backend) {
    let lists = investors_fixture(backend).await;
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("type", "fund")], "type"),
        (&[("categories", "vc|fund")], "categories"),
        (&[("ticket_size_min", "-1")], "ticket_size_min"),
        (&[("ticket_size_max", "lots")], "ticket_size_max"),
        (
            &[("ticket_size_min", "5"), ("ticket_size_max", "4")],
            "ticket_size_min",
        ),
        (&[("sort_by", "amount")], "sort_by"),
        (&[("sort_order", "up")], "sort_order"),
        (&[("limit", "101")], "limit"),
        (&[("page", "0")], "page"),
        (&[("dateFrom", "2025-13-01")], "dateFrom"),
        (&[("date_preset", "last_8d")], "date_preset"),
        (&[("countries", "Atlantis")], "countries"),
        (&[("round", "seed")], "round"),
    ];
    for (params, named) in cases {
        let response = lists.get(INVESTORS, params).await;
        assert_bad_request(&response);
        assert!(
            response.error().contains(named),
            "{params:?}: {:?}",
            response.error()
        );
    }
    assert_eq!(lists.balance().await, 100_000, "a 400 charges nothing");
}
