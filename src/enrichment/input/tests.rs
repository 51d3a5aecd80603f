use serde_json::json;

use super::*;

fn objects(value: Value) -> Vec<OrderedObject> {
    serde_json::from_value::<Vec<Value>>(value)
        .unwrap()
        .into_iter()
        .map(|item| serde_json::from_str(&item.to_string()).unwrap())
        .collect()
}

#[test]
fn json_objects_keep_their_field_order_and_every_field() {
    let parsed: Vec<OrderedObject> =
        serde_json::from_str(r#"[{"website_url": "a.com", "external_id": "1", "b": 2}]"#).unwrap();
    let names: Vec<&str> = parsed[0].0.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["website_url", "external_id", "b"]);
    let upload = Upload::from_objects(parsed).unwrap();
    assert_eq!(upload.columns, ["website_url", "external_id", "b"]);
    assert_eq!(upload.rows[0].input["b"], json!(2));
    assert_eq!(upload.rows[0].ids.website_url.as_deref(), Some("a.com"));
}

#[test]
fn json_aliases_are_mapped_and_reported() {
    let upload = Upload::from_objects(objects(json!([
        { "companyName": "Mollie", "domain": "mollie.com" },
        { "linkedin": "https://www.linkedin.com/company/acme" },
    ])))
    .unwrap();
    assert_eq!(upload.mapping.company_name.as_deref(), Some("companyName"));
    assert_eq!(upload.mapping.website_url.as_deref(), Some("domain"));
    assert_eq!(upload.mapping.linkedin_url.as_deref(), Some("linkedin"));
    assert_eq!(upload.rows[1].ids.company_name, None);
}

#[test]
fn a_company_without_any_identifier_is_refused() {
    let err = Upload::from_objects(objects(json!([
        { "company_name": "Acme" },
        { "company_name": "  ", "external_id": "x" },
    ])))
    .unwrap_err();
    assert!(
        matches!(&err, UploadError::Companies(m) if m.contains("companies[1]")),
        "{err}"
    );
}

#[test]
fn an_identifier_that_is_not_text_is_refused() {
    let err = Upload::from_objects(objects(json!([{ "website_url": ["a.com"] }]))).unwrap_err();
    assert!(matches!(err, UploadError::Companies(_)));
    let numeric = Upload::from_objects(objects(json!([{ "name": 3 }]))).unwrap();
    assert_eq!(numeric.rows[0].ids.company_name.as_deref(), Some("3"));
}

#[test]
fn another_spelling_of_an_identifier_is_read_when_it_is_text_and_kept_as_sent_otherwise() {
    let spelled = Upload::from_objects(objects(json!([{ "Company Name": "Acme" }]))).unwrap();
    assert_eq!(spelled.rows[0].ids.company_name.as_deref(), Some("Acme"));
    let kept = Upload::from_objects(objects(json!([
        { "company_name": "Acme", "companylinkedinurl": { "nested": 1 } }
    ])))
    .unwrap();
    assert_eq!(kept.rows[0].ids.linkedin_url, None);
    assert_eq!(
        kept.rows[0].input["companylinkedinurl"],
        json!({ "nested": 1 })
    );
}

#[test]
fn between_one_and_a_thousand_companies_are_accepted() {
    assert!(Upload::from_objects(Vec::new()).is_err());
    let one = json!({ "name": "A" });
    assert!(Upload::from_objects(objects(json!(vec![one.clone(); 1000]))).is_ok());
    assert!(Upload::from_objects(objects(json!(vec![one; 1001]))).is_err());
}

#[test]
fn csv_headers_map_like_json_fields_and_other_columns_are_kept() {
    let file = "\u{feff}Company Name,Website,Notes\nMollie,mollie.com,key account\n\n,acme.com,\n";
    let upload = Upload::from_csv(file.as_bytes()).unwrap();
    assert_eq!(upload.mapping.company_name.as_deref(), Some("Company Name"));
    assert_eq!(upload.mapping.website_url.as_deref(), Some("Website"));
    assert_eq!(upload.columns, ["Company Name", "Website", "Notes"]);
    assert_eq!(upload.rows.len(), 2);
    assert_eq!(upload.rows[0].input["Notes"], json!("key account"));
    assert_eq!(upload.rows[1].ids.company_name, None);
    assert_eq!(upload.rows[1].ids.website_url.as_deref(), Some("acme.com"));
}

#[test]
fn quoted_csv_fields_may_hold_commas_and_line_breaks() {
    let file = "name,notes\n\"Acme, Inc.\",\"two\nlines\"\n";
    let upload = Upload::from_csv(file.as_bytes()).unwrap();
    assert_eq!(
        upload.rows[0].ids.company_name.as_deref(),
        Some("Acme, Inc.")
    );
    assert_eq!(upload.rows[0].input["notes"], json!("two\nlines"));
}

#[test]
fn a_csv_without_an_identifier_column_or_rows_is_refused() {
    assert!(matches!(
        Upload::from_csv(b"id,notes\n1,x\n"),
        Err(UploadError::Companies(_))
    ));
    assert!(matches!(
        Upload::from_csv(b"name,website\n"),
        Err(UploadError::Companies(_))
    ));
}

#[test]
fn malformed_csv_is_refused() {
    assert!(matches!(
        Upload::from_csv(b"name,name\nA,B\n"),
        Err(UploadError::Malformed(_))
    ));
    assert!(matches!(
        Upload::from_csv(b"name\nA,extra\n"),
        Err(UploadError::Malformed(_))
    ));
    assert!(matches!(
        Upload::from_csv(b"name\n\xff\xfe\n"),
        Err(UploadError::Malformed(_))
    ));
}

#[test]
fn a_nul_is_refused_under_a_listed_name_and_kept_under_another_spelling() {
    let kept = Upload::from_objects(objects(json!([
        { "company_name": "Acme", "Company Name": "A\u{0}cme" }
    ])))
    .unwrap();
    assert_eq!(kept.rows[0].ids.company_name.as_deref(), Some("Acme"));
    let refused = Upload::from_objects(objects(json!([
        { "company_name": "Acme", "companyName": "A\u{0}" }
    ])));
    assert!(matches!(refused, Err(UploadError::Companies(m)) if m.contains("NUL")));
}
