//! The one error type of the use cases: what went wrong in the domain's terms. Each client
//! renders it in its own way (the JSON API as `{success: false, error, code}` with a status).

use crate::store::StoreError;

/// Why a use case refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The input is not acceptable; the message says which value and why.
    #[error("{0}")]
    Invalid(String),
    /// The team has no such thing (unknown, another team's, or deleted).
    #[error("{0}")]
    NotFound(String),
    /// The thing exists but is in a state that forbids the change.
    #[error("{0}")]
    Conflict(String),
    /// The team's credit balance does not cover the request; nothing was charged.
    #[error("out of credits")]
    OutOfCredits,
    /// The database failed; the cause is logged where the error is rendered, never shown.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError {
    /// An [`Invalid`](ServiceError::Invalid) error.
    pub fn invalid(message: impl Into<String>) -> ServiceError {
        ServiceError::Invalid(message.into())
    }

    /// A [`NotFound`](ServiceError::NotFound) error.
    pub fn not_found(message: impl Into<String>) -> ServiceError {
        ServiceError::NotFound(message.into())
    }

    /// A [`Conflict`](ServiceError::Conflict) error.
    pub fn conflict(message: impl Into<String>) -> ServiceError {
        ServiceError::Conflict(message.into())
    }
}
