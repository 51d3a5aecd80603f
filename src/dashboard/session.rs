//! The dashboard's session: the `sw_session` cookie names a live session, or the request is
//! sent to the sign-in page.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use super::page::PageError;
use crate::http::state::AppState;
use crate::service::sessions::{self, SESSION_IDLE_MS, Session};

/// The name of the session cookie.
pub const COOKIE: &str = "sw_session";

/// Lets a request through with its [`Session`], or answers 303 to `/app/login`.
pub async fn require(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let Some(cookie) = cookie_value(req.headers()) else {
        return to_login();
    };
    match sessions::current(&state.db, &cookie).await {
        Ok(Some(session)) => {
            req.extensions_mut().insert(session);
            next.run(req).await
        }
        Ok(None) => to_login(),
        Err(err) => PageError::from(err).into_response(),
    }
}

fn to_login() -> Response {
    Redirect::to("/app/login").into_response()
}

/// The session cookie's value, when the request carries one.
pub fn cookie_value(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|value| !value.is_empty())
}

/// The `Set-Cookie` value that stores a new session in the browser.
pub fn set_cookie(value: &str, secure: bool) -> HeaderValue {
    let max_age = SESSION_IDLE_MS / 1000;
    let secure = if secure { "; Secure" } else { "" };
    let cookie =
        format!("{COOKIE}={value}; Path=/app; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(secure: bool) -> HeaderValue {
    let cookie = if secure {
        "sw_session=; Path=/app; HttpOnly; SameSite=Lax; Max-Age=0; Secure"
    } else {
        "sw_session=; Path=/app; HttpOnly; SameSite=Lax; Max-Age=0"
    };
    HeaderValue::from_static(cookie)
}

impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, PageError> {
        parts
            .extensions
            .get::<Session>()
            .cloned()
            .ok_or(PageError::Internal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; sw_session=abc; b=2"),
        );
        assert_eq!(cookie_value(&headers).as_deref(), Some("abc"));
        headers.insert(header::COOKIE, HeaderValue::from_static("sw_session="));
        assert_eq!(cookie_value(&headers), None);
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_only_over_https() {
        let plain = set_cookie("x", false);
        let plain = plain.to_str().unwrap();
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(!plain.contains("Secure"));
        assert!(
            set_cookie("x", true)
                .to_str()
                .unwrap()
                .ends_with("; Secure")
        );
    }
}
