//! A standalone webhook is the service-wide feed: every new signal of its event types that its
//! filters accept, and every new company when it asks for `new_company.created`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::delivery_support::{FAST, SOON, assert_stays_at, signatures_verify};
use crate::each_backend;
use crate::support::receiver::Receiver;
use crate::support::{Backend, Team, TestApp};
use crate::webhooks::{WEBHOOKS, id_of, webhook_path};

each_backend!(
    a_standalone_webhook_receives_every_new_signal_of_its_event_types,
    filters_narrow_what_a_standalone_webhook_receives,
    a_new_company_fires_new_company_created,
    a_deleted_webhook_receives_nothing,
    a_team_whose_subscription_ended_receives_nothing,
    an_investor_imported_with_is_lead_is_the_lead_investor_of_the_delivery,
    an_acquisition_percentage_is_delivered_as_a_string_as_the_list_shows_it,
    a_job_change_event_names_the_person_as_the_list_does,
    a_delivery_shows_sources_and_verification_as_the_list_does,
);

/// A team with a standalone webhook posting to a receiver.
struct Feed {
    app: TestApp,
    team: Team,
    receiver: Receiver,
    id: String,
    secret: String,
}

impl Feed {
    async fn start(backend: Backend, event_types: Value, filters: Value) -> Feed {
        let app = TestApp::start_with(backend, &FAST).await;
        let team = app.create_team().await;
        let receiver = Receiver::start().await;
        let created = app
            .post(
                WEBHOOKS,
                &team.key,
                json!({ "endpoint_url": receiver.url, "event_types": event_types,
                    "filters": filters }),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let secret = created.data()["secret"]
            .as_str()
            .expect("secret")
            .to_string();
        Feed {
            id: id_of(&created),
            app,
            team,
            receiver,
            secret,
        }
    }

    async fn ingest(&self, kind: &str, records: Value) {
        let response = self
            .app
            .admin(
                reqwest::Method::POST,
                &format!("/signals/{kind}"),
                Some(records),
            )
            .await;
        assert_eq!(response.status, 200, "{:?}", response.body);
    }
}

fn round(id: &str, website: &str, country: &str, round: &str) -> Value {
    json!({ "signalId": id, "companyWebsite": website, "companyName": website,
        "companyCountry": country, "occurredAt": "2026-11-20T10:00:00Z", "roundType": round,
        "amount": 3_000_000, "currency": "USD" })
}

async fn a_standalone_webhook_receives_every_new_signal_of_its_event_types(backend: Backend) {
    let feed = Feed::start(backend, json!(["funding.created"]), json!({})).await;

    feed.ingest(
        "funding",
        json!([round(
            "f4000000-0000-4000-8000-000000000001",
            "a.com",
            "US",
            "seed"
        )]),
    )
    .await;
    feed.ingest(
        "hiring",
        json!([{ "id": "h4000000-0000-4000-8000-000000000001", "companyWebsite": "a.com",
            "title": "Engineer", "datePosted": "2026-11-20T10:00:00Z" }]),
    )
    .await;

    let got = feed.receiver.wait_for(1, SOON).await;
    assert_eq!(got[0].json()["event_type"], "funding.created");
    assert!(signatures_verify(&got[0], &feed.secret));
    assert_eq!(got[0].header("X-Monitor-ID"), None);
    assert_stays_at(&feed.receiver, 1, Duration::from_secs(1)).await;
}

async fn filters_narrow_what_a_standalone_webhook_receives(backend: Backend) {
    let filters = json!({ "countries": "US,GB", "funding": "series a" });
    let feed = Feed::start(backend, json!(["funding.created"]), filters).await;

    feed.ingest(
        "funding",
        json!([
            round(
                "f4000000-0000-4000-8000-000000000002",
                "de.com",
                "DE",
                "series a"
            ),
            round(
                "f4000000-0000-4000-8000-000000000003",
                "us.com",
                "US",
                "seed"
            ),
            round(
                "f4000000-0000-4000-8000-000000000004",
                "gb.com",
                "GB",
                "Series A"
            ),
        ]),
    )
    .await;

    let got = feed.receiver.wait_for(1, SOON).await;
    assert_eq!(
        got[0].json()["data"]["signal"]["id"],
        "f4000000-0000-4000-8000-000000000004"
    );
    assert_stays_at(&feed.receiver, 1, Duration::from_secs(1)).await;
}

async fn a_new_company_fires_new_company_created(backend: Backend) {
    let feed = Feed::start(backend, json!(["new_company.created"]), json!({})).await;

    feed.app
        .import_companies(json!([{ "name": "Initech", "website": "https://initech.com" }]))
        .await;

    let got = feed.receiver.wait_for(1, SOON).await;
    let body = got[0].json();
    assert_eq!(body["event_type"], "new_company.created");
    assert_eq!(body["data"]["signal"]["type"], "new_company");
    assert_eq!(body["data"]["company"]["name"], "Initech");
    feed.app
        .import_companies(json!([{ "name": "Initech Inc", "website": "https://initech.com" }]))
        .await;
    assert_stays_at(&feed.receiver, 1, Duration::from_secs(1)).await;
}

async fn a_deleted_webhook_receives_nothing(backend: Backend) {
    let feed = Feed::start(backend, json!(["funding.created"]), json!({})).await;
    let deleted = feed
        .app
        .delete(&webhook_path(&feed.id), &feed.team.key)
        .await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);

    feed.ingest(
        "funding",
        json!([round(
            "f4000000-0000-4000-8000-000000000005",
            "a.com",
            "US",
            "seed"
        )]),
    )
    .await;

    assert_stays_at(&feed.receiver, 0, Duration::from_secs(1)).await;
}

async fn a_team_whose_subscription_ended_receives_nothing(backend: Backend) {
    let feed = Feed::start(backend, json!(["funding.created"]), json!({})).await;
    let patched = feed
        .app
        .admin(
            reqwest::Method::PATCH,
            &format!("/teams/{}", feed.team.id),
            Some(json!({ "subscription_status": "canceled" })),
        )
        .await;
    assert_eq!(patched.status, 200);

    feed.ingest(
        "funding",
        json!([round(
            "f4000000-0000-4000-8000-000000000006",
            "a.com",
            "US",
            "seed"
        )]),
    )
    .await;

    assert_stays_at(&feed.receiver, 0, Duration::from_secs(1)).await;
}

async fn an_investor_imported_with_is_lead_is_the_lead_investor_of_the_delivery(backend: Backend) {
    let feed = Feed::start(backend, json!(["funding.created"]), json!({})).await;
    let mut record = round(
        "f4000000-0000-4000-8000-000000000009",
        "a.com",
        "US",
        "seed",
    );
    record["investors"] = json!([{ "name": "Lead VC", "type": "vc", "isLead": true },
        { "name": "Follower", "isLead": false }]);

    feed.ingest("funding", json!([record])).await;

    let got = feed.receiver.wait_for(1, SOON).await;
    assert_eq!(
        got[0].json()["data"]["fundingRound"]["investors"],
        json!([{ "name": "Lead VC", "type": "vc", "leadInvestor": true },
            { "name": "Follower", "type": null, "leadInvestor": false }])
    );
}

async fn an_acquisition_percentage_is_delivered_as_a_string_as_the_list_shows_it(backend: Backend) {
    let feed = Feed::start(backend, json!(["acquisition.created"]), json!({})).await;

    feed.ingest(
        "acquisitions",
        json!([{ "signalId": "a4000000-0000-4000-8000-000000000001", "companyWebsite": "a.com",
            "companyName": "A", "acquiringCompany": { "name": "B", "website": "b.com" },
            "occurredAt": "2026-11-20T10:00:00Z", "amount": 5_000_000, "currency": "USD",
            "percentage": 51 }]),
    )
    .await;

    let got = feed.receiver.wait_for(1, SOON).await;
    let block = &got[0].json()["data"]["acquisition"];
    assert_eq!(block["percentage"], "51");
    assert_eq!(block["acquiringCompany"]["name"], "B");
}

async fn a_job_change_event_names_the_person_as_the_list_does(backend: Backend) {
    let feed = Feed::start(backend, json!(["job_change.created"]), json!({})).await;

    feed.ingest(
        "job-changes",
        json!([{ "signalId": "e4000000-0000-4000-8000-000000000001", "companyWebsite": "a.com",
            "companyName": "A", "personName": "Jane Mary Doe", "newRole": "CTO",
            "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe",
            "occurredAt": "2026-11-20T10:00:00Z" }]),
    )
    .await;

    let got = feed.receiver.wait_for(1, SOON).await;
    let block = &got[0].json()["data"]["jobChange"];
    assert_eq!(block["personName"], "Jane D.");
    assert_eq!(block["newRole"], "CTO");
}

async fn a_delivery_shows_sources_and_verification_as_the_list_does(backend: Backend) {
    let feed = Feed::start(
        backend,
        json!(["funding.created", "job_change.created"]),
        json!({}),
    )
    .await;
    let mut record = round(
        "f4000000-0000-4000-8000-000000000010",
        "a.com",
        "US",
        "seed",
    );
    record["sources"] = json!([
        "https://news.example/a-raises",
        { "url": "https://wire.example/a", "sourceType": "press_release", "title": "A raises",
          "publishedAt": "2026-11-20T11:00:00Z", "isPrimary": true, "internalScore": 3 }
    ]);
    feed.ingest("funding", json!([record])).await;
    feed.ingest(
        "job-changes",
        json!([{ "signalId": "e4000000-0000-4000-8000-000000000010", "companyWebsite": "a.com",
            "personName": "Jane Doe", "newRole": "CTO", "occurredAt": "2026-11-21T10:00:00Z",
            "sources": [{ "url": "https://www.linkedin.com/posts/jane", "sourceType": "social_media",
                          "title": "New role" }] }]),
    )
    .await;

    let got = feed.receiver.wait_for(2, SOON).await;
    let data_of = |event_type: &str| {
        got.iter()
            .map(|r| r.json())
            .find(|body| body["event_type"] == event_type)
            .unwrap_or_else(|| panic!("no {event_type} delivery"))["data"]
            .clone()
    };
    let funding = data_of("funding.created");
    assert_eq!(
        funding["sources"],
        json!([
            { "url": "https://news.example/a-raises", "sourceType": null, "title": null,
              "publishedAt": null, "isPrimary": false },
            { "url": "https://wire.example/a", "sourceType": "press_release", "title": "A raises",
              "publishedAt": "2026-11-20T11:00:00.000Z", "isPrimary": true }
        ])
    );
    assert_eq!(funding["fundingRound"]["verificationStatus"], "unverified");
    assert_eq!(funding["fundingRound"]["confidenceScore"], Value::Null);
    let job_change = data_of("job_change.created");
    assert_eq!(
        job_change["sources"],
        json!([{ "url": "https://www.linkedin.com/posts/jane", "sourceType": "social_media" }])
    );
}
