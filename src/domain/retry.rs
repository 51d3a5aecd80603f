//! The retry policy of webhook deliveries, as a pure function of the attempt just made, the
//! schedule, the clock and a jitter draw.

use chrono::{DateTime, Utc};

/// Longest wait a `Retry-After` answer can impose on the next attempt.
pub const MAX_RETRY_AFTER_MS: i64 = 24 * 3600 * 1000;

/// How far the schedule's waits are spread, either way (±20 %).
pub const JITTER: f64 = 0.2;

/// What an attempt came to, as the policy sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// The endpoint answered 2xx.
    Delivered,
    /// The endpoint answered 410 Gone: it wants no more.
    Gone,
    /// Anything else: no answer, a timeout, a 3xx, 4xx or 5xx; `retry_after_ms` is the wait the
    /// endpoint asked for, if any.
    Failed { retry_after_ms: Option<i64> },
}

/// What happens to the delivery next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Done,
    Failed,
    RetryAt(i64),
}

/// The next step after attempt number `attempts_made` (1 for the first) of at most
/// `max_attempts`. `schedule[i]` is the wait in seconds before attempt `i + 2`; `jitter` is a draw
/// in [-1, 1] that spreads it by up to ±[`JITTER`].
pub fn next_step(
    attempt: Attempt,
    attempts_made: i64,
    max_attempts: i64,
    schedule: &[u64],
    now_ms: i64,
    jitter: f64,
) -> Next {
    let retry_after_ms = match attempt {
        Attempt::Delivered => return Next::Done,
        Attempt::Gone => return Next::Failed,
        Attempt::Failed { retry_after_ms } => retry_after_ms,
    };
    let index = usize::try_from(attempts_made - 1).unwrap_or(0);
    let Some(&wait_s) = schedule.get(index) else {
        return Next::Failed;
    };
    if attempts_made >= max_attempts {
        return Next::Failed;
    }
    let spread = 1.0 + JITTER * jitter.clamp(-1.0, 1.0);
    let scheduled = (wait_s as f64 * 1000.0 * spread).round() as i64;
    let asked = retry_after_ms.unwrap_or(0).clamp(0, MAX_RETRY_AFTER_MS);
    Next::RetryAt(now_ms + scheduled.max(asked))
}

/// The most attempts a delivery gets under `schedule`: the first, then one per step.
pub fn max_attempts(schedule: &[u64]) -> i64 {
    schedule.len() as i64 + 1
}

/// A `Retry-After` value as a wait in milliseconds from `now`: delay-seconds or an HTTP date.
/// `None` when it is neither.
pub fn parse_retry_after(value: &str, now: DateTime<Utc>) -> Option<i64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX));
    }
    let at = DateTime::parse_from_rfc2822(value).ok()?;
    Some((at.with_timezone(&Utc) - now).num_milliseconds().max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEDULE: [u64; 3] = [5, 300, 1800];

    fn failed() -> Attempt {
        Attempt::Failed {
            retry_after_ms: None,
        }
    }

    #[test]
    fn a_delivered_attempt_is_done_and_a_gone_one_fails_at_once() {
        assert_eq!(
            next_step(Attempt::Delivered, 1, 4, &SCHEDULE, 0, 0.0),
            Next::Done
        );
        assert_eq!(
            next_step(Attempt::Gone, 1, 4, &SCHEDULE, 0, 0.0),
            Next::Failed
        );
    }

    #[test]
    fn failures_follow_the_schedule_then_fail() {
        assert_eq!(
            next_step(failed(), 1, 4, &SCHEDULE, 1_000, 0.0),
            Next::RetryAt(6_000)
        );
        assert_eq!(
            next_step(failed(), 2, 4, &SCHEDULE, 0, 0.0),
            Next::RetryAt(300_000)
        );
        assert_eq!(
            next_step(failed(), 3, 4, &SCHEDULE, 0, 0.0),
            Next::RetryAt(1_800_000)
        );
        assert_eq!(next_step(failed(), 4, 4, &SCHEDULE, 0, 0.0), Next::Failed);
        assert_eq!(max_attempts(&SCHEDULE), 4);
    }

    #[test]
    fn a_single_attempt_delivery_is_never_retried() {
        assert_eq!(next_step(failed(), 1, 1, &SCHEDULE, 0, 0.0), Next::Failed);
    }

    #[test]
    fn jitter_spreads_the_wait_by_at_most_a_fifth() {
        assert_eq!(
            next_step(failed(), 2, 4, &SCHEDULE, 0, 1.0),
            Next::RetryAt(360_000)
        );
        assert_eq!(
            next_step(failed(), 2, 4, &SCHEDULE, 0, -1.0),
            Next::RetryAt(240_000)
        );
        assert_eq!(
            next_step(failed(), 2, 4, &SCHEDULE, 0, 7.0),
            Next::RetryAt(360_000)
        );
    }

    #[test]
    fn retry_after_sets_the_later_of_it_and_the_schedule_capped_at_a_day() {
        let asked = |ms| Attempt::Failed {
            retry_after_ms: Some(ms),
        };
        assert_eq!(
            next_step(asked(60_000), 1, 4, &SCHEDULE, 0, 0.0),
            Next::RetryAt(60_000)
        );
        assert_eq!(
            next_step(asked(1_000), 1, 4, &SCHEDULE, 0, 0.0),
            Next::RetryAt(5_000)
        );
        assert_eq!(
            next_step(asked(i64::MAX), 1, 4, &SCHEDULE, 0, 0.0),
            Next::RetryAt(MAX_RETRY_AFTER_MS)
        );
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = DateTime::parse_from_rfc3339("2015-10-21T07:28:00Z")
            .map(|d| d.with_timezone(&Utc))
            .expect("date");
        assert_eq!(parse_retry_after("120", now), Some(120_000));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:30:00 GMT", now),
            Some(120_000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(0)
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
