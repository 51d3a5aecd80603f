//! The team API guard: API key → team, per-endpoint rate limit, subscription check, and the
//! `X-RateLimit-*` headers on every answer once the team is known.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;

use super::error::ApiError;
use super::rate_limit::RateDecision;
use super::state::AppState;
use crate::domain::subscription::SubscriptionStatus;
use crate::domain::time::now_ms;
use crate::service::keys::{self, KeyOwner};
use crate::service::{TeamContext, Via};

/// The caller of a team API request: which team, and which user's key.
#[derive(Debug, Clone)]
pub struct Principal {
    pub team_id: String,
    pub user_id: String,
}

impl Principal {
    /// The use cases' view of this caller: a change made with it is recorded as made through
    /// the API.
    pub fn context(&self) -> TeamContext {
        TeamContext {
            team_id: self.team_id.clone(),
            user_id: self.user_id.clone(),
            via: Via::Api,
            actor: self.user_id.clone(),
        }
    }
}

/// What the guard of one endpoint needs: the app state and the endpoint's `meta.endpoint` name,
/// which is also its rate-limit bucket.
#[derive(Clone)]
pub struct Guard {
    state: AppState,
    endpoint: &'static str,
    /// For paths the API does not serve: without a valid key the route's own answer (404/405)
    /// goes out as is; with one it carries the team's rate-limit headers like any answer.
    lenient: bool,
}

/// Puts the team API guard in front of one endpoint's handlers.
pub fn guarded(
    state: &AppState,
    endpoint: &'static str,
    route: MethodRouter<AppState>,
) -> MethodRouter<AppState> {
    let guard = Guard {
        state: state.clone(),
        endpoint,
        lenient: false,
    };
    route.route_layer(from_fn_with_state(guard, run_guard))
}

/// The guard for answers to paths or methods the team API does not serve, counted in the
/// `not_found` bucket; an anonymous caller gets the plain answer rather than a 401.
pub fn guarded_unserved(state: &AppState, route: MethodRouter<AppState>) -> MethodRouter<AppState> {
    let guard = Guard {
        state: state.clone(),
        endpoint: "not_found",
        lenient: true,
    };
    route.route_layer(from_fn_with_state(guard, run_guard))
}

async fn run_guard(State(guard): State<Guard>, mut req: Request, next: Next) -> Response {
    let owner = match authenticate(&guard.state, req.headers()).await {
        Ok(owner) => owner,
        Err(_) if guard.lenient => return next.run(req).await,
        Err(err) => return err.into_response(),
    };
    let limit = owner
        .rate_limit_per_minute
        .and_then(|l| u32::try_from(l).ok())
        .unwrap_or(guard.state.config.rate_limit_per_minute);
    let decision = guard
        .state
        .limiter
        .check(&owner.team_id, guard.endpoint, limit, now_ms())
        .await;
    let team = super::request_log::AnsweredTeam(owner.team_id.clone());
    let mut response = if !decision.allowed {
        ApiError::rate_limited_on(guard.endpoint, decision.retry_after).into_response()
    } else if !SubscriptionStatus::parse(&owner.subscription_status)
        .is_some_and(SubscriptionStatus::allows_access)
    {
        ApiError::subscription_expired().into_response()
    } else {
        req.extensions_mut().insert(Principal {
            team_id: owner.team_id,
            user_id: owner.user_id,
        });
        next.run(req).await
    };
    set_rate_headers(response.headers_mut(), &decision);
    response.extensions_mut().insert(team);
    response
}

/// The token of an `Authorization: Bearer <token>` header, for team keys and the admin token
/// alike: the scheme in any letter case (RFC 9110), spaces around the token ignored. `None` when
/// the header is missing, in another scheme or without a token.
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        })
        .filter(|token| !token.is_empty())
}

async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<KeyOwner, ApiError> {
    let key = bearer_token(headers)
        .ok_or_else(|| ApiError::invalid_api_key("Invalid API key. No key found."))?;
    keys::find_owner(&state.db, key)
        .await?
        .ok_or_else(|| ApiError::invalid_api_key("Invalid API key"))
}

fn set_rate_headers(headers: &mut HeaderMap, d: &RateDecision) {
    headers.insert("X-RateLimit-Limit", HeaderValue::from(d.limit));
    headers.insert("X-RateLimit-Remaining", HeaderValue::from(d.remaining));
    headers.insert("X-RateLimit-Reset", HeaderValue::from(d.reset_at));
}

impl<S: Send + Sync> FromRequestParts<S> for Principal {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Principal>()
            .cloned()
            .ok_or_else(|| ApiError::internal("team API route registered without its guard"))
    }
}
