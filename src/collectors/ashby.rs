//! Ashby job boards: `GET {base}/posting-api/job-board/{name}` answers
//! `{"apiVersion": "1", "jobs": [...]}`; only listed jobs are open postings.

use serde::Deserialize;

use super::location::{Place, split_location};
use super::posting::{Posting, work_mode};
use super::text::html_to_text;
use crate::domain::countries::country_code;
use crate::domain::time::parse_rfc3339_ms;
use crate::domain::us_states::state_code;

/// The board's API URL.
pub fn board_url(base: &str, name: &str) -> String {
    format!(
        "{}/posting-api/job-board/{name}",
        base.trim_end_matches('/')
    )
}

#[derive(Deserialize)]
struct Board {
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    id: String,
    title: String,
    department: Option<String>,
    team: Option<String>,
    employment_type: Option<String>,
    location: Option<String>,
    address: Option<Address>,
    is_remote: Option<bool>,
    workplace_type: Option<String>,
    published_at: Option<String>,
    is_listed: Option<bool>,
    job_url: Option<String>,
    description_plain: Option<String>,
    description_html: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Address {
    postal_address: Option<PostalAddress>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PostalAddress {
    address_locality: Option<String>,
    address_region: Option<String>,
    address_country: Option<String>,
}

/// The postings of a board's answer (unlisted jobs left out).
pub fn parse(body: &[u8]) -> Result<Vec<Posting>, String> {
    let board: Board =
        serde_json::from_slice(body).map_err(|e| format!("unreadable Ashby board: {e}"))?;
    Ok(board
        .jobs
        .into_iter()
        .filter(|job| job.is_listed != Some(false) && !job.id.trim().is_empty())
        .map(posting)
        .collect())
}

/// Ashby's employment types in the words imported postings use.
fn employment_type(raw: &str) -> String {
    match raw {
        "FullTime" => "Full-time",
        "PartTime" => "Part-time",
        "Intern" => "Internship",
        "Contract" => "Contract",
        "Temporary" => "Temporary",
        other => other,
    }
    .to_string()
}

fn posting(job: Job) -> Posting {
    let location = job
        .location
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    let postal = job.address.and_then(|a| a.postal_address);
    let place = match postal {
        Some(postal) if postal.address_country.is_some() || postal.address_locality.is_some() => {
            from_address(&postal, location.as_deref())
        }
        _ => split_location(location.as_deref().unwrap_or_default(), None),
    };
    let mode = job
        .workplace_type
        .as_deref()
        .and_then(work_mode)
        .or_else(|| (job.is_remote == Some(true)).then(|| "remote".to_string()));
    Posting {
        id: job.id.trim().to_string(),
        title: job.title.trim().to_string(),
        url: job.job_url,
        location,
        place,
        department: job.department.or(job.team),
        employment_type: job.employment_type.as_deref().map(employment_type),
        work_mode: mode,
        description: job
            .description_plain
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty())
            .or_else(|| job.description_html.map(|d| html_to_text(&d)))
            .filter(|d| !d.is_empty()),
        published_at: job.published_at.and_then(|t| parse_rfc3339_ms(&t)),
    }
}

/// The place of a structured address; the free text fills what it lacks.
fn from_address(postal: &PostalAddress, location: Option<&str>) -> Place {
    let text = split_location(
        location.unwrap_or_default(),
        postal.address_country.as_deref(),
    );
    let country = postal
        .address_country
        .as_deref()
        .and_then(|c| country_code(c.trim()))
        .map(str::to_string)
        .or(text.country);
    let region = postal.address_region.as_deref().map(|r| {
        match state_code(r).filter(|_| country.as_deref() == Some("US")) {
            Some(state) => state.to_string(),
            None => r.trim().to_string(),
        }
    });
    Place {
        city: postal
            .address_locality
            .as_ref()
            .map(|c| c.trim().to_string())
            .or(text.city),
        region: region.or(text.region),
        country,
        remote: text.remote,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sources/ashby-job-board.json"
    ));

    #[test]
    fn the_example_board_gives_its_job_with_its_address() {
        let postings = parse(EXAMPLE).expect("parses");
        assert_eq!(postings.len(), 1);
        let p = &postings[0];
        assert_eq!(p.id, "9b0e6a4c-1f57-4a43-8f6e-2d6c0b7d5e21");
        assert_eq!(p.title, "Head of Marketing");
        assert_eq!(p.place.city.as_deref(), Some("Paris"));
        assert_eq!(p.place.region.as_deref(), Some("Île-de-France"));
        assert_eq!(p.place.country.as_deref(), Some("FR"));
        assert_eq!(p.department.as_deref(), Some("Marketing"));
        assert_eq!(p.employment_type.as_deref(), Some("Full-time"));
        assert_eq!(p.work_mode.as_deref(), Some("onsite"));
        assert_eq!(p.description.as_deref(), Some("Lead our marketing team."));
        assert_eq!(p.published_at, parse_rfc3339_ms("2026-11-19T08:30:00Z"));
    }

    #[test]
    fn unlisted_jobs_are_not_postings() {
        let body = br#"{"apiVersion":"1","jobs":[
            {"id":"a","title":"Open","isListed":true},
            {"id":"b","title":"Hidden","isListed":false}]}"#;
        let ids: Vec<String> = parse(body)
            .expect("parses")
            .into_iter()
            .map(|p| p.id)
            .collect();
        assert_eq!(ids, ["a"]);
        assert!(parse(b"not json").is_err());
    }
}
