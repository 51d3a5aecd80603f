//! Politeness towards the sources: one request at a time per host within a process, and at most
//! one started per [`MIN_SPACING`] on it (2 per second), whatever the number of boards,
//! collectors or processes asking: each start is also reserved in the database the processes
//! share (`store::host_turns`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;
use tokio::time::Instant;

use crate::domain::time::now_ms;
use crate::store::host_turns::reserve_start;
use crate::store::{Db, StoreError};

/// Least time between the starts of two requests to one host.
pub const MIN_SPACING: Duration = Duration::from_millis(500);

/// The turns of every host this process asks. One per process, shared by its collectors.
#[derive(Debug)]
pub struct HostGate {
    hosts: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Instant>>>>>,
    spacing: Duration,
}

impl Default for HostGate {
    fn default() -> Self {
        HostGate::with_spacing(MIN_SPACING)
    }
}

/// A host's turn: while it is held, no other request goes to that host.
pub struct HostTurn {
    _guard: OwnedMutexGuard<Option<Instant>>,
}

impl HostGate {
    /// A gate spacing the requests to one host `spacing` apart ([`MIN_SPACING`] but for local
    /// benchmark sources).
    pub fn with_spacing(spacing: Duration) -> HostGate {
        HostGate {
            hosts: Mutex::default(),
            spacing,
        }
    }

    /// Waits for `host`'s turn: until no request to it is in flight and the spacing has
    /// passed since the last one started. The request starts now; the turn ends when the
    /// returned value is dropped.
    pub async fn turn(&self, host: &str) -> HostTurn {
        let slot = {
            let mut hosts = self.hosts.lock().unwrap_or_else(|e| e.into_inner());
            hosts.entry(host.to_string()).or_default().clone()
        };
        let mut guard = slot.lock_owned().await;
        if let Some(last) = *guard {
            tokio::time::sleep_until(last + self.spacing).await;
        }
        *guard = Some(Instant::now());
        HostTurn { _guard: guard }
    }

    /// [`HostGate::turn`], then a start reserved among every process sharing `db`: no sooner
    /// than the spacing after the last start any of them reserved for `host`. Without it, each
    /// of several worker processes kept its own spacing and a host got a request from each.
    pub async fn shared_turn(&self, db: &Db, host: &str) -> Result<HostTurn, StoreError> {
        let turn = self.turn(host).await;
        if self.spacing.is_zero() {
            return Ok(turn);
        }
        let spacing_ms = i64::try_from(self.spacing.as_millis()).unwrap_or(i64::MAX);
        let start = reserve_start(db, host, now_ms(), spacing_ms).await?;
        let wait = start - now_ms();
        if wait > 0 {
            tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())).await;
        }
        Ok(turn)
    }
}

/// The host (with its port) a URL goes to: what the politeness rules count by.
pub fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| {
            let host = u.host_str()?.to_ascii_lowercase();
            Some(match u.port_or_known_default() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
        .unwrap_or_else(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn requests_to_one_host_start_at_least_the_spacing_apart_and_other_hosts_go_on() {
        let gate = HostGate::default();
        let mut starts = Vec::new();
        for _ in 0..3 {
            let turn = gate.turn("a:443").await;
            starts.push(Instant::now());
            drop(turn);
        }
        for pair in starts.windows(2) {
            assert!(pair[1] - pair[0] >= MIN_SPACING, "{:?}", pair[1] - pair[0]);
        }
        // A request in flight to one host keeps nobody from another.
        let busy = gate.turn("a:443").await;
        let other = tokio::time::timeout(Duration::from_secs(5), gate.turn("b:443")).await;
        assert!(
            other.is_ok(),
            "another host's turn comes while the first is busy"
        );
        drop(busy);
    }

    #[tokio::test]
    async fn a_host_in_use_is_not_asked_again_until_its_request_ends() {
        let gate = Arc::new(HostGate::default());
        let first = gate.turn("a:443").await;
        let mut waiting = {
            let gate = gate.clone();
            tokio::spawn(async move {
                let _turn = gate.turn("a:443").await;
                Instant::now()
            })
        };
        let still_waiting = tokio::time::timeout(MIN_SPACING * 3, &mut waiting).await;
        assert!(
            still_waiting.is_err(),
            "the second request waits for the first to end"
        );
        let released = Instant::now();
        drop(first);
        let second = waiting.await.expect("joins");
        assert!(second >= released);
    }

    #[test]
    fn hosts_are_counted_with_their_port() {
        assert_eq!(
            host_of("https://API.lever.co/v0/postings/x"),
            "api.lever.co:443"
        );
        assert_eq!(host_of("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
    }
}
