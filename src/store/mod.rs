//! Persistence. Every SQL statement of the service lives under this module.
//!
//! Two backends share one set of statements: SQL is written with `$1`-style parameters, which
//! both SQLite and PostgreSQL accept, and column types that read the same on both (TEXT ids,
//! BIGINT epoch milliseconds, BOOLEAN). The [`on_db!`] and [`on_tx!`] macros expand one body per
//! backend so each statement is written once. Team-owned reads always take the team id.

pub mod alerts;
pub mod bulk;
pub mod bulk_companies;
pub mod bulk_people;
pub mod bulk_targets;
mod bulk_unnest;
pub mod companies;
pub mod company_lists;
pub mod company_names;
pub mod count_cache;
pub mod credits;
pub mod deliveries;
pub mod delivery_history;
pub mod enrichment;
pub mod error;
pub mod monitors;
pub mod outbox;
pub mod people;
pub mod query;
pub mod rate_limits;
pub mod redis_limits;
pub mod search;
mod signal_filters;
pub mod signal_lists;
pub mod signal_query;
pub mod signals;
mod statistics;
pub mod stats;
mod tag_strategy;
pub mod targets;
pub mod teams;
pub mod versions;
pub mod webhooks;
pub mod write_turn;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPoolOptions, Postgres};
use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{PgPool, SqlitePool, Transaction};

pub use error::StoreError;

/// A pool of connections to one of the two supported databases.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// An open transaction on either backend.
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// Runs `$body` with `$conn` bound to the backend's pool (`&Pool<DB>`).
#[macro_export]
macro_rules! on_db {
    ($db:expr, |$conn:ident| $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite($conn) => $body,
            $crate::store::Db::Postgres($conn) => $body,
        }
    };
}

/// Runs `$body` with `$conn` bound to the transaction's connection (`&mut DB::Connection`).
#[macro_export]
macro_rules! on_tx {
    ($tx:expr, |$conn:ident| $body:expr) => {
        match $tx {
            $crate::store::Tx::Sqlite(t) => {
                let $conn = &mut **t;
                $body
            }
            $crate::store::Tx::Postgres(t) => {
                let $conn = &mut **t;
                $body
            }
        }
    };
}

/// The page cache of [`Db::own_writer`]'s connection: `-N` is N KiB (SQLite's default is 2 MiB).
const WRITER_CACHE_KIB: &str = "-32768";

/// Most connections a PostgreSQL pool opens unless configured otherwise.
pub const PG_MAX_CONNECTIONS: u32 = 16;

impl Db {
    /// Connects to `sqlite://PATH` (created if missing, WAL) or `postgres://…`.
    pub async fn connect(url: &str) -> Result<Db, StoreError> {
        Db::connect_sized(url, PG_MAX_CONNECTIONS).await
    }

    /// As [`Db::connect`], with at most `pg_connections` connections to PostgreSQL.
    pub async fn connect_sized(url: &str, pg_connections: u32) -> Result<Db, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(pg_connections.max(1))
                .acquire_timeout(Duration::from_secs(30))
                .connect(url)
                .await?;
            Ok(Db::Postgres(pool))
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(30))
                // Checkpoints run off the writers' path (store::write_turn); SQLite's own, in
                // the commit that crosses this length, is only a backstop.
                .pragma("wal_autocheckpoint", "40000")
                // Statement journals of multi-row writes stay in memory, not in temp files.
                .pragma("temp_store", "memory")
                .foreign_keys(true);
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(30))
                // A connection to a local file does not go stale: no ping before each use.
                .test_before_acquire(false)
                .connect_with(options)
                .await?;
            Ok(Db::Sqlite(pool))
        } else {
            Err(StoreError::UnsupportedUrl)
        }
    }

    /// A pool of its own, of one connection with a larger page cache, for a process's busiest
    /// writer on SQLite (on PostgreSQL, this pool). In WAL mode a connection empties its page
    /// cache whenever another one has committed since its last transaction, and a pool hands
    /// out whichever connection is free: the ingest writer then read most index pages its
    /// inserts touch back from the files. On a connection of its own they stay in memory from
    /// one group to the next while only it writes.
    pub fn own_writer(&self) -> Db {
        match self {
            Db::Sqlite(pool) => {
                let options = (*pool.connect_options())
                    .clone()
                    .pragma("cache_size", WRITER_CACHE_KIB);
                let pool = SqlitePoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(Duration::from_secs(30))
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .test_before_acquire(false)
                    .connect_lazy_with(options);
                Db::Sqlite(pool)
            }
            Db::Postgres(_) => self.clone(),
        }
    }

    /// Applies the backend's migrations. On PostgreSQL the migrator holds an advisory lock, so
    /// several processes may start at once.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match self {
            Db::Sqlite(pool) => {
                sqlx::migrate!("migrations/sqlite").run(pool).await?;
                statistics::forget_search_index_samples(pool).await?;
            }
            Db::Postgres(pool) => sqlx::migrate!("migrations/postgres").run(pool).await?,
        }
        Ok(())
    }

    /// Starts a read-write transaction. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`) so that check-then-write sequences are serialized.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(match self {
            Db::Sqlite(pool) => Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// True when a trivial query answers.
    pub async fn ping(&self) -> bool {
        on_db!(self, |pool| sqlx::query("SELECT 1")
            .execute(pool)
            .await
            .is_ok())
    }

    /// Closes every connection.
    pub async fn close(&self) {
        on_db!(self, |pool| pool.close().await)
    }
}

impl Tx {
    /// Commits the transaction.
    pub async fn commit(self) -> Result<(), StoreError> {
        match self {
            Tx::Sqlite(t) => t.commit().await?,
            Tx::Postgres(t) => t.commit().await?,
        }
        Ok(())
    }

    /// Serializes concurrent changes to one team's limited resources (monitors, targets,
    /// webhooks, credits). SQLite already holds the database write lock from `BEGIN IMMEDIATE`.
    pub async fn lock_team(&mut self, team_id: &str) -> Result<(), StoreError> {
        if let Tx::Postgres(t) = self {
            sqlx::query("SELECT id FROM teams WHERE id = $1 FOR UPDATE")
                .bind(team_id)
                .execute(&mut **t)
                .await?;
        }
        Ok(())
    }
}

/// Advisory-lock key of [`Tx::lock_ingest`] (PostgreSQL's two-key lock space).
const INGEST_LOCK: (i32, i32) = (0x5319, 0);

impl Tx {
    /// Serializes ingest transactions (companies, people, signals) until this one ends, as
    /// SQLite's `BEGIN IMMEDIATE` does: two processes ingesting the same record then run one
    /// after the other and the second finds the first's rows, so a company is created, and a
    /// signal fanned out, once. Taken first, before any read.
    pub async fn lock_ingest(&mut self) -> Result<(), StoreError> {
        if let Tx::Postgres(t) = self {
            sqlx::query("SELECT pg_advisory_xact_lock($1, $2)")
                .bind(INGEST_LOCK.0)
                .bind(INGEST_LOCK.1)
                .execute(&mut **t)
                .await?;
        }
        Ok(())
    }
}

/// A `$n, $n+1, …` list of `count` placeholders starting at `first`, for `IN (…)` clauses.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A new time-ordered id.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
