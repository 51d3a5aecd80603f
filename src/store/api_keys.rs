//! A member's own API keys as the dashboard shows them: prefix, creation and last use.

use sqlx::FromRow;

use super::{Db, StoreError, new_id};
use crate::domain::api_key::{generate_api_key, hash_api_key, key_prefix};
use crate::on_db;
use crate::on_tx;

/// One key as listed: never the key itself.
#[derive(Debug, Clone, FromRow)]
pub struct KeyRow {
    pub id: String,
    pub key_prefix: Option<String>,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// The live keys of one member of one team, newest first.
pub async fn list_member_keys(
    db: &Db,
    team_id: &str,
    user_id: &str,
) -> Result<Vec<KeyRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, KeyRow>(
        "SELECT id, key_prefix, created_at, last_used_at FROM api_keys \
         WHERE team_id = $1 AND user_id = $2 AND revoked_at IS NULL \
         ORDER BY created_at DESC, id DESC"
    )
    .bind(team_id)
    .bind(user_id)
    .fetch_all(pool)
    .await)?)
}

/// Issues a new key to a member; returns the only copy of it.
pub async fn insert_member_key(
    db: &Db,
    team_id: &str,
    user_id: &str,
    now: i64,
) -> Result<String, StoreError> {
    let api_key = generate_api_key();
    let hash = hash_api_key(&api_key);
    let prefix = key_prefix(&api_key);
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO api_keys (id, key_hash, team_id, user_id, created_at, key_prefix) \
             VALUES ($1, $2, $3, $4, $5, $6)"
        )
        .bind(new_id())
        .bind(&hash)
        .bind(team_id)
        .bind(user_id)
        .bind(now)
        .bind(&prefix)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await?;
    Ok(api_key)
}

/// Revokes one of a member's live keys by id; false when there is no such key.
pub async fn revoke_member_key(
    db: &Db,
    team_id: &str,
    user_id: &str,
    key_id: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let changed = db
        .write(async |tx| {
            Ok(on_tx!(tx, |conn| sqlx::query(
                "UPDATE api_keys SET revoked_at = $4 WHERE id = $1 AND team_id = $2 \
                 AND user_id = $3 AND revoked_at IS NULL"
            )
            .bind(key_id)
            .bind(team_id)
            .bind(user_id)
            .bind(now)
            .execute(conn)
            .await
            .map(|r| r.rows_affected()))?)
        })
        .await?;
    Ok(changed > 0)
}

/// Records that the key with this hash was used at `now`.
pub async fn mark_used(db: &Db, key_hash: &str, now: i64) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE api_keys SET last_used_at = $2 WHERE key_hash = $1"
        )
        .bind(key_hash)
        .bind(now)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}
