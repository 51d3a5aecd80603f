//! Lever job boards: `GET {base}/v0/postings/{company}?mode=json` answers the whole board as a
//! bare JSON array of postings.

use serde::Deserialize;

use super::location::split_location;
use super::posting::{Posting, work_mode};
use super::text::html_to_text;

/// The board's API URL.
pub fn board_url(base: &str, company: &str) -> String {
    format!(
        "{}/v0/postings/{company}?mode=json",
        base.trim_end_matches('/')
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    id: String,
    text: String,
    #[serde(default)]
    categories: Categories,
    country: Option<String>,
    workplace_type: Option<String>,
    created_at: Option<i64>,
    hosted_url: Option<String>,
    description_plain: Option<String>,
    description: Option<String>,
}

#[derive(Deserialize, Default)]
struct Categories {
    commitment: Option<String>,
    department: Option<String>,
    team: Option<String>,
    location: Option<String>,
}

/// The postings of a board's answer.
pub fn parse(body: &[u8]) -> Result<Vec<Posting>, String> {
    let jobs: Vec<Job> =
        serde_json::from_slice(body).map_err(|e| format!("unreadable Lever board: {e}"))?;
    Ok(jobs
        .into_iter()
        .filter(|job| !job.id.trim().is_empty())
        .map(posting)
        .collect())
}

fn posting(job: Job) -> Posting {
    let location = job
        .categories
        .location
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    let place = split_location(
        location.as_deref().unwrap_or_default(),
        job.country.as_deref(),
    );
    let description = job
        .description_plain
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .or_else(|| job.description.map(|d| html_to_text(&d)))
        .filter(|d| !d.is_empty());
    let mode = job
        .workplace_type
        .as_deref()
        .and_then(work_mode)
        .or_else(|| place.remote.then(|| "remote".to_string()));
    Posting {
        id: job.id.trim().to_string(),
        title: job.text.trim().to_string(),
        url: job.hosted_url,
        location,
        place,
        department: job.categories.department.or(job.categories.team),
        employment_type: job.categories.commitment,
        work_mode: mode,
        description,
        published_at: job.created_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sources/lever-postings.json"
    ));

    #[test]
    fn the_example_board_gives_its_posting() {
        let postings = parse(EXAMPLE).expect("parses");
        assert_eq!(postings.len(), 1);
        let p = &postings[0];
        assert_eq!(p.id, "3f1c2b9e-5d0a-4d7e-9a51-0c8e6b2f4a10");
        assert_eq!(p.title, "Staff Site Reliability Engineer");
        assert_eq!(p.place.city.as_deref(), Some("London"));
        assert_eq!(p.place.country.as_deref(), Some("GB"));
        assert_eq!(p.department.as_deref(), Some("Engineering"));
        assert_eq!(p.employment_type.as_deref(), Some("Full-time"));
        assert_eq!(p.work_mode.as_deref(), Some("hybrid"));
        assert_eq!(
            p.description.as_deref(),
            Some("Join the platform team that runs our data pipeline.")
        );
        assert_eq!(p.published_at, Some(1_763_552_400_000));
        assert_eq!(
            p.url.as_deref(),
            Some("https://jobs.lever.co/brightfieldai/3f1c2b9e-5d0a-4d7e-9a51-0c8e6b2f4a10")
        );
    }

    #[test]
    fn an_unknown_board_answer_is_not_a_board() {
        assert!(parse(br#"{"ok": false, "error": "Document not found"}"#).is_err());
        assert_eq!(parse(b"[]"), Ok(Vec::new()));
    }
}
