//! Teams, their users and API keys.

use sqlx::FromRow;

use super::{Db, StoreError, Tx, new_id};
use crate::domain::api_key::{generate_api_key, hash_api_key, key_prefix};
use crate::domain::time::now_ms;
use crate::on_tx;

/// A team as stored.
#[derive(Debug, Clone, FromRow)]
pub struct TeamRow {
    pub id: String,
    pub name: String,
    pub credits: i64,
    pub subscription_status: String,
    pub rate_limit_per_minute: Option<i64>,
    pub created_at: i64,
}

/// What is needed to open a team: its name and owner, with optional starting values.
#[derive(Debug, Clone)]
pub struct NewTeam {
    pub name: String,
    pub owner_email: String,
    pub credits: i64,
    pub subscription_status: String,
    pub rate_limit_per_minute: Option<i64>,
}

/// A freshly issued user with the only copy of their API key.
#[derive(Debug, Clone)]
pub struct IssuedKey {
    pub user_id: String,
    pub api_key: String,
}

/// Changes an operator may make to a team; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct TeamChanges {
    pub credits: Option<i64>,
    pub subscription_status: Option<String>,
    pub rate_limit_per_minute: Option<i64>,
}

/// The team and user an API key belongs to.
#[derive(Debug, Clone, FromRow)]
pub struct KeyOwner {
    pub team_id: String,
    pub user_id: String,
    pub subscription_status: String,
    pub rate_limit_per_minute: Option<i64>,
    /// When the key was last recorded as used.
    pub last_used_at: Option<i64>,
}

const TEAM_COLUMNS: &str =
    "SELECT id, name, credits, subscription_status, rate_limit_per_minute, created_at FROM teams";

/// Creates a team with its owner and the owner's first API key.
pub async fn create_team(db: &Db, team: &NewTeam) -> Result<(String, IssuedKey), StoreError> {
    let team_id = new_id();
    let now = now_ms();
    let mut tx = db.begin_write().await?;
    on_tx!(&mut tx, |conn| sqlx::query(
        "INSERT INTO teams (id, name, credits, subscription_status, rate_limit_per_minute, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)"
    )
    .bind(&team_id)
    .bind(&team.name)
    .bind(team.credits)
    .bind(&team.subscription_status)
    .bind(team.rate_limit_per_minute)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    let issued = insert_user_with_key(&mut tx, &team_id, &team.owner_email).await?;
    tx.commit().await?;
    Ok((team_id, issued))
}

/// Adds a member to an existing team and issues their key; `None` when the team is unknown.
pub async fn add_member(
    db: &Db,
    team_id: &str,
    email: &str,
) -> Result<Option<IssuedKey>, StoreError> {
    let mut tx = db.begin_write().await?;
    if find_team_tx(&mut tx, team_id).await?.is_none() {
        return Ok(None);
    }
    let issued = insert_user_with_key(&mut tx, team_id, email).await?;
    tx.commit().await?;
    Ok(Some(issued))
}

async fn insert_user_with_key(
    tx: &mut Tx,
    team_id: &str,
    email: &str,
) -> Result<IssuedKey, StoreError> {
    let user_id = new_id();
    let api_key = generate_api_key();
    let now = now_ms();
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO users (id, team_id, email, created_at) VALUES ($1, $2, $3, $4)"
    )
    .bind(&user_id)
    .bind(team_id)
    .bind(email)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO api_keys (id, key_hash, team_id, user_id, created_at, key_prefix) \
         VALUES ($1, $2, $3, $4, $5, $6)"
    )
    .bind(new_id())
    .bind(hash_api_key(&api_key))
    .bind(team_id)
    .bind(&user_id)
    .bind(now)
    .bind(key_prefix(&api_key))
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(IssuedKey { user_id, api_key })
}

/// Reads a team.
pub async fn find_team(db: &Db, team_id: &str) -> Result<Option<TeamRow>, StoreError> {
    let sql = format!("{TEAM_COLUMNS} WHERE id = $1");
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<_, TeamRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(team_id)
    .fetch_optional(pool)
    .await)?)
}

async fn find_team_tx(tx: &mut Tx, team_id: &str) -> Result<Option<TeamRow>, StoreError> {
    let sql = format!("{TEAM_COLUMNS} WHERE id = $1");
    Ok(on_tx!(tx, |conn| sqlx::query_as::<_, TeamRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(team_id)
    .fetch_optional(conn)
    .await)?)
}

/// Applies operator changes to a team and returns it; `None` when the team is unknown.
pub async fn update_team(
    db: &Db,
    team_id: &str,
    changes: &TeamChanges,
) -> Result<Option<TeamRow>, StoreError> {
    let mut tx = db.begin_write().await?;
    tx.lock_team(team_id).await?;
    on_tx!(&mut tx, |conn| sqlx::query(
        "UPDATE teams SET credits = COALESCE($2, credits), \
         subscription_status = COALESCE($3, subscription_status), \
         rate_limit_per_minute = COALESCE($4, rate_limit_per_minute), updated_at = $5 \
         WHERE id = $1"
    )
    .bind(team_id)
    .bind(changes.credits)
    .bind(&changes.subscription_status)
    .bind(changes.rate_limit_per_minute)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    let team = find_team_tx(&mut tx, team_id).await?;
    tx.commit().await?;
    Ok(team)
}

/// Revokes an API key; false when no live key matches.
pub async fn revoke_key(db: &Db, api_key: &str) -> Result<bool, StoreError> {
    let hash = hash_api_key(api_key);
    let result = db
        .write(async |tx| {
            Ok(on_tx!(tx, |conn| sqlx::query(
                "UPDATE api_keys SET revoked_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL"
            )
            .bind(&hash)
            .bind(now_ms())
            .execute(conn)
            .await
            .map(|r| r.rows_affected()))?)
        })
        .await?;
    Ok(result > 0)
}

/// Finds the team and user of a live (not revoked) API key.
pub async fn find_key_owner(db: &Db, api_key: &str) -> Result<Option<KeyOwner>, StoreError> {
    let hash = hash_api_key(api_key);
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<_, KeyOwner>(
        "SELECT k.team_id, k.user_id, t.subscription_status, t.rate_limit_per_minute, \
         k.last_used_at \
         FROM api_keys k JOIN teams t ON t.id = k.team_id \
         WHERE k.key_hash = $1 AND k.revoked_at IS NULL"
    )
    .bind(&hash)
    .fetch_optional(pool)
    .await)?)
}

/// A team member as operators see them.
#[derive(Debug, Clone, FromRow)]
pub struct MemberRow {
    pub user_id: String,
    pub email: String,
    pub created_at: i64,
    /// API keys of theirs that are not revoked.
    pub live_keys: i64,
}

/// Every team, oldest first.
pub async fn list_teams(db: &Db) -> Result<Vec<TeamRow>, StoreError> {
    let sql = format!("{TEAM_COLUMNS} ORDER BY created_at, id");
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<_, TeamRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .fetch_all(pool)
    .await)?)
}

/// A team's members, oldest (the owner) first, with how many live keys each holds.
pub async fn list_members(db: &Db, team_id: &str) -> Result<Vec<MemberRow>, StoreError> {
    Ok(crate::on_db!(db, |pool| sqlx::query_as::<_, MemberRow>(
        "SELECT u.id AS user_id, u.email, u.created_at, \
         (SELECT COUNT(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at IS NULL) \
         AS live_keys \
         FROM users u WHERE u.team_id = $1 ORDER BY u.created_at, u.id"
    )
    .bind(team_id)
    .fetch_all(pool)
    .await)?)
}

/// Issues a new API key to a member of a team: the one with `email`, else the oldest member
/// (the owner). `None` when the team or that member is unknown.
pub async fn issue_key(
    db: &Db,
    team_id: &str,
    email: Option<&str>,
) -> Result<Option<IssuedKey>, StoreError> {
    let mut tx = db.begin_write().await?;
    let user: Option<String> = on_tx!(&mut tx, |conn| sqlx::query_scalar(
        "SELECT id FROM users WHERE team_id = $1 \
         AND (CAST($2 AS TEXT) IS NULL OR LOWER(email) = LOWER(CAST($2 AS TEXT))) \
         ORDER BY created_at, id LIMIT 1"
    )
    .bind(team_id)
    .bind(email)
    .fetch_optional(conn)
    .await)?;
    let Some(user_id) = user else {
        return Ok(None);
    };
    let api_key = generate_api_key();
    on_tx!(&mut tx, |conn| sqlx::query(
        "INSERT INTO api_keys (id, key_hash, team_id, user_id, created_at) \
         VALUES ($1, $2, $3, $4, $5)"
    )
    .bind(new_id())
    .bind(hash_api_key(&api_key))
    .bind(team_id)
    .bind(&user_id)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    tx.commit().await?;
    Ok(Some(IssuedKey { user_id, api_key }))
}
