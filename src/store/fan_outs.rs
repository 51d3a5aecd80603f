//! Deliveries an accepting transaction leaves to a worker to write (PostgreSQL).
//!
//! Each new signal goes to every webhook that hears of it, often ten or more: written by the
//! accepting transaction, those delivery rows were about half of what accepting a signal cost
//! PostgreSQL (each row with its index entries), and every ingest waited for them. On
//! PostgreSQL the transaction instead writes one `fan_outs` row holding all of its deliveries
//! (ids, webhooks, events, as JSON), committed with the signals or not at all; a worker then
//! turns rows into delivery rows, oldest first, each row in one statement that deletes it and
//! inserts its deliveries ([`expand`]), so a delivery is written once whatever crashes. Under a
//! load the workers cannot keep up with, the ingest keeps its pace and the deliveries queue
//! here, durably, to go out as fast as the workers send.
//!
//! SQLite has one writer: moving the rows to a worker would only move them to another turn of
//! that writer, so SQLite's accepting transactions write the delivery rows themselves.

use super::bulk::{RowStatement, Val};
use super::outbox::{FOLLOW_SCHEDULE, NewDelivery};
use super::{Db, StoreError};

/// The insert of a fan-out row: when its deliveries were queued, how many, and their JSON.
pub(super) const FAN_OUTS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO fan_outs (created_at, deliveries, body) VALUES ",
    template: "(?, ?, ?)",
    tail: "",
};

/// The deliveries of a fan-out row as its `body`: one array per delivery of its id, webhook,
/// team, monitor (or null), event and event type. Only ordinary deliveries go here (charged,
/// following the retry schedule, first of their event): what an ingest queues.
pub(super) fn body(deliveries: &[NewDelivery]) -> String {
    let rows: Vec<[Option<&str>; 6]> = deliveries
        .iter()
        .map(|d| {
            [
                Some(d.id.as_str()),
                Some(d.webhook_id.as_str()),
                Some(d.team_id.as_str()),
                d.monitor_id.as_deref(),
                Some(d.event_id.as_str()),
                Some(d.event_type.as_str()),
            ]
        })
        .collect();
    serde_json::Value::from(
        rows.iter()
            .map(|row| serde_json::Value::from(row.to_vec()))
            .collect::<Vec<_>>(),
    )
    .to_string()
}

/// The values of the fan-out row holding `deliveries`, all queued at `created_at`, whose
/// `body` is [`body`] of them.
pub(super) fn values<'a>(created_at: i64, count: usize, body: &'a str) -> Vec<Val<'a>> {
    vec![
        Val::Int(Some(created_at)),
        Val::Int(Some(count as i64)),
        Val::text(body),
    ]
}

/// True when an accepting transaction on this backend leaves its deliveries to a worker.
pub(super) fn deferred(deliveries: &[NewDelivery]) -> bool {
    deliveries
        .iter()
        .all(|d| !d.free && d.max_attempts == FOLLOW_SCHEDULE && d.retry_of.is_none())
}

/// Takes up to `rows` fan-out rows (oldest first, passing over rows another worker is taking)
/// and writes their deliveries, due at `now`, in one statement: the rows are gone exactly when
/// their deliveries are written. Returns the deliveries written; nothing on SQLite.
///
/// A delivery's `created_at` is when its signal was accepted; it is due from when it is written,
/// so that a claim's floor (`delivery::floors`), which may already lie past the acceptance,
/// never passes over it.
pub async fn expand(db: &Db, rows: i64, now: i64) -> Result<u64, StoreError> {
    let Db::Postgres(pool) = db else {
        return Ok(0);
    };
    let sql = "WITH taken AS (DELETE FROM fan_outs WHERE id IN (SELECT id FROM fan_outs \
               ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING created_at, body) \
               INSERT INTO deliveries (id, webhook_id, team_id, monitor_id, event_id, \
               event_type, free, max_attempts, attempt_count, retry_of, created_at, status, \
               next_attempt_at, updated_at) \
               SELECT d->>0, d->>1, d->>2, d->>3, d->>4, d->>5, false, $2, 0, NULL, \
               t.created_at, 'pending', $3, $3 \
               FROM taken t CROSS JOIN LATERAL jsonb_array_elements(t.body::jsonb) AS d";
    Ok(sqlx::query(sql)
        .bind(rows)
        .bind(FOLLOW_SCHEDULE)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected())
}

/// The deliveries waiting in fan-out rows, and when the oldest of them was queued (none and
/// `None` on SQLite).
pub async fn waiting(db: &Db) -> Result<(i64, Option<i64>), StoreError> {
    let Db::Postgres(pool) = db else {
        return Ok((0, None));
    };
    let sql = "SELECT CAST(COALESCE(SUM(deliveries), 0) AS BIGINT), MIN(created_at) FROM fan_outs";
    Ok(sqlx::query_as::<_, (i64, Option<i64>)>(sql)
        .fetch_one(pool)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(id: &str, monitor: Option<&str>) -> NewDelivery {
        NewDelivery {
            id: id.to_string(),
            webhook_id: "w".to_string(),
            team_id: "t".to_string(),
            monitor_id: monitor.map(str::to_string),
            event_id: "e".to_string(),
            event_type: "signal.created".to_string(),
            free: false,
            max_attempts: FOLLOW_SCHEDULE,
            attempt_count: 0,
            retry_of: None,
            created_at: 1,
        }
    }

    #[test]
    fn a_body_lists_each_delivery_as_an_array_in_column_order() {
        let body = body(&[delivery("d1", Some("m")), delivery("d2", None)]);
        assert_eq!(
            body,
            r#"[["d1","w","t","m","e","signal.created"],["d2","w","t",null,"e","signal.created"]]"#
        );
    }

    #[test]
    fn only_ordinary_deliveries_are_left_to_a_worker() {
        let mut free = delivery("d", None);
        free.free = true;
        assert!(deferred(&[delivery("d", None)]));
        assert!(!deferred(&[delivery("d", None), free]));
    }
}
