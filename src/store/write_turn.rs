//! Turns at SQLite's single write lock, and the write-ahead log's checkpoints.
//!
//! The heavy writers of a process (the ingest writer, the delivery worker's claims and records,
//! the enrichment claim) take turns on an in-process lock. Waiting there hands the lock over as
//! soon as it is free; waiting in SQLite's busy handler instead sleeps and retries (1, 2, 5,
//! 10… ms), which made every collision cost more than the transaction it waited for.
//!
//! Checkpoints are taken off the writers' path. Left to itself, SQLite checkpoints in the commit
//! that takes the log past its threshold: the copy and two syncs land on whichever ingest commits
//! then (tens of milliseconds). Instead, shortly after a turn ends, a task copies the log back
//! without waiting for anyone (`PASSIVE`). That never finishes while the ingest writer keeps
//! appending, and the log only starts over once a checkpoint has caught up with it; so when the
//! log has grown long, the task copies again inside a writer's turn. The passes before it have
//! already copied nearly everything, so the turn waits for about one group commit's frames and
//! two syncs: 2–6 ms on one virtual disk, 25–35 ms on a busier one, under 1,000 ingested signals
//! a second (BENCHMARKS.md).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{Mutex, MutexGuard};

use super::{Db, StoreError};

static SQLITE_WRITERS: Mutex<()> = Mutex::const_new(());

/// Set while a checkpoint is due: the writes meanwhile share it.
static CHECKPOINT_DUE: AtomicBool = AtomicBool::new(false);

/// How long after a write the checkpoint comes.
const CHECKPOINT_DELAY: Duration = Duration::from_millis(50);

/// Log length (frames) past which a checkpoint catches up inside a writer's turn, so that the
/// log starts over: about 64 MB of 4 KB pages, some 0.6 s of ingest at 1,000 signals a second
/// (about 25,000 frames a second measured). SQLite's own threshold (`wal_autocheckpoint`, set
/// where connections are opened) lies above this one.
const CATCH_UP_FRAMES: i64 = 16_000;

/// Frames left uncopied that the turn may wait for, and passes without the turn to get there.
const CATCH_UP_LEFT: i64 = 200;
const MAX_PASSES: usize = 4;

/// A writer's turn on SQLite; a checkpoint follows shortly after it ends.
#[derive(Debug)]
pub struct WriterTurn {
    _held: MutexGuard<'static, ()>,
    db: Db,
}

impl Drop for WriterTurn {
    fn drop(&mut self) {
        schedule_checkpoint(&self.db);
    }
}

/// The turn to write on SQLite, to hold until the transaction ends (`None` on PostgreSQL, whose
/// writers lock rows, not the database). Not reentrant: take it once per transaction.
pub async fn writer_turn(db: &Db) -> Option<WriterTurn> {
    match db {
        Db::Sqlite(_) => Some(WriterTurn {
            _held: SQLITE_WRITERS.lock().await,
            db: db.clone(),
        }),
        Db::Postgres(_) => None,
    }
}

/// Schedules a checkpoint of `db` unless one is already due.
fn schedule_checkpoint(db: &Db) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    if CHECKPOINT_DUE.swap(true, Ordering::AcqRel) {
        return;
    }
    let db = db.clone();
    runtime.spawn(async move {
        tokio::time::sleep(CHECKPOINT_DELAY).await;
        // Cleared first: what is written during this checkpoint schedules the next.
        CHECKPOINT_DUE.store(false, Ordering::Release);
        if let Err(err) = checkpoint(&db).await {
            tracing::debug!(error = %err, "checkpointing the write-ahead log failed");
        }
    });
}

/// A `PASSIVE` checkpoint; when the log has grown long, a last pass inside a writer's turn, so
/// that it catches up and the next write starts the log over.
async fn checkpoint(db: &Db) -> Result<(), StoreError> {
    let mut pass = checkpoint_wal(db).await?;
    if pass.frames < CATCH_UP_FRAMES {
        return Ok(());
    }
    // More passes without the turn while they shorten what is left: each copies and syncs what
    // was appended during the one before, so that the turn waits for as little as possible.
    for _ in 0..MAX_PASSES {
        let next = checkpoint_wal(db).await?;
        let shorter = next.left() < pass.left();
        pass = next;
        if !shorter || pass.left() <= CATCH_UP_LEFT {
            break;
        }
    }
    let _held = SQLITE_WRITERS.lock().await;
    checkpoint_wal(db).await?;
    Ok(())
}

/// What a checkpoint pass reports.
#[derive(Debug, Clone, Copy, Default, sqlx::FromRow)]
struct Pass {
    #[sqlx(rename = "busy")]
    _busy: i64,
    /// Frames in the log.
    #[sqlx(rename = "log")]
    frames: i64,
    /// Frames of the log copied into the database file.
    checkpointed: i64,
}

impl Pass {
    /// Frames not yet copied.
    fn left(&self) -> i64 {
        self.frames - self.checkpointed
    }
}

/// Copies SQLite's write-ahead log back into the database file as far as open readers allow,
/// waiting for no lock (a `PASSIVE` checkpoint), and reports how far it got; nothing to do on
/// PostgreSQL.
async fn checkpoint_wal(db: &Db) -> Result<Pass, StoreError> {
    let Db::Sqlite(pool) = db else {
        return Ok(Pass::default());
    };
    Ok(sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await?)
}
