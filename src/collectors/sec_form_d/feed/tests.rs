use super::*;

const FEED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/sec/current-d.atom"
));

#[test]
fn the_feed_yields_its_form_d_and_d_a_filings_in_order_and_leaves_other_forms_out() {
    let entries = parse_feed(FEED).unwrap();
    let accessions: Vec<&str> = entries.iter().map(|e| e.accession.as_str()).collect();
    assert_eq!(accessions, ["0002000101-26-000003", "0002000202-26-000009"]);
    assert_eq!(entries[0].form_type, "D");
    assert!(!entries[0].is_amendment());
    assert_eq!(entries[1].form_type, "D/A");
    assert!(entries[1].is_amendment());
}

#[test]
fn an_entry_names_its_filer_without_the_cik_and_role_and_decodes_entities() {
    let entries = parse_feed(FEED).unwrap();
    assert_eq!(entries[0].filer_name, "Harbor Lane Analytics, Inc.");
    assert_eq!(entries[1].filer_name, "Café Norte Holdings LLC");
}

#[test]
fn an_entry_gives_its_index_page_its_structured_document_and_its_filing_day() {
    let entry = &parse_feed(FEED).unwrap()[0];
    assert_eq!(
        entry.index_url,
        "https://www.sec.gov/Archives/edgar/data/2000101/000200010126000003/0002000101-26-000003-index.htm"
    );
    assert_eq!(
        entry.primary_doc_url(),
        "https://www.sec.gov/Archives/edgar/data/2000101/000200010126000003/primary_doc.xml"
    );
    assert_eq!(entry.filed, NaiveDate::from_ymd_opt(2026, 11, 25));
}

#[test]
fn a_latin_1_feed_is_decoded_byte_by_byte() {
    let mut feed =
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?><feed><entry><title>D - Caf".to_vec();
    feed.push(0xE9);
    feed.extend_from_slice(
        b" Sur SA (0002000404) (Filer)</title><link href=\"https://x.test/a/0002000404-26-000001-index.htm\"/>\
          <category term=\"D\"/></entry></feed>",
    );
    let entries = parse_feed(&feed).unwrap();
    assert_eq!(entries[0].filer_name, "Café Sur SA");
    assert_eq!(
        entries[0].accession, "0002000404-26-000001",
        "without an id the accession comes from the index page's name"
    );
}

#[test]
fn an_entry_without_a_link_or_accession_is_left_out() {
    let feed =
        b"<feed><entry><title>D - Nobody (1) (Filer)</title><category term=\"D\"/></entry></feed>";
    assert!(parse_feed(feed).unwrap().is_empty());
}

#[test]
fn an_empty_feed_has_no_filings_and_a_page_that_is_not_xml_is_an_error() {
    assert!(parse_feed(b"<feed></feed>").unwrap().is_empty());
    let error = parse_feed(b"<html><body>Access denied<p></body>").unwrap_err();
    assert!(error.contains("not Atom"), "{error}");
}
