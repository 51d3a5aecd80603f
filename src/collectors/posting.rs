//! A job posting as every board reads into it, and the hiring record it becomes: the same
//! fields an imported posting carries, so the ingest path stores, tags and delivers it alike.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::location::Place;
use crate::domain::job_board::Provider;
use crate::domain::time::{Millis, format_ms};

/// Milliseconds in a day.
pub const DAY_MS: Millis = 86_400_000;

/// One posting read from a board.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Posting {
    /// The board's own id of the posting.
    pub id: String,
    pub title: String,
    /// The posting's page.
    pub url: Option<String>,
    /// The location as the board writes it.
    pub location: Option<String>,
    pub place: Place,
    pub department: Option<String>,
    /// `Full-time`, `Part-time`, `Contract`, `Internship`, `Temporary`, or as the board says.
    pub employment_type: Option<String>,
    /// `onsite`, `remote` or `hybrid`.
    pub work_mode: Option<String>,
    /// Plain text.
    pub description: Option<String>,
    /// When the board says it was published.
    pub published_at: Option<Millis>,
}

/// The id of the signal a posting becomes: the same for the same (provider, board, posting)
/// every time, in any process, so a posting accepted twice is one signal.
pub fn signal_id(provider: Provider, board: &str, posting_id: &str) -> String {
    let digest = Sha256::digest(format!(
        "{}\u{0}{board}\u{0}{posting_id}",
        provider.as_str()
    ));
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_custom_bytes(bytes)
        .into_uuid()
        .to_string()
}

/// The hiring record of a posting of `company_id`'s board, first seen at `first_seen`.
pub fn hiring_record(
    provider: Provider,
    board: &str,
    company_id: &str,
    posting: &Posting,
    first_seen: Millis,
) -> Map<String, Value> {
    let mut record = Map::new();
    let mut put = |key: &str, value: Value| {
        if !value.is_null() {
            record.insert(key.to_string(), value);
        }
    };
    put("id", json!(signal_id(provider, board, &posting.id)));
    put("jobId", json!(posting.id));
    put("companyId", json!(company_id));
    put("title", json!(posting.title));
    put("jobUrl", json!(posting.url));
    put("location", json!(posting.location));
    put("city", json!(posting.place.city));
    put("region", json!(posting.place.region));
    put("jobCountry", json!(posting.place.country));
    put("department", json!(posting.department));
    put("employmentType", json!(posting.employment_type));
    put("workMode", json!(posting.work_mode));
    put("descriptionText", json!(posting.description));
    let posted = posting
        .published_at
        .unwrap_or(first_seen - first_seen.rem_euclid(DAY_MS));
    put("datePosted", json!(format_ms(posted)));
    put("createdAt", json!(format_ms(first_seen)));
    put(
        "sources",
        json!(posting.url.as_ref().map(|url| vec![json!({
            "url": url, "sourceType": "job_board", "title": provider.as_str(), "isPrimary": true,
        })])),
    );
    record
}

/// A work mode as `onsite`, `remote` or `hybrid`; `None` for anything else.
pub fn work_mode(raw: &str) -> Option<String> {
    let lower = raw.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
    match lower.as_str() {
        "onsite" | "inoffice" | "office" => Some("onsite".into()),
        "remote" => Some("remote".into()),
        "hybrid" => Some("hybrid".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posting_has_one_signal_id_per_board_and_provider() {
        let id = signal_id(Provider::Lever, "acme", "p1");
        assert_eq!(id, signal_id(Provider::Lever, "acme", "p1"));
        assert_ne!(id, signal_id(Provider::Lever, "acme", "p2"));
        assert_ne!(id, signal_id(Provider::Ashby, "acme", "p1"));
        assert_ne!(id, signal_id(Provider::Lever, "acmep", "1"));
        assert!(uuid::Uuid::parse_str(&id).is_ok());
    }

    #[test]
    fn a_posting_without_a_date_is_posted_the_day_it_was_first_seen() {
        let posting = Posting {
            id: "p1".into(),
            title: "Engineer".into(),
            ..Posting::default()
        };
        let record = hiring_record(
            Provider::Greenhouse,
            "acme",
            "c1",
            &posting,
            86_400_000 + 5_000,
        );
        assert_eq!(record["datePosted"], "1970-01-02T00:00:00.000Z");
        assert_eq!(record["companyId"], "c1");
        assert!(!record.contains_key("jobUrl"));
    }

    #[test]
    fn work_modes_are_read_in_the_spellings_boards_use() {
        assert_eq!(work_mode("OnSite").as_deref(), Some("onsite"));
        assert_eq!(work_mode("on-site").as_deref(), Some("onsite"));
        assert_eq!(work_mode("Hybrid").as_deref(), Some("hybrid"));
        assert_eq!(work_mode("unspecified"), None);
    }
}
