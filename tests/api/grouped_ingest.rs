//! Concurrent signal imports over the admin API are written together (group commit); each
//! request still gets the report of its own records, as if the requests had run one by one.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::Barrier;
use tokio::task::JoinSet;

use crate::each_backend;
use crate::lists_support::{FUNDING, HIRING, Lists, company};
use crate::support::Backend;

each_backend!(
    concurrent_imports_each_report_their_own_records_and_every_record_is_stored_once,
    concurrent_imports_of_different_kinds_are_all_stored,
);

const REQUESTS: usize = 30;
const SHARED: &str = "f0000000-0000-4000-8000-00000000aaaa";

fn round(id: &str) -> Value {
    json!({
        "signalId": id, "companyId": company::ACME, "occurredAt": "2025-05-05T12:00:00Z",
        "roundType": "seed", "amount": 1_000_000, "currency": "USD"
    })
}

fn own_id(n: usize) -> String {
    format!("f0000000-0000-4000-8000-{n:012}")
}

/// Sends `bodies` to `/admin/v1/signals/{kind}` all at once; the answers in request order.
async fn import_all(lists: Lists, requests: Vec<(&'static str, Value)>) -> (Lists, Vec<Value>) {
    let lists = Arc::new(lists);
    let barrier = Arc::new(Barrier::new(requests.len()));
    let mut sent = JoinSet::new();
    for (n, (kind, body)) in requests.into_iter().enumerate() {
        let (lists, barrier) = (lists.clone(), barrier.clone());
        sent.spawn(async move {
            barrier.wait().await;
            let path = format!("/signals/{kind}");
            let response = lists
                .app
                .admin(reqwest::Method::POST, &path, Some(body))
                .await;
            assert_eq!(response.status, 200, "{:?}", response.body);
            (n, response.data().clone())
        });
    }
    let mut answers = Vec::new();
    while let Some(answer) = sent.join_next().await {
        answers.push(answer.expect("import task"));
    }
    answers.sort_by_key(|(n, _)| *n);
    let lists = Arc::into_inner(lists).expect("every request finished");
    (lists, answers.into_iter().map(|(_, data)| data).collect())
}

async fn concurrent_imports_each_report_their_own_records_and_every_record_is_stored_once(
    backend: Backend,
) {
    let lists = Lists::with_companies(backend).await;
    // Each request: a round of its own, a round every request sends, and a record naming no
    // company, which is refused under the request's own index 2.
    let requests = (0..REQUESTS)
        .map(|n| {
            let body = json!([round(&own_id(n)), round(SHARED), { "signalId": own_id(900 + n) }]);
            ("funding", body)
        })
        .collect();

    let (lists, answers) = import_all(lists, requests).await;

    let mut inserted_shared = 0;
    for (n, answer) in answers.iter().enumerate() {
        assert_eq!(answer["ids"], json!([own_id(n), SHARED]), "request {n}");
        let refused: Vec<u64> = answer["invalid"]
            .as_array()
            .expect("invalid")
            .iter()
            .map(|e| e["index"].as_u64().expect("index"))
            .collect();
        assert_eq!(refused, [2], "request {n}: {answer}");
        let (inserted, updated) = (answer["inserted"].as_u64(), answer["updated"].as_u64());
        match (inserted, updated) {
            (Some(2), Some(0)) => inserted_shared += 1,
            (Some(1), Some(1)) => {}
            other => panic!("request {n}: unexpected counts {other:?}"),
        }
    }
    assert_eq!(
        inserted_shared, 1,
        "the shared id is inserted by exactly one request and updated by the others"
    );
    let rows = lists.rows(FUNDING, &[("limit", "100")]).await;
    let ids: HashSet<&str> = rows.iter().filter_map(|r| r["signalId"].as_str()).collect();
    assert_eq!(
        rows.len(),
        REQUESTS + 1,
        "each own round once, the shared one once"
    );
    assert!(ids.contains(SHARED));
}

async fn concurrent_imports_of_different_kinds_are_all_stored(backend: Backend) {
    let lists = Lists::with_companies(backend).await;
    let posting = |n: usize| {
        json!([{
            "id": own_id(n), "companyId": company::ACME, "jobId": format!("job-{n}"),
            "jobUrl": format!("https://jobs.example/{n}"), "title": "Rust engineer",
            "datePosted": "2025-05-05T12:00:00Z", "createdAt": "2025-05-05T12:00:00Z"
        }])
    };
    let requests = (0..REQUESTS)
        .map(|n| match n % 2 {
            0 => ("funding", json!([round(&own_id(n))])),
            _ => ("hiring", posting(n)),
        })
        .collect();

    let (lists, answers) = import_all(lists, requests).await;

    for (n, answer) in answers.iter().enumerate() {
        assert_eq!(answer["ids"], json!([own_id(n)]), "request {n}");
        assert_eq!(answer["inserted"], 1, "request {n}");
    }
    let funding = lists.rows(FUNDING, &[("limit", "100")]).await;
    let hiring = lists.rows(HIRING, &[("limit", "100")]).await;
    assert_eq!((funding.len(), hiring.len()), (REQUESTS / 2, REQUESTS / 2));
}
