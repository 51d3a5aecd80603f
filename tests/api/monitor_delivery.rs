//! A monitor's webhook receives every new signal of its watched companies: signed, once, paid
//! for once, and never anything from before the watch began.

use std::time::Duration;

use serde_json::json;

use crate::delivery_support::{
    SOON, Watching, acme_round, assert_stays_at, other_round, signatures_verify,
};
use crate::each_backend;
use crate::support::Backend;
use crate::support::app::ADMIN_TOKEN;

each_backend!(
    a_new_round_of_a_watched_company_is_posted_signed_to_the_monitor_webhook,
    a_successful_delivery_costs_one_credit,
    signals_of_other_companies_or_unwatched_types_are_not_sent,
    signals_from_before_the_target_resolved_are_never_sent,
    re_importing_a_signal_never_delivers_it_again,
    a_monitor_watching_both_sides_of_an_acquisition_gets_one_delivery,
    a_paused_monitor_delivers_nothing_and_does_not_send_the_backlog_after_resuming,
    at_zero_credits_deliveries_are_held_and_go_out_when_credits_are_added,
    concurrent_ingests_charge_each_delivery_exactly_once,
    a_profile_target_follows_the_person_to_their_new_company,
);

async fn a_new_round_of_a_watched_company_is_posted_signed_to_the_monitor_webhook(
    backend: Backend,
) {
    let w = Watching::start(backend, &[]).await;

    w.ingest(
        "funding",
        json!([acme_round("f1000000-0000-4000-8000-000000000001")]),
    )
    .await;

    let got = w.receiver.wait_for(1, SOON).await;
    let request = &got[0];
    let body = request.json();
    let keys: Vec<&String> = body.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["data", "event_id", "event_type", "timestamp"]);
    assert_eq!(body["event_type"], "funding.created");
    assert_eq!(request.header("X-Webhook-Event"), Some("funding.created"));
    assert_eq!(request.header("X-Webhook-ID"), body["event_id"].as_str());
    assert_eq!(request.header("webhook-id"), body["event_id"].as_str());
    assert_eq!(request.header("X-Monitor-ID"), Some(w.monitor_id.as_str()));
    assert!(
        signatures_verify(request, &w.secret),
        "both signatures verify"
    );
    let data = &body["data"];
    assert_eq!(data["signal"]["id"], "f1000000-0000-4000-8000-000000000001");
    assert_eq!(data["signal"]["type"], "funding_round");
    assert_eq!(data["company"]["id"], w.acme.as_str());
    assert_eq!(data["company"]["name"], "Acme");
    assert_eq!(data["fundingRound"]["roundType"], "seed");
    assert_eq!(data["fundingRound"]["amount"], 2_000_000);
    assert_eq!(
        data["fundingRound"]["investors"],
        json!([{ "name": "Northwind Capital", "type": "vc", "leadInvestor": true }])
    );
    assert_eq!(data["employees"], json!([]));
}

async fn a_successful_delivery_costs_one_credit(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;

    w.ingest(
        "funding",
        json!([acme_round("f1000000-0000-4000-8000-000000000002")]),
    )
    .await;

    w.receiver.wait_for(1, SOON).await;
    w.wait_for_credits(before - 1).await;
    let monitor = w
        .app
        .get(&format!("/api/v2/monitors/{}", w.monitor_id), &w.team.key)
        .await;
    assert!(
        monitor.data()["stats"]["last_delivery_at"].is_string(),
        "{:?}",
        monitor.body
    );
}

async fn signals_of_other_companies_or_unwatched_types_are_not_sent(backend: Backend) {
    let w = Watching::start(backend, &[]).await;

    w.ingest(
        "funding",
        json!([other_round("f1000000-0000-4000-8000-000000000003")]),
    )
    .await;
    w.ingest(
        "hiring",
        json!([{ "id": "h1000000-0000-4000-8000-000000000003", "companyWebsite": "acme.com",
            "title": "Engineer", "datePosted": "2026-11-20T10:00:00Z" }]),
    )
    .await;

    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;
}

async fn signals_from_before_the_target_resolved_are_never_sent(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.ingest(
        "funding",
        json!([other_round("f1000000-0000-4000-8000-000000000004")]),
    )
    .await;

    let added = w
        .app
        .add_targets(&w.team, &w.monitor_id, json!(["globex.com"]))
        .await;
    assert_eq!(added.status, 200);
    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;

    w.ingest(
        "funding",
        json!([other_round("f1000000-0000-4000-8000-000000000005")]),
    )
    .await;
    let got = w.receiver.wait_for(1, SOON).await;
    assert_eq!(
        got[0].json()["data"]["signal"]["id"],
        "f1000000-0000-4000-8000-000000000005"
    );
    assert_stays_at(&w.receiver, 1, Duration::from_millis(500)).await;
}

async fn re_importing_a_signal_never_delivers_it_again(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let round = acme_round("f1000000-0000-4000-8000-000000000006");
    w.ingest("funding", json!([round])).await;
    w.receiver.wait_for(1, SOON).await;

    let report = w.ingest("funding", json!([round])).await;

    assert_eq!(report["updated"], 1);
    assert_stays_at(&w.receiver, 1, Duration::from_secs(1)).await;
}

async fn a_monitor_watching_both_sides_of_an_acquisition_gets_one_delivery(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.app
        .import_companies(json!([{ "name": "Initech", "website": "https://initech.com" }]))
        .await;
    w.app
        .add_targets(&w.team, &w.monitor_id, json!(["initech.com"]))
        .await;

    w.ingest(
        "acquisitions",
        json!([{ "signalId": "a1000000-0000-4000-8000-000000000001", "companyWebsite": "initech.com",
            "acquiringCompany": { "website": "acme.com" }, "occurredAt": "2026-11-20T10:00:00Z",
            "amount": 5_000_000, "currency": "USD" }]),
    )
    .await;

    let got = w.receiver.wait_for(1, SOON).await;
    let data = got[0].json()["data"].clone();
    assert_eq!(data["signal"]["type"], "acquisition");
    assert_eq!(data["acquisition"]["acquiringCompanyId"], w.acme.as_str());
    assert_eq!(data["acquisition"]["acquiringCompany"]["name"], "Acme");
    assert_stays_at(&w.receiver, 1, Duration::from_secs(1)).await;
}

async fn a_paused_monitor_delivers_nothing_and_does_not_send_the_backlog_after_resuming(
    backend: Backend,
) {
    let w = Watching::start(backend, &[]).await;
    let path = format!("/api/v2/monitors/{}", w.monitor_id);
    let paused = w
        .app
        .put(&path, &w.team.key, json!({ "active": false }))
        .await;
    assert_eq!(paused.status, 200, "{:?}", paused.body);

    w.ingest(
        "funding",
        json!([acme_round("f1000000-0000-4000-8000-000000000007")]),
    )
    .await;
    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;

    w.app
        .put(&path, &w.team.key, json!({ "active": true }))
        .await;
    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;

    w.ingest(
        "funding",
        json!([acme_round("f1000000-0000-4000-8000-000000000008")]),
    )
    .await;
    let got = w.receiver.wait_for(1, SOON).await;
    assert_eq!(
        got[0].json()["data"]["signal"]["id"],
        "f1000000-0000-4000-8000-000000000008"
    );
}

async fn at_zero_credits_deliveries_are_held_and_go_out_when_credits_are_added(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.set_credits(0).await;

    w.ingest(
        "funding",
        json!([acme_round("f1000000-0000-4000-8000-000000000009")]),
    )
    .await;
    assert_stays_at(&w.receiver, 0, Duration::from_secs(1)).await;

    w.set_credits(5).await;
    let got = w.receiver.wait_for(1, SOON).await;
    assert_eq!(
        got[0].json()["data"]["signal"]["id"],
        "f1000000-0000-4000-8000-000000000009"
    );
    w.wait_for_credits(4).await;
}

async fn concurrent_ingests_charge_each_delivery_exactly_once(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    let before = w.credits().await;

    let mut ingests = tokio::task::JoinSet::new();
    for i in 0..8 {
        let records: Vec<_> = (0..5)
            .map(|j| acme_round(&format!("f2000000-0000-4000-8000-0000000000{i}{j}")))
            .collect();
        let request = w
            .app
            .client
            .post(format!("{}/admin/v1/signals/funding", w.app.base))
            .bearer_auth(ADMIN_TOKEN)
            .json(&records);
        ingests.spawn(async move { request.send().await.expect("sent").status().as_u16() });
    }
    assert_eq!(ingests.join_all().await, [200; 8]);

    w.receiver.wait_for(40, SOON).await;
    w.wait_for_credits(before - 40).await;
    assert_stays_at(&w.receiver, 40, Duration::from_millis(500)).await;
    let ids: std::collections::HashSet<String> = w
        .receiver
        .received()
        .iter()
        .map(|r| {
            r.json()["event_id"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(ids.len(), 40, "every delivery is a different event");
}

async fn a_profile_target_follows_the_person_to_their_new_company(backend: Backend) {
    let w = Watching::start(backend, &[]).await;
    w.app
        .import_people(
            json!([{ "linkedinUrl": "https://www.linkedin.com/in/jane-doe",
            "name": "Jane Doe", "companyWebsite": "acme.com" }]),
        )
        .await;
    let added = w
        .app
        .add_targets(
            &w.team,
            &w.monitor_id,
            json!(["https://linkedin.com/in/jane-doe"]),
        )
        .await;
    assert_eq!(added.status, 200, "{:?}", added.body);

    w.ingest(
        "job-changes",
        json!([{ "signalId": "e1000000-0000-4000-8000-000000000001", "companyWebsite": "globex.com",
            "companyName": "Globex", "personName": "Jane Doe",
            "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe", "newRole": "CTO",
            "previousCompanyId": w.acme, "occurredAt": "2026-11-20T10:00:00Z" }]),
    )
    .await;

    let got = w.receiver.wait_for(1, SOON).await;
    assert_eq!(got[0].json()["data"]["jobChange"]["newRole"], "CTO");
    let targets = w
        .app
        .get(
            &format!("/api/v2/monitors/{}/targets", w.monitor_id),
            &w.team.key,
        )
        .await;
    let profile = targets
        .data()
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["type"] == "linkedin_profile")
        .cloned()
        .expect("the profile target");
    assert_eq!(profile["company"]["name"], "Globex", "{profile}");
}
