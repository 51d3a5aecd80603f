//! Signal records as rows: search documents, tags, deal and posting columns.

use super::*;
use crate::domain::keyword_query::words;
use serde_json::json;

#[test]
fn search_words_are_the_lower_case_words_of_the_text() {
    for text in [
        "Senior  Rust-Engineer, Berlin!",
        "ΣΟΦΟΣ straße İstanbul",
        "",
        " - ",
    ] {
        let mut out = String::from("x");
        push_words(&mut out, text);
        let expected: Vec<String> = std::iter::once("x".to_string())
            .chain(words(text))
            .collect();
        assert_eq!(out, expected.join(" "), "{text}");
    }
}

#[test]
fn the_payload_leaves_out_the_company_fields() {
    let record = json!({
        "signalId": "s", "companyName": "Acme", "companyLinkedinUrl": "l", "title": "CTO",
        "previousCompanyId": "p", "acquiringCompany": {}, "amount": 5
    });
    let record = record.as_object().cloned().unwrap_or_default();
    let payload: Value = serde_json::from_str(&payload(&record)).expect("JSON");
    assert_eq!(
        payload,
        json!({ "companyLinkedinUrl": "l", "title": "CTO", "amount": 5 })
    );
}

#[test]
fn a_signal_is_searched_by_its_own_words_and_a_posting_also_by_its_description() {
    let posting = json!({ "title": "Senior Engineer", "location": "Austin, TX",
                          "city": "Austin", "region": "Texas", "jobCountry": "US",
                          "descriptionText": "Kubernetes, Terraform." });
    let text = search_text(SignalType::Hiring, posting.as_object().unwrap());
    assert_eq!(
        text.body,
        "senior engineer austin tx austin texas us united states"
    );
    assert_eq!(text.description, "kubernetes terraform");
    let change = json!({ "personName": "Jane Doe", "newRole": "Chief Technology Officer",
                         "personLocation": "Berlin, Germany", "personCity": "Berlin",
                         "personCountry": "DE" });
    let text = search_text(SignalType::JobChange, change.as_object().unwrap());
    assert_eq!(
        text.body,
        "jane doe chief technology officer berlin germany berlin de germany"
    );
    assert_eq!(text.description, "");
    let round = json!({ "roundType": "seed", "location": "Berlin" });
    assert_eq!(
        search_text(SignalType::FundingRound, round.as_object().unwrap()),
        SearchText::default()
    );
}

#[test]
fn investors_given_as_objects_or_bare_names_are_tagged() {
    let round = json!({ "occurredAt": "2025-01-01", "currency": "eur",
                        "investors": ["Plain Ventures", { "name": " Big VC " }, 7] });
    let row = build_row(SignalType::FundingRound, round.as_object().unwrap()).unwrap();
    assert_eq!(row.tags, ["investor:plain ventures", "investor:big vc"]);
    assert_eq!(row.currency.as_deref(), Some("EUR"));
}

#[test]
fn a_deal_without_a_currency_is_stored_in_us_dollars() {
    for kind in [SignalType::FundingRound, SignalType::Acquisition] {
        let deal = json!({ "occurredAt": "2025-01-01", "amount": 5 });
        let row = build_row(kind, deal.as_object().unwrap()).unwrap();
        assert_eq!(row.currency.as_deref(), Some("USD"), "{kind:?}");
    }
}

#[test]
fn a_posting_is_filed_under_the_us_state_of_its_region_or_location() {
    let region = |posting: Value| {
        build_row(SignalType::Hiring, posting.as_object().unwrap())
            .unwrap()
            .region
    };
    let posted = "2025-01-01";
    assert_eq!(
        region(json!({ "datePosted": posted, "region": "California", "jobCountry": "US" })),
        Some("CA".into())
    );
    assert_eq!(
        region(json!({ "datePosted": posted, "location": "Austin, TX",
                       "jobCountry": "United States" })),
        Some("TX".into())
    );
    assert_eq!(
        region(
            json!({ "datePosted": posted, "region": "by", "location": "Munich, BY",
                       "jobCountry": "DE" })
        ),
        Some("BY".into())
    );
}

#[test]
fn a_title_gives_its_position_department_and_seniority_tags() {
    assert_eq!(
        title_tags("VP of Engineering"),
        [
            "position:vp of engineering",
            "department:engineering",
            "seniority:vp"
        ]
    );
}

/// The place and role texts a record's substring document gets are the texts the short needles'
/// row test reads from its stored row with SQLite's own expressions (`store::search`).
#[tokio::test]
async fn the_substring_documents_are_what_sqlite_reads_from_the_row() {
    let pool = sqlx::SqlitePool::connect("sqlite::memory:")
        .await
        .expect("in-memory SQLite");
    let sql = format!(
        "SELECT {}, lower(COALESCE(s.title, '')) FROM (SELECT ? AS payload, ? AS title) s",
        crate::store::search::place_text(true)
    );
    for (kind, record) in [
        (
            SignalType::Hiring,
            json!({ "title": "CTO", "city": "MÜNCHEN", "location": "Munich, Bavaria", "region": "BY" }),
        ),
        (
            SignalType::Hiring,
            json!({ "city": "Austin", "region": null }),
        ),
        (
            SignalType::Hiring,
            json!({ "location": "Remote \"EU\" \\ Ünïcode", "city": 12, "region": 1.5 }),
        ),
        (
            SignalType::JobChange,
            json!({ "personCity": "São Paulo", "personLocation": "BR", "city": true,
                    "newRole": "Directeur GÉNÉRAL" }),
        ),
        (
            SignalType::JobChange,
            json!({ "personLocation": ["Berlin", "Paris"], "personCity": { "n": 1 } }),
        ),
        (SignalType::JobChange, json!({})),
    ] {
        let mut record = record.as_object().cloned().unwrap_or_default();
        record.insert("occurredAt".into(), json!("2025-01-01"));
        record.insert("datePosted".into(), json!("2025-01-01"));
        let row = build_row(kind, &record).expect("row");
        // A posting's role is not searched by substring: its document's role is empty.
        let title = (kind == SignalType::JobChange)
            .then_some(row.title.clone())
            .flatten();
        let expected: (String, String) = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(&row.payload)
            .bind(title)
            .fetch_one(&pool)
            .await
            .expect("SQLite's texts");
        assert_eq!(row.search_substrings, Some(expected), "{record:?}");
    }
    let round = json!({ "occurredAt": "2025-01-01", "city": "Berlin" });
    let row = build_row(SignalType::FundingRound, round.as_object().unwrap()).unwrap();
    assert_eq!(
        row.search_substrings, None,
        "only postings and job changes have substring documents"
    );
}
