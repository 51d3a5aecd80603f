//! The API keys page: the member's own keys, `Create key` (shown once) and `Revoke`.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use super::page::{Layout, PageError, render, see_other, when};
use crate::http::state::AppState;
use crate::service::keys;
use crate::service::sessions::Session;

/// One row of the keys table.
pub struct KeyItem {
    pub id: String,
    pub prefix: String,
    pub created: String,
    pub last_used: String,
}

#[derive(Template)]
#[template(path = "dashboard/keys.html")]
struct KeysPage {
    layout: Layout,
    keys: Vec<KeyItem>,
    /// A key just created, shown this once.
    created: Option<String>,
}

async fn page(
    state: &AppState,
    session: &Session,
    created: Option<String>,
) -> Result<Response, PageError> {
    let rows = keys::member_keys(&state.db, &session.context()).await?;
    let keys = rows
        .into_iter()
        .map(|k| KeyItem {
            prefix: k
                .key_prefix
                .map(|p| format!("{p}…"))
                .unwrap_or_else(|| "sw_live_…".into()),
            created: when(Some(k.created_at)),
            last_used: k
                .last_used_at
                .map(|at| when(Some(at)))
                .unwrap_or_else(|| "Never".into()),
            id: k.id,
        })
        .collect();
    let page = KeysPage {
        layout: Layout::new(session, "keys", "API keys"),
        keys,
        created,
    };
    Ok(render(&page))
}

/// `GET /app/keys`.
pub async fn list(State(state): State<AppState>, session: Session) -> Result<Response, PageError> {
    page(&state, &session, None).await
}

/// `POST /app/keys`: issues a key and shows it once.
pub async fn create(
    State(state): State<AppState>,
    session: Session,
) -> Result<Response, PageError> {
    let key = keys::create_member_key(&state.db, &session.context()).await?;
    page(&state, &session, Some(key)).await
}

/// `POST /app/keys/{id}/revoke`.
pub async fn revoke(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    keys::revoke_member_key(&state.db, &session.context(), &id).await?;
    Ok(see_other("/app/keys"))
}
