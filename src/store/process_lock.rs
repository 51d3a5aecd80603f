//! Locks that the processes sharing one database hold across their own work: on SQLite a `flock`
//! of a file beside the database (`sqlite::lock_file`), on PostgreSQL an advisory lock held by a
//! session of its own, out of the pool. Either is released when its holder lets go or ends,
//! however it ends: the operating system closes the file, the server ends the session.
//!
//! A lock is taken shared (any number of holders) or exclusive (one holder, and no shared one).
//! `import_lock` and `serving_lock` say what each lock keeps apart.

use std::fs::File;
use std::time::Duration;

use sqlx::{Connection, PgConnection};

use super::{Db, StoreError};

/// Where a lock lives on each backend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LockName {
    /// The lock file's name beside a SQLite database: the database's path and this suffix.
    pub file_suffix: &'static str,
    /// The key of the PostgreSQL advisory lock (advisory locks belong to one database).
    pub advisory_key: i64,
}

/// How a lock is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// With any other shared holders, never with an exclusive one.
    Shared,
    /// Alone.
    Exclusive,
}

/// A lock held by this process; dropping it (or [`HeldLock::release`]) lets it go.
#[derive(Debug)]
pub struct HeldLock {
    holder: Holder,
}

#[derive(Debug)]
enum Holder {
    /// The locked file beside a SQLite database.
    File(File),
    /// The session holding PostgreSQL's advisory lock.
    Session(PgConnection),
    /// An in-memory database: no other process can reach it.
    Alone,
}

impl HeldLock {
    /// True while the lock is still this process's. On PostgreSQL that is while the session
    /// holding it answers within `timeout`: a restart of the database server, or a cut
    /// connection, ends the session and the lock with it. A lock file, or an in-memory
    /// database's lock, is held until let go.
    pub async fn still_held(&mut self, timeout: Duration) -> bool {
        match &mut self.holder {
            Holder::Session(conn) => {
                matches!(tokio::time::timeout(timeout, conn.ping()).await, Ok(Ok(())))
            }
            Holder::File(_) | Holder::Alone => true,
        }
    }

    /// Lets the lock go.
    pub async fn release(self) {
        match self.holder {
            Holder::Session(conn) => {
                // Ending the session releases its advisory locks.
                let _ = conn.close().await;
            }
            Holder::File(file) => drop(file),
            Holder::Alone => {}
        }
    }
}

/// Takes the lock `name` of `db` in `mode` when no holder keeps it from this one; `None` when
/// one does. Never waits.
pub(crate) async fn try_take(
    db: &Db,
    name: LockName,
    mode: Mode,
) -> Result<Option<HeldLock>, StoreError> {
    let holder = match db {
        Db::Sqlite(sqlite) => {
            let options = sqlite.pool().connect_options();
            match super::sqlite::lock_file::beside(&options, name.file_suffix) {
                None => Some(Holder::Alone),
                Some(path) => super::sqlite::lock_file::try_lock(&path, mode == Mode::Shared)?
                    .map(Holder::File),
            }
        }
        Db::Postgres(pool) => {
            // A connection of its own, out of the pool: the lock lasts as long as its session.
            let mut conn = pool.acquire().await?.detach();
            let sql = match mode {
                Mode::Shared => "SELECT pg_try_advisory_lock_shared($1)",
                Mode::Exclusive => "SELECT pg_try_advisory_lock($1)",
            };
            let locked: bool = sqlx::query_scalar(sql)
                .bind(name.advisory_key)
                .fetch_one(&mut conn)
                .await?;
            if locked {
                Some(Holder::Session(conn))
            } else {
                let _ = conn.close().await;
                None
            }
        }
    };
    Ok(holder.map(|holder| HeldLock { holder }))
}
