//! Greenhouse job boards: `GET {base}/v1/boards/{token}/jobs?content=true` answers
//! `{"jobs": [...], "meta": {...}}`; a job's description is entity-escaped HTML.

use serde::Deserialize;

use super::location::split_location;
use super::posting::Posting;
use super::text::escaped_html_to_text;
use crate::domain::time::parse_rfc3339_ms;

/// The board's API URL.
pub fn board_url(base: &str, token: &str) -> String {
    format!(
        "{}/v1/boards/{token}/jobs?content=true",
        base.trim_end_matches('/')
    )
}

#[derive(Deserialize)]
struct Board {
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
struct Job {
    id: serde_json::Value,
    title: String,
    absolute_url: Option<String>,
    location: Option<Named>,
    first_published: Option<String>,
    updated_at: Option<String>,
    content: Option<String>,
    #[serde(default)]
    departments: Vec<Named>,
    #[serde(default)]
    offices: Vec<Office>,
}

#[derive(Deserialize)]
struct Named {
    name: Option<String>,
}

#[derive(Deserialize)]
struct Office {
    location: Option<String>,
}

/// The postings of a board's answer.
pub fn parse(body: &[u8]) -> Result<Vec<Posting>, String> {
    let board: Board =
        serde_json::from_slice(body).map_err(|e| format!("unreadable Greenhouse board: {e}"))?;
    Ok(board.jobs.into_iter().filter_map(posting).collect())
}

fn posting(job: Job) -> Option<Posting> {
    let id = match &job.id {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) if !s.trim().is_empty() => s.trim().to_string(),
        _ => return None,
    };
    let location = job
        .location
        .and_then(|l| l.name)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    // An office's location ("Berlin, Germany") is often clearer than the free text.
    let office = job.offices.into_iter().find_map(|o| o.location);
    let mut place = split_location(location.as_deref().unwrap_or_default(), None);
    if place.country.is_none()
        && let Some(office) = office.as_deref()
    {
        place.country = split_location(office, None).country;
    }
    let remote = place.remote;
    Some(Posting {
        id,
        title: job.title.trim().to_string(),
        url: job.absolute_url,
        location,
        place,
        department: job.departments.into_iter().find_map(|d| d.name),
        employment_type: None,
        work_mode: remote.then(|| "remote".to_string()),
        description: job
            .content
            .map(|c| escaped_html_to_text(&c))
            .filter(|d| !d.is_empty()),
        published_at: job
            .first_published
            .or(job.updated_at)
            .and_then(|t| parse_rfc3339_ms(&t)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sources/greenhouse-jobs.json"
    ));

    #[test]
    fn the_example_board_gives_its_two_jobs() {
        let postings = parse(EXAMPLE).expect("parses");
        assert_eq!(postings.len(), 2);
        let first = &postings[0];
        assert_eq!(first.id, "7001234");
        assert_eq!(first.title, "Senior Backend Engineer (Rust)");
        assert_eq!(
            first.url.as_deref(),
            Some("https://job-boards.greenhouse.io/northwindlabs/jobs/7001234")
        );
        assert_eq!(first.location.as_deref(), Some("Berlin, Germany"));
        assert_eq!(first.place.city.as_deref(), Some("Berlin"));
        assert_eq!(first.place.country.as_deref(), Some("DE"));
        assert_eq!(first.department.as_deref(), Some("Engineering"));
        assert_eq!(
            first.description.as_deref(),
            Some(
                "We are looking for a Senior Backend Engineer to build our data platform.\nRust, PostgreSQL"
            )
        );
        assert_eq!(first.published_at, parse_rfc3339_ms("2026-11-17T20:02:10Z"));
        let second = &postings[1];
        assert_eq!(second.place.city, None);
        assert_eq!(second.place.country.as_deref(), Some("US"));
        assert_eq!(second.work_mode.as_deref(), Some("remote"));
    }

    #[test]
    fn a_body_that_is_not_a_board_is_an_error() {
        assert!(parse(b"<html>").is_err());
        assert!(parse(br#"{"jobs": 3}"#).is_err());
        assert_eq!(parse(br#"{"jobs": []}"#), Ok(Vec::new()));
    }

    #[test]
    fn the_api_url_names_the_board() {
        assert_eq!(
            board_url("http://127.0.0.1:9/", "acme"),
            "http://127.0.0.1:9/v1/boards/acme/jobs?content=true"
        );
    }
}
