//! The write gate of one SQLite database handle: turns at SQLite's single write lock.
//!
//! Every writer of a handle (the ingest writer, the delivery worker's claims and records, the
//! enrichment claim, the requests that write) takes turns on an in-process lock before
//! `BEGIN IMMEDIATE`. Waiting there hands the lock over as soon as it is free; waiting in
//! SQLite's busy handler instead sleeps and retries with growing pauses, which made every
//! collision cost more than the transaction it waited for.
//!
//! The gate belongs to the handle that [`crate::store::Db::connect`] returned: its clones and
//! its [`crate::store::Db::own_writer`] share it, another connected handle has its own. It also
//! holds what the checkpoints of the write-ahead log need (see [`super::checkpoint`]): whether
//! one is due, the one running, how far the last caught up, and the runtime they run on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use sqlx::SqlitePool;
use tokio::runtime::Handle;
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::checkpoint;

/// The write gate of one database handle, and the state of its checkpoints.
#[derive(Debug)]
pub(crate) struct WriteGate {
    /// Held for a writer's turn.
    turn: Arc<Mutex<()>>,
    /// The handle's shared pool, on which checkpoints run (never a writer's own connection).
    pub(super) pool: SqlitePool,
    /// Where checkpoints are spawned: the runtime current when the handle was connected, so
    /// that a writer on a thread of its own does not run them on its own core.
    runtime: Option<Handle>,
    /// Set while a checkpoint is due: the writes meanwhile share it.
    pub(super) due: AtomicBool,
    /// Held while a checkpoint runs: one at a time.
    pub(super) checkpointing: Mutex<()>,
    /// The log's length when the last catch-up ended: until a write starts the log over, a pass
    /// still reports that length, and there is nothing to catch up with.
    pub(super) caught_up: AtomicI64,
}

/// A writer's turn: the gate, held until the transaction ends; a checkpoint follows shortly
/// after it is released.
#[derive(Debug)]
pub(crate) struct Turn {
    _held: OwnedMutexGuard<()>,
    gate: Arc<WriteGate>,
}

impl WriteGate {
    /// The gate of a newly connected handle on `pool`, its checkpoints spawned on the current
    /// runtime (if any).
    pub(super) fn new(pool: SqlitePool) -> Arc<WriteGate> {
        Arc::new(WriteGate {
            turn: Arc::new(Mutex::new(())),
            pool,
            runtime: Handle::try_current().ok(),
            due: AtomicBool::new(false),
            checkpointing: Mutex::new(()),
            caught_up: AtomicI64::new(0),
        })
    }

    /// Waits for the turn. Not reentrant: take it once per transaction.
    pub(crate) async fn turn(self: &Arc<WriteGate>) -> Turn {
        Turn {
            _held: self.turn.clone().lock_owned().await,
            gate: self.clone(),
        }
    }

    /// Waits for the turn without scheduling a checkpoint when it ends (the checkpoint's own
    /// last pass).
    pub(super) async fn bare_turn(&self) -> OwnedMutexGuard<()> {
        self.turn.clone().lock_owned().await
    }

    /// Schedules a checkpoint unless one is already due.
    fn schedule_checkpoint(self: &Arc<WriteGate>) {
        let Some(runtime) = self.runtime.clone().or_else(|| Handle::try_current().ok()) else {
            return;
        };
        if self.due.swap(true, Ordering::AcqRel) {
            return;
        }
        runtime.spawn(checkpoint::run(self.clone()));
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.gate.schedule_checkpoint();
    }
}
