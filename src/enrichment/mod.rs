//! CSV enrichment (docs/ARCHITECTURE.md, "Enrichment"): reading an upload into job rows
//! ([`input`]), matching rows to companies ([`matching`]), enriching them with their companies'
//! signals ([`process`]), and the durable worker that carries every accepted job to its end
//! ([`worker`]).

pub mod input;
pub mod matching;
pub mod process;
pub mod worker;

use crate::domain::time::{DAY_MS, Millis};

/// How long a job's results stay retrievable after it was submitted.
pub const RETENTION_MS: Millis = 30 * DAY_MS;

/// True when a job submitted at `created_at` is past retention at `now`. Time is a parameter so
/// the rule is checked at any instant, not only the present one.
pub fn is_expired(created_at: Millis, now: Millis) -> bool {
    now - created_at >= RETENTION_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_expires_thirty_days_after_submission() {
        let submitted = 1_780_000_000_000;
        assert!(!is_expired(submitted, submitted));
        assert!(!is_expired(submitted, submitted + 30 * DAY_MS - 1));
        assert!(is_expired(submitted, submitted + 30 * DAY_MS));
    }
}
