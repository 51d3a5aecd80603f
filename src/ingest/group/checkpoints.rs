//! WAL checkpoints off the ingest writer's path. SQLite checkpoints its write-ahead log in the
//! commit that takes it past 1,000 pages: copying the pages back and syncing the file, a pause of
//! many milliseconds that lands on whichever ingest group commits then. At a steady ingest rate
//! that is a few groups a second, and their requests made the latency's tail. A task apart
//! checkpoints shortly after groups are written, so the log is reset before it grows that long
//! and commits stay short.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::store::Db;
use crate::store::outbox::checkpoint_wal;

/// How long after a write the checkpoint comes: writes meanwhile share it.
const DELAY: Duration = Duration::from_millis(50);

/// Schedules checkpoints of one database.
#[derive(Debug, Default, Clone)]
pub struct Checkpoints {
    scheduled: Arc<AtomicBool>,
}

impl Checkpoints {
    /// Something was written to `db`: a checkpoint follows shortly unless one is already due.
    pub fn wrote(&self, db: &Db) {
        if !matches!(db, Db::Sqlite(_)) || self.scheduled.swap(true, Ordering::AcqRel) {
            return;
        }
        let (db, scheduled) = (db.clone(), self.scheduled.clone());
        tokio::spawn(async move {
            tokio::time::sleep(DELAY).await;
            // Cleared first: what is written during this checkpoint schedules the next.
            scheduled.store(false, Ordering::Release);
            if let Err(err) = checkpoint_wal(&db).await {
                tracing::debug!(error = %err, "checkpointing the write-ahead log failed");
            }
        });
    }
}
