//! Job boards: the public boards a company publishes its open positions on, as a provider and
//! the board's token, and how a link to a board page names one.

use serde::{Deserialize, Serialize};
use url::Url;

/// A job-board host whose boards the collectors read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    Greenhouse,
    Lever,
    Ashby,
}

impl Provider {
    /// Every provider, in the order the collectors list them.
    pub const ALL: [Provider; 3] = [Provider::Greenhouse, Provider::Lever, Provider::Ashby];

    /// The wire, storage and collector name.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Greenhouse => "greenhouse",
            Provider::Lever => "lever",
            Provider::Ashby => "ashby",
        }
    }

    /// The provider named exactly `name`.
    pub fn parse(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// One board of one provider. Read from records as `{provider, token}`, checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "BoardInput")]
pub struct JobBoard {
    pub provider: Provider,
    pub token: String,
}

/// A board as a record gives it, before it is checked.
#[derive(Deserialize)]
struct BoardInput {
    provider: String,
    token: String,
}

impl TryFrom<BoardInput> for JobBoard {
    type Error = String;
    fn try_from(input: BoardInput) -> Result<JobBoard, String> {
        JobBoard::parse(&input.provider, &input.token)
    }
}

/// Longest board token accepted.
const MAX_TOKEN_CHARS: usize = 100;

impl JobBoard {
    /// A board from a provider name and a token as an operator gives them; `Err` says what is
    /// wrong. A token is the board's path segment: letters, digits, `-`, `_` and `.`.
    pub fn parse(provider: &str, token: &str) -> Result<JobBoard, String> {
        let provider =
            Provider::parse(provider.trim().to_ascii_lowercase().as_str()).ok_or_else(|| {
                format!("jobBoards: unknown provider {provider:?} (greenhouse, lever or ashby)")
            })?;
        let token = token.trim();
        if !is_token(token) {
            return Err(format!(
                "jobBoards: token {token:?} must be 1 to {MAX_TOKEN_CHARS} letters, digits, '-', '_' or '.'"
            ));
        }
        Ok(JobBoard {
            provider,
            token: token.to_string(),
        })
    }

    /// The board a link to a board page (or one of its postings) names:
    /// `boards.greenhouse.io/{token}`, `job-boards.greenhouse.io/{token}`,
    /// `jobs.lever.co/{company}` (also `jobs.eu.lever.co`) or `jobs.ashbyhq.com/{name}`.
    pub fn from_link(link: &str) -> Option<JobBoard> {
        let url = Url::parse(link.trim()).ok()?;
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        let host = url.host_str()?.to_ascii_lowercase();
        let host = host.strip_prefix("www.").unwrap_or(&host);
        let provider = match host {
            "boards.greenhouse.io" | "job-boards.greenhouse.io" => Provider::Greenhouse,
            "jobs.lever.co" | "jobs.eu.lever.co" => Provider::Lever,
            "jobs.ashbyhq.com" => Provider::Ashby,
            _ => return None,
        };
        let first = url.path_segments()?.find(|s| !s.is_empty())?;
        // Greenhouse's embed pages name the board in a query parameter instead.
        let token = if first == "embed" {
            url.query_pairs()
                .find(|(key, _)| key == "for")
                .map(|(_, value)| value.into_owned())?
        } else {
            first.to_string()
        };
        is_token(&token).then_some(JobBoard { provider, token })
    }
}

fn is_token(token: &str) -> bool {
    !token.is_empty()
        && token.chars().count() <= MAX_TOKEN_CHARS
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && token != "."
        && token != ".."
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(provider: Provider, token: &str) -> Option<JobBoard> {
        Some(JobBoard {
            provider,
            token: token.into(),
        })
    }

    #[test]
    fn links_to_board_pages_and_postings_name_their_board() {
        for (link, expected) in [
            (
                "https://boards.greenhouse.io/acme",
                board(Provider::Greenhouse, "acme"),
            ),
            (
                "https://job-boards.greenhouse.io/northwindlabs/jobs/7001234",
                board(Provider::Greenhouse, "northwindlabs"),
            ),
            (
                "https://boards.greenhouse.io/embed/job_board?for=acme",
                board(Provider::Greenhouse, "acme"),
            ),
            (
                "https://jobs.lever.co/brightfieldai/3f1c2b9e",
                board(Provider::Lever, "brightfieldai"),
            ),
            (
                "http://jobs.eu.lever.co/euco",
                board(Provider::Lever, "euco"),
            ),
            (
                "https://jobs.ashbyhq.com/lumenparis",
                board(Provider::Ashby, "lumenparis"),
            ),
            ("https://jobs.ashbyhq.com/", None),
            ("https://greenhouse.io/acme", None),
            ("https://example.com/careers", None),
            ("mailto:jobs@lever.co", None),
            ("/careers", None),
        ] {
            assert_eq!(JobBoard::from_link(link), expected, "{link}");
        }
    }

    #[test]
    fn an_operator_board_needs_a_known_provider_and_a_plain_token() {
        assert_eq!(
            JobBoard::parse("Greenhouse", " acme "),
            Ok(JobBoard {
                provider: Provider::Greenhouse,
                token: "acme".into()
            })
        );
        assert!(JobBoard::parse("workday", "acme").is_err());
        assert!(JobBoard::parse("lever", "a/b").is_err());
        assert!(JobBoard::parse("lever", "").is_err());
        assert!(JobBoard::parse("ashby", "..").is_err());
    }
}
