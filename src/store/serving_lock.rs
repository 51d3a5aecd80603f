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

use super::process_lock::{HeldLock, LockName, Mode, try_take};
use super::{Db, StoreError};

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
