//! Collectors: signals the service finds itself on public sources. The job-board collectors
//! (`greenhouse`, `lever`, `ashby`) poll the boards of every company that is a resolved target
//! of an active monitor and turn each posting seen for the first time into a hiring signal
//! through the ingest path, like an imported one.
//!
//! A pass takes each due board's lease (so two workers never poll one board at once), asks the
//! board conditionally in its host's turn (one request at a time per host, at most two per
//! second), accepts the new postings, dates the ones gone, and records the board's validators or
//! its failure (a failing board waits longer each time; nothing stops the pass). The pass's
//! figures are kept per collector for the admin API and counted for Prometheus.

pub mod ashby;
pub mod board;
pub mod greenhouse;
pub mod lever;
pub mod location;
pub mod politeness;
pub mod posting;
pub mod sec_form_d;
pub mod sec_pass;
pub mod text;
pub mod worker;

use std::time::Duration;

use serde::Serialize;

use self::board::{PollError, poll_board};
use self::politeness::{HostGate, host_of};
use self::sec_pass::SecCollector;
use crate::config::{Config, SEC_FORM_D};
use crate::delivery::client::WebhookClient;
use crate::delivery::client::fetch::{FetchRequest, Fetched};
use crate::delivery::dispatch::Dispatcher;
use crate::domain::job_board::Provider;
use crate::domain::time::{format_ms, now_ms};
use crate::store::collector_runs::{RunRow, record_run, runs};
use crate::store::job_boards::{PollEnd, boards_to_poll, claim_board, finish_poll};
use crate::store::{Db, StoreError};
use crate::telemetry;

/// Bound on one board request, body included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a worker holds a board it polls; a crashed worker's board is free again after it.
const LEASE_MS: i64 = 10 * 60 * 1000;
/// Boards between two progress lines of a long pass.
const PROGRESS_EVERY: i64 = 100;
/// A failing board waits the interval times 2^(failures - 1), at most this long.
const MAX_BACKOFF_MS: i64 = 24 * 60 * 60 * 1000;

/// The collectors of one process: which run, the sources' addresses, the client and the hosts'
/// turns they share.
#[derive(Debug)]
pub struct Collectors {
    enabled: Vec<Provider>,
    sec: SecCollector,
    interval_ms: i64,
    urls: [String; 3],
    client: WebhookClient,
    hosts: HostGate,
}

/// A collector as the admin API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CollectorStatus {
    pub name: &'static str,
    pub enabled: bool,
    pub last_run_at: Option<String>,
    pub last_error: Option<String>,
    pub sources_checked: i64,
    pub items_seen: i64,
    pub signals_created: i64,
}

/// How long a board waits after its `failures`-th failure in a row.
pub fn backoff_ms(interval_ms: i64, failures: i64) -> i64 {
    let doublings = (failures - 1).clamp(0, 20) as u32;
    interval_ms
        .saturating_mul(1_i64 << doublings)
        .min(MAX_BACKOFF_MS.max(interval_ms))
}

impl Collectors {
    /// The collectors `config` turns on, with its source URLs.
    pub fn new(config: &Config) -> anyhow::Result<Collectors> {
        Ok(Collectors {
            enabled: config.collectors.boards.clone(),
            sec: SecCollector::new(config)?,
            interval_ms: (config.collect_interval_seconds as i64).saturating_mul(1000),
            urls: Provider::ALL.map(|p| config.board_api_url(p).to_string()),
            client: WebhookClient::for_sources(config, FETCH_TIMEOUT)?,
            hosts: HostGate::with_spacing(if config.unthrottled_sources {
                Duration::ZERO
            } else {
                politeness::MIN_SPACING
            }),
        })
    }

    /// The job-board collectors that run periodically.
    pub fn enabled(&self) -> &[Provider] {
        &self.enabled
    }

    /// The SEC Form D collector.
    pub fn sec(&self) -> &SecCollector {
        &self.sec
    }

    /// Seconds between passes.
    pub fn interval(&self) -> Duration {
        Duration::from_millis(self.interval_ms.max(1) as u64)
    }

    /// The base URL of a provider's board API.
    pub fn base_url(&self, provider: Provider) -> &str {
        let index = Provider::ALL
            .iter()
            .position(|p| *p == provider)
            .unwrap_or_default();
        &self.urls[index]
    }

    /// GETs `url` in its host's turn among the processes sharing `db`; the time waited and
    /// fetching count for `collector`.
    pub async fn fetch(
        &self,
        db: &Db,
        collector: &'static str,
        url: &str,
        request: &FetchRequest,
    ) -> Result<Fetched, String> {
        let asked = std::time::Instant::now();
        let _turn = self
            .hosts
            .shared_turn(db, &host_of(url))
            .await
            .map_err(|err| format!("reserving the host's turn: {err}"))?;
        let turn = std::time::Instant::now();
        telemetry::collector_stage(collector, "wait", turn - asked);
        let fetched = self.client.get(url, request).await;
        telemetry::collector_stage(collector, "fetch", turn.elapsed());
        fetched
    }

    /// Every collector with the figures of its last pass.
    pub async fn statuses(&self, db: &Db) -> Result<Vec<CollectorStatus>, StoreError> {
        let runs = runs(db).await?;
        let run_of = |name: &str| {
            runs.iter()
                .find(|r| r.name == name)
                .cloned()
                .unwrap_or_default()
        };
        let mut statuses: Vec<CollectorStatus> = Provider::ALL
            .iter()
            .map(|provider| self.status(*provider, run_of(provider.as_str())))
            .collect();
        statuses.push(self.sec.status(run_of(SEC_FORM_D)));
        Ok(statuses)
    }

    fn status(&self, provider: Provider, run: RunRow) -> CollectorStatus {
        CollectorStatus {
            name: provider.as_str(),
            enabled: self.enabled.contains(&provider),
            last_run_at: run.last_run_at.map(format_ms),
            last_error: run.last_error,
            sources_checked: run.sources_checked,
            items_seen: run.items_seen,
            signals_created: run.signals_created,
        }
    }

    /// Runs one pass of `provider`'s collector over the boards due (every board when `all`),
    /// records its figures and returns them. A board's failure is recorded on it and in the
    /// figures, and the pass goes on.
    pub async fn run_pass(
        &self,
        db: &Db,
        dispatcher: &Dispatcher,
        provider: Provider,
        all: bool,
    ) -> Result<CollectorStatus, StoreError> {
        let name = provider.as_str();
        let started = now_ms();
        let mut run = RunRow {
            name: name.to_string(),
            last_run_at: Some(started),
            ..RunRow::default()
        };
        let mut failures = Vec::new();
        let boards = boards_to_poll(db, provider, started, all).await?;
        let total = boards.len();
        for board in boards {
            let now = now_ms();
            let due_by = if all { i64::MAX } else { now };
            if !claim_board(db, &board, now, now + LEASE_MS, started, due_by).await? {
                continue;
            }
            run.sources_checked += 1;
            let (end, due_at) = match poll_board(self, db, provider, &board).await {
                Ok(report) => {
                    run.items_seen += report.seen as i64;
                    run.signals_created += report.created as i64;
                    if report.created > 0 {
                        dispatcher.wake();
                    }
                    tracing::debug!(
                        collector = name,
                        board = %board.token,
                        seen = report.seen,
                        created = report.created,
                        gone = report.gone,
                        "board polled"
                    );
                    let end = PollEnd::Answered {
                        etag: report.etag,
                        last_modified: report.last_modified,
                    };
                    (end, now_ms() + self.interval_ms)
                }
                Err(error) => {
                    let failed = board.failures + 1;
                    match &error {
                        PollError::Source(_) => tracing::warn!(
                            collector = name, board = %board.token, error = %error,
                            failures = failed, "board poll failed"
                        ),
                        PollError::Store(_) => tracing::error!(
                            collector = name, board = %board.token, error = %error,
                            "board poll failed"
                        ),
                    }
                    let error = format!("{}: {error}", board.token);
                    failures.push(error.clone());
                    let end = PollEnd::Failed { error };
                    (end, now_ms() + backoff_ms(self.interval_ms, failed))
                }
            };
            finish_poll(db, &board.provider, &board.token, &end, now_ms(), due_at).await?;
            if run.sources_checked % PROGRESS_EVERY == 0 {
                tracing::info!(
                    collector = name,
                    boards = run.sources_checked,
                    of = total,
                    signals = run.signals_created,
                    "collector pass under way"
                );
            }
        }
        run.last_error = last_error(&failures, "boards");
        record_run(db, &run).await?;
        count(name, &run, failures.len());
        tracing::info!(
            collector = name,
            boards = run.sources_checked,
            postings = run.items_seen,
            signals = run.signals_created,
            "collector pass done"
        );
        Ok(self.status(provider, run))
    }
}

/// A pass's `last_error`: its one failure, or how many `items` failed and the last one.
pub(crate) fn last_error(failures: &[String], items: &str) -> Option<String> {
    match failures {
        [] => None,
        [only] => Some(only.clone()),
        [.., last] => Some(format!("{} {items} failed; last: {last}", failures.len())),
    }
}

/// Prometheus counters of a pass of the collector `name`.
pub(crate) fn count(name: &'static str, run: &RunRow, failed: usize) {
    let counters = [
        ("signalwatch_collector_passes_total", 1),
        (
            "signalwatch_collector_sources_checked_total",
            run.sources_checked as u64,
        ),
        ("signalwatch_collector_source_failures_total", failed as u64),
        (
            "signalwatch_collector_items_seen_total",
            run.items_seen as u64,
        ),
        (
            "signalwatch_collector_signals_created_total",
            run.signals_created as u64,
        ),
    ];
    for (metric, value) in counters {
        metrics::counter!(metric, "collector" => name).increment(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_names_its_only_failure_or_counts_them_and_names_the_last() {
        assert_eq!(last_error(&[], "boards"), None);
        assert_eq!(
            last_error(&["a: 404".into()], "boards").as_deref(),
            Some("a: 404")
        );
        let two = ["a: 404".to_string(), "b: 500".to_string()];
        assert_eq!(
            last_error(&two, "boards").as_deref(),
            Some("2 boards failed; last: b: 500")
        );
    }

    #[test]
    fn a_failing_board_waits_the_interval_doubled_per_failure_up_to_a_day() {
        let hour = 3_600_000;
        assert_eq!(backoff_ms(hour, 1), hour);
        assert_eq!(backoff_ms(hour, 2), 2 * hour);
        assert_eq!(backoff_ms(hour, 4), 8 * hour);
        assert_eq!(backoff_ms(hour, 40), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(2 * MAX_BACKOFF_MS, 3), 2 * MAX_BACKOFF_MS);
    }
}
