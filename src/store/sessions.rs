//! Dashboard sign-in: one-use sign-in tokens and browser sessions, both stored only as hashes.

use sqlx::FromRow;

use super::{Db, StoreError};
use crate::{on_db, on_tx};

/// A member who may receive a sign-in link: the user row and their team's name.
#[derive(Debug, Clone, FromRow)]
pub struct Member {
    pub user_id: String,
    pub team_id: String,
    pub team_name: String,
    pub email: String,
}

/// A live session with who it belongs to.
#[derive(Debug, Clone, FromRow)]
pub struct SessionRow {
    pub user_id: String,
    pub team_id: String,
    pub email: String,
    pub csrf_token: String,
    pub last_seen_at: i64,
}

/// Every user with this e-mail address (compared without regard to letter case), one per team.
pub async fn members_by_email(db: &Db, email: &str) -> Result<Vec<Member>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, Member>(
        "SELECT u.id AS user_id, u.team_id, t.name AS team_name, u.email FROM users u \
         JOIN teams t ON t.id = u.team_id WHERE LOWER(u.email) = LOWER($1) ORDER BY u.created_at"
    )
    .bind(email)
    .fetch_all(pool)
    .await)?)
}

/// Stores a new sign-in token's hash.
pub async fn insert_token(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO sign_in_tokens (token_hash, user_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)"
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .bind(expires_at)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}

/// Spends an unused, unexpired token and opens a session for its user in the same transaction.
/// `None` (and nothing written) when the token is unknown, used or expired.
pub async fn redeem_token(
    db: &Db,
    token_hash: &str,
    session_hash: &str,
    csrf_token: &str,
    now: i64,
) -> Result<Option<String>, StoreError> {
    db.write(async |tx| {
        let user: Option<String> = on_tx!(tx, |conn| sqlx::query_scalar(
            "UPDATE sign_in_tokens SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id"
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(conn)
        .await)?;
        let Some(user_id) = user else {
            return Ok(None);
        };
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO dashboard_sessions (session_hash, user_id, csrf_token, created_at, \
             last_seen_at) VALUES ($1, $2, $3, $4, $4)"
        )
        .bind(session_hash)
        .bind(&user_id)
        .bind(csrf_token)
        .bind(now)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(Some(user_id))
    })
    .await
}

/// The session with this hash, if it was seen after `idle_since`.
pub async fn find_session(
    db: &Db,
    session_hash: &str,
    idle_since: i64,
) -> Result<Option<SessionRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, SessionRow>(
        "SELECT s.user_id, u.team_id, u.email, s.csrf_token, s.last_seen_at \
         FROM dashboard_sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.session_hash = $1 AND s.last_seen_at > $2"
    )
    .bind(session_hash)
    .bind(idle_since)
    .fetch_optional(pool)
    .await)?)
}

/// Records that a session was used at `now`.
pub async fn touch_session(db: &Db, session_hash: &str, now: i64) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE dashboard_sessions SET last_seen_at = $2 WHERE session_hash = $1"
        )
        .bind(session_hash)
        .bind(now)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}

/// Ends a session, and drops sessions that have been idle since `idle_since`.
pub async fn delete_session(
    db: &Db,
    session_hash: &str,
    idle_since: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "DELETE FROM dashboard_sessions WHERE session_hash = $1 OR last_seen_at <= $2"
        )
        .bind(session_hash)
        .bind(idle_since)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}
