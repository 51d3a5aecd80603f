//! API keys: the lookup behind every team API request, a member's own keys (listed, created,
//! revoked from the dashboard), and revocation by operators.

use super::{ServiceError, TeamContext};
use crate::domain::api_key::hash_api_key;
use crate::domain::time::now_ms;
use crate::store::Db;
use crate::store::api_keys::{self, KeyRow};
use crate::store::teams;

pub use crate::store::teams::KeyOwner;

/// A key's last use is written at most this often, so requests do not each write.
const LAST_USED_EVERY_MS: i64 = 60 * 60 * 1000;

/// The team and user a presented API key belongs to, with what the request guard checks;
/// `None` for an unknown or revoked key. Its last use is recorded, to within an hour.
pub async fn find_owner(db: &Db, api_key: &str) -> Result<Option<KeyOwner>, ServiceError> {
    let owner = teams::find_key_owner(db, api_key).await?;
    if let Some(owner) = &owner {
        let now = now_ms();
        if owner
            .last_used_at
            .is_none_or(|at| now - at >= LAST_USED_EVERY_MS)
            && let Err(err) = api_keys::mark_used(db, &hash_api_key(api_key), now).await
        {
            tracing::warn!(error = %err, "the key's last use was not recorded");
        }
    }
    Ok(owner)
}

/// Revokes a key; it stops working on the next request.
pub async fn revoke_key(db: &Db, api_key: &str) -> Result<(), ServiceError> {
    if teams::revoke_key(db, api_key.trim()).await? {
        Ok(())
    } else {
        Err(ServiceError::not_found("API key not found"))
    }
}

/// The acting member's live keys, newest first.
pub async fn member_keys(db: &Db, ctx: &TeamContext) -> Result<Vec<KeyRow>, ServiceError> {
    Ok(api_keys::list_member_keys(db, ctx.team(), &ctx.user_id).await?)
}

/// Issues the acting member a new key and returns it; it is shown only this once.
pub async fn create_member_key(db: &Db, ctx: &TeamContext) -> Result<String, ServiceError> {
    Ok(api_keys::insert_member_key(db, ctx.team(), &ctx.user_id, now_ms()).await?)
}

/// Revokes one of the acting member's keys by its id; another member's key is not found.
pub async fn revoke_member_key(
    db: &Db,
    ctx: &TeamContext,
    key_id: &str,
) -> Result<(), ServiceError> {
    if api_keys::revoke_member_key(db, ctx.team(), &ctx.user_id, key_id, now_ms()).await? {
        Ok(())
    } else {
        Err(ServiceError::not_found("API key not found"))
    }
}
