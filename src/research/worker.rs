//! The research worker: looks pending domain targets up on their websites soon after they are
//! added (woken by the add, and every few seconds for targets added through another process),
//! and sweeps every pending target against the known companies and people periodically.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::lookup::Researcher;
use super::sweep_pending_targets;
use crate::store::Db;

/// How often due look-ups are searched for when nothing wakes the worker.
const LOOKUP_POLL: Duration = Duration::from_secs(10);

/// Runs until `shutdown`: due look-ups at each wake or [`LOOKUP_POLL`], the full sweep every
/// `sweep_period`.
pub async fn research_loop(
    db: Db,
    researcher: Arc<Researcher>,
    wake: Arc<Notify>,
    sweep_period: Duration,
    shutdown: CancellationToken,
) {
    let mut next_sweep = Instant::now() + sweep_period;
    loop {
        let poll = if researcher.enabled() {
            LOOKUP_POLL
        } else {
            sweep_period
        };
        let until = (Instant::now() + poll).min(next_sweep);
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = wake.notified() => {}
            _ = tokio::time::sleep_until(until) => {}
        }
        if Instant::now() >= next_sweep {
            next_sweep = Instant::now() + sweep_period;
            match sweep_pending_targets(&db).await {
                Ok(report) => tracing::info!(
                    checked = report.checked,
                    resolved = report.resolved,
                    "research sweep done"
                ),
                Err(err) => tracing::error!(error = %err, "research sweep failed"),
            }
        }
        let round = tokio::select! {
            _ = shutdown.cancelled() => return,
            round = researcher.look_up_due(&db, false) => round,
        };
        match round {
            Ok(report) if report.looked_up > 0 => tracing::info!(
                looked_up = report.looked_up,
                resolved = report.resolved,
                "research look-ups done"
            ),
            Ok(_) => {}
            Err(err) => tracing::error!(error = %err, "research look-ups failed"),
        }
    }
}
