//! Servers and bulk loads keep out of each other's way.
//!
//! A bulk load writes as if nobody else did: it drops indexes, skips fan-out (nobody listens in
//! an empty database) and, when it stopped half-way, its next run deletes every row of the
//! loaded tables before loading again. A server writing to the same database meanwhile would
//! lose what it accepted to that restart, and a webhook created through it during the load
//! would never hear of the rows loaded after it. So every `serve` process holds this lock
//! shared for as long as it runs, and a bulk load holds it exclusively from its choice of path
//! to its end: an import that cannot take it (a server runs) stores its records the ordinary
//! way, and a server that cannot take it (a bulk load runs) does not start.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::process_lock::{HeldLock, LockName, Mode, try_take};
use super::{Db, StoreError};

/// How often a serving process checks that it still holds its lock.
const CHECK_EVERY: Duration = Duration::from_secs(2);
/// How long a check waits for the database's answer before counting the lock as lost.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// `<database>-serve.lock` beside a SQLite file; an advisory lock on PostgreSQL.
const SERVING: LockName = LockName {
    file_suffix: "-serve.lock",
    advisory_key: 0x5357_5345_5256_494e,
};

/// Takes the lock a serving process holds while it runs, unless a bulk load holds it; `None`
/// then.
pub async fn hold_while_serving(db: &Db) -> Result<Option<HeldLock>, StoreError> {
    try_take(db, SERVING, Mode::Shared).await
}

/// Takes the lock that keeps servers from starting, when no server is running; `None` when one
/// is.
pub async fn keep_servers_out(db: &Db) -> Result<Option<HeldLock>, StoreError> {
    try_take(db, SERVING, Mode::Exclusive).await
}

/// Holds a serving process's `lock` until `shutdown`, then lets it go; returns false when the
/// process has to stop because a bulk load took the lock meanwhile (`shutdown` is then
/// cancelled).
///
/// On PostgreSQL the lock lives in a session of its own, which a restart of the database server
/// or a cut connection ends, and the lock with it: an import could then load the database in
/// bulk under a running server. So the session is checked every [`CHECK_EVERY`], and a lost
/// lock is taken again as soon as the database answers. If an import took it exclusively in
/// between, serving on beside its load could lose what the server accepts: the process stops.
pub async fn keep_holding(db: Db, mut lock: HeldLock, shutdown: CancellationToken) -> bool {
    let mut kept = true;
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = tokio::time::sleep(CHECK_EVERY) => {}
        }
        if lock.still_held(CHECK_TIMEOUT).await {
            continue;
        }
        match hold_while_serving(&db).await {
            Ok(Some(again)) => {
                tracing::warn!(
                    "the database session holding the serving lock ended; the lock is held again"
                );
                lock = again;
            }
            Ok(None) => {
                tracing::error!("{BULK_LOAD_TOOK_OVER}");
                kept = false;
                shutdown.cancel();
                break;
            }
            Err(err) => tracing::warn!(
                error = %err,
                "the database session holding the serving lock ended; taking it again when the \
                 database answers"
            ),
        }
    }
    lock.release().await;
    kept
}

/// Why a server stops when an import took the serving lock while the server's was lost.
pub const BULK_LOAD_TOOK_OVER: &str = "the database session holding this server's serving lock \
     ended and an import took the lock to load the database in bulk: the server stops (serving \
     beside a bulk load could lose what it accepts)";
