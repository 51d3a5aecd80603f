//! The SQLite side of a database handle: its pool, its write gate, and transactions that hold
//! the gate until they end.

mod allocator;
mod checkpoint;
mod gate;
pub(crate) mod lock_file;
pub(crate) mod writer_thread;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{SqlitePool, Transaction};

use self::gate::{Turn, WriteGate};
use super::StoreError;

/// The page cache of [`SqliteDb::own_writer`]'s connection: `-N` is N KiB (SQLite's default is
/// 2 MiB).
const WRITER_CACHE_KIB: &str = "-32768";

/// The page cache of a scratch database's connection ([`SqliteDb::scratch`]), KiB: its writes
/// append, and its merges read each page once.
const SCRATCH_CACHE_KIB: &str = "-8192";

/// Prepared statements a scratch database's connection keeps.
const SCRATCH_STATEMENTS: usize = 8;

/// The page size of a database this service creates (an existing file keeps its own). Against
/// SQLite's 4 KiB: half the pages for the same rows, so fewer page look-ups, log frames and
/// system calls; a bulk load took a fifth less time (BENCHMARKS.md), while a random row read
/// copies 8 KiB instead of 4 from the operating system's cache.
const PAGE_SIZE: u32 = 8192;

/// A pool of connections to one SQLite database, and the write gate of the handle it belongs
/// to. Clones share both.
#[derive(Clone, Debug)]
pub struct SqliteDb {
    pool: SqlitePool,
    gate: Arc<WriteGate>,
}

/// A transaction on SQLite; a write transaction holds its handle's write gate until it ends.
#[derive(Debug)]
pub struct SqliteTx {
    // Declared before the turn: the transaction ends (rolls back, when dropped) before the gate
    // is handed over.
    tx: Transaction<'static, Sqlite>,
    turn: Option<Turn>,
}

impl SqliteDb {
    /// Opens `url` (created if missing, WAL), with a gate of its own.
    pub(super) async fn connect(url: &str) -> Result<SqliteDb, StoreError> {
        allocator::install();
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            // sqlx sends it first, before the journal mode, so that it holds for a new file.
            .page_size(PAGE_SIZE)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(30))
            // Checkpoints run off the writers' path (see the checkpoint module); SQLite's own,
            // in the commit that crosses this length, is only a backstop.
            .pragma("wal_autocheckpoint", "40000")
            // Statement journals of multi-row writes stay in memory, not in temp files.
            .pragma("temp_store", "memory")
            .foreign_keys(true);
        // The first connection to a new file turns it to WAL, which needs the file alone, and
        // SQLite does not wait for that: a process opening a new file while another one did
        // failed at once with "database is locked". Opening waits for the migration lock, as
        // migrating does; once the file is in WAL, opening it takes nothing alone.
        let opening = lock_file::MigrationLock::acquire(&options).await?;
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(30))
            // A connection to a local file does not go stale: no ping before each use.
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        drop(opening);
        let gate = WriteGate::new(pool.clone());
        Ok(SqliteDb { pool, gate })
    }

    /// A scratch database at `path`, created anew (a file already there is replaced): one
    /// connection, no journal, nothing synced. For work a bulk load throws away if it stops, on
    /// a connection (and so a thread) of its own.
    pub(crate) async fn scratch(path: &std::path::Path) -> Result<SqliteDb, StoreError> {
        match std::fs::remove_file(path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(sqlx::Error::Io(err).into());
            }
            _ => {}
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .page_size(PAGE_SIZE)
            .journal_mode(SqliteJournalMode::Off)
            .synchronous(SqliteSynchronous::Off)
            .pragma("cache_size", SCRATCH_CACHE_KIB)
            .pragma("temp_store", "memory")
            // Its statements are a few multi-row inserts whose row counts vary from batch to
            // batch: each count is a statement of its own, megabytes of program for thousands
            // of rows, not worth keeping many of.
            .statement_cache_capacity(SCRATCH_STATEMENTS);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        let gate = WriteGate::new(pool.clone());
        Ok(SqliteDb { pool, gate })
    }

    /// The pool, for statements outside a transaction (reads, and what SQLite runs outside any
    /// transaction: migrations, `ANALYZE`).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A pool of one connection with a larger page cache, sharing this handle's gate.
    pub(super) fn own_writer(&self) -> SqliteDb {
        let options = (*self.pool.connect_options())
            .clone()
            .pragma("cache_size", WRITER_CACHE_KIB);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(false)
            .connect_lazy_with(options);
        SqliteDb {
            pool,
            gate: self.gate.clone(),
        }
    }

    /// Waits for the gate, then takes SQLite's write lock up front (`BEGIN IMMEDIATE`) so that
    /// check-then-write sequences are serialized.
    pub(super) async fn begin_write(&self) -> Result<SqliteTx, StoreError> {
        let turn = self.gate.turn().await;
        let tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        Ok(SqliteTx {
            tx,
            turn: Some(turn),
        })
    }

    /// A deferred transaction, without the gate: for reading only.
    pub(super) async fn begin_read(&self) -> Result<SqliteTx, StoreError> {
        Ok(SqliteTx {
            tx: self.pool.begin().await?,
            turn: None,
        })
    }
}

impl SqliteTx {
    /// Commits, then hands the gate over.
    pub(super) async fn commit(self) -> Result<(), StoreError> {
        let SqliteTx { tx, turn } = self;
        let committed = tx.commit().await;
        drop(turn);
        Ok(committed?)
    }

    /// Rolls back, then hands the gate over.
    pub(super) async fn rollback(self) -> Result<(), StoreError> {
        let SqliteTx { tx, turn } = self;
        let rolled_back = tx.rollback().await;
        drop(turn);
        Ok(rolled_back?)
    }
}

impl std::ops::Deref for SqliteTx {
    type Target = SqliteConnection;

    fn deref(&self) -> &SqliteConnection {
        &self.tx
    }
}

impl std::ops::DerefMut for SqliteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.tx
    }
}

#[cfg(test)]
mod tests;
