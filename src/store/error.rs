//! Database errors, classified by kind rather than by constraint name (SQLite does not report
//! constraint names).

/// A failure in the persistence layer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("unsupported database URL: expected sqlite://PATH or postgres://…")]
    UnsupportedUrl,
    /// The row a write was aimed at does not exist (callers check ownership first).
    #[error("not found")]
    NotFound,
    /// The delivery a write was aimed at is being attempted at this moment.
    #[error("an attempt of this delivery is under way")]
    InFlight,
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// Another transaction created what this one was about to create: start again.
    #[error("a concurrent write created the same rows; the transaction is to be run again")]
    Contended,
}

impl StoreError {
    /// True when running the same transaction again may succeed: a claim lost to a concurrent
    /// ingest, or PostgreSQL ending this transaction to break a deadlock or a serialization
    /// conflict.
    pub fn is_contention(&self) -> bool {
        match self {
            StoreError::Contended => true,
            StoreError::Database(err) => err
                .as_database_error()
                .and_then(|db| db.code())
                .is_some_and(|code| code == "40P01" || code == "40001"),
            _ => false,
        }
    }

    /// True when the database is over capacity and the request may be sent again later: no
    /// connection was free within the pool's wait, the server refused one more connection
    /// (53300), or a statement ran past the statement time-out (57014).
    pub fn is_overload(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::PoolTimedOut) => true,
            StoreError::Database(err) => err
                .as_database_error()
                .and_then(|db| db.code())
                .is_some_and(|code| code == "53300" || code == "57014"),
            _ => false,
        }
    }

    /// True when the error is a unique-constraint violation.
    pub fn is_unique_violation(&self) -> bool {
        match self {
            StoreError::Database(err) => err
                .as_database_error()
                .is_some_and(|db| db.is_unique_violation()),
            _ => false,
        }
    }
}
