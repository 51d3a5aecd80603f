//! Signing in and out: the e-mail form, the link that opens a session, and sign-out.

use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::page::{PageError, render_with, see_other};
use super::session::{clear_cookie, cookie_value, set_cookie};
use crate::domain::time::now_ms;
use crate::http::state::AppState;
use crate::service::sessions;

/// Link requests one address may make per minute.
const LINK_REQUESTS_PER_MINUTE: u32 = 5;

#[derive(Template)]
#[template(path = "dashboard/login.html")]
struct LoginPage<'a> {
    email: &'a str,
    /// Shown after a request: the same words whether or not the address is a member's.
    sent: bool,
    error: Option<&'a str>,
}

/// The form of `POST /app/login`.
#[derive(Debug, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
}

/// `GET /app/login`.
pub async fn form() -> Response {
    let page = LoginPage {
        email: "",
        sent: false,
        error: None,
    };
    render_with(StatusCode::OK, &page)
}

/// `POST /app/login`: e-mails a sign-in link to a member's address. The answer is the same for
/// every address, and the e-mail goes out after it, so neither the page nor its timing tells
/// whether the address belongs to a member.
pub async fn request_link(State(state): State<AppState>, Form(form): Form<LoginForm>) -> Response {
    let email = form.email.trim().to_string();
    if email.is_empty() || !email.contains('@') {
        let page = LoginPage {
            email: &email,
            sent: false,
            error: Some("Enter the e-mail address you were added to your team with."),
        };
        return render_with(StatusCode::BAD_REQUEST, &page);
    }
    let bucket = format!("sign-in:{}", email.to_lowercase());
    let decision = state
        .limiter
        .check(
            &bucket,
            "dashboard.sign_in",
            LINK_REQUESTS_PER_MINUTE,
            now_ms(),
        )
        .await;
    if !decision.allowed {
        let page = LoginPage {
            email: &email,
            sent: false,
            error: Some(
                "Too many sign-in links were asked for this address. Wait a minute and try again.",
            ),
        };
        let mut response = render_with(StatusCode::TOO_MANY_REQUESTS, &page);
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, decision.retry_after.into());
        return response;
    }
    let services = state.services.clone();
    let address = email.clone();
    tokio::spawn(async move {
        let base = services.config.public_base();
        let links = match sessions::issue_links(&services.db, &address, &base).await {
            Ok(links) => links,
            Err(err) => return tracing::error!(error = %err, "sign-in link not issued"),
        };
        if let Err(err) = sessions::send_links(&services.config, &links).await {
            tracing::error!(error = %err, "sign-in e-mail not sent");
        }
    });
    let page = LoginPage {
        email: &email,
        sent: true,
        error: None,
    };
    render_with(StatusCode::OK, &page)
}

/// `GET /app/login/{token}`: spends the link and starts a session.
pub async fn open_link(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match sessions::sign_in(&state.db, &token).await {
        Ok(opened) => {
            let mut response = see_other("/app/monitors");
            let cookie = set_cookie(&opened.cookie, state.config.public_is_https());
            response.headers_mut().insert(header::SET_COOKIE, cookie);
            response
        }
        Err(crate::service::ServiceError::NotFound(message)) => {
            let page = LoginPage {
                email: "",
                sent: false,
                error: Some(&message),
            };
            render_with(StatusCode::BAD_REQUEST, &page)
        }
        Err(err) => PageError::from(err).into_response(),
    }
}

/// `POST /app/logout`: ends the session and forgets the cookie.
pub async fn logout(State(state): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    if let Some(cookie) = cookie_value(&headers)
        && let Err(err) = sessions::sign_out(&state.db, &cookie).await
    {
        return PageError::from(err).into_response();
    }
    let mut response = see_other("/app/login");
    response.headers_mut().insert(
        header::SET_COOKIE,
        clear_cookie(state.config.public_is_https()),
    );
    response
}
