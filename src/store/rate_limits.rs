//! Shared request counters for rate limiting across processes (scale-out on PostgreSQL).

use super::{Db, StoreError};
use crate::on_db;

/// Counts one request of `team_id` on `endpoint` at `now` in a window of `window_ms`, in one
/// statement (so concurrent processes never lose a count). Returns the window's opening time and
/// its count including this request.
pub async fn count_request(
    db: &Db,
    team_id: &str,
    endpoint: &str,
    now: i64,
    window_ms: i64,
) -> Result<(i64, i64), StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as::<_, (i64, i64)>(
        "INSERT INTO rate_windows (team_id, endpoint, opened_at, count) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (team_id, endpoint) DO UPDATE SET \
         opened_at = CASE WHEN rate_windows.opened_at <= $4 THEN $3 \
                     ELSE rate_windows.opened_at END, \
         count = CASE WHEN rate_windows.opened_at <= $4 THEN 1 \
                 ELSE rate_windows.count + 1 END \
         RETURNING opened_at, count"
    )
    .bind(team_id)
    .bind(endpoint)
    .bind(now)
    .bind(now - window_ms)
    .fetch_one(pool)
    .await)?)
}
