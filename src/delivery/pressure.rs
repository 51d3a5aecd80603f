//! Deliveries give way to a saturated ingest.
//!
//! Accepting a signal and sending its deliveries share the machine: the CPUs, and on
//! PostgreSQL the database server. When signals arrive faster than the ingest writer can store
//! them, every claim a worker makes takes time from the ingest, and the requests queue. So
//! while an ingest writer is saturated, the workers hold their next claims back and let the
//! deliveries wait, durably queued, until the burst is over, but never longer than the
//! deployment allows (`--delivery-yield-seconds`): once the oldest due delivery has waited
//! that long the workers claim again, oldest first, so under a load that does not end the
//! deliveries run that far behind the signals instead of falling further behind.
//!
//! Saturation is measured where it happens, in the process whose ingest writer is busy
//! ([`WriterLoad`]); it is told to the workers of that process directly ([`IngestPressure`])
//! and to the other processes' workers on PostgreSQL by the notification each ingest already
//! sends at its commit (`store::outbox`), which then says `busy`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

/// How long one sign of saturation holds the workers back: longer than a window, so that a
/// writer that stays saturated renews it before it ends; the workers claim again at most this
/// long after a burst.
pub const HOLD_MS: i64 = 1_000;

/// The span over which a writer's load is measured: long enough that requests arriving at
/// random but well below the writer's pace rarely fill one (at 200 signals a second on a
/// machine where a write takes 6 ms, windows of 100 ms did, and deliveries waited seconds).
const WINDOW: Duration = Duration::from_millis(500);

/// The share of a window spent writing from which a writer may count as saturated: it took the
/// next request as soon as it was done with the last, nearly all the time.
const SATURATED: f64 = 0.9;

/// The requests a group must hold on average, besides, for the writer to count as saturated:
/// they piled up behind it. A writer that is busy but writes its requests one at a time keeps
/// up (group commit would take more at once if more came); on a slow machine a writer at
/// 200 signals a second was busy 90 % of the time with groups of one or two.
const PILED_UP: usize = 3;

/// The longest a worker rests between two looks at whether it may claim again.
const LOOK_AGAIN_MS: i64 = 50;

/// Until when (epoch milliseconds) an ingest writer of this deployment was last seen saturated;
/// shared by the process's ingest writer and its worker.
#[derive(Debug, Clone, Default)]
pub struct IngestPressure(Arc<AtomicI64>);

impl IngestPressure {
    /// An ingest writer was seen saturated at `now_ms`.
    pub fn mark(&self, now_ms: i64) {
        self.0.fetch_max(now_ms + HOLD_MS, Ordering::Relaxed);
    }

    /// Until when the workers hold back.
    pub fn until(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }

    /// True while the workers hold back.
    pub fn active(&self, now_ms: i64) -> bool {
        now_ms < self.until()
    }
}

/// The load of one ingest writer: how much of the current window it spent writing, and how
/// many requests its groups held.
#[derive(Debug)]
pub struct WriterLoad {
    window_start: Instant,
    busy: Duration,
    groups: usize,
    requests: usize,
}

impl WriterLoad {
    /// A window starting at `now`.
    pub fn new(now: Instant) -> WriterLoad {
        WriterLoad {
            window_start: now,
            busy: Duration::ZERO,
            groups: 0,
            requests: 0,
        }
    }

    /// Counts a group of `requests` whose write took `took` and ended at `now`. When that
    /// closes the window, returns whether the writer was saturated in it, and starts the next.
    pub fn wrote(&mut self, requests: usize, took: Duration, now: Instant) -> Option<bool> {
        self.busy += took;
        self.groups += 1;
        self.requests += requests;
        let elapsed = now.saturating_duration_since(self.window_start);
        if elapsed < WINDOW {
            return None;
        }
        let saturated = self.busy.as_secs_f64() >= SATURATED * elapsed.as_secs_f64()
            && self.requests >= PILED_UP * self.groups;
        *self = WriterLoad::new(now);
        Some(saturated)
    }
}

/// How long a worker holds its next claim back at `now_ms`, or `None` to claim now: only while
/// an ingest is saturated (`pressure_until`), and only until the oldest pending delivery
/// (`oldest_pending`, epoch milliseconds, if any) has waited `max_lag_ms`. A `max_lag_ms` of 0
/// never holds back.
pub fn hold_back(
    now_ms: i64,
    pressure_until: i64,
    oldest_pending: Option<i64>,
    max_lag_ms: i64,
) -> Option<Duration> {
    if max_lag_ms <= 0 || now_ms >= pressure_until {
        return None;
    }
    let waited = oldest_pending.map_or(0, |at| (now_ms - at).max(0));
    if waited >= max_lag_ms {
        return None;
    }
    let rest = (pressure_until - now_ms)
        .min(max_lag_ms - waited)
        .clamp(1, LOOK_AGAIN_MS);
    Some(Duration::from_millis(rest as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_busy_nearly_all_of_a_window_with_requests_piled_up_is_saturated() {
        let start = Instant::now();
        let mut load = WriterLoad::new(start);
        let ms = Duration::from_millis;

        assert_eq!(
            load.wrote(4, ms(200), start + ms(200)),
            None,
            "the window is open"
        );
        assert_eq!(
            load.wrote(3, ms(290), start + ms(500)),
            Some(true),
            "490 of 500 ms, 3.5 requests a group"
        );
        assert_eq!(load.wrote(5, ms(300), start + ms(850)), None);
        assert_eq!(
            load.wrote(5, ms(100), start + ms(1_000)),
            Some(false),
            "400 of 500 ms: requests came slower than they were written"
        );
        assert_eq!(
            load.wrote(6, ms(5), start + ms(5_000)),
            Some(false),
            "a write after a long idle spell"
        );
    }

    #[test]
    fn a_busy_writer_taking_its_requests_one_at_a_time_keeps_up() {
        let start = Instant::now();
        let mut load = WriterLoad::new(start);
        let ms = Duration::from_millis;
        let mut verdict = None;
        for n in 1..=50 {
            verdict = load.wrote(if n % 4 == 0 { 2 } else { 1 }, ms(10), start + ms(10 * n));
        }
        assert_eq!(
            verdict,
            Some(false),
            "busy all the time, 1.25 requests a group"
        );
    }

    #[test]
    fn pressure_holds_until_its_last_sign_plus_the_hold_and_never_shortens() {
        let pressure = IngestPressure::default();
        assert!(!pressure.active(1_000));
        pressure.mark(1_000);
        pressure.mark(900);
        assert_eq!(pressure.until(), 1_000 + HOLD_MS);
        assert!(pressure.active(1_000 + HOLD_MS - 1));
        assert!(!pressure.active(1_000 + HOLD_MS));
    }

    #[test]
    fn a_worker_claims_at_once_without_pressure_or_when_the_oldest_delivery_has_waited_long_enough()
    {
        assert_eq!(
            hold_back(10_000, 9_999, Some(9_000), 5_000),
            None,
            "no pressure"
        );
        assert_eq!(
            hold_back(10_000, 10_200, Some(5_000), 5_000),
            None,
            "waited 5 s"
        );
        assert_eq!(
            hold_back(10_000, 10_200, Some(9_000), 0),
            None,
            "never holds back"
        );
    }

    #[test]
    fn under_pressure_a_worker_rests_briefly_and_looks_again() {
        let ms = Duration::from_millis;
        assert_eq!(hold_back(10_000, 10_200, Some(9_000), 5_000), Some(ms(50)));
        assert_eq!(
            hold_back(10_000, 10_020, None, 5_000),
            Some(ms(20)),
            "pressure ends"
        );
        assert_eq!(
            hold_back(10_000, 10_200, Some(5_010), 5_000),
            Some(ms(10)),
            "the oldest delivery reaches the bound"
        );
        assert_eq!(
            hold_back(10_000, 10_200, Some(12_000), 5_000),
            Some(ms(50)),
            "a retry due later has not waited yet"
        );
    }
}
