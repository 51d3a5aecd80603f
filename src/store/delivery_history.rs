//! The read side of webhook deliveries, for the Webhooks API: a webhook's deliveries page by
//! page, one delivery with its attempts, and the statistics shown on every webhook.
//!
//! An attempt counts as successful when the endpoint answered 2xx (`error` is NULL on every HTTP
//! answer); everything else — another status, a time-out, a refused connection — is a failure.
//!
//! Most deliveries succeed at their first attempt, and such a delivery keeps that attempt on its
//! own row (its answer, its time and its duration) instead of in a row of `delivery_attempts`
//! (see `deliveries::records`): the attempt list and the statistics read both.

use std::collections::HashMap;

use sqlx::FromRow;

use super::{Db, StoreError, placeholders};
use crate::domain::delivery_status::DeliveryStatus;
use crate::on_db;

/// One delivery of an event to a webhook.
#[derive(Debug, Clone, FromRow)]
pub struct DeliveryRow {
    pub id: String,
    pub event_type: String,
    pub event_id: String,
    /// A value outside the known set fails the read rather than showing up as-is.
    #[sqlx(try_from = "String")]
    pub status: DeliveryStatus,
    pub response_status: Option<i64>,
    pub response_body: Option<String>,
    pub attempt_count: i64,
    pub delivered_at: Option<i64>,
    pub failed_at: Option<i64>,
    pub created_at: i64,
}

/// One attempt of a delivery.
#[derive(Debug, Clone, FromRow)]
pub struct AttemptRow {
    pub attempted_at: i64,
    pub response_status: Option<i64>,
    pub duration_ms: i64,
    pub error: Option<String>,
    /// The first bytes of the receiver's answer (at most 1 KiB); `None` when no answer came or
    /// the attempt predates the excerpts.
    pub response_excerpt: Option<String>,
}

/// Where a page of deliveries starts: strictly after (older than) this delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryKey {
    pub created_at: i64,
    pub id: String,
}

/// Which deliveries to read.
#[derive(Debug, Clone)]
pub struct DeliveryQuery {
    /// Only deliveries with this status.
    pub status: Option<DeliveryStatus>,
    /// Only deliveries older than this one (newest-first order).
    pub after: Option<DeliveryKey>,
    pub limit: i64,
}

/// Most bytes of the receiver's answer kept with each attempt (shown on the dashboard's delivery
/// page), cut at a character boundary.
pub const ATTEMPT_EXCERPT_BYTES: usize = 1024;

/// The first [`ATTEMPT_EXCERPT_BYTES`] of a response body, never splitting a character.
pub fn attempt_excerpt(body: &str) -> &str {
    &body[..body.floor_char_boundary(ATTEMPT_EXCERPT_BYTES)]
}

/// The deliveries (alias `d`) whose only attempt is kept on their own row: done at the first
/// attempt (as `deliveries::records` decides when it skips their attempt row), recorded since
/// the row has a duration.
const FIRST_TRY_SUCCESS: &str =
    "d.status = 'done' AND d.attempt_count = 1 AND d.duration_ms IS NOT NULL";

/// A page of deliveries, newest first, and the key to continue from when more remain.
#[derive(Debug, Clone)]
pub struct DeliveryPage {
    pub rows: Vec<DeliveryRow>,
    pub next: Option<DeliveryKey>,
}

/// Delivery statistics of one webhook.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebhookStats {
    pub total_deliveries: i64,
    pub successful_deliveries: i64,
    pub failed_deliveries: i64,
    pub last_success_at: Option<i64>,
    pub last_failure_at: Option<i64>,
    /// Failed attempts since the last successful one.
    pub consecutive_failures: i64,
}

const DELIVERY_COLUMNS: &str = "id, event_type, event_id, status, response_status, response_body, \
     attempt_count, delivered_at, failed_at, created_at";

/// A page of the webhook's deliveries, newest first (keyset on `created_at`, then `id`).
pub async fn list_deliveries(
    db: &Db,
    team_id: &str,
    webhook_id: &str,
    query: &DeliveryQuery,
) -> Result<DeliveryPage, StoreError> {
    let mut sql =
        format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE team_id = $1 AND webhook_id = $2");
    let mut next_param = 3;
    if query.status.is_some() {
        sql.push_str(&format!(" AND status = ${next_param}"));
        next_param += 1;
    }
    if query.after.is_some() {
        let (at, id) = (next_param, next_param + 1);
        sql.push_str(&format!(
            " AND (created_at < ${at} OR (created_at = ${at} AND id < ${id}))"
        ));
        next_param += 2;
    }
    // One row beyond the page tells whether another page follows.
    sql.push_str(&format!(
        " ORDER BY created_at DESC, id DESC LIMIT ${next_param}"
    ));
    let mut rows: Vec<DeliveryRow> = on_db!(db, |pool| {
        let mut q = sqlx::query_as::<_, DeliveryRow>(sqlx::AssertSqlSafe(sql))
            .bind(team_id)
            .bind(webhook_id);
        if let Some(status) = &query.status {
            q = q.bind(status.as_str());
        }
        if let Some(after) = &query.after {
            q = q.bind(after.created_at).bind(&after.id);
        }
        q.bind(query.limit + 1).fetch_all(pool).await
    })?;
    let more = rows.len() as i64 > query.limit;
    rows.truncate(usize::try_from(query.limit).unwrap_or(0));
    let next = more.then(|| rows.last()).flatten().map(|last| DeliveryKey {
        created_at: last.created_at,
        id: last.id.clone(),
    });
    Ok(DeliveryPage { rows, next })
}

/// One delivery of the team's webhook.
pub async fn find_delivery(
    db: &Db,
    team_id: &str,
    webhook_id: &str,
    delivery_id: &str,
) -> Result<Option<DeliveryRow>, StoreError> {
    let sql = format!(
        "SELECT {DELIVERY_COLUMNS} FROM deliveries \
         WHERE id = $1 AND webhook_id = $2 AND team_id = $3"
    );
    Ok(on_db!(db, |pool| sqlx::query_as::<_, DeliveryRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(delivery_id)
    .bind(webhook_id)
    .bind(team_id)
    .fetch_optional(pool)
    .await)?)
}

/// Every attempt of one of the team's deliveries, first attempt first.
pub async fn list_attempts(
    db: &Db,
    team_id: &str,
    delivery_id: &str,
) -> Result<Vec<AttemptRow>, StoreError> {
    let sql = format!(
        "SELECT attempted_at, response_status, duration_ms, error, response_excerpt FROM (\
         SELECT a.attempt, a.attempted_at, a.response_status, a.duration_ms, a.error, \
         a.response_excerpt FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id \
         WHERE a.delivery_id = $1 AND d.team_id = $2 \
         UNION ALL SELECT 1, d.delivered_at, d.response_status, d.duration_ms, NULL, \
         d.response_body FROM deliveries d \
         WHERE d.id = $1 AND d.team_id = $2 AND {FIRST_TRY_SUCCESS}) x ORDER BY attempt"
    );
    let mut rows = on_db!(db, |pool| sqlx::query_as::<_, AttemptRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(delivery_id)
    .bind(team_id)
    .fetch_all(pool)
    .await)?;
    // A first attempt kept on the delivery's row shows what an attempt row would have kept.
    for row in &mut rows {
        if let Some(excerpt) = &mut row.response_excerpt {
            excerpt.truncate(attempt_excerpt(excerpt).len());
        }
    }
    Ok(rows)
}

/// (webhook id, total, done, failed)
type DeliveryCounts = (String, i64, i64, i64);
/// (webhook id, last success, last failure, failures since the last success)
type AttemptSummary = (String, Option<i64>, Option<i64>, i64);

/// Statistics of each of the team's webhooks in `webhook_ids`, keyed by webhook id; a webhook
/// without deliveries is absent (all zero).
pub async fn webhook_stats(
    db: &Db,
    team_id: &str,
    webhook_ids: &[String],
) -> Result<HashMap<String, WebhookStats>, StoreError> {
    if webhook_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let ids = placeholders(2, webhook_ids.len());
    let counts_sql = format!(
        "SELECT webhook_id, COUNT(*), \
         COALESCE(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0) \
         FROM deliveries WHERE team_id = $1 AND webhook_id IN ({ids}) GROUP BY webhook_id"
    );
    let attempts_sql = format!(
        "WITH a AS (SELECT d.webhook_id, a.attempted_at, \
           (a.error IS NULL AND COALESCE(a.response_status, 0) BETWEEN 200 AND 299) AS ok \
           FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id \
           WHERE d.team_id = $1 AND d.webhook_id IN ({ids}) \
           UNION ALL SELECT d.webhook_id, d.delivered_at, true FROM deliveries d \
           WHERE d.team_id = $1 AND d.webhook_id IN ({ids}) AND {FIRST_TRY_SUCCESS}), \
         last AS (SELECT webhook_id, MAX(CASE WHEN ok THEN attempted_at END) AS success_at, \
           MAX(CASE WHEN ok THEN NULL ELSE attempted_at END) AS failure_at \
           FROM a GROUP BY webhook_id) \
         SELECT last.webhook_id, last.success_at, last.failure_at, \
           (SELECT COUNT(*) FROM a x WHERE x.webhook_id = last.webhook_id AND NOT x.ok \
            AND (last.success_at IS NULL OR x.attempted_at > last.success_at)) \
         FROM last"
    );
    let (counts, attempts): (Vec<DeliveryCounts>, Vec<AttemptSummary>) = on_db!(db, |pool| {
        let mut counts_q = sqlx::query_as(sqlx::AssertSqlSafe(counts_sql)).bind(team_id);
        let mut attempts_q = sqlx::query_as(sqlx::AssertSqlSafe(attempts_sql)).bind(team_id);
        for id in webhook_ids {
            counts_q = counts_q.bind(id);
            attempts_q = attempts_q.bind(id);
        }
        let counts = counts_q.fetch_all(pool).await?;
        let attempts = attempts_q.fetch_all(pool).await?;
        Ok::<_, sqlx::Error>((counts, attempts))
    })?;
    let mut stats: HashMap<String, WebhookStats> = HashMap::new();
    for (webhook_id, total, done, failed) in counts {
        let entry = stats.entry(webhook_id).or_default();
        entry.total_deliveries = total;
        entry.successful_deliveries = done;
        entry.failed_deliveries = failed;
    }
    for (webhook_id, success_at, failure_at, consecutive) in attempts {
        let entry = stats.entry(webhook_id).or_default();
        entry.last_success_at = success_at;
        entry.last_failure_at = failure_at;
        entry.consecutive_failures = consecutive;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_keeps_at_most_1_kib_of_the_answer_cut_between_characters() {
        assert_eq!(attempt_excerpt("internal error"), "internal error");
        let ascii = "x".repeat(3000);
        assert_eq!(attempt_excerpt(&ascii).len(), ATTEMPT_EXCERPT_BYTES);
        // 'é' is two bytes: after one ASCII byte, byte 1,024 falls inside one, so the cut is
        // at 1,023.
        let accents = format!("a{}", "é".repeat(600));
        let kept = attempt_excerpt(&accents);
        assert_eq!(kept.len(), 1023);
        assert!(kept.ends_with('é'));
        assert_eq!(attempt_excerpt(""), "");
    }
}
