//! A monitor's recent signals: those of the companies its resolved targets point at.

use sqlx::FromRow;

use super::{Db, StoreError};
use crate::on_db;

/// One recent signal of a monitor's companies.
#[derive(Debug, Clone, FromRow)]
pub struct RecentSignal {
    pub id: String,
    pub kind: String,
    pub company_name: String,
    pub title: Option<String>,
    pub occurred_at: i64,
}

/// The newest signals (by date) of the companies the team's monitor `monitor_id` resolves to,
/// of the given kinds, at most `limit`.
pub async fn recent_signals(
    db: &Db,
    team_id: &str,
    monitor_id: &str,
    kinds: &[&str],
    limit: i64,
) -> Result<Vec<RecentSignal>, StoreError> {
    let kinds = serde_json::to_string(kinds).unwrap_or_else(|_| "[]".into());
    let sql = match db {
        Db::Sqlite(_) => {
            "SELECT s.id, s.kind, c.name AS company_name, s.title, s.occurred_at \
             FROM signals s JOIN companies c ON c.id = s.company_id \
             WHERE s.id IN (SELECT sc.signal_id FROM signal_companies sc WHERE sc.company_id IN \
               (SELECT t.company_id FROM targets t WHERE t.team_id = $1 AND t.monitor_id = $2 \
                AND t.company_id IS NOT NULL)) \
             AND s.kind IN (SELECT value FROM json_each($3)) \
             ORDER BY s.occurred_at DESC, s.id DESC LIMIT $4"
        }
        Db::Postgres(_) => {
            "SELECT s.id, s.kind, c.name AS company_name, s.title, s.occurred_at \
             FROM signals s JOIN companies c ON c.id = s.company_id \
             WHERE s.id IN (SELECT sc.signal_id FROM signal_companies sc WHERE sc.company_id IN \
               (SELECT t.company_id FROM targets t WHERE t.team_id = $1 AND t.monitor_id = $2 \
                AND t.company_id IS NOT NULL)) \
             AND s.kind IN (SELECT jsonb_array_elements_text($3::jsonb)) \
             ORDER BY s.occurred_at DESC, s.id DESC LIMIT $4"
        }
    };
    Ok(on_db!(db, |pool| sqlx::query_as::<_, RecentSignal>(sql)
        .bind(team_id)
        .bind(monitor_id)
        .bind(&kinds)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}
