//! The CSRF check: every request that can change something is a `POST` that carries the
//! session's token, as the form field `csrf` (or, for file uploads and scripted requests, the
//! `X-CSRF-Token` header or the `csrf` query parameter). Anything else is refused with 403
//! before a handler runs, so nothing changes.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use super::page::PageError;
use crate::service::sessions::Session;

/// Largest form body the dashboard reads (uploads excepted).
const MAX_FORM_BYTES: usize = 1024 * 1024;

/// Refuses a state-changing request without the session's CSRF token.
pub async fn check(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        return next.run(req).await;
    }
    let Some(expected) = req
        .extensions()
        .get::<Session>()
        .map(|s| s.csrf_token.clone())
    else {
        return PageError::Forbidden.into_response();
    };
    if let Some(sent) = header_or_query(&req) {
        return if same(&sent, &expected) {
            next.run(req).await
        } else {
            PageError::Forbidden.into_response()
        };
    }
    if !is_form(req.headers()) {
        return PageError::Forbidden.into_response();
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_FORM_BYTES).await else {
        return PageError::TooLarge.into_response();
    };
    let sent = url::form_urlencoded::parse(&bytes)
        .find(|(name, _)| name == "csrf")
        .map(|(_, value)| value.into_owned());
    match sent {
        Some(sent) if same(&sent, &expected) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        _ => PageError::Forbidden.into_response(),
    }
}

fn header_or_query(req: &Request) -> Option<String> {
    if let Some(value) = req.headers().get("x-csrf-token") {
        return Some(value.to_str().unwrap_or_default().to_string());
    }
    url::form_urlencoded::parse(req.uri().query().unwrap_or_default().as_bytes())
        .find(|(name, _)| name == "csrf")
        .map(|(_, value)| value.into_owned())
}

fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

/// Compares the tokens through their hashes, so the time taken says nothing about how much of
/// the token matched.
fn same(sent: &str, expected: &str) -> bool {
    Sha256::digest(sent.as_bytes()) == Sha256::digest(expected.as_bytes())
}
