//! The error answers particular to CSV enrichment, in the one error envelope.

use axum::http::StatusCode;

use crate::enrichment::input::UploadError;
use crate::http::error::ApiError;

fn error(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        code,
        message: message.into(),
        retry_after: None,
    }
}

/// 400 `invalid_company_payload`: the companies sent are missing, too many or too few, or one
/// of them names no identifier.
pub fn invalid_company_payload(message: impl Into<String>) -> ApiError {
    error(StatusCode::BAD_REQUEST, "invalid_company_payload", message)
}

/// The error in the CSV API's own vocabulary: that API has no generic `bad_request` code, every
/// 400 it answers (body, options, cursor, query) is `invalid_company_payload`.
pub fn in_csv_terms(err: ApiError) -> ApiError {
    if err.code == "bad_request" {
        ApiError {
            code: "invalid_company_payload",
            ..err
        }
    } else {
        err
    }
}

/// 404 `job_not_found`: no such job for this team (also for an id that is not a UUID).
pub fn job_not_found() -> ApiError {
    error(StatusCode::NOT_FOUND, "job_not_found", "Job not found")
}

/// 410 `job_expired`: the job is past its retention window.
pub fn job_expired() -> ApiError {
    error(
        StatusCode::GONE,
        "job_expired",
        "CSV enrichment jobs are retrievable for 30 days.",
    )
}

impl From<UploadError> for ApiError {
    fn from(err: UploadError) -> ApiError {
        match err {
            UploadError::Companies(message) => invalid_company_payload(message),
            UploadError::Malformed(message) => ApiError::bad_request(message),
        }
    }
}
