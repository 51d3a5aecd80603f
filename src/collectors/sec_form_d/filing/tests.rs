use super::*;

const FILING: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/sec/primary_doc.xml"
));

/// The fixture with one piece of text replaced.
fn filing_with(from: &str, to: &str) -> Vec<u8> {
    let text = std::str::from_utf8(FILING).unwrap();
    assert!(text.contains(from), "the fixture holds {from}");
    text.replace(from, to).into_bytes()
}

#[test]
fn a_filing_gives_its_issuer_offering_and_first_sale() {
    let form = parse_filing(FILING).unwrap();
    assert_eq!(form.submission_type, "D");
    assert!(!form.is_amendment());
    assert_eq!(
        form.issuer,
        Issuer {
            cik: "0002000101".into(),
            name: "Harbor Lane Analytics, Inc.".into(),
            city: Some("Portland".into()),
            state_or_country: Some("OR".into()),
            state_or_country_description: Some("OREGON".into()),
            year_of_incorporation: Some(2022),
        }
    );
    assert_eq!(form.industry_group.as_deref(), Some("Other Technology"));
    assert!(!form.is_pooled_fund());
    assert_eq!(form.first_sale, NaiveDate::from_ymd_opt(2026, 11, 12));
    assert_eq!(form.offering_amount, Amount::Dollars(8_500_000));
    assert_eq!(form.amount_sold, Amount::Dollars(6_250_000));
    assert_eq!(form.previous_accession, None);
}

#[test]
fn the_rounds_amount_is_the_total_sold_else_the_offering_amount() {
    assert_eq!(
        parse_filing(FILING).unwrap().round_amount(),
        Some(6_250_000)
    );
    let nothing_sold = filing_with(
        "<totalAmountSold>6250000</totalAmountSold>",
        "<totalAmountSold>0</totalAmountSold>",
    );
    assert_eq!(
        parse_filing(&nothing_sold).unwrap().round_amount(),
        Some(8_500_000)
    );
}

#[test]
fn an_indefinite_offering_amount_with_nothing_sold_gives_no_amount() {
    let indefinite = filing_with(
        "<totalOfferingAmount>8500000",
        "<totalOfferingAmount>Indefinite",
    );
    let indefinite = String::from_utf8(indefinite)
        .unwrap()
        .replace("<totalAmountSold>6250000", "<totalAmountSold>0");
    let form = parse_filing(indefinite.as_bytes()).unwrap();
    assert_eq!(form.offering_amount, Amount::Indefinite);
    assert_eq!(form.round_amount(), None);
}

#[test]
fn a_first_sale_yet_to_occur_leaves_the_date_empty() {
    let yet = filing_with(
        "<dateOfFirstSale><value>2026-11-12</value></dateOfFirstSale>",
        "<dateOfFirstSale><yetToOccur>true</yetToOccur></dateOfFirstSale>",
    );
    assert_eq!(parse_filing(&yet).unwrap().first_sale, None);
}

#[test]
fn an_amendment_names_the_filing_it_amends() {
    let amendment = filing_with(
        "<submissionType>D</submissionType>",
        "<submissionType>D/A</submissionType>",
    );
    let amendment = String::from_utf8(amendment).unwrap().replace(
        "<isAmendment>false</isAmendment>",
        "<isAmendment>true</isAmendment><previousAccessionNumber>0002000101-26-000001</previousAccessionNumber>",
    );
    let form = parse_filing(amendment.as_bytes()).unwrap();
    assert!(form.is_amendment());
    assert_eq!(
        form.previous_accession.as_deref(),
        Some("0002000101-26-000001")
    );
}

#[test]
fn a_pooled_investment_fund_is_recognised() {
    let fund = filing_with("Other Technology", "Pooled Investment Fund");
    assert!(parse_filing(&fund).unwrap().is_pooled_fund());
}

#[test]
fn malformed_xml_and_a_document_without_an_issuer_name_are_errors() {
    let truncated = &FILING[..FILING.len() / 2];
    assert!(parse_filing(truncated).is_err());
    let nameless = filing_with("<entityName>Harbor Lane Analytics, Inc.</entityName>", "");
    let error = parse_filing(&nameless).unwrap_err();
    assert!(error.contains("no name"), "{error}");
}
