//! Monitors: a team's named groups of targets with their signal types and webhook.

use sqlx::FromRow;

use super::{Db, StoreError, Tx};
use crate::domain::time::now_ms;
use crate::{on_db, on_tx};

/// A monitor as stored, with its current webhook's endpoint.
#[derive(Debug, Clone, FromRow)]
pub struct MonitorRow {
    pub id: String,
    pub team_id: String,
    pub created_by: String,
    pub name: String,
    pub signal_types: String,
    pub active: bool,
    pub webhook_id: Option<String>,
    pub webhook_url: Option<String>,
    pub last_delivery_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const MONITOR_SELECT: &str = "SELECT m.id, m.team_id, m.created_by, m.name, m.signal_types, \
     m.active, m.webhook_id, w.endpoint_url AS webhook_url, m.last_delivery_at, m.created_at, \
     m.updated_at FROM monitors m LEFT JOIN webhooks w ON w.id = m.webhook_id";

/// Number of monitors a team has, paused ones included.
pub async fn count_monitors(tx: &mut Tx, team_id: &str) -> Result<i64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM monitors WHERE team_id = $1"
    )
    .bind(team_id)
    .fetch_one(conn)
    .await)?)
}

/// Stores a new monitor.
pub async fn insert_monitor(tx: &mut Tx, m: &MonitorRow) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO monitors (id, team_id, created_by, name, signal_types, active, webhook_id, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    )
    .bind(&m.id)
    .bind(&m.team_id)
    .bind(&m.created_by)
    .bind(&m.name)
    .bind(&m.signal_types)
    .bind(m.active)
    .bind(&m.webhook_id)
    .bind(m.created_at)
    .bind(m.updated_at)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Writes a monitor's editable fields back.
pub async fn update_monitor(tx: &mut Tx, m: &MonitorRow) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE monitors SET name = $3, signal_types = $4, active = $5, webhook_id = $6, \
         updated_at = $7 WHERE id = $1 AND team_id = $2"
    )
    .bind(&m.id)
    .bind(&m.team_id)
    .bind(&m.name)
    .bind(&m.signal_types)
    .bind(m.active)
    .bind(&m.webhook_id)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Reads one of the team's monitors.
pub async fn find_monitor(
    db: &Db,
    team_id: &str,
    id: &str,
) -> Result<Option<MonitorRow>, StoreError> {
    let sql = format!("{MONITOR_SELECT} WHERE m.id = $1 AND m.team_id = $2");
    Ok(on_db!(db, |pool| sqlx::query_as::<_, MonitorRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(id)
    .bind(team_id)
    .fetch_optional(pool)
    .await)?)
}

/// Reads one of the team's monitors inside a transaction.
pub async fn find_monitor_tx(
    tx: &mut Tx,
    team_id: &str,
    id: &str,
) -> Result<Option<MonitorRow>, StoreError> {
    let sql = format!("{MONITOR_SELECT} WHERE m.id = $1 AND m.team_id = $2");
    Ok(on_tx!(tx, |conn| sqlx::query_as::<_, MonitorRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(id)
    .bind(team_id)
    .fetch_optional(conn)
    .await)?)
}

/// Every monitor of the team, newest first.
pub async fn list_monitors(db: &Db, team_id: &str) -> Result<Vec<MonitorRow>, StoreError> {
    let sql =
        format!("{MONITOR_SELECT} WHERE m.team_id = $1 ORDER BY m.created_at DESC, m.id DESC");
    Ok(on_db!(db, |pool| sqlx::query_as::<_, MonitorRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(team_id)
    .fetch_all(pool)
    .await)?)
}

/// Deletes a monitor and its targets.
pub async fn delete_monitor(tx: &mut Tx, team_id: &str, id: &str) -> Result<(), StoreError> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM alert_items WHERE monitor_id = $1 AND team_id = $2 AND sent_at IS NULL"
    )
    .bind(id)
    .bind(team_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM targets WHERE monitor_id = $1 AND team_id = $2"
    )
    .bind(id)
    .bind(team_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM monitors WHERE id = $1 AND team_id = $2"
    )
    .bind(id)
    .bind(team_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}
