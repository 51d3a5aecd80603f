//! Records imported loosely keep the types of the specification. A funding round imported (without its verification details, its amount as
//! text, its currency in small letters, its announcement as a timestamp) still shows the record
//! of the specification: `verificationStatus` is one of its three values, never null (and the
//! `verification_status` filter agrees), `amount` an integer, `currency` an ISO 4217 code and
//! `announcedDate` a date. A job change's `source` is one of its lower-case values and its
//! follower counts integers; a posting's `jobId` is text. A deal imported without a currency is
//! in US dollars, shown and filtered so; a company imported without a slug shows the one its
//! name gives.

use serde_json::{Value, json};

use crate::each_backend;
use crate::lists_support::{
    ACQUISITIONS, COMPANIES, FUNDING, HIRING, JOB_CHANGES, Lists, company, import_signals,
    record_id,
};
use crate::support::Backend;

each_backend!(
    a_round_without_verification_details_shows_unverified_and_a_null_score,
    a_loosely_imported_round_shows_its_amount_currency_and_date_in_their_documented_types,
    the_verification_filter_finds_rounds_by_the_status_they_show,
    a_loosely_imported_job_change_and_posting_show_their_documented_types,
    a_deal_imported_without_a_currency_shows_and_filters_as_us_dollars,
    companies_imported_without_a_slug_show_one_made_from_their_name,
);

const BARE: &str = "f5000000-0000-4000-8000-000000000001";
const CHECKED: &str = "f5000000-0000-4000-8000-000000000002";

/// One round without `verificationStatus`/`confidenceScore` and with loosely typed deal facts,
/// one with them all (its status in capitals).
async fn two_rounds(backend: Backend) -> Lists {
    let lists = Lists::with_companies(backend).await;
    import_signals(
        &lists.app,
        "funding",
        json!([
            { "signalId": BARE, "companyId": company::ACME, "occurredAt": "2025-05-01T10:00:00Z",
              "roundType": "seed", "amount": "1000000", "currency": "usd",
              "announcedDate": "2025-05-01T23:30:00-02:00" },
            { "signalId": CHECKED, "companyId": company::GLOBEX,
              "occurredAt": "2025-05-02T10:00:00Z", "roundType": "seed", "amount": 2_000_000,
              "currency": "USD", "verificationStatus": "Verified", "confidenceScore": 0.8 }
        ]),
    )
    .await;
    lists
}

fn by_id(rows: &[Value], id: &str) -> Value {
    rows.iter()
        .find(|r| record_id(r) == id)
        .unwrap_or_else(|| panic!("{id} not in {rows:?}"))
        .clone()
}

async fn a_round_without_verification_details_shows_unverified_and_a_null_score(backend: Backend) {
    let lists = two_rounds(backend).await;

    let rows = lists.rows(FUNDING, &[]).await;

    let bare = by_id(&rows, BARE);
    assert_eq!(bare["verificationStatus"], "unverified", "{bare}");
    assert_eq!(bare["confidenceScore"], Value::Null, "{bare}");
    let checked = by_id(&rows, CHECKED);
    assert_eq!(checked["verificationStatus"], "verified", "{checked}");
    assert_eq!(checked["confidenceScore"], 0.8, "{checked}");
}

async fn a_loosely_imported_round_shows_its_amount_currency_and_date_in_their_documented_types(
    backend: Backend,
) {
    let lists = two_rounds(backend).await;

    let rows = lists.rows(FUNDING, &[("currency", "USD")]).await;

    let bare = by_id(&rows, BARE);
    assert_eq!(bare["amount"], 1_000_000, "{bare}");
    assert_eq!(bare["currency"], "USD", "{bare}");
    assert_eq!(bare["announcedDate"], "2025-05-02", "{bare}");
    let by_amount = lists.ids(FUNDING, &[("amount_max", "1500000")]).await;
    assert_eq!(by_amount, [BARE]);
}

async fn the_verification_filter_finds_rounds_by_the_status_they_show(backend: Backend) {
    let lists = two_rounds(backend).await;

    let unverified = lists
        .ids(FUNDING, &[("verification_status", "unverified")])
        .await;
    let verified = lists
        .ids(FUNDING, &[("verification_status", "verified")])
        .await;
    let pending = lists
        .ids(FUNDING, &[("verification_status", "pending")])
        .await;

    assert_eq!(unverified, [BARE]);
    assert_eq!(verified, [CHECKED]);
    assert!(pending.is_empty(), "{pending:?}");
}

async fn a_loosely_imported_job_change_and_posting_show_their_documented_types(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    import_signals(
        &lists.app,
        "job-changes",
        json!([{ "signalId": "e5000000-0000-4000-8000-000000000001", "companyId": company::ACME,
                 "occurredAt": "2025-05-01T10:00:00Z", "personName": "Jane Doe",
                 "newRole": "CTO", "source": "LinkedIn", "personFollowers": "1200",
                 "personConnections": 300 }]),
    )
    .await;
    import_signals(
        &lists.app,
        "hiring",
        json!([{ "id": "b5000000-0000-4000-8000-000000000001", "companyId": company::ACME,
                 "title": "Engineer", "jobId": 4_012_345_678_u64,
                 "jobUrl": "https://jobs.example/4012345678", "datePosted": "2025-05-01T10:00:00Z" }]),
    )
    .await;

    let change = &lists.rows(JOB_CHANGES, &[("source", "linkedin")]).await[0];
    let posting = &lists.rows(HIRING, &[]).await[0];

    assert_eq!(change["source"], "linkedin", "{change}");
    assert_eq!(change["personFollowers"], 1200, "{change}");
    assert_eq!(change["personConnections"], 300, "{change}");
    assert_eq!(posting["jobId"], "4012345678", "{posting}");
}

async fn a_deal_imported_without_a_currency_shows_and_filters_as_us_dollars(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let (round, deal) = (
        "f5000000-0000-4000-8000-000000000003",
        "a5000000-0000-4000-8000-000000000001",
    );
    import_signals(
        &lists.app,
        "funding",
        json!([{ "signalId": round, "companyId": company::ACME,
                 "occurredAt": "2025-05-01T10:00:00Z", "roundType": "seed", "amount": 5 }]),
    )
    .await;
    import_signals(
        &lists.app,
        "acquisitions",
        json!([{ "signalId": deal, "companyId": company::NOWHERE,
                 "acquiringCompanyId": company::HOOLI, "occurredAt": "2025-05-01T10:00:00Z",
                 "amount": 7 }]),
    )
    .await;

    for (path, id) in [(FUNDING, round), (ACQUISITIONS, deal)] {
        let rows = lists.rows(path, &[("currency", "USD")]).await;
        assert_eq!(rows.len(), 1, "{path}: {rows:?}");
        assert_eq!(record_id(&rows[0]), id);
        assert_eq!(rows[0]["currency"], "USD", "{}", rows[0]);
        assert_eq!(
            lists.ids(path, &[("currency", "EUR")]).await,
            Vec::<String>::new()
        );
    }
}

async fn companies_imported_without_a_slug_show_one_made_from_their_name(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    lists
        .app
        .import_companies(json!([{ "name": "Plain Company GmbH", "website": "plain.example" }]))
        .await;
    import_signals(
        &lists.app,
        "hiring",
        json!([{ "id": "b5000000-0000-4000-8000-000000000002",
                 "companyName": "HealthTech Solutions, Inc.", "companyWebsite": "healthtech.example",
                 "title": "Nurse", "datePosted": "2025-05-01T10:00:00Z" }]),
    )
    .await;
    import_signals(
        &lists.app,
        "funding",
        json!([{ "signalId": "f5000000-0000-4000-8000-000000000004",
                 "companyWebsite": "plain.example", "occurredAt": "2025-05-01T10:00:00Z",
                 "roundType": "seed", "currency": "USD" }]),
    )
    .await;
    import_signals(
        &lists.app,
        "acquisitions",
        json!([{ "signalId": "a5000000-0000-4000-8000-000000000002",
                 "companyWebsite": "healthtech.example", "occurredAt": "2025-05-01T10:00:00Z",
                 "currency": "USD",
                 "acquiringCompany": { "name": "Brand-New  Robotics AB",
                                       "website": "brandnew.example" } }]),
    )
    .await;

    for (domain, slug) in [
        ("plain.example", "plain-company-gmbh"),
        ("healthtech.example", "healthtech-solutions-inc"),
        ("brandnew.example", "brand-new-robotics-ab"),
    ] {
        let rows = lists.rows(COMPANIES, &[("domain", domain)]).await;
        assert_eq!(rows[0]["slug"], slug, "{domain}");
    }
    let round = &lists
        .rows(FUNDING, &[("company_domain", "plain.example")])
        .await[0];
    assert_eq!(round["companySlug"], "plain-company-gmbh", "{round}");
    let deal = &lists
        .rows(ACQUISITIONS, &[("company_domain", "healthtech.example")])
        .await[0];
    assert_eq!(deal["companySlug"], "healthtech-solutions-inc", "{deal}");
    assert_eq!(
        deal["acquiringCompany"]["slug"], "brand-new-robotics-ab",
        "{deal}"
    );
    let known = &lists.rows(COMPANIES, &[("domain", "acme.com")]).await[0];
    assert_eq!(
        known["slug"], "acme-corporation",
        "an imported slug is kept"
    );
}
