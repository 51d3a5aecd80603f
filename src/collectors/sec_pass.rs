//! The `sec-form-d` collector as the process runs it: its EDGAR client, its passes and the
//! figures the admin API and Prometheus show of them.

use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use super::CollectorStatus;
use super::sec_form_d::source::SPACING;
use super::sec_form_d::{Edgar, PassReport, run_pass};
use crate::config::{Config, SEC_FORM_D};
use crate::delivery::dispatch::Dispatcher;
use crate::domain::time::{format_ms, now_ms};
use crate::store::collector_runs::{RunRow, record_run};
use crate::store::{Db, StoreError, new_id};

/// The SEC Form D collector of one process.
#[derive(Debug)]
pub struct SecCollector {
    enabled: bool,
    /// `None` without a `User-Agent`: the SEC serves no anonymous client.
    edgar: Option<Edgar>,
    /// Names this process in the pass lease.
    holder: String,
    /// One pass at a time in this process.
    turn: Mutex<()>,
}

/// Longest an operator's pass waits for another process's pass to end.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// Why a pass cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SecPassError {
    #[error(
        "the sec-form-d collector needs SIGNALWATCH_SEC_USER_AGENT (who you are and a contact address)"
    )]
    NoUserAgent,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SecCollector {
    /// The collector as `config` sets it up.
    pub fn new(config: &Config) -> anyhow::Result<SecCollector> {
        let edgar = match config.sec_user_agent() {
            Some(agent) => {
                let spacing = if config.unthrottled_sources {
                    Duration::ZERO
                } else {
                    SPACING
                };
                Some(Edgar::with_spacing(&config.sec_url, agent, spacing)?)
            }
            None => None,
        };
        Ok(SecCollector {
            enabled: config.collectors.sec_form_d,
            edgar,
            holder: new_id(),
            turn: Mutex::new(()),
        })
    }

    /// True when it runs periodically.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Runs one pass now, records its figures and returns them. A pass under way elsewhere is
    /// waited for first when `wait` (an operator's request), else this one is skipped and the
    /// figures of the last pass that ended are returned.
    pub async fn run(
        &self,
        db: &Db,
        dispatcher: &Dispatcher,
        wait: bool,
    ) -> Result<CollectorStatus, SecPassError> {
        let edgar = self.edgar.as_ref().ok_or(SecPassError::NoUserAgent)?;
        let _turn = self.turn.lock().await;
        let waited_since = Instant::now();
        let (started, report) = loop {
            let started = now_ms();
            let report = run_pass(db, edgar, &self.holder, &|| dispatcher.wake()).await?;
            if !report.busy {
                break (started, report);
            }
            if !wait || waited_since.elapsed() > MAX_WAIT {
                let runs = crate::store::collector_runs::runs(db).await?;
                let last = runs.into_iter().find(|r| r.name == SEC_FORM_D);
                return Ok(self.status(last.unwrap_or_default()));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let run = run_row(started, &report);
        record_run(db, &run).await?;
        super::count(SEC_FORM_D, &run, report.errors.len());
        tracing::info!(
            collector = SEC_FORM_D,
            filings = report.filings_seen,
            read = report.filings_read,
            created = report.signals_created,
            updated = report.signals_updated,
            funds_skipped = report.funds_skipped,
            errors = report.errors.len(),
            "collector pass done"
        );
        Ok(self.status(run))
    }

    /// The collector with the figures of `run`.
    pub fn status(&self, run: RunRow) -> CollectorStatus {
        CollectorStatus {
            name: SEC_FORM_D,
            enabled: self.enabled,
            last_run_at: run.last_run_at.map(format_ms),
            last_error: run.last_error,
            sources_checked: run.sources_checked,
            items_seen: run.items_seen,
            signals_created: run.signals_created,
        }
    }
}

/// A pass's figures as the collectors keep them: filings read as sources checked, filings in
/// the feed as items seen, and the last error (with how many there were).
fn run_row(started: i64, report: &PassReport) -> RunRow {
    RunRow {
        name: SEC_FORM_D.to_string(),
        last_run_at: Some(started),
        last_error: super::last_error(&report.errors, "filings"),
        sources_checked: report.filings_read,
        items_seen: report.filings_seen,
        signals_created: report.signals_created,
    }
}
