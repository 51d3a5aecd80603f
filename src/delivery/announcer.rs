//! Telling the other processes on PostgreSQL that deliveries were queued, without flooding them.
//!
//! Every ingest request wakes the workers. Sending one `NOTIFY` per request cost a round trip
//! each, and every listening process woke for each one: at 1,000 single-signal ingests a second,
//! 8,000 notifications in ten seconds for 400 committed groups. Here one task sends the
//! notifications, one at a time: wakes that come while one is on its way are answered by a
//! single notification after it, so every wake is followed by a notification sent after it, and
//! the notifications never outnumber the round trips they take.

use std::sync::{Arc, OnceLock};

use tokio::sync::Notify;

use crate::store::Db;
use crate::store::outbox::announce_queued;

/// The announcing task of one process, started at its first use.
#[derive(Debug, Default)]
pub struct Announcer {
    pending: OnceLock<Arc<Notify>>,
}

impl Announcer {
    /// Asks for a notification to the other processes sharing `db` (nothing on SQLite: one
    /// process). Returns at once; must be called within the Tokio runtime.
    pub fn announce(&self, db: &Db) {
        if !matches!(db, Db::Postgres(_)) {
            return;
        }
        self.pending.get_or_init(|| start(db.clone())).notify_one();
    }
}

/// Starts the task that sends a notification for each batch of requests.
fn start(db: Db) -> Arc<Notify> {
    let pending = Arc::new(Notify::new());
    let requests = pending.clone();
    tokio::spawn(async move {
        loop {
            // A request made while the last notification was on its way left one permit.
            requests.notified().await;
            if let Err(err) = announce_queued(&db).await {
                tracing::warn!(error = %err, "announcing queued deliveries failed");
            }
        }
    });
    pending
}
