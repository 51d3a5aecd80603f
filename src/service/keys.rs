//! API keys: the lookup behind every team API request, and revocation by operators.

use super::ServiceError;
use crate::store::Db;
use crate::store::teams;

pub use crate::store::teams::KeyOwner;

/// The team and user a presented API key belongs to, with what the request guard checks;
/// `None` for an unknown or revoked key.
pub async fn find_owner(db: &Db, api_key: &str) -> Result<Option<KeyOwner>, ServiceError> {
    Ok(teams::find_key_owner(db, api_key).await?)
}

/// Revokes a key; it stops working on the next request.
pub async fn revoke_key(db: &Db, api_key: &str) -> Result<(), ServiceError> {
    if teams::revoke_key(db, api_key.trim()).await? {
        Ok(())
    } else {
        Err(ServiceError::not_found("API key not found"))
    }
}
