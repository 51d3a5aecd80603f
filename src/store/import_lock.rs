//! One import of a database at a time.
//!
//! A bulk load leaves a mark in the database while it runs (`bulk_loads`), and an import that
//! finds the mark starts the load over, deleting what it had loaded: the mark cannot tell a load
//! still running from one that stopped half-way. So every import holds this lock from its start
//! to its end. An import that finds it held waits; one that then finds the mark knows the load
//! that left it is gone. The operating system (SQLite, a lock file beside the database) or the
//! server (PostgreSQL, an advisory lock of the import's own session) releases the lock when its
//! holder ends, however it ends.

use std::fs::File;

use sqlx::{Connection, PgConnection};

use super::{Db, StoreError};

/// The key of PostgreSQL's advisory lock of imports (advisory locks belong to one database).
const IMPORT_LOCK_KEY: i64 = 0x5357_494d_504f_5254;

/// The lock of a running import; dropping it (or [`ImportLock::release`]) lets the next import
/// go.
#[derive(Debug)]
pub struct ImportLock {
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

impl ImportLock {
    /// Lets the next import go.
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

/// Takes the import lock of `db` when no other import holds it; `None` when one does.
pub async fn try_lock(db: &Db) -> Result<Option<ImportLock>, StoreError> {
    let holder = match db {
        Db::Sqlite(sqlite) => {
            let options = sqlite.pool().connect_options();
            match super::sqlite::lock_file::beside(&options, "-import.lock") {
                None => Some(Holder::Alone),
                Some(path) => super::sqlite::lock_file::try_lock(&path)?.map(Holder::File),
            }
        }
        Db::Postgres(pool) => {
            // A connection of its own, out of the pool: the lock lasts as long as its session.
            let mut conn = pool.acquire().await?.detach();
            let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
                .bind(IMPORT_LOCK_KEY)
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
    Ok(holder.map(|holder| ImportLock { holder }))
}
