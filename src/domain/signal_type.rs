//! The four kinds of business signal a monitor can watch, and their webhook event names.

use serde::{Deserialize, Serialize};

/// A kind of signal, as named in a monitor's `signal_types`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalType {
    FundingRound,
    Acquisition,
    JobChange,
    Hiring,
}

impl SignalType {
    /// All signal types, in the order the specification lists them.
    pub const ALL: [SignalType; 4] = [
        SignalType::FundingRound,
        SignalType::Acquisition,
        SignalType::JobChange,
        SignalType::Hiring,
    ];

    /// The wire name, e.g. `funding_round`.
    pub fn as_str(self) -> &'static str {
        match self {
            SignalType::FundingRound => "funding_round",
            SignalType::Acquisition => "acquisition",
            SignalType::JobChange => "job_change",
            SignalType::Hiring => "hiring",
        }
    }

    /// Parses a wire name; exact and case-sensitive.
    pub fn parse(input: &str) -> Option<SignalType> {
        SignalType::ALL.into_iter().find(|t| t.as_str() == input)
    }

    /// The webhook event sent for this signal type.
    pub fn event_type(self) -> &'static str {
        match self {
            SignalType::FundingRound => "funding.created",
            SignalType::Acquisition => "acquisition.created",
            SignalType::JobChange => "job_change.created",
            SignalType::Hiring => "hiring.created",
        }
    }
}

/// Parses a monitor's `signal_types`: a non-empty list of known values, duplicates removed,
/// first occurrence kept. `None` when the list is empty or holds an unknown value.
pub fn parse_signal_types<S: AsRef<str>>(values: &[S]) -> Option<Vec<SignalType>> {
    let mut parsed = Vec::with_capacity(values.len());
    for value in values {
        let kind = SignalType::parse(value.as_ref())?;
        if !parsed.contains(&kind) {
            parsed.push(kind);
        }
    }
    (!parsed.is_empty()).then_some(parsed)
}

/// The 400 message for any refused `signal_types` value: an unknown type, an empty array or
/// something that is not an array of strings.
pub const SIGNAL_TYPES_MESSAGE: &str = "signal_types must be a non-empty array of the four \
                                        allowed values: funding_round, acquisition, job_change, \
                                        hiring";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signal_type_maps_to_its_webhook_event() {
        let events: Vec<_> = SignalType::ALL.iter().map(|t| t.event_type()).collect();
        assert_eq!(
            events,
            [
                "funding.created",
                "acquisition.created",
                "job_change.created",
                "hiring.created"
            ]
        );
    }

    #[test]
    fn duplicate_signal_types_are_removed_keeping_the_first() {
        let parsed = parse_signal_types(&["hiring", "funding_round", "hiring"]).expect("valid");
        assert_eq!(parsed, [SignalType::Hiring, SignalType::FundingRound]);
    }

    #[test]
    fn the_refusal_names_the_four_allowed_values() {
        assert_eq!(
            SIGNAL_TYPES_MESSAGE,
            "signal_types must be a non-empty array of the four allowed values: funding_round, \
             acquisition, job_change, hiring"
        );
        for kind in SignalType::ALL {
            assert!(SIGNAL_TYPES_MESSAGE.contains(kind.as_str()));
        }
    }

    #[test]
    fn an_unknown_or_empty_list_of_signal_types_is_refused() {
        assert_eq!(parse_signal_types(&["funding"]), None);
        assert_eq!(parse_signal_types::<&str>(&[]), None);
        assert_eq!(parse_signal_types(&["Hiring"]), None);
    }
}
