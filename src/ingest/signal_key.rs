//! Which stored signal a record is: its own id when it gives one (`signalId` or `id`), else an id
//! derived from its `externalId` (the source's own identifier), else an id derived from a natural
//! key per kind, so that importing the same record twice updates one signal instead of storing
//! (and delivering) a second one.
//!
//! Natural keys (each with the signal kind; text compared trimmed and lower-cased, dates by UTC
//! day):
//! - funding round: the company, the announcement day, the round type and the amount;
//! - job posting: the company and the posting's `jobUrl`, else its `jobId`, else its title,
//!   location and posting day;
//! - acquisition: the acquired company, the acquirer and the day;
//! - job change: the person (member profile URL, else name), the new company and the day.

use sha2::{Digest, Sha256};

use super::fields::{Record, integer, text};
use crate::domain::signal_type::SignalType;
use crate::domain::target::normalize_linkedin_profile;
use crate::store::signals::SignalRow;

/// A day in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// How a record names the signal it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignalKey {
    /// The record's own id.
    Given(String),
    /// The source's identifier of the signal.
    External(String),
    /// The record's own parts of its natural key; the companies and the day are added once the
    /// companies are known.
    Natural(Vec<String>),
}

impl SignalKey {
    /// The key of a record of `kind`.
    pub fn of(kind: SignalType, record: &Record) -> SignalKey {
        if let Some(id) = text(record, &["signalId", "id"]) {
            return SignalKey::Given(id);
        }
        if let Some(external) = text(record, &["externalId"]) {
            return SignalKey::External(external);
        }
        let lower = |keys: &[&str]| text(record, keys).map(|s| s.to_lowercase());
        let parts = match kind {
            SignalType::FundingRound => vec![
                lower(&["roundType"]),
                integer(record, &["amount"]).map(|amount| amount.to_string()),
            ],
            SignalType::Hiring => match lower(&["jobUrl"]).or_else(|| lower(&["jobId"])) {
                Some(posting) => vec![Some(posting.trim_end_matches('/').to_string())],
                None => vec![lower(&["title"]), lower(&["location"])],
            },
            SignalType::Acquisition => Vec::new(),
            SignalType::JobChange => vec![
                text(record, &["personLinkedinUrl"])
                    .and_then(|url| normalize_linkedin_profile(&url))
                    .or_else(|| lower(&["personName"])),
            ],
        };
        SignalKey::Natural(parts.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// The id of the signal `row` (its companies and date set) is.
    pub fn id(&self, row: &SignalRow) -> String {
        match self {
            SignalKey::Given(id) => id.clone(),
            SignalKey::External(external) => derived_id(&[row.kind, "external", external]),
            SignalKey::Natural(parts) => {
                let day = row.occurred_at.div_euclid(DAY_MS).to_string();
                let mut key: Vec<&str> = vec![row.kind, "natural", &row.company_id];
                key.push(row.other_company_id.as_deref().unwrap_or_default());
                key.push(&day);
                key.extend(parts.iter().map(String::as_str));
                derived_id(&key)
            }
        }
    }
}

/// A UUID-shaped id that is a hash of `parts`: the same parts always give the same id.
fn derived_id(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap_or_default()
    }

    fn row(kind: SignalType, company: &str, other: Option<&str>, at: i64) -> SignalRow {
        SignalRow {
            kind: kind.as_str(),
            company_id: company.into(),
            other_company_id: other.map(str::to_string),
            occurred_at: at,
            ..SignalRow::default()
        }
    }

    #[test]
    fn a_given_id_is_kept_as_it_is() {
        let key = SignalKey::of(SignalType::Hiring, &record(json!({"signalId": "sig-1"})));
        assert_eq!(key.id(&row(SignalType::Hiring, "c", None, 0)), "sig-1");
    }

    #[test]
    fn the_same_funding_round_gets_the_same_id_whatever_the_time_of_day() {
        let round = json!({"roundType": "Series A", "amount": 5_000_000});
        let key = SignalKey::of(SignalType::FundingRound, &record(round));
        let morning = key.id(&row(SignalType::FundingRound, "c1", None, DAY_MS * 100 + 1));
        let evening = key.id(&row(SignalType::FundingRound, "c1", None, DAY_MS * 101 - 1));
        assert_eq!(morning, evening);
        assert!(uuid::Uuid::parse_str(&morning).is_ok(), "{morning}");
        let other_company = key.id(&row(SignalType::FundingRound, "c2", None, DAY_MS * 100));
        assert_ne!(morning, other_company);
        let next_day = key.id(&row(SignalType::FundingRound, "c1", None, DAY_MS * 101));
        assert_ne!(morning, next_day);
    }

    #[test]
    fn funding_rounds_of_other_amounts_or_types_are_other_signals() {
        let id = |value: Value| {
            SignalKey::of(SignalType::FundingRound, &record(value)).id(&row(
                SignalType::FundingRound,
                "c",
                None,
                0,
            ))
        };
        let base = id(json!({"roundType": "seed", "amount": 1}));
        assert_eq!(base, id(json!({"roundType": "Seed", "amount": "1"})));
        assert_ne!(base, id(json!({"roundType": "seed", "amount": 2})));
        assert_ne!(base, id(json!({"roundType": "series a", "amount": 1})));
    }

    #[test]
    fn a_posting_is_known_by_its_url_before_its_title() {
        let id = |value: Value| {
            SignalKey::of(SignalType::Hiring, &record(value)).id(&row(
                SignalType::Hiring,
                "c",
                None,
                0,
            ))
        };
        let by_url = id(json!({"jobUrl": "https://jobs.example/1/", "title": "A"}));
        assert_eq!(
            by_url,
            id(json!({"jobUrl": "https://jobs.example/1", "title": "B"}))
        );
        assert_ne!(
            by_url,
            id(json!({"jobUrl": "https://jobs.example/2", "title": "A"}))
        );
        let by_title = id(json!({"title": "Engineer", "location": "Berlin"}));
        assert_ne!(
            by_title,
            id(json!({"title": "Engineer", "location": "Paris"}))
        );
    }

    #[test]
    fn a_job_change_is_known_by_the_person_and_the_new_company() {
        let id = |value: Value, company: &str| {
            SignalKey::of(SignalType::JobChange, &record(value)).id(&row(
                SignalType::JobChange,
                company,
                None,
                0,
            ))
        };
        let jane = json!({"personLinkedinUrl": "https://www.linkedin.com/in/jane/"});
        let same_jane = json!({"personLinkedinUrl": "linkedin.com/in/jane"});
        assert_eq!(id(jane.clone(), "c"), id(same_jane, "c"));
        assert_ne!(id(jane.clone(), "c"), id(jane, "d"));
    }

    #[test]
    fn an_acquisition_is_known_by_both_companies_and_an_external_id_by_itself() {
        let key = SignalKey::of(SignalType::Acquisition, &record(json!({})));
        let ab = key.id(&row(SignalType::Acquisition, "a", Some("b"), 0));
        assert_ne!(ab, key.id(&row(SignalType::Acquisition, "a", Some("c"), 0)));
        let external = SignalKey::of(SignalType::Acquisition, &record(json!({"externalId": "x"})));
        assert_eq!(
            external.id(&row(SignalType::Acquisition, "a", Some("b"), 0)),
            external.id(&row(SignalType::Acquisition, "z", None, DAY_MS * 9))
        );
    }
}
