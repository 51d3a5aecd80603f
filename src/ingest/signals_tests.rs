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
