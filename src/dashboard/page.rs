//! What every page shares: the layout's values, rendering a template into an answer, the error
//! pages, and display formats.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::{DateTime, Utc};

use crate::service::ServiceError;
use crate::service::sessions::Session;

/// The values the layout needs: the signed-in member, the form token and the current section.
#[derive(Debug, Clone)]
pub struct Layout {
    pub title: String,
    pub email: String,
    pub csrf: String,
    /// The navigation entry to mark as current, e.g. `monitors`.
    pub section: &'static str,
}

impl Layout {
    /// The layout of a page of `section` titled `title`.
    pub fn new(session: &Session, section: &'static str, title: impl Into<String>) -> Layout {
        Layout {
            title: title.into(),
            email: session.email.clone(),
            csrf: session.csrf_token.clone(),
            section,
        }
    }

    /// `aria-current` for the navigation entry of `section`.
    pub fn current(&self, section: &str) -> &'static str {
        if self.section == section {
            "page"
        } else {
            "false"
        }
    }
}

/// Renders a template as a `200 OK` page.
pub fn render(template: &impl Template) -> Response {
    render_with(StatusCode::OK, template)
}

/// Renders a template with a status of its own (a form shown again with errors is a 400).
pub fn render_with(status: StatusCode, template: &impl Template) -> Response {
    match template.render() {
        Ok(html) => (status, Html(html)).into_response(),
        Err(err) => {
            tracing::error!(error = %err, "dashboard template failed");
            PageError::Internal.into_response()
        }
    }
}

/// A `303 See Other` to `to`: where a form's `POST` leads once it is done.
pub fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// Why a page cannot be shown.
#[derive(Debug)]
pub enum PageError {
    NotFound(String),
    /// The CSRF token is missing or wrong.
    Forbidden,
    Invalid(String),
    Conflict(String),
    OutOfCredits,
    TooLarge,
    Internal,
}

#[derive(Template)]
#[template(path = "dashboard/error.html")]
struct ErrorPage<'a> {
    heading: &'a str,
    message: &'a str,
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let (status, heading, message) = match &self {
            PageError::NotFound(message) => (StatusCode::NOT_FOUND, "Not found", message.as_str()),
            PageError::Forbidden => (
                StatusCode::FORBIDDEN,
                "This form has expired",
                "Nothing was changed. Go back, reload the page and try again.",
            ),
            PageError::Invalid(message) => (
                StatusCode::BAD_REQUEST,
                "That did not work",
                message.as_str(),
            ),
            PageError::Conflict(message) => {
                (StatusCode::CONFLICT, "That did not work", message.as_str())
            }
            PageError::OutOfCredits => (
                StatusCode::PAYMENT_REQUIRED,
                "Out of credits",
                "Your team's credit balance is used up; nothing was charged. Contact support to \
                 add credits.",
            ),
            PageError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "Too large",
                "The form sent more data than the dashboard accepts.",
            ),
            PageError::Internal => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "The page could not be shown. Try again in a moment.",
            ),
        };
        let page = ErrorPage { heading, message };
        let html = page
            .render()
            .unwrap_or_else(|_| format!("<!doctype html><title>{heading}</title>"));
        (status, Html(html)).into_response()
    }
}

impl From<ServiceError> for PageError {
    fn from(err: ServiceError) -> PageError {
        match err {
            ServiceError::Invalid(message) => PageError::Invalid(message),
            ServiceError::NotFound(message) => PageError::NotFound(message),
            ServiceError::Conflict(message) => PageError::Conflict(message),
            ServiceError::OutOfCredits => PageError::OutOfCredits,
            ServiceError::Store(err) => {
                tracing::error!(error = %err, "dashboard request failed");
                PageError::Internal
            }
        }
    }
}

/// The answer to a path the dashboard does not serve.
pub async fn not_found() -> Response {
    PageError::NotFound("There is no page at this address.".into()).into_response()
}

/// A time for people: `2026-05-29 10:30 UTC`; an empty value shows as a dash.
pub fn when(ms: Option<i64>) -> String {
    ms.and_then(DateTime::<Utc>::from_timestamp_millis)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| "—".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc_minutes_and_missing_ones_as_a_dash() {
        assert_eq!(when(Some(0)), "1970-01-01 00:00 UTC");
        assert_eq!(when(None), "—");
    }
}
