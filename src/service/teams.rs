//! Operator tasks on teams and members: one implementation behind both the admin API and the
//! `signalwatch admin` command.

use serde::Serialize;

use super::ServiceError;
use crate::domain::subscription::SubscriptionStatus;
use crate::domain::time::format_ms;
use crate::store::Db;
use crate::store::teams::{self, NewTeam, TeamRow};

pub use crate::store::teams::TeamChanges;

/// Credits a new team starts with unless told otherwise.
pub const DEFAULT_CREDITS: i64 = 1000;

/// A team to open.
#[derive(Debug, Clone, Default)]
pub struct TeamRequest {
    pub name: String,
    pub owner_email: String,
    pub credits: Option<i64>,
    pub subscription_status: Option<String>,
    pub rate_limit_per_minute: Option<i64>,
}

/// A new team with its owner's key, shown once.
#[derive(Debug, Clone, Serialize)]
pub struct CreatedTeam {
    pub team_id: String,
    pub user_id: String,
    pub api_key: String,
}

/// A new member's key, shown once.
#[derive(Debug, Clone, Serialize)]
pub struct CreatedMember {
    pub user_id: String,
    pub api_key: String,
}

/// A team as operators see it.
#[derive(Debug, Clone, Serialize)]
pub struct TeamOut {
    pub id: String,
    pub name: String,
    pub credits: i64,
    pub subscription_status: String,
    pub rate_limit_per_minute: i64,
    pub created_at: String,
}

fn team_out(row: TeamRow, default_rate: u32) -> TeamOut {
    TeamOut {
        id: row.id,
        name: row.name,
        credits: row.credits,
        subscription_status: row.subscription_status,
        rate_limit_per_minute: row.rate_limit_per_minute.unwrap_or(default_rate.into()),
        created_at: format_ms(row.created_at),
    }
}

/// An e-mail address, surrounding spaces removed. It becomes a mail header and a database value,
/// so whitespace and control characters inside it are refused.
fn check_email(email: &str) -> Result<String, ServiceError> {
    let email = email.trim();
    let plain = !email.chars().any(|c| c.is_whitespace() || c.is_control());
    match email.split_once('@') {
        Some((user, host)) if plain && !user.is_empty() && host.contains('.') => {
            Ok(email.to_string())
        }
        _ => Err(ServiceError::Invalid(
            "a valid e-mail address is required".into(),
        )),
    }
}

/// Checks operator changes to a team.
pub fn check_changes(
    credits: Option<i64>,
    status: Option<String>,
    rate: Option<i64>,
) -> Result<TeamChanges, ServiceError> {
    if credits.is_some_and(|c| c < 0) {
        return Err(ServiceError::Invalid("credits must be >= 0".into()));
    }
    if rate.is_some_and(|r| !(1..=i64::from(u32::MAX)).contains(&r)) {
        return Err(ServiceError::Invalid(
            "rate_limit_per_minute must be >= 1".into(),
        ));
    }
    if let Some(s) = &status
        && SubscriptionStatus::parse(s).is_none()
    {
        return Err(ServiceError::Invalid(format!(
            "subscription_status must be one of: {}",
            SubscriptionStatus::NAMES
        )));
    }
    Ok(TeamChanges {
        credits,
        subscription_status: status,
        rate_limit_per_minute: rate,
    })
}

/// Opens a team with its owner and the owner's first key.
pub async fn create_team(db: &Db, request: TeamRequest) -> Result<CreatedTeam, ServiceError> {
    let name = request.name.trim().to_string();
    if name.is_empty() {
        return Err(ServiceError::Invalid("name is required".into()));
    }
    if name.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(
            "name must not contain control characters".into(),
        ));
    }
    let owner_email = check_email(&request.owner_email)?;
    let changes = check_changes(
        Some(request.credits.unwrap_or(DEFAULT_CREDITS)),
        Some(
            request
                .subscription_status
                .unwrap_or_else(|| "active".into()),
        ),
        request.rate_limit_per_minute,
    )?;
    let team = NewTeam {
        name,
        owner_email,
        credits: changes.credits.unwrap_or(DEFAULT_CREDITS),
        subscription_status: changes.subscription_status.unwrap_or_default(),
        rate_limit_per_minute: changes.rate_limit_per_minute,
    };
    let (team_id, issued) = teams::create_team(db, &team).await?;
    Ok(CreatedTeam {
        team_id,
        user_id: issued.user_id,
        api_key: issued.api_key,
    })
}

/// Reads a team.
pub async fn get_team(db: &Db, id: &str, default_rate: u32) -> Result<TeamOut, ServiceError> {
    let row = teams::find_team(db, id)
        .await?
        .ok_or_else(|| ServiceError::not_found("Team not found"))?;
    Ok(team_out(row, default_rate))
}

/// Applies checked changes to a team.
pub async fn update_team(
    db: &Db,
    id: &str,
    changes: TeamChanges,
    default_rate: u32,
) -> Result<TeamOut, ServiceError> {
    let row = teams::update_team(db, id, &changes)
        .await?
        .ok_or_else(|| ServiceError::not_found("Team not found"))?;
    Ok(team_out(row, default_rate))
}

/// Adds a member to a team.
pub async fn add_member(
    db: &Db,
    team_id: &str,
    email: &str,
) -> Result<CreatedMember, ServiceError> {
    let email = check_email(email)?;
    let issued = teams::add_member(db, team_id, &email)
        .await?
        .ok_or_else(|| ServiceError::not_found("Team not found"))?;
    Ok(CreatedMember {
        user_id: issued.user_id,
        api_key: issued.api_key,
    })
}

/// A member of a team as operators see them (never their keys: only how many are live).
#[derive(Debug, Clone, Serialize)]
pub struct MemberOut {
    pub user_id: String,
    pub email: String,
    pub created_at: String,
    pub live_keys: i64,
}

/// A team with its members.
#[derive(Debug, Clone, Serialize)]
pub struct TeamDetail {
    #[serde(flatten)]
    pub team: TeamOut,
    pub members: Vec<MemberOut>,
}

/// A new key for an existing member, shown once.
#[derive(Debug, Clone, Serialize)]
pub struct IssuedKeyOut {
    pub team_id: String,
    pub user_id: String,
    pub api_key: String,
}

/// Every team, oldest first.
pub async fn list_teams(db: &Db, default_rate: u32) -> Result<Vec<TeamOut>, ServiceError> {
    Ok(teams::list_teams(db)
        .await?
        .into_iter()
        .map(|row| team_out(row, default_rate))
        .collect())
}

/// A team with its members, the owner first.
pub async fn show_team(db: &Db, id: &str, default_rate: u32) -> Result<TeamDetail, ServiceError> {
    let team = get_team(db, id, default_rate).await?;
    let members = teams::list_members(db, id)
        .await?
        .into_iter()
        .map(|m| MemberOut {
            user_id: m.user_id,
            email: m.email,
            created_at: format_ms(m.created_at),
            live_keys: m.live_keys,
        })
        .collect();
    Ok(TeamDetail { team, members })
}

/// Issues a new API key to the team's member with `email`, else to its owner: the way back in
/// when a key is lost.
pub async fn issue_key(
    db: &Db,
    team_id: &str,
    email: Option<&str>,
) -> Result<IssuedKeyOut, ServiceError> {
    let email = email.map(check_email).transpose()?;
    if teams::find_team(db, team_id).await?.is_none() {
        return Err(ServiceError::not_found("Team not found"));
    }
    let issued = teams::issue_key(db, team_id, email.as_deref())
        .await?
        .ok_or_else(|| match &email {
            Some(email) => ServiceError::not_found(format!(
                "{email} is not a member of this team (add them with `admin member add`)"
            )),
            None => ServiceError::not_found("the team has no members"),
        })?;
    Ok(IssuedKeyOut {
        team_id: team_id.to_string(),
        user_id: issued.user_id,
        api_key: issued.api_key,
    })
}
