//! Where each webhook's pending deliveries begin: the earliest `next_attempt_at` among its
//! pending rows. A claim seeks each webhook's due rows from there instead of from the start of
//! the webhook's range in `deliveries_due_webhook`.
//!
//! On PostgreSQL that range starts with the entries of every delivery sent since the table was
//! last vacuumed: an update leaves the old version's index entry behind, and a scan that finds
//! it dead only marks it so. Those marked entries fill whole leaf pages that no new delivery
//! lands on (their keys are older than any new one), so nothing but a vacuum clears them, and a
//! seek from the start of the range reads page after page of them before it reaches a pending
//! row. SQLite removes an index entry with its row, so the bound saves it nothing, and costs it
//! nothing either.

use crate::on_db;
use crate::store::{Db, StoreError};

/// Per active webhook, its earliest pending `next_attempt_at` (`None` when nothing is pending).
/// One seek per webhook, each reading from the start of the webhook's range: a worker reads
/// this every second or so, not at every claim.
pub async fn earliest_pending(db: &Db) -> Result<Vec<(String, Option<i64>)>, StoreError> {
    let sql = "SELECT w.id, (SELECT y.next_attempt_at FROM deliveries y \
               WHERE y.webhook_id = w.id AND y.status = 'pending' \
               ORDER BY y.webhook_id, y.next_attempt_at LIMIT 1) AS earliest \
               FROM webhooks w WHERE w.active";
    Ok(on_db!(db, |pool| {
        sqlx::query_as::<_, (String, Option<i64>)>(sql)
            .fetch_all(pool)
            .await
    })?)
}
