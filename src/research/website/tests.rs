use super::*;
use crate::domain::job_board::Provider;

const EXAMPLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/sources/website.html"
));

#[test]
fn the_example_page_gives_every_fact_json_ld_has() {
    let facts = read_website(EXAMPLE, "https://northwindlabs.example/");
    assert_eq!(facts.name.as_deref(), Some("Northwind Labs GmbH"));
    assert_eq!(
        facts.description.as_deref(),
        Some("Northwind Labs builds data infrastructure for logistics teams.")
    );
    assert_eq!(
        facts.logo.as_deref(),
        Some("https://northwindlabs.example/static/logo.png")
    );
    assert_eq!(
        facts.linkedin_url.as_deref(),
        Some("https://www.linkedin.com/company/northwind-labs")
    );
    assert_eq!(facts.country.as_deref(), Some("DE"));
    assert_eq!(facts.founded_year, Some(2019));
    assert_eq!(facts.employee_count, Some(140));
    assert_eq!(
        facts.job_boards,
        vec![JobBoard {
            provider: Provider::Greenhouse,
            token: "northwindlabs".into()
        }]
    );
}

#[test]
fn without_json_ld_the_name_comes_from_open_graph_then_the_title_without_its_tagline() {
    let og = r#"<html><head><title>Home - Acme</title>
        <meta property="og:site_name" content=" Acme  Robotics "></head></html>"#;
    assert_eq!(
        read_website(og, "https://acme.example/").name.as_deref(),
        Some("Acme Robotics")
    );
    for (title, name) in [
        ("Globex | We build things", "Globex"),
        ("Initech — Software for offices", "Initech"),
        ("Hooli: the future", "Hooli"),
        ("  Plain Name  ", "Plain Name"),
    ] {
        let page = format!("<html><head><title>{title}</title></head><body></body></html>");
        assert_eq!(
            read_website(&page, "https://x.example/").name.as_deref(),
            Some(name),
            "{title}"
        );
    }
}

#[test]
fn a_page_with_no_name_gives_none() {
    let facts = read_website(
        "<html><head></head><body><p>under construction</p></body></html>",
        "https://x.example/",
    );
    assert_eq!(facts.name, None);
    let blank = read_website(
        "<html><head><title> | </title></head></html>",
        "https://x.example/",
    );
    assert_eq!(blank.name, None);
}

#[test]
fn links_name_the_linkedin_page_and_every_job_board_once() {
    let page = r#"<html><head><title>Acme</title>
        <meta name="description" content="Robots.">
        <meta property="og:image" content="/logo.svg"></head><body>
        <a href="https://www.linkedin.com/company/acme-robotics/about/">LinkedIn</a>
        <a href="https://jobs.lever.co/acme">Jobs</a>
        <a href="https://jobs.lever.co/acme/123">A job</a>
        <a href="https://jobs.ashbyhq.com/acme-eu">EU jobs</a>
        <a href="https://www.linkedin.com/in/someone">CEO</a>
        </body></html>"#;
    let facts = read_website(page, "https://acme.example/home");
    assert_eq!(facts.description.as_deref(), Some("Robots."));
    assert_eq!(facts.logo.as_deref(), Some("https://acme.example/logo.svg"));
    assert_eq!(
        facts.linkedin_url.as_deref(),
        Some("https://www.linkedin.com/company/acme-robotics")
    );
    let boards: Vec<(Provider, &str)> = facts
        .job_boards
        .iter()
        .map(|b| (b.provider, b.token.as_str()))
        .collect();
    assert_eq!(
        boards,
        vec![(Provider::Lever, "acme"), (Provider::Ashby, "acme-eu")]
    );
}

#[test]
fn json_ld_in_a_graph_with_a_range_of_employees_and_a_country_name_is_read() {
    let page = r#"<html><head><script type="application/ld+json">
        {"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Site"},
         {"@type":["Corporation"],"name":"Initech Inc.","logo":"https://i.example/l.png",
          "foundingDate":"1999-02-19","address":{"addressCountry":"United States"},
          "numberOfEmployees":{"minValue":51,"maxValue":200}}]}
        </script><script type="application/ld+json">{not json</script></head></html>"#;
    let facts = read_website(page, "https://i.example/");
    assert_eq!(facts.name.as_deref(), Some("Initech Inc."));
    assert_eq!(facts.logo.as_deref(), Some("https://i.example/l.png"));
    assert_eq!(facts.founded_year, Some(1999));
    assert_eq!(facts.country.as_deref(), Some("US"));
    assert_eq!(facts.employee_count, Some(125));
}
