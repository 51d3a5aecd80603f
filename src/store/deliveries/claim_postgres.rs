//! Claiming due deliveries on PostgreSQL: one statement that, per active webhook of a live team
//! with credits, seeks that webhook's oldest due, unleased rows (index `deliveries_due_webhook`)
//! up to the room the webhook has left in this process, locks them with `FOR UPDATE SKIP LOCKED`
//! (rows another worker is claiming at this moment are passed over, never waited for), and
//! leases them, returning each with its webhook's address and secret and its event's body.
//! Free rows (test events, replays) are sought apart on `deliveries_due_free`. Each event and
//! webhook of a claim is read once, however many of its deliveries were leased (an event goes to
//! each webhook that wants it, so a claim holds far fewer events than deliveries).
//! Each row still passes the per-delivery rule (its own team's credits and its monitor), as on
//! SQLite, so both backends send the same rows.
//!
//! Only rows the claim may lease are locked: the room per webhook bounds each seek, so a claim
//! never locks the whole due backlog to lease a few of it. Each seek starts at its webhook's
//! floor (`floors`), past the index entries of rows already sent.

use super::{Claim, ClaimedDelivery, claimed_columns};
use crate::store::{Db, StoreError};

/// The claim. Parameters: $1 now, $2 lease end, $3 owner, $4 most rows in all, $5 most open per
/// webhook, $6/$7 webhooks with requests open and how many, $8/$9 webhooks with a floor and
/// their floors (each webhook's seek starts at its floor: `floors`).
const CLAIM: &str = concat!(
    "WITH room AS (\
     SELECT w.id AS webhook_id, $5::bigint - COALESCE(b.open, 0) AS room, \
     COALESCE(f.floor, -9223372036854775807) AS floor \
     FROM webhooks w JOIN teams wt ON wt.id = w.team_id \
     LEFT JOIN monitors wm ON wm.id = w.monitor_id \
     LEFT JOIN UNNEST($6::text[], $7::bigint[]) AS b(webhook_id, open) ON b.webhook_id = w.id \
     LEFT JOIN UNNEST($8::text[], $9::bigint[]) AS f(webhook_id, floor) ON f.webhook_id = w.id \
     WHERE w.active AND wt.credits > 0 AND wt.subscription_status IN ('active', 'trialing') \
     AND (w.monitor_id IS NULL OR wm.active)), \
     paid AS (\
     SELECT x.id, x.next_attempt_at FROM room r CROSS JOIN LATERAL (\
     SELECT y.id, y.next_attempt_at FROM deliveries y \
     JOIN teams tm ON tm.id = y.team_id LEFT JOIN monitors m ON m.id = y.monitor_id \
     WHERE y.webhook_id = r.webhook_id AND y.status = 'pending' \
     AND y.next_attempt_at >= r.floor AND y.next_attempt_at <= $1 \
     AND (y.lease_until IS NULL OR y.lease_until < $1) \
     AND (y.free OR (tm.credits > 0 AND tm.subscription_status IN ('active', 'trialing') \
     AND (y.monitor_id IS NULL OR m.active))) \
     ORDER BY y.webhook_id, y.next_attempt_at LIMIT LEAST(r.room, $4::bigint) \
     FOR UPDATE OF y SKIP LOCKED) x WHERE r.room > 0), \
     free AS (\
     SELECT y.id, y.next_attempt_at FROM deliveries y JOIN webhooks w ON w.id = y.webhook_id \
     LEFT JOIN UNNEST($6::text[], $7::bigint[]) AS b(webhook_id, open) ON b.webhook_id = w.id \
     WHERE y.status = 'pending' AND y.free AND y.next_attempt_at <= $1 \
     AND (y.lease_until IS NULL OR y.lease_until < $1) AND w.active \
     AND COALESCE(b.open, 0) < $5::bigint \
     ORDER BY y.next_attempt_at LIMIT $5::bigint FOR UPDATE OF y SKIP LOCKED), \
     picked AS (SELECT id, next_attempt_at FROM paid UNION SELECT id, next_attempt_at FROM free), \
     leased AS (UPDATE deliveries d SET lease_until = $2, lease_owner = $3, updated_at = $1 \
     FROM (SELECT id FROM picked ORDER BY next_attempt_at LIMIT $4::bigint) p WHERE d.id = p.id \
     RETURNING d.id, d.webhook_id, d.team_id, d.monitor_id, d.event_id, d.event_type, d.free, \
     d.max_attempts, d.attempt_count), \
     leased_events AS MATERIALIZED (SELECT id, data, created_at FROM events \
     WHERE id IN (SELECT event_id FROM leased)), \
     leased_webhooks AS MATERIALIZED (SELECT id, endpoint_url, secret FROM webhooks \
     WHERE id IN (SELECT webhook_id FROM leased)) \
     SELECT ",
    claimed_columns!(),
    " FROM leased d JOIN leased_webhooks w ON w.id = d.webhook_id \
     JOIN leased_events e ON e.id = d.event_id"
);

/// Leases what the webhooks have room for, oldest first, at most `claim.limit`.
pub async fn claim_due_postgres(
    db: &Db,
    claim: &Claim<'_>,
) -> Result<Vec<ClaimedDelivery>, StoreError> {
    let (busy_ids, busy_open): (Vec<&str>, Vec<i64>) = claim
        .busy
        .iter()
        .filter(|(_, open)| **open > 0)
        .map(|(id, open)| (id.as_str(), *open as i64))
        .unzip();
    let (floor_ids, floors): (Vec<&str>, Vec<i64>) = claim
        .floors
        .iter()
        .map(|(id, floor)| (id.as_str(), *floor))
        .unzip();
    let Db::Postgres(pool) = db else {
        return Err(StoreError::UnsupportedUrl);
    };
    // One statement is its own transaction, and it returns what the worker sends: a claim
    // costs one round trip, whether it finds nothing (a wake-up for a team without credits,
    // say) or a full batch.
    Ok(sqlx::query_as::<_, ClaimedDelivery>(CLAIM)
        .bind(claim.now)
        .bind(claim.now + claim.lease_ms)
        .bind(claim.owner)
        .bind(claim.limit)
        .bind(claim.per_webhook)
        .bind(&busy_ids)
        .bind(&busy_open)
        .bind(&floor_ids)
        .bind(&floors)
        .fetch_all(pool)
        .await?)
}
