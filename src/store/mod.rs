//! Persistence. Every SQL statement of the service lives under this module.
//!
//! Two backends share one set of statements: SQL is written with `$1`-style parameters, which
//! both SQLite and PostgreSQL accept, and column types that read the same on both (TEXT ids,
//! BIGINT epoch milliseconds, BOOLEAN). The [`on_db!`] and [`on_tx!`] macros expand one body per
//! backend so each statement is written once. Team-owned reads always take the team id.

pub mod alerts;
pub mod api_keys;
pub mod board_postings;
pub mod bulk;
pub mod bulk_chain;
pub mod bulk_companies;
pub mod bulk_links;
pub mod bulk_load;
pub mod bulk_people;
pub mod bulk_search;
pub mod bulk_stage;
pub mod bulk_targets;
mod bulk_unnest;
pub mod collector_runs;
pub mod companies;
pub mod company_keys;
pub mod company_lists;
pub mod company_names;
pub mod count_cache;
mod count_plan;
pub mod credits;
pub mod deliveries;
pub mod delivery_history;
pub mod demo;
pub mod enrichment;
pub mod error;
pub mod host_turns;
pub mod import_lock;
pub mod investor_list;
pub mod job_boards;
pub mod matched_funding;
pub mod monitor_signals;
pub mod monitors;
pub mod outbox;
pub mod people;
pub mod people_list;
mod process_lock;
pub mod query;
pub mod rate_limits;
pub mod redis_limits;
pub mod saved_counts;
pub mod search;
pub mod sec_filings;
pub mod serving_lock;
pub mod sessions;
mod signal_filters;
pub mod signal_lists;
pub mod signal_query;
pub mod signals;
mod sqlite;
mod statistics;
mod statistics_refresh;
pub mod stats;
mod tag_strategy;
pub mod targets;
mod tcp_nodelay;
pub mod teams;
pub mod usage;
pub mod versions;
pub mod webhooks;

use std::time::Duration;

use sqlx::postgres::{PgPoolOptions, Postgres};
use sqlx::{PgPool, Transaction};

pub use error::StoreError;
pub use process_lock::HeldLock;
pub use sqlite::{SqliteDb, SqliteTx};
pub use statistics_refresh::{Refreshed, TableSizes};

/// A handle on one of the two supported databases: a pool of connections and, on SQLite, the
/// gate its writers take turns at. Clones share both; two connected handles share neither.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqliteDb),
    Postgres(PgPool),
}

/// An open transaction on either backend.
#[derive(Debug)]
pub enum Tx {
    Sqlite(SqliteTx),
    Postgres(Transaction<'static, Postgres>),
}

/// Runs `$body` with `$conn` bound to the backend's pool (`&Pool<DB>`).
#[macro_export]
macro_rules! on_db {
    ($db:expr, |$conn:ident| $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite(sqlite) => {
                let $conn = sqlite.pool();
                $body
            }
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

/// The `application_name` of a writer's own PostgreSQL connection ([`Db::own_writer`]).
pub const WRITER_APPLICATION_NAME: &str = "signalwatch-writer";

/// Most connections a PostgreSQL pool opens unless configured otherwise.
pub const PG_MAX_CONNECTIONS: u32 = 16;

/// How a PostgreSQL pool is sized and how long its users wait.
#[derive(Debug, Clone, Copy)]
pub struct PoolSettings {
    /// Most connections the pool opens.
    pub max_connections: u32,
    /// Longest wait for a free connection; past it the caller gets `PoolTimedOut` (an API
    /// request: 503 with `Retry-After`).
    pub acquire_timeout: Duration,
    /// Longest run of one statement before the server cancels it (zero: no limit).
    pub statement_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> PoolSettings {
        PoolSettings {
            max_connections: PG_MAX_CONNECTIONS,
            acquire_timeout: Duration::from_secs(30),
            statement_timeout: Duration::ZERO,
        }
    }
}

/// A PostgreSQL pool's options: over TCP, each new connection has Nagle's algorithm turned off
/// (see [`tcp_nodelay`]).
fn pg_pool_options(options: &sqlx::postgres::PgConnectOptions) -> PgPoolOptions {
    let pool = PgPoolOptions::new();
    if options.get_socket().is_some() {
        return pool;
    }
    let port = options.get_port();
    pool.after_connect(move |_conn, _meta| {
        Box::pin(async move {
            tcp_nodelay::no_delay_to(port);
            Ok(())
        })
    })
}

impl Db {
    /// Connects to `sqlite://PATH` (created if missing, WAL) or `postgres://…`.
    pub async fn connect(url: &str) -> Result<Db, StoreError> {
        Db::connect_with(url, &PoolSettings::default()).await
    }

    /// As [`Db::connect`], with these settings for a PostgreSQL pool.
    pub async fn connect_with(url: &str, settings: &PoolSettings) -> Result<Db, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            use std::str::FromStr;
            let mut options = sqlx::postgres::PgConnectOptions::from_str(url)?;
            if !settings.statement_timeout.is_zero() {
                let ms = settings.statement_timeout.as_millis().to_string();
                options = options.options([("statement_timeout", ms.as_str())]);
            }
            let pool = pg_pool_options(&options)
                .max_connections(settings.max_connections.max(1))
                .acquire_timeout(settings.acquire_timeout)
                .connect_with(options)
                .await?;
            Ok(Db::Postgres(pool))
        } else if url.starts_with("sqlite:") {
            Ok(Db::Sqlite(SqliteDb::connect(url).await?))
        } else {
            Err(StoreError::UnsupportedUrl)
        }
    }

    /// As [`Db::connect`], for a command run by hand: a PostgreSQL server that does not answer
    /// within `patience` is an error at once, carrying the cause (refused, unknown host, bad
    /// password) instead of a pool time-out.
    pub async fn connect_quickly(url: &str, patience: Duration) -> Result<Db, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            use sqlx::Connection;
            use std::str::FromStr;
            let probe = tokio::time::timeout(patience, sqlx::PgConnection::connect(url))
                .await
                .map_err(|_| StoreError::Database(sqlx::Error::PoolTimedOut))??;
            let _ = probe.close().await;
            let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
            let pool = pg_pool_options(&options)
                .max_connections(4)
                .acquire_timeout(patience)
                .connect_with(options)
                .await?;
            return Ok(Db::Postgres(pool));
        }
        Db::connect(url).await
    }

    /// A pool of its own, of one connection, for a process's busiest writer (the ingest group
    /// writer, a bulk load); it shares this handle's write gate.
    ///
    /// On SQLite the connection has a larger page cache. In WAL mode a connection empties its
    /// page cache whenever another one has committed since its last transaction, and a pool
    /// hands out whichever connection is free: the ingest writer then read most index pages its
    /// inserts touch back from the files. On a connection of its own they stay in memory from
    /// one group to the next while only it writes.
    ///
    /// On PostgreSQL the writer never waits for a connection behind list requests, and its
    /// session keeps what it learnt (the catalog of the tables it writes, its prepared
    /// statements) from one group to the next instead of each group landing on whichever of the
    /// pool's sessions is free, and each of them learning it again. The connection is named
    /// [`WRITER_APPLICATION_NAME`] in `pg_stat_activity`; the ingest writer opens it at its start
    /// (`ingest::rehearsal`).
    pub fn own_writer(&self) -> Db {
        match self {
            Db::Sqlite(sqlite) => Db::Sqlite(sqlite.own_writer()),
            Db::Postgres(pool) => {
                let options = (*pool.connect_options())
                    .clone()
                    .application_name(WRITER_APPLICATION_NAME);
                let writer = pg_pool_options(&options)
                    .max_connections(1)
                    .min_connections(1)
                    .acquire_timeout(pool.options().get_acquire_timeout())
                    .connect_lazy_with(options);
                Db::Postgres(writer)
            }
        }
    }

    /// Applies the backend's migrations. Several processes may start at once: on PostgreSQL the
    /// migrator holds an advisory lock, on SQLite a lock file beside the database.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match self {
            Db::Sqlite(sqlite) => {
                let _one_at_a_time =
                    sqlite::lock_file::MigrationLock::acquire(&sqlite.pool().connect_options())
                        .await?;
                sqlx::migrate!("migrations/sqlite")
                    .run(sqlite.pool())
                    .await?;
                statistics::mend_statistics(sqlite.pool()).await?;
            }
            Db::Postgres(pool) => {
                // On a connection of its own without the pool's statement time-out: building an
                // index on a large table may take longer.
                let mut conn = pool.acquire().await?;
                sqlx::query("SET statement_timeout = 0")
                    .execute(&mut *conn)
                    .await?;
                let migrated = sqlx::migrate!("migrations/postgres").run(&mut *conn).await;
                let reset = sqlx::query("RESET statement_timeout")
                    .execute(&mut *conn)
                    .await;
                migrated?;
                reset?;
            }
        }
        Ok(())
    }

    /// Starts a write transaction: every write to the database goes through one. On SQLite it
    /// first waits for the handle's write gate (an in-process hand-over, instead of SQLite's
    /// busy handler that sleeps and retries), then takes the write lock up front
    /// (`BEGIN IMMEDIATE`) so that check-then-write sequences are serialized; the transaction
    /// holds the gate until it ends, and a checkpoint of the log follows. Not reentrant: a task
    /// holding one must not start another. On PostgreSQL, a plain `BEGIN`.
    pub async fn begin_write(&self) -> Result<Tx, StoreError> {
        Ok(match self {
            Db::Sqlite(sqlite) => Tx::Sqlite(sqlite.begin_write().await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// A read-only transaction: on SQLite a deferred one without the write gate, so that
    /// reading never waits for the writers.
    pub async fn begin_read(&self) -> Result<Tx, StoreError> {
        Ok(match self {
            Db::Sqlite(sqlite) => Tx::Sqlite(sqlite.begin_read().await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// Runs `write` in a write transaction of its own ([`Db::begin_write`]) and commits: for
    /// a single write statement, which on SQLite must take the gate like any other write.
    pub async fn write<T, F>(&self, write: F) -> Result<T, StoreError>
    where
        F: AsyncFnOnce(&mut Tx) -> Result<T, StoreError>,
    {
        let mut tx = self.begin_write().await?;
        let out = write(&mut tx).await?;
        tx.commit().await?;
        Ok(out)
    }

    /// Runs `writer`, the process's busiest writer, where it writes best: on SQLite on a
    /// thread and runtime of its own, sharing one core with its connection's thread (the
    /// statements of a transaction hop between the two); on PostgreSQL, whose connections
    /// belong to the runtime that opened them, and if the thread cannot start, as a task of
    /// the current runtime.
    pub fn spawn_writer<F>(&self, name: &str, writer: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let writer = match self {
            Db::Sqlite(_) => match sqlite::writer_thread::spawn(name, writer) {
                Ok(()) => return,
                Err((err, writer)) => {
                    tracing::warn!(error = %err, name, "the writer runs on the current runtime");
                    writer
                }
            },
            Db::Postgres(_) => writer,
        };
        tokio::spawn(writer);
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

    /// Rolls the transaction back.
    pub async fn rollback(self) -> Result<(), StoreError> {
        match self {
            Tx::Sqlite(t) => t.rollback().await?,
            Tx::Postgres(t) => t.rollback().await?,
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
