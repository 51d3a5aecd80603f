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
}

impl StoreError {
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
