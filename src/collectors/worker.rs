//! The collector worker: every enabled collector runs a pass over its due boards at start and
//! then at least once per interval (boards fall due one interval after their last poll, so a
//! pass finds the boards whose time has come).

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Collectors;
use crate::delivery::dispatch::Dispatcher;
use crate::store::Db;

/// Longest time between two looks for due boards.
const MAX_TICK: Duration = Duration::from_secs(60);

/// Runs until `shutdown`; returns at once when no collector is enabled.
pub async fn collector_loop(
    db: Db,
    collectors: Arc<Collectors>,
    dispatcher: Arc<Dispatcher>,
    shutdown: CancellationToken,
) {
    if collectors.sec().enabled() {
        tokio::spawn(sec_loop(
            db.clone(),
            collectors.clone(),
            dispatcher.clone(),
            shutdown.clone(),
        ));
    }
    if collectors.enabled().is_empty() {
        return;
    }
    let tick = collectors.interval().min(MAX_TICK);
    loop {
        // The sources are on hosts of their own: the collectors' passes run side by side.
        let mut passes = tokio::task::JoinSet::new();
        for provider in collectors.enabled().to_vec() {
            let (db, collectors, dispatcher) = (db.clone(), collectors.clone(), dispatcher.clone());
            passes.spawn(async move {
                if let Err(err) = collectors.run_pass(&db, &dispatcher, provider, false).await {
                    tracing::error!(collector = provider.as_str(), error = %err, "collector pass failed");
                }
            });
        }
        tokio::select! {
            // Dropping the set stops the passes: their boards' leases run out.
            _ = shutdown.cancelled() => return,
            _ = passes.join_all() => {}
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(tick) => {}
        }
    }
}

/// The SEC Form D collector: a pass at start, then one per interval (the pass lease keeps the
/// workers of a scale-out from reading the feed at the same time).
async fn sec_loop(
    db: Db,
    collectors: Arc<Collectors>,
    dispatcher: Arc<Dispatcher>,
    shutdown: CancellationToken,
) {
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            ran = collectors.sec().run(&db, &dispatcher, false) => {
                if let Err(err) = ran {
                    tracing::error!(collector = "sec-form-d", error = %err, "collector pass failed");
                }
            }
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(collectors.interval()) => {}
        }
    }
}
