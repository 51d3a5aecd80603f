//! Credits on the signal and company lists: one per executed page, nothing for counts, refusals
//! or an empty balance, and never below zero under concurrency.

use std::sync::Arc;

use serde_json::json;
use tokio::sync::Barrier;
use tokio::task::JoinSet;

use crate::each_backend;
use crate::lists_support::{
    ACQUISITIONS, COMPANIES, FUNDING, HIRING, JOB_CHANGES, balance_of, companies, funding_rounds,
    import_signals, url,
};
use crate::support::{Backend, Team, TestApp, TestResponse};

each_backend!(
    each_executed_page_costs_one_credit_on_every_list,
    a_page_without_rows_still_costs_one_credit,
    a_count_returns_only_the_pagination_and_is_free,
    a_count_works_with_a_balance_of_zero,
    at_a_balance_of_zero_every_list_answers_402_and_charges_nothing,
    the_last_credit_can_be_spent_and_then_the_list_answers_402,
    refused_requests_charge_nothing,
    credits_added_by_the_operator_are_usable_on_the_next_request,
    twenty_concurrent_requests_with_five_credits_give_exactly_five_pages,
);

const LISTS: [(&str, &str); 5] = [
    (FUNDING, "signals.funding"),
    (HIRING, "signals.hiring"),
    (ACQUISITIONS, "signals.acquisitions"),
    (JOB_CHANGES, "signals.jobChanges"),
    (COMPANIES, "companies.list"),
];

/// A service with the known companies and funding rounds, and a team holding `credits`.
async fn start(backend: Backend, credits: i64) -> (TestApp, Team) {
    let app = TestApp::start(backend).await;
    app.import_companies(companies()).await;
    import_signals(&app, "funding", funding_rounds()).await;
    let team = app.create_team_with(json!({ "credits": credits })).await;
    (app, team)
}

async fn get(app: &TestApp, team: &Team, path: &str, params: &[(&str, &str)]) -> TestResponse {
    app.get(&url(path, params), &team.key).await
}

fn assert_out_of_credits(response: &TestResponse) {
    assert_eq!(response.status, 402, "{:?}", response.body);
    assert_eq!(
        response.body,
        json!({
            "success": false,
            "error": "out of credits, please contact support to increase your usage",
            "code": "insufficient_credits"
        })
    );
}

async fn each_executed_page_costs_one_credit_on_every_list(backend: Backend) {
    let (app, team) = start(backend, 10).await;

    let mut expected = 10;
    for (path, endpoint) in LISTS {
        for page in ["1", "2"] {
            let response = get(&app, &team, path, &[("limit", "1"), ("page", page)]).await;
            expected -= 1;
            assert_eq!(response.status, 200, "{path}: {:?}", response.body);
            assert_eq!(
                response.body["meta"],
                json!({ "endpoint": endpoint, "creditsUsed": 1, "creditsRemaining": expected }),
                "{path} page {page}"
            );
        }
    }
    assert_eq!(expected, 0);
    assert_eq!(balance_of(&app, &team).await, 0);
}

async fn a_page_without_rows_still_costs_one_credit(backend: Backend) {
    let (app, team) = start(backend, 5).await;

    let past_the_end = get(&app, &team, FUNDING, &[("page", "50")]).await;
    assert_eq!(past_the_end.status, 200, "{:?}", past_the_end.body);
    assert_eq!(past_the_end.body["data"], json!([]));
    assert_eq!(past_the_end.body["meta"]["creditsUsed"], 1);
    assert_eq!(past_the_end.body["meta"]["creditsRemaining"], 4);

    let no_match = get(
        &app,
        &team,
        HIRING,
        &[("company_domain", "unknown-company.com")],
    )
    .await;
    assert_eq!(no_match.status, 200, "{:?}", no_match.body);
    assert_eq!(no_match.body["data"], json!([]));
    assert_eq!(no_match.body["meta"]["creditsRemaining"], 3);

    let no_company = get(&app, &team, COMPANIES, &[("domain", "unknown.org")]).await;
    assert_eq!(no_company.body["meta"]["creditsRemaining"], 2);
    assert_eq!(balance_of(&app, &team).await, 2);
}

async fn a_count_returns_only_the_pagination_and_is_free(backend: Backend) {
    let (app, team) = start(backend, 7).await;

    for (path, endpoint) in LISTS {
        let response = get(&app, &team, path, &[("count", "true"), ("limit", "3")]).await;
        assert_eq!(response.status, 200, "{path}: {:?}", response.body);
        assert_eq!(response.body["success"], true);
        assert_eq!(response.body["data"], json!([]), "{path}");
        assert_eq!(
            response.body["meta"],
            json!({ "endpoint": endpoint, "creditsUsed": 0, "creditsRemaining": 7 }),
            "{path}"
        );
    }
    let funding = get(&app, &team, FUNDING, &[("count", "true"), ("limit", "3")]).await;
    assert_eq!(
        funding.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 3, "totalCount": 7,
                "hasNextPage": true, "hasPreviousPage": false })
    );
    let filtered = get(
        &app,
        &team,
        FUNDING,
        &[("count", "true"), ("round", "seed")],
    )
    .await;
    assert_eq!(filtered.body["pagination"]["totalCount"], 2);
    let companies = get(&app, &team, COMPANIES, &[("count", "true")]).await;
    assert_eq!(companies.body["pagination"]["totalCount"], 7);
    assert_eq!(balance_of(&app, &team).await, 7);
}

async fn a_count_works_with_a_balance_of_zero(backend: Backend) {
    let (app, team) = start(backend, 0).await;

    for (path, endpoint) in LISTS {
        let response = get(&app, &team, path, &[("count", "true")]).await;
        assert_eq!(response.status, 200, "{path}: {:?}", response.body);
        assert_eq!(response.body["data"], json!([]));
        assert_eq!(
            response.body["meta"],
            json!({ "endpoint": endpoint, "creditsUsed": 0, "creditsRemaining": 0 })
        );
    }
    let funding = get(&app, &team, FUNDING, &[("count", "true")]).await;
    assert_eq!(funding.body["pagination"]["totalCount"], 7);
    assert_eq!(balance_of(&app, &team).await, 0);
}

async fn at_a_balance_of_zero_every_list_answers_402_and_charges_nothing(backend: Backend) {
    let (app, team) = start(backend, 0).await;

    for (path, _) in LISTS {
        assert_out_of_credits(&get(&app, &team, path, &[]).await);
    }
    assert_out_of_credits(&get(&app, &team, FUNDING, &[("company_domain", "acme.com")]).await);
    assert_eq!(balance_of(&app, &team).await, 0, "never negative");
}

async fn the_last_credit_can_be_spent_and_then_the_list_answers_402(backend: Backend) {
    let (app, team) = start(backend, 1).await;

    let last = get(&app, &team, COMPANIES, &[]).await;
    assert_eq!(last.status, 200, "{:?}", last.body);
    assert_eq!(last.body["meta"]["creditsRemaining"], 0);
    assert_out_of_credits(&get(&app, &team, COMPANIES, &[]).await);
    assert_out_of_credits(&get(&app, &team, JOB_CHANGES, &[]).await);
    assert_eq!(balance_of(&app, &team).await, 0);
}

async fn refused_requests_charge_nothing(backend: Backend) {
    let (app, team) = start(backend, 5).await;

    let refused: &[(&str, &[(&str, &str)])] = &[
        (FUNDING, &[("round", "foobar")]),
        (FUNDING, &[("limit", "0")]),
        (HIRING, &[("page", "0")]),
        (ACQUISITIONS, &[("colour", "blue")]),
        (JOB_CHANGES, &[("date_preset", "someday")]),
        (COMPANIES, &[("domain", "not a domain")]),
        (
            FUNDING,
            &[("company_linkedin_url", "https://linkedin.com/in/jane")],
        ),
    ];
    for (path, params) in refused {
        let response = get(&app, &team, path, params).await;
        assert_eq!(response.status, 400, "{:?}", response.body);
    }
    assert_eq!(balance_of(&app, &team).await, 5);
}

async fn credits_added_by_the_operator_are_usable_on_the_next_request(backend: Backend) {
    let (app, team) = start(backend, 0).await;
    assert_out_of_credits(&get(&app, &team, FUNDING, &[]).await);

    let patched = app
        .admin(
            reqwest::Method::PATCH,
            &format!("/teams/{}", team.id),
            Some(json!({ "credits": 2 })),
        )
        .await;
    assert_eq!(patched.status, 200, "{:?}", patched.body);

    let response = get(&app, &team, FUNDING, &[]).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    assert_eq!(response.body["meta"]["creditsRemaining"], 1);
}

async fn twenty_concurrent_requests_with_five_credits_give_exactly_five_pages(backend: Backend) {
    let (app, team) = start(backend, 5).await;
    let app = Arc::new(app);
    let barrier = Arc::new(Barrier::new(20));

    let mut requests = JoinSet::new();
    for n in 0..20 {
        let (app, team, barrier) = (app.clone(), team.clone(), barrier.clone());
        let path = if n % 2 == 0 { FUNDING } else { COMPANIES };
        requests.spawn(async move {
            barrier.wait().await;
            get(&app, &team, path, &[]).await
        });
    }
    let mut remaining = Vec::new();
    let mut refused = 0;
    while let Some(response) = requests.join_next().await {
        let response = response.expect("request task");
        match response.status {
            200 => {
                assert_eq!(response.body["meta"]["creditsUsed"], 1);
                remaining.push(
                    response.body["meta"]["creditsRemaining"]
                        .as_i64()
                        .expect("creditsRemaining"),
                );
            }
            402 => {
                assert_out_of_credits(&response);
                refused += 1;
            }
            other => panic!("unexpected {other}: {:?}", response.body),
        }
    }
    remaining.sort_unstable();
    assert_eq!(
        remaining,
        [0, 1, 2, 3, 4],
        "each success saw its own balance"
    );
    assert_eq!(refused, 15);
    assert_eq!(balance_of(&app, &team).await, 0, "never negative");
}
