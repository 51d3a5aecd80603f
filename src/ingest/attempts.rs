//! Running a batch's transaction again when it lost a race: no lock serializes ingests on
//! PostgreSQL, so a batch may find, as it claims the keys of a company it creates, that an ingest
//! in another process created that company first (or PostgreSQL may end it to break a deadlock).
//! Its next run looks the companies up again and finds what the other one created.

/// Which run of a batch's transaction this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt(u32);

impl Attempt {
    pub const FIRST: Attempt = Attempt(1);
    /// Runs of one batch at most: a batch loses a key it claims only to an ingest that has
    /// committed by then, so its next run finds what that one created.
    const MOST: u32 = 5;

    /// True when the batch may run again after this run lost a race.
    pub fn may_retry(self) -> bool {
        self.0 < Self::MOST
    }

    /// The next run.
    pub fn next(self) -> Attempt {
        Attempt(self.0 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_runs_at_most_five_times() {
        let mut attempt = Attempt::FIRST;
        let mut runs = 1;
        while attempt.may_retry() {
            attempt = attempt.next();
            runs += 1;
        }
        assert_eq!(runs, 5);
    }
}
