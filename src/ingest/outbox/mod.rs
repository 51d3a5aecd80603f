//! The write side of the outbox: inside the transaction that accepts new signals or companies,
//! who hears of them ([`fanout`]), the event each is told ([`event`]), and queuing both in that
//! transaction ([`Outbox::enqueue`]). The sending side (`delivery`) takes it from there. The SQL
//! lives in `store::outbox`, called only from here.

mod event;
mod fanout;

pub use fanout::{fan_out_new_companies, fan_out_signals};

use crate::store::bulk_chain::Chain;
use crate::store::outbox::{
    FOLLOW_SCHEDULE, NewAlert, NewDelivery, NewEvent, Queued, WatchingMonitor,
    enqueue_and_mark_changed, insert_alerts, insert_deliveries, insert_events,
};
use crate::store::{StoreError, Tx, new_id};

/// What one fan-out queued.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FanOut {
    pub events: usize,
    pub deliveries: usize,
    pub alerts: usize,
}

/// What fan-out gathers to queue, before it is written.
pub struct Outbox {
    events: Vec<NewEvent>,
    deliveries: Vec<NewDelivery>,
    alerts: Vec<NewAlert>,
    now: i64,
}

impl Outbox {
    /// An empty outbox for what is accepted at `now`.
    pub fn new(now: i64) -> Outbox {
        Outbox {
            events: Vec::new(),
            deliveries: Vec::new(),
            alerts: Vec::new(),
            now,
        }
    }

    pub(super) fn event(
        &mut self,
        event_type: &str,
        signal_id: &str,
        data: serde_json::Value,
    ) -> String {
        let id = new_id();
        self.events.push(NewEvent {
            id: id.clone(),
            event_type: event_type.to_string(),
            signal_id: Some(signal_id.to_string()),
            data: data.to_string(),
            created_at: self.now,
        });
        id
    }

    pub(super) fn delivery(
        &mut self,
        event_id: &str,
        event_type: &str,
        to: (&str, &str, Option<&str>),
    ) {
        let (webhook_id, team_id, monitor_id) = to;
        self.deliveries.push(NewDelivery {
            id: new_id(),
            webhook_id: webhook_id.to_string(),
            team_id: team_id.to_string(),
            monitor_id: monitor_id.map(str::to_string),
            event_id: event_id.to_string(),
            event_type: event_type.to_string(),
            free: false,
            max_attempts: FOLLOW_SCHEDULE,
            attempt_count: 0,
            retry_of: None,
            created_at: self.now,
        });
    }

    pub(super) fn alert(&mut self, event_id: &str, monitor: &WatchingMonitor) {
        self.alerts.push(NewAlert {
            id: new_id(),
            monitor_id: monitor.monitor_id.clone(),
            team_id: monitor.team_id.clone(),
            event_id: event_id.to_string(),
            created_at: self.now,
        });
    }

    /// Enqueues what was gathered: events, deliveries and alert items, in the transaction that
    /// accepts what they announce, so that they are committed with it or not at all.
    pub async fn enqueue(self, tx: &mut Tx) -> Result<FanOut, StoreError> {
        insert_events(tx, &self.events).await?;
        insert_deliveries(tx, &self.deliveries).await?;
        insert_alerts(tx, &self.alerts).await?;
        Ok(FanOut {
            events: self.events.len(),
            deliveries: self.deliveries.len(),
            alerts: self.alerts.len(),
        })
    }

    /// As [`Outbox::enqueue`], after the inserts of `chain`, and then marks the list data as
    /// changed and announces the deliveries to the other processes at the commit, as `busy`
    /// when the ingest is saturated: the end of an accepting transaction, one statement on
    /// PostgreSQL (`store::outbox`).
    pub async fn enqueue_and_mark_changed<'a>(
        &'a self,
        tx: &mut Tx,
        chain: Chain<'a>,
        busy: bool,
    ) -> Result<(), StoreError> {
        let queued = Queued {
            events: &self.events,
            deliveries: &self.deliveries,
            alerts: &self.alerts,
            busy,
        };
        enqueue_and_mark_changed(tx, chain, queued).await
    }
}
