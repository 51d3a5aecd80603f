//! The one error type at the HTTP edge. Every failure leaves as
//! `{success: false, error, code}` (plus `retryAfter` on 429); causes of 5xx are logged, never
//! shown to clients.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::service::ServiceError;
use crate::store::StoreError;

/// An error answer with its status, stable machine code and human message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 400 `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 401 `invalid_api_key`.
    pub fn invalid_api_key(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "invalid_api_key", message)
    }

    /// 403 `subscription_expired`.
    pub fn subscription_expired() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "subscription_expired",
            "Subscription expired. Please renew your subscription to use the API.",
        )
    }

    /// 402 `insufficient_credits`: the team's balance is 0; nothing was charged.
    pub fn out_of_credits() -> ApiError {
        ApiError::new(
            StatusCode::PAYMENT_REQUIRED,
            "insufficient_credits",
            "out of credits, please contact support to increase your usage",
        )
    }

    /// 404 `not_found`.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 405, for a known path with a method it does not serve.
    pub fn method_not_allowed() -> ApiError {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "Method not allowed for this path",
        )
    }

    /// 409 `conflict`.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// 413 `payload_too_large`.
    pub fn payload_too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "Request body is too large (limit 1 MiB)",
        )
    }

    /// 429 `rate_limited`, retry after the given seconds.
    pub fn rate_limited(retry_after: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "Too many requests. Please upgrade your plan or slow down.",
            )
        }
    }

    /// 429 `rate_limited` on `endpoint`, in the words the reference gives that API: the signal
    /// and company lists say it differently from the Webhooks, CSV and Monitoring APIs.
    pub fn rate_limited_on(endpoint: &str, retry_after: u64) -> ApiError {
        let mut err = ApiError::rate_limited(retry_after);
        if endpoint.starts_with("signals.") || endpoint.starts_with("companies.") {
            err.message = "Rate limit exceeded. Please try again later.".to_string();
        }
        err
    }

    /// 503 `service_unavailable`: the service is over capacity; nothing of the request was
    /// stored, and it may be sent again after the given seconds.
    pub fn overloaded(retry_after: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "service_unavailable",
                "The service is busy. Please try again later.",
            )
        }
    }

    /// The answer to a database failure: 503 when the database had no connection free in
    /// time (over capacity), else 500.
    fn from_store(err: StoreError) -> ApiError {
        if err.is_overload() {
            tracing::warn!(error = %err, "request refused: no database connection free in time");
            ApiError::overloaded(OVERLOAD_RETRY_AFTER)
        } else {
            ApiError::internal(err)
        }
    }

    /// 500 `internal_error`; the cause is logged here and not shown to the client.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %cause, "request failed");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "An unknown error occurred",
        )
    }
}

/// Seconds a client refused for want of a database connection is asked to wait.
const OVERLOAD_RETRY_AFTER: u64 = 1;

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        ApiError::from_store(err)
    }
}

impl From<ServiceError> for ApiError {
    fn from(err: ServiceError) -> ApiError {
        match err {
            ServiceError::Invalid(message) => ApiError::bad_request(message),
            ServiceError::NotFound(message) => ApiError::not_found(message),
            ServiceError::Conflict(message) => ApiError::conflict(message),
            ServiceError::OutOfCredits => ApiError::out_of_credits(),
            ServiceError::Store(err) => ApiError::from_store(err),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "success": false, "error": self.message, "code": self.code });
        if let Some(seconds) = self.retry_after {
            body["retryAfter"] = json!(seconds);
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert("Retry-After", seconds.into());
        }
        response
    }
}
