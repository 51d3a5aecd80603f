//! Admin endpoints for teams, members and API keys.

use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use crate::http::envelope::{created, ok};
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, PathParams, RawJson, parse_path_id};
use crate::http::state::AppState;
use crate::service::keys;
use crate::service::teams::{self, TeamRequest, check_changes};

/// Body of `POST /admin/v1/teams`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTeamBody {
    pub name: String,
    #[serde(alias = "ownerEmail")]
    pub owner_email: String,
    pub credits: Option<i64>,
    #[serde(alias = "subscriptionStatus")]
    pub subscription_status: Option<String>,
    #[serde(alias = "rateLimitPerMinute")]
    pub rate_limit_per_minute: Option<i64>,
}

/// Body of `PATCH /admin/v1/teams/{id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateTeamBody {
    pub credits: Option<i64>,
    #[serde(alias = "subscriptionStatus")]
    pub subscription_status: Option<String>,
    #[serde(alias = "rateLimitPerMinute")]
    pub rate_limit_per_minute: Option<i64>,
}

/// Body of member creation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberBody {
    pub email: String,
}

/// Body of key revocation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevokeBody {
    #[serde(alias = "apiKey")]
    pub api_key: String,
}

/// Creates a team with its owner and returns the owner's API key, once.
pub async fn create_team(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CreateTeamBody>,
) -> Result<Response, ApiError> {
    let request = TeamRequest {
        name: body.name,
        owner_email: body.owner_email,
        credits: body.credits,
        subscription_status: body.subscription_status,
        rate_limit_per_minute: body.rate_limit_per_minute,
    };
    let team = teams::create_team(&state.db, request).await?;
    Ok(created("admin.teams.create", team))
}

/// Reads a team.
pub async fn get_team(
    State(state): State<AppState>,
    PathParams(raw_id): PathParams<String>,
) -> Result<Response, ApiError> {
    let id = parse_path_id(&raw_id, "Team")?;
    let team = teams::get_team(&state.db, &id, state.config.rate_limit_per_minute).await?;
    Ok(ok("admin.teams.get", team))
}

/// Changes a team's credits, subscription status or rate limit.
pub async fn update_team(
    State(state): State<AppState>,
    PathParams(raw_id): PathParams<String>,
    body: RawJson,
) -> Result<Response, ApiError> {
    let id = parse_path_id(&raw_id, "Team")?;
    let body: UpdateTeamBody = body.parse()?;
    let changes = check_changes(
        body.credits,
        body.subscription_status,
        body.rate_limit_per_minute,
    )?;
    let team =
        teams::update_team(&state.db, &id, changes, state.config.rate_limit_per_minute).await?;
    Ok(ok("admin.teams.update", team))
}

/// Adds a member to a team and returns their API key, once.
pub async fn add_member(
    State(state): State<AppState>,
    PathParams(raw_id): PathParams<String>,
    body: RawJson,
) -> Result<Response, ApiError> {
    let id = parse_path_id(&raw_id, "Team")?;
    let body: MemberBody = body.parse()?;
    let member = teams::add_member(&state.db, &id, &body.email).await?;
    Ok(created("admin.members.add", member))
}

/// Revokes an API key; it stops working on the next request.
pub async fn revoke_key(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<RevokeBody>,
) -> Result<Response, ApiError> {
    keys::revoke_key(&state.db, &body.api_key).await?;
    Ok(ok("admin.keys.revoke", json!({ "revoked": true })))
}
