//! List answers are cached until the list data changes. A change stored through any process —
//! this one or another on the same database — is in the very next answer of every process:
//! the count and the page of a signal list, and the company list. A page's finished records
//! are kept with it, each way of asking it apart.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    COMPANIES, FUNDING, companies, company, funding_rounds, import_signals, record_id, url,
};
use crate::support::{Backend, Team, TestApp};

each_backend!(
    a_signal_stored_through_another_process_is_in_the_next_count_and_page_of_this_one,
    a_signal_stored_through_this_process_is_in_its_next_answer,
    a_company_stored_through_another_process_is_in_the_next_company_list_of_this_one,
    a_page_asked_again_another_way_shows_the_match_confidence_of_the_new_request,
);

async fn a_signal_stored_through_another_process_is_in_the_next_count_and_page_of_this_one(
    backend: Backend,
) {
    let (app, team) = start(backend).await;
    let other = app.start_beside(&[]).await;
    let before = total(&app, &team, FUNDING).await;
    let newest_before = newest_funding_id(&app, &team).await;

    import_signals(
        &other,
        "funding",
        json!([new_round("f-from-the-other-process")]),
    )
    .await;

    assert_eq!(total(&app, &team, FUNDING).await, before + 1);
    assert_eq!(
        newest_funding_id(&app, &team).await,
        "f-from-the-other-process"
    );
    assert_ne!(newest_before, "f-from-the-other-process");
}

async fn a_signal_stored_through_this_process_is_in_its_next_answer(backend: Backend) {
    let (app, team) = start(backend).await;
    for n in 1..=3 {
        let before = total(&app, &team, FUNDING).await;
        let id = format!("f-stored-here-{n}");
        import_signals(&app, "funding", json!([new_round(&id)])).await;
        assert_eq!(total(&app, &team, FUNDING).await, before + 1, "{id}");
        assert_eq!(newest_funding_id(&app, &team).await, id);
    }
}

async fn a_company_stored_through_another_process_is_in_the_next_company_list_of_this_one(
    backend: Backend,
) {
    let (app, team) = start(backend).await;
    let other = app.start_beside(&[]).await;
    let before = total(&app, &team, COMPANIES).await;

    other
        .import_companies(json!([{ "name": "Late Arrival", "website": "https://late.example" }]))
        .await;

    assert_eq!(total(&app, &team, COMPANIES).await, before + 1);
    let found = app
        .get(&url(COMPANIES, &[("domain", "late.example")]), &team.key)
        .await;
    assert_eq!(found.status, 200, "{:?}", found.body);
    assert_eq!(found.data()[0]["name"], "Late Arrival");
}

async fn a_page_asked_again_another_way_shows_the_match_confidence_of_the_new_request(
    backend: Backend,
) {
    let (app, team) = start(backend).await;
    let asked = |params: &'static [(&'static str, &'static str)]| {
        let (app, team) = (&app, &team);
        async move {
            let response = app.get(&url(FUNDING, params), &team.key).await;
            assert_eq!(response.status, 200, "{:?}", response.body);
            let records = response.data().as_array().expect("records").clone();
            assert!(!records.is_empty(), "{params:?}");
            (
                records.iter().map(record_id).collect::<Vec<_>>(),
                records[0]["match_confidence"].clone(),
            )
        }
    };

    let (by_domain, exact) = asked(&[("company_domain", "hooli.at")]).await;
    let (by_name, fuzzy) = asked(&[("company_name", "Hooly")]).await;
    let (by_domain_again, exact_again) = asked(&[("company_domain", "hooli.at")]).await;

    assert_eq!(by_name, by_domain);
    assert_eq!(by_domain_again, by_domain);
    assert_eq!(
        (exact, fuzzy, exact_again),
        (json!("exact"), json!("fuzzy"), json!("exact"))
    );
}

/// A service with the known companies and funding rounds, and a team with credits; every list
/// the tests read has been answered (and cached) once.
async fn start(backend: Backend) -> (TestApp, Team) {
    let app = TestApp::start(backend).await;
    app.import_companies(companies()).await;
    import_signals(&app, "funding", funding_rounds()).await;
    let team = app.create_team_with(json!({ "credits": 1_000 })).await;
    total(&app, &team, FUNDING).await;
    total(&app, &team, COMPANIES).await;
    newest_funding_id(&app, &team).await;
    (app, team)
}

/// `totalCount` of a free count of the list at `path`.
async fn total(app: &TestApp, team: &Team, path: &str) -> i64 {
    let response = app.get(&url(path, &[("count", "true")]), &team.key).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    response.body["pagination"]["totalCount"]
        .as_i64()
        .expect("totalCount")
}

/// The id of the first funding round of the default page (newest first).
async fn newest_funding_id(app: &TestApp, team: &Team) -> String {
    let response = app.get(&url(FUNDING, &[("limit", "1")]), &team.key).await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    record_id(&response.data()[0])
}

/// A funding round of Hooli newer than every known one.
fn new_round(id: &str) -> Value {
    json!({ "signalId": id, "companyId": company::HOOLI,
        "occurredAt": "2026-11-01T12:00:00Z", "discoveredAt": "2026-11-02T12:00:00Z",
        "roundType": "seed", "amount": 1_000_000, "currency": "USD" })
}
