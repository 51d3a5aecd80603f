use super::*;
use crate::collectors::sec_form_d::{parse_feed, parse_filing};

fn filing() -> (FormD, FeedEntry) {
    let doc = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sec/primary_doc.xml"
    ));
    let feed = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sec/current-d.atom"
    ));
    (
        parse_filing(doc).unwrap(),
        parse_feed(feed).unwrap().remove(0),
    )
}

#[test]
fn a_new_issuers_record_carries_the_round_and_the_fields_to_create_the_company() {
    let (form, entry) = filing();
    let record = funding_record(
        &form,
        &entry,
        "0002000101-26-000003",
        "sig-1",
        &IssuerCompany::New,
    );
    assert_eq!(
        serde_json::Value::Object(record),
        json!({
            "signalId": "sig-1",
            "externalId": "0002000101-26-000003",
            "roundType": "undisclosed",
            "currency": "USD",
            "amount": 6_250_000,
            "announcedDate": "2026-11-12",
            "companyName": "Harbor Lane Analytics",
            "companyCountry": "United States",
            "companyFoundedYear": 2022,
            "sources": [{
                "url": entry.index_url,
                "sourceType": "sec_filing",
                "title": "Form D filed by Harbor Lane Analytics, Inc.",
                "isPrimary": true,
            }],
        })
    );
}

#[test]
fn a_known_issuers_record_names_only_the_company_id() {
    let (form, entry) = filing();
    let record = funding_record(
        &form,
        &entry,
        "acc",
        "sig-1",
        &IssuerCompany::Known("c-9".into()),
    );
    assert_eq!(record["companyId"], "c-9");
    assert!(record.get("companyName").is_none());
}

#[test]
fn without_a_first_sale_the_round_is_dated_by_the_filing_day() {
    let (mut form, entry) = filing();
    form.first_sale = None;
    let record = funding_record(&form, &entry, "acc", "sig-1", &IssuerCompany::New);
    assert_eq!(record["announcedDate"], "2026-11-25");
}

#[test]
fn the_issuers_country_comes_from_the_state_code_or_the_foreign_description() {
    let (mut form, _) = filing();
    assert_eq!(issuer_country(&form), (Some("US"), Some("OR")));
    form.issuer.state_or_country = Some("X0".into());
    form.issuer.state_or_country_description = Some("UNITED KINGDOM".into());
    assert_eq!(issuer_country(&form), (Some("GB"), None));
    form.issuer.state_or_country = Some("A6".into());
    form.issuer.state_or_country_description = Some("ONTARIO, CANADA".into());
    assert_eq!(issuer_country(&form), (Some("CA"), None));
}

#[test]
fn an_issuers_brand_name_leaves_its_legal_form_out() {
    assert_eq!(
        brand_name("Harbor Lane Analytics, Inc."),
        "Harbor Lane Analytics"
    );
    assert_eq!(brand_name("Café Norte Holdings LLC"), "Café Norte Holdings");
    assert_eq!(brand_name("Northwind Corp."), "Northwind");
    assert_eq!(brand_name("Blue Fern Co., Ltd."), "Blue Fern");
    assert_eq!(brand_name("Incorporated Things"), "Incorporated Things");
    assert_eq!(brand_name("Inc."), "Inc.");
}
