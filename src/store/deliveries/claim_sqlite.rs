//! Claiming due deliveries on SQLite: a search for due rows outside the write lock, then one
//! short write transaction that leases those still pending and unleased. The search seeks each
//! webhook's oldest due rows (index `deliveries_due_webhook`) instead of walking the whole backlog in time
//! order, so its cost follows what is taken, not what is queued or held.

use std::collections::{HashMap, HashSet};

use sqlx::FromRow;

use super::{CLAIMED, Claim, ClaimedDelivery};
use crate::on_db;
use crate::store::bulk::{Val, execute_in, select_in};
use crate::store::{Db, StoreError, placeholders};

/// A due delivery the search found.
#[derive(Debug, FromRow)]
struct Due {
    id: String,
    webhook_id: String,
    next_attempt_at: i64,
}

/// The search: per active webhook of a live team with credits (and an active monitor, if any),
/// its oldest due, unleased rows; and apart, due free rows of any active webhook. Every row still
/// passes the per-delivery rule of the PostgreSQL claim (its own team and monitor), so the two
/// backends send the same rows. Parameters: $1 now, $2 the floors (a JSON object of webhook id
/// to floor; each webhook's seek starts at its floor, as on PostgreSQL), $3… webhooks to skip.
///
/// The rows per webhook are written into the text, not bound: SQLite plans with a bound `LIMIT`'s
/// value, so it prepares such a statement again at every run (a claim round can run hundreds of
/// times a second while ingests wake the worker).
fn due_sql(per_webhook: i64, skip: usize) -> String {
    let skip = if skip == 0 {
        String::new()
    } else {
        format!(" AND w.id NOT IN ({})", placeholders(3, skip))
    };
    format!(
        "WITH due AS (\
         SELECT x.id, x.webhook_id, x.next_attempt_at, x.free, x.team_id, x.monitor_id \
         FROM webhooks w JOIN teams wt ON wt.id = w.team_id \
         LEFT JOIN monitors wm ON wm.id = w.monitor_id \
         JOIN deliveries x ON x.id IN (SELECT y.id FROM deliveries y \
         WHERE y.webhook_id = w.id AND y.status = 'pending' AND y.next_attempt_at <= $1 \
         AND y.next_attempt_at >= COALESCE(json_extract($2, '$.\"' || w.id || '\"'), \
         -9223372036854775807) \
         AND (y.lease_until IS NULL OR y.lease_until < $1) ORDER BY y.next_attempt_at LIMIT {per_webhook}) \
         WHERE w.active AND wt.credits > 0 AND wt.subscription_status IN ('active', 'trialing') \
         AND (w.monitor_id IS NULL OR wm.active){skip} \
         UNION \
         SELECT * FROM (SELECT y.id, y.webhook_id, y.next_attempt_at, y.free, y.team_id, \
         y.monitor_id FROM deliveries y JOIN webhooks w ON w.id = y.webhook_id \
         WHERE y.status = 'pending' AND y.free = 1 AND y.next_attempt_at <= $1 \
         AND (y.lease_until IS NULL OR y.lease_until < $1) AND w.active{skip} \
         ORDER BY y.next_attempt_at LIMIT {per_webhook})) \
         SELECT d.id, d.webhook_id, d.next_attempt_at FROM due d \
         JOIN teams tm ON tm.id = d.team_id LEFT JOIN monitors m ON m.id = d.monitor_id \
         WHERE d.free OR (tm.credits > 0 AND tm.subscription_status IN ('active', 'trialing') \
         AND (d.monitor_id IS NULL OR m.active))"
    )
}

/// Leases what the webhooks have room for, oldest first, at most `claim.limit`.
pub async fn claim_due_sqlite(
    db: &Db,
    claim: &Claim<'_>,
) -> Result<Vec<ClaimedDelivery>, StoreError> {
    let full = claim.full();
    // The search only reads: it runs outside the write lock, which a wake-up with nothing to
    // send (a held team's ingest) then never takes. Leasing re-checks each row.
    let ids = within_room(search(db, claim, &full).await?, claim);
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut tx = db.begin_write().await?;
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let until = claim.now + claim.lease_ms;
    execute_in(
        &mut tx,
        "UPDATE deliveries SET lease_until = ?, lease_owner = ?, updated_at = ? \
         WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < ?) AND id {in}",
        &[
            Val::Int(Some(until)),
            Val::text(claim.owner),
            Val::Int(Some(claim.now)),
            Val::Int(Some(claim.now)),
        ],
        &ids,
    )
    .await?;
    let sql = format!("{CLAIMED} WHERE d.lease_owner = ? AND d.lease_until = ? AND d.id {{in}}");
    let fixed = [Val::text(claim.owner), Val::Int(Some(until))];
    let claimed = select_in(&mut tx, &sql, &fixed, &ids).await?;
    tx.commit().await?;
    Ok(claimed)
}

async fn search(db: &Db, claim: &Claim<'_>, full: &[&str]) -> Result<Vec<Due>, StoreError> {
    let sql = due_sql(claim.per_webhook, full.len());
    let floors = serde_json::json!(claim.floors).to_string();
    Ok(on_db!(db, |pool| {
        let mut q = sqlx::query_as::<_, Due>(sqlx::AssertSqlSafe(sql))
            .bind(claim.now)
            .bind(&floors);
        for id in full {
            q = q.bind(*id);
        }
        q.fetch_all(pool).await
    })?)
}

/// The found rows each webhook has room for (`per_webhook` less its open requests), oldest
/// first, at most `limit` in all.
fn within_room(mut found: Vec<Due>, claim: &Claim<'_>) -> Vec<String> {
    found.sort_by(|a, b| (a.next_attempt_at, &a.id).cmp(&(b.next_attempt_at, &b.id)));
    let mut taken: HashMap<&str, i64> = HashMap::new();
    let mut seen = HashSet::new();
    let mut ids = Vec::new();
    for due in &found {
        if ids.len() as i64 >= claim.limit {
            break;
        }
        let open = claim.busy.get(&due.webhook_id).copied().unwrap_or(0) as i64;
        let n = taken.entry(due.webhook_id.as_str()).or_insert(open);
        if *n < claim.per_webhook && seen.insert(due.id.as_str()) {
            *n += 1;
            ids.push(due.id.clone());
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn due(id: &str, webhook_id: &str, at: i64) -> Due {
        Due {
            id: id.into(),
            webhook_id: webhook_id.into(),
            next_attempt_at: at,
        }
    }

    #[test]
    fn each_webhook_gets_its_free_slots_oldest_first_within_the_limit() {
        let busy = HashMap::from([("a".to_string(), 1)]);
        let claim = Claim {
            owner: "me",
            now: 10,
            lease_ms: 1,
            limit: 3,
            per_webhook: 2,
            busy: &busy,
            floors: &HashMap::new(),
        };
        let found = vec![
            due("a2", "a", 2),
            due("b1", "b", 1),
            due("a1", "a", 1),
            due("b3", "b", 3),
            due("b1", "b", 1),
            due("c9", "c", 9),
        ];
        assert_eq!(within_room(found, &claim), ["a1", "b1", "b3"]);
    }
}
