use serde_json::json;

use super::*;

/// 2026-11-21T00:00:00.000Z
const CREATED_AT: i64 = 1_795_219_200_000;

fn funding() -> Value {
    json!({
        "signal": { "id": "s1", "type": "funding_round", "occurredAt": "2026-11-20T00:00:00.000Z" },
        "company": { "name": "Acme", "website": "acme.com" },
        "employees": [], "sources": [],
        "fundingRound": { "roundType": "seed", "amount": 1_000_000, "currency": "USD" }
    })
}

fn line(kind: &str, company: &str, facts: &str) -> DigestLine {
    DigestLine {
        kind: kind.into(),
        company: company.into(),
        facts: facts.into(),
        date: "2026-11-20".into(),
    }
}

#[test]
fn a_funding_round_shows_its_round_type_amount_and_currency() {
    let line = DigestLine::from_event("funding.created", &funding(), CREATED_AT);

    assert_eq!(line.kind, "Funding round");
    assert_eq!(line.company, "Acme");
    assert_eq!(line.facts, "seed round, 1,000,000 USD");
    assert_eq!(line.date, "2026-11-20");
}

#[test]
fn an_acquisition_shows_the_acquirer_and_the_amount() {
    let data = json!({
        "signal": { "type": "acquisition", "occurredAt": "2026-10-01T12:00:00.000Z" },
        "company": { "name": "Initech" },
        "acquisition": { "acquiringCompany": { "name": "Globex" }, "amount": 250_000_000,
                         "currency": "EUR" }
    });

    let line = DigestLine::from_event("acquisition.created", &data, CREATED_AT);

    assert_eq!(line.kind, "Acquisition");
    assert_eq!(line.company, "Initech");
    assert_eq!(line.facts, "acquired by Globex, 250,000,000 EUR");
}

#[test]
fn a_job_change_shows_the_person_and_the_new_role() {
    let data = json!({
        "signal": { "type": "job_change", "occurredAt": "2026-09-09T00:00:00.000Z" },
        "company": null,
        "jobChange": { "personName": "Jane D.", "newRole": "CTO", "companyName": "Hooli" }
    });

    let line = DigestLine::from_event("job_change.created", &data, CREATED_AT);

    assert_eq!(line.kind, "Job change");
    assert_eq!(
        line.company, "Hooli",
        "the job change names the company when no record does"
    );
    assert_eq!(line.facts, "Jane D. is now CTO");
}

#[test]
fn a_hiring_signal_names_the_first_postings_and_counts_the_rest() {
    let postings: Vec<Value> = (1..=7)
        .map(|i| json!({ "title": format!("Engineer {i}"), "city": "Berlin", "country": "DE" }))
        .collect();
    let data = json!({
        "signal": { "type": "hiring", "occurredAt": "2026-11-20T00:00:00.000Z" },
        "company": { "name": "Acme" },
        "hiringDetails": postings
    });

    let line = DigestLine::from_event("hiring.created", &data, CREATED_AT);

    assert_eq!(line.kind, "Hiring");
    assert!(
        line.facts
            .starts_with("hiring Engineer 1 (Berlin, DE); Engineer 2 (Berlin, DE)"),
        "{}",
        line.facts
    );
    assert!(
        line.facts.ends_with("Engineer 5 (Berlin, DE); and 2 more"),
        "{}",
        line.facts
    );
}

#[test]
fn an_event_missing_its_signal_block_still_gets_a_line() {
    let line = DigestLine::from_event("funding.created", &json!({}), CREATED_AT);

    assert_eq!(line.kind, "Funding round");
    assert_eq!(line.company, "Unknown company");
    assert_eq!(line.facts, "");
    assert_eq!(
        line.date, "2026-11-21",
        "the date falls back to when the item was created"
    );
}

#[test]
fn the_subject_names_the_monitor_and_the_signal_count() {
    let one = render_digest("Competitors", &[line("Hiring", "Acme", "")]);
    let three = render_digest("Competitors", &vec![line("Hiring", "Acme", ""); 3]);

    assert_eq!(one.subject, "[signalwatch] Competitors: 1 new signal(s)");
    assert_eq!(three.subject, "[signalwatch] Competitors: 3 new signal(s)");
}

#[test]
fn a_line_break_in_the_monitor_name_does_not_break_the_subject() {
    let digest = render_digest("Evil\r\nBcc: x@y.z", &[line("Hiring", "Acme", "")]);

    assert_eq!(
        digest.subject,
        "[signalwatch] Evil  Bcc: x@y.z: 1 new signal(s)"
    );
}

#[test]
fn the_text_part_lists_every_signal_with_type_company_facts_and_date() {
    let digest = render_digest(
        "Competitors",
        &[
            line("Funding round", "Acme", "seed round, 1,000,000 USD"),
            line("Hiring", "Globex", "hiring Designer (Remote)"),
        ],
    );

    assert!(
        digest
            .text
            .starts_with("Your monitor \"Competitors\" has 2 new signals.\n")
    );
    assert!(
        digest
            .text
            .contains("* Funding round: Acme (2026-11-20)\n  seed round, 1,000,000 USD\n")
    );
    assert!(
        digest
            .text
            .contains("* Hiring: Globex (2026-11-20)\n  hiring Designer (Remote)\n")
    );
}

#[test]
fn the_html_part_lists_the_same_signals() {
    let digest = render_digest(
        "Competitors",
        &[line("Funding round", "Acme", "seed round")],
    );

    assert!(digest.html.starts_with("<!DOCTYPE html>"));
    assert!(digest.html.contains("has 1 new signal."));
    assert!(digest.html.contains(
        "<li><strong>Funding round</strong>: Acme <small>(2026-11-20)</small><br>seed round</li>"
    ));
}

#[test]
fn everything_shown_in_the_html_part_is_escaped() {
    let digest = render_digest(
        "<script>alert(1)</script>",
        &[line("Hiring", "Smith & \"Sons\" <b>", "hiring O'Brien <i>")],
    );

    assert!(!digest.html.contains("<script>"), "{}", digest.html);
    assert!(!digest.html.contains("<b>"), "{}", digest.html);
    assert!(!digest.html.contains("<i>"), "{}", digest.html);
    assert!(
        digest
            .html
            .contains("&lt;script&gt;alert(1)&lt;/script&gt;")
    );
    assert!(
        digest
            .html
            .contains("Smith &amp; &quot;Sons&quot; &lt;b&gt;")
    );
    assert!(digest.html.contains("hiring O&#39;Brien &lt;i&gt;"));
    assert!(
        digest.text.contains("Smith & \"Sons\" <b>"),
        "the text part shows the raw text"
    );
}

#[test]
fn amounts_are_grouped_by_thousands() {
    assert_eq!(group_thousands(0), "0");
    assert_eq!(group_thousands(999), "999");
    assert_eq!(group_thousands(1_000), "1,000");
    assert_eq!(group_thousands(-12_345_678), "-12,345,678");
}
