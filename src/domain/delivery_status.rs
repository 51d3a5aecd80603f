//! Where a webhook delivery stands: waiting for its next attempt, delivered, or given up on.
//! Stored as its wire name in `deliveries.status` and shown as-is by the Webhooks API.

use std::fmt;
use std::str::FromStr;

/// The state of one delivery row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeliveryStatus {
    /// Queued or between attempts; a worker may claim it once due.
    Pending,
    /// An attempt succeeded (2xx); charged once.
    Done,
    /// No attempt is left (schedule exhausted, endpoint gone, held too long, superseded).
    Failed,
}

/// A stored or requested status that is not one of [`DeliveryStatus::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown delivery status {0:?}")]
pub struct UnknownDeliveryStatus(pub String);

impl DeliveryStatus {
    /// Every status, in the order the API names them in its errors (`done, failed or pending`).
    pub const ALL: [DeliveryStatus; 3] = [
        DeliveryStatus::Done,
        DeliveryStatus::Failed,
        DeliveryStatus::Pending,
    ];

    /// The stored and wire name, e.g. `pending`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Done => "done",
            DeliveryStatus::Failed => "failed",
        }
    }

    /// Parses a stored or wire name; exact and case-sensitive.
    pub fn parse(input: &str) -> Result<DeliveryStatus, UnknownDeliveryStatus> {
        DeliveryStatus::ALL
            .into_iter()
            .find(|s| s.as_str() == input)
            .ok_or_else(|| UnknownDeliveryStatus(input.to_string()))
    }
}

impl FromStr for DeliveryStatus {
    type Err = UnknownDeliveryStatus;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        DeliveryStatus::parse(input)
    }
}

/// Lets row structs decode the column with `#[sqlx(try_from = "String")]`: a value outside the
/// set is a decode error, never a default.
impl TryFrom<String> for DeliveryStatus {
    type Error = UnknownDeliveryStatus;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        DeliveryStatus::parse(&value)
    }
}

impl fmt::Display for DeliveryStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_parses_back_from_its_name() {
        for status in DeliveryStatus::ALL {
            assert_eq!(DeliveryStatus::parse(status.as_str()), Ok(status));
        }
    }

    #[test]
    fn an_unknown_or_differently_cased_name_is_an_error() {
        assert!(DeliveryStatus::parse("Done").is_err());
        assert!(DeliveryStatus::parse("").is_err());
        assert_eq!(
            DeliveryStatus::try_from("sent".to_string()),
            Err(UnknownDeliveryStatus("sent".into()))
        );
    }
}
