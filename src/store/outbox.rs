//! The write side of fan-out, inside the ingest transaction: who is interested in a batch of
//! signals, and the events, deliveries and alert items that carry them out.

use sqlx::FromRow;
use sqlx::postgres::PgListener;

use super::bulk::{RowStatement, Val, execute_rows, select_in};
use super::bulk_chain::Chain;
use super::{Db, StoreError, Tx};
use crate::on_tx;

/// Subscription states whose teams receive signals.
const LIVE_TEAM: &str = "tm.subscription_status IN ('active', 'trialing')";

/// A standalone webhook of a live team.
#[derive(Debug, Clone, FromRow)]
pub struct StandaloneWebhook {
    pub id: String,
    pub team_id: String,
    /// JSON array text.
    pub event_types: String,
    /// JSON object text.
    pub filters: String,
}

/// The rows of every active standalone webhook of a team whose subscription is live: the
/// statement after its select list (`w` the webhook, `tm` its team).
fn live_standalone_webhooks() -> String {
    format!(
        "FROM webhooks w JOIN teams tm ON tm.id = w.team_id \
         WHERE w.monitor_id IS NULL AND w.active AND w.retired_at IS NULL AND {LIVE_TEAM}"
    )
}

/// Every active standalone webhook of a team whose subscription is live.
pub async fn standalone_webhooks(tx: &mut Tx) -> Result<Vec<StandaloneWebhook>, StoreError> {
    let sql = format!(
        "SELECT w.id, w.team_id, w.event_types, w.filters {}",
        live_standalone_webhooks()
    );
    Ok(on_tx!(tx, |conn| sqlx::query_as::<_, StandaloneWebhook>(
        sqlx::AssertSqlSafe(sql)
    )
    .fetch_all(conn)
    .await)?)
}

/// A live monitor with a resolved target on one of the batch's companies.
#[derive(Debug, Clone, FromRow)]
pub struct WatchingMonitor {
    pub company_id: String,
    pub monitor_id: String,
    pub team_id: String,
    /// JSON array text of signal types.
    pub signal_types: String,
    /// The monitor's current, active webhook; `None` for an e-mail-only monitor.
    pub webhook_id: Option<String>,
}

/// One row of [`listeners_of`]: a standalone webhook (`company_id` `None`) or a watching
/// monitor, in the columns both share.
#[derive(Debug, Clone, FromRow)]
struct ListenerRow {
    /// The webhook's id, or the monitor's.
    id: String,
    team_id: String,
    /// JSON array text: the webhook's event types, or the monitor's signal types.
    types: String,
    /// The webhook's filters, JSON object text; `None` for a monitor.
    filters: Option<String>,
    /// The watched company; `None` for a standalone webhook.
    company_id: Option<String>,
    /// The monitor's current, active webhook.
    webhook_id: Option<String>,
}

/// Who may hear of signals about `company_ids`, read in one statement: every active standalone
/// webhook of a live team (as [`standalone_webhooks`] reads them) and, once per (company,
/// monitor), the active monitors of live teams with a resolved target on any of those companies.
pub async fn listeners_of(
    tx: &mut Tx,
    company_ids: &[&str],
) -> Result<(Vec<StandaloneWebhook>, Vec<WatchingMonitor>), StoreError> {
    if company_ids.is_empty() {
        // No list, no statement: the webhooks alone.
        return Ok((standalone_webhooks(tx).await?, Vec::new()));
    }
    let sql = format!(
        "SELECT w.id, w.team_id, w.event_types AS types, w.filters, \
         CAST(NULL AS TEXT) AS company_id, CAST(NULL AS TEXT) AS webhook_id {} \
         UNION ALL \
         SELECT DISTINCT m.id, m.team_id, m.signal_types, CAST(NULL AS TEXT), t.company_id, \
         w.id FROM targets t \
         JOIN monitors m ON m.id = t.monitor_id \
         JOIN teams tm ON tm.id = m.team_id \
         LEFT JOIN webhooks w ON w.id = m.webhook_id AND w.active AND w.retired_at IS NULL \
         WHERE m.active AND {LIVE_TEAM} AND t.company_id {{in}}",
        live_standalone_webhooks()
    );
    let rows: Vec<ListenerRow> = select_in(tx, &sql, &[], company_ids).await?;
    let (mut webhooks, mut monitors) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let Some(company_id) = row.company_id else {
            // A long list of companies is read in parts, each of which lists the webhooks.
            if seen.insert(row.id.clone()) {
                let filters = row.filters.ok_or_else(|| {
                    StoreError::Corrupt(format!("webhook {} has no filters", row.id))
                })?;
                webhooks.push(StandaloneWebhook {
                    id: row.id,
                    team_id: row.team_id,
                    event_types: row.types,
                    filters,
                });
            }
            continue;
        };
        monitors.push(WatchingMonitor {
            company_id,
            monitor_id: row.id,
            team_id: row.team_id,
            signal_types: row.types,
            webhook_id: row.webhook_id,
        });
    }
    Ok((webhooks, monitors))
}

/// An event about to be stored.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub id: String,
    pub event_type: String,
    pub signal_id: Option<String>,
    /// JSON text of the event's `data`.
    pub data: String,
    pub created_at: i64,
}

/// `max_attempts` of a delivery that gets as many attempts as the configured retry schedule.
pub const FOLLOW_SCHEDULE: i64 = 0;

/// A delivery about to be queued.
#[derive(Debug, Clone)]
pub struct NewDelivery {
    pub id: String,
    pub webhook_id: String,
    pub team_id: String,
    pub monitor_id: Option<String>,
    pub event_id: String,
    pub event_type: String,
    /// Test events: not charged.
    pub free: bool,
    /// Most attempts, or [`FOLLOW_SCHEDULE`].
    pub max_attempts: i64,
    /// The attempts of earlier deliveries of the same event (manual retries carry the count on).
    pub attempt_count: i64,
    pub retry_of: Option<String>,
    pub created_at: i64,
}

/// An alert item about to be queued for a monitor's digest.
#[derive(Debug, Clone)]
pub struct NewAlert {
    pub id: String,
    pub monitor_id: String,
    pub team_id: String,
    pub event_id: String,
    pub created_at: i64,
}

const EVENTS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO events (id, event_type, signal_id, data, created_at) VALUES ",
    template: "(?, ?, ?, ?, ?)",
    tail: "",
};

const DELIVERIES: RowStatement<'static> = RowStatement {
    head: "INSERT INTO deliveries (id, webhook_id, team_id, monitor_id, event_id, event_type, \
           free, max_attempts, attempt_count, retry_of, created_at, status, next_attempt_at, \
           updated_at) VALUES ",
    template: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
    tail: "",
};

const ALERTS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO alert_items (id, monitor_id, team_id, event_id, created_at) VALUES ",
    template: "(?, ?, ?, ?, ?)",
    tail: "",
};

fn event_values(events: &[NewEvent]) -> Vec<Val<'_>> {
    let mut values = Vec::with_capacity(events.len() * 5);
    for e in events {
        values.extend([
            Val::text(&e.id),
            Val::text(&e.event_type),
            Val::opt(&e.signal_id),
            Val::text(&e.data),
            Val::Int(Some(e.created_at)),
        ]);
    }
    values
}

fn delivery_values(rows: &[NewDelivery]) -> Vec<Val<'_>> {
    let mut values = Vec::with_capacity(rows.len() * 13);
    for d in rows {
        values.extend([
            Val::text(&d.id),
            Val::text(&d.webhook_id),
            Val::text(&d.team_id),
            Val::opt(&d.monitor_id),
            Val::text(&d.event_id),
            Val::text(&d.event_type),
            Val::Bool(d.free),
            Val::Int(Some(d.max_attempts)),
            Val::Int(Some(d.attempt_count)),
            Val::opt(&d.retry_of),
            Val::Int(Some(d.created_at)),
            Val::Int(Some(d.created_at)),
            Val::Int(Some(d.created_at)),
        ]);
    }
    values
}

fn alert_values(rows: &[NewAlert]) -> Vec<Val<'_>> {
    let mut values = Vec::with_capacity(rows.len() * 5);
    for a in rows {
        values.extend([
            Val::text(&a.id),
            Val::text(&a.monitor_id),
            Val::text(&a.team_id),
            Val::text(&a.event_id),
            Val::Int(Some(a.created_at)),
        ]);
    }
    values
}

/// Stores events.
pub async fn insert_events(tx: &mut Tx, events: &[NewEvent]) -> Result<(), StoreError> {
    execute_rows(tx, &EVENTS, &event_values(events)).await?;
    Ok(())
}

/// Queues deliveries, each due at once.
pub async fn insert_deliveries(tx: &mut Tx, rows: &[NewDelivery]) -> Result<(), StoreError> {
    execute_rows(tx, &DELIVERIES, &delivery_values(rows)).await?;
    Ok(())
}

/// Queues alert items.
pub async fn insert_alerts(tx: &mut Tx, rows: &[NewAlert]) -> Result<(), StoreError> {
    execute_rows(tx, &ALERTS, &alert_values(rows)).await?;
    Ok(())
}

/// What an accepting transaction queues at its end.
#[derive(Debug, Clone, Copy)]
pub struct Queued<'a> {
    pub events: &'a [NewEvent],
    pub deliveries: &'a [NewDelivery],
    pub alerts: &'a [NewAlert],
    /// The announcement says [`BUSY`]: the ingest writer is saturated (`delivery::pressure`).
    pub busy: bool,
}

/// The end of a transaction that accepted data: queues its events, deliveries and alert items
/// after the inserts of `chain` (writes nothing else in the transaction reads), and marks the
/// list data as changed, as `versions::bump_data_version` does; on PostgreSQL, when deliveries
/// were queued, it also announces them as [`announce_queued`] does, which PostgreSQL sends only if
/// they are committed. On PostgreSQL all of it is one statement, one round trip.
pub async fn enqueue_and_mark_changed<'a>(
    tx: &mut Tx,
    mut chain: Chain<'a>,
    queued: Queued<'a>,
) -> Result<(), StoreError> {
    chain.insert(EVENTS, event_values(queued.events));
    chain.insert(DELIVERIES, delivery_values(queued.deliveries));
    chain.insert(ALERTS, alert_values(queued.alerts));
    let (bump, shard) = super::versions::bump_one_shard();
    let announce = matches!(tx, Tx::Postgres(_)) && !queued.deliveries.is_empty();
    if announce {
        let last = format!("{bump} RETURNING pg_notify(?, ?)");
        let payload = if queued.busy { BUSY } else { "" };
        let values = [
            Val::Int(Some(shard)),
            Val::text(QUEUED_CHANNEL),
            Val::text(payload),
        ];
        chain.run(tx, &last, &values).await
    } else {
        chain.run(tx, bump, &[Val::Int(Some(shard))]).await
    }
}

/// What an announcement of queued deliveries says when the ingest that queued them is
/// saturated: the workers that hear it hold their claims back for a moment (`delivery::pressure`).
pub const BUSY: &str = "busy";

/// The PostgreSQL channel on which processes hear that deliveries were queued.
const QUEUED_CHANNEL: &str = "signalwatch_deliveries_queued";

/// Tells the worker processes sharing this PostgreSQL database that deliveries were queued, so
/// they claim at once instead of at their next poll (nothing to do on SQLite: one process).
pub async fn announce_queued(db: &Db) -> Result<(), StoreError> {
    if let Db::Postgres(pool) = db {
        sqlx::query("SELECT pg_notify($1, '')")
            .bind(QUEUED_CHANNEL)
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// A listener for [`announce_queued`]; `None` on SQLite.
pub async fn listen_queued(db: &Db) -> Result<Option<PgListener>, StoreError> {
    let Db::Postgres(pool) = db else {
        return Ok(None);
    };
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(QUEUED_CHANNEL).await?;
    Ok(Some(listener))
}
