//! The worker's claim floors: per webhook, the `next_attempt_at` its claims seek from (see
//! `store::deliveries::earliest_pending` for why). A floor is the webhook's earliest pending row
//! when the floors were read, and never later than [`MARGIN_MS`] before that read.
//!
//! A pending row is passed over only while it sits below its webhook's floor, and the floors
//! are read again every [`REFRESH`], when every pending row counts once more; so a row is at
//! worst late by one refresh, never lost. Only a row stamped more than [`MARGIN_MS`] before it
//! was committed (a slow ingest, or a clock that far behind the worker's) can sit below a floor:
//! a retry is scheduled in the future, a row whose lease runs out or is given back was pending
//! (leased) at the read and so bounds the floor, and a replay is stamped now.

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;

use crate::store::Db;
use crate::store::deliveries::earliest_pending;

/// How often the floors are read again.
pub const REFRESH: Duration = Duration::from_secs(1);

/// How far before the read a floor may lie at the latest: longer than an ingest takes from
/// stamping its deliveries to committing them.
pub const MARGIN_MS: i64 = 1_000;

/// The floors a worker claims with.
#[derive(Debug, Default)]
pub struct Floors {
    floors: HashMap<String, i64>,
    /// The earliest `next_attempt_at` of any pending delivery at the last read.
    oldest: Option<i64>,
    read_at: Option<Instant>,
}

impl Floors {
    /// The current floors; empty (every seek from the start) until the first read.
    pub fn get(&self) -> &HashMap<String, i64> {
        &self.floors
    }

    /// The earliest `next_attempt_at` of any pending delivery when the floors were last read
    /// (`None`: none was pending, or the floors were never read).
    pub fn oldest(&self) -> Option<i64> {
        self.oldest
    }

    /// Reads the floors again when [`REFRESH`] has passed since the last read. On an error the
    /// floors are dropped (claims seek from the start) and the read is tried at the next claim.
    pub async fn refresh_if_due(&mut self, db: &Db, now_ms: i64) {
        if self.read_at.is_some_and(|at| at.elapsed() < REFRESH) {
            return;
        }
        match earliest_pending(db).await {
            Ok(rows) => {
                self.oldest = rows.iter().filter_map(|(_, earliest)| *earliest).min();
                self.floors = floors_of(rows, now_ms);
                self.read_at = Some(Instant::now());
            }
            Err(err) => {
                tracing::error!(error = %err, "reading the delivery claim floors failed");
                self.floors.clear();
                self.oldest = None;
                self.read_at = None;
            }
        }
    }
}

/// Each webhook's floor from its earliest pending row read at `now_ms`.
fn floors_of(rows: Vec<(String, Option<i64>)>, now_ms: i64) -> HashMap<String, i64> {
    let latest = now_ms - MARGIN_MS;
    rows.into_iter()
        .map(|(webhook_id, earliest)| (webhook_id, earliest.map_or(latest, |e| e.min(latest))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_floor_is_the_earliest_pending_row_or_the_margin_before_the_read_whichever_is_earlier() {
        let rows = vec![
            ("backlog".to_string(), Some(1_000)),
            ("recent".to_string(), Some(9_900)),
            ("idle".to_string(), None),
        ];
        let floors = floors_of(rows, 10_000);
        assert_eq!(floors["backlog"], 1_000);
        assert_eq!(floors["recent"], 10_000 - MARGIN_MS);
        assert_eq!(floors["idle"], 10_000 - MARGIN_MS);
    }
}
