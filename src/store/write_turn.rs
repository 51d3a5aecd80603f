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
//! log has grown long, the task copies again inside a writer's turn. That last pass syncs the
//! log's new frames and the database file, which SQLite syncs only when a pass reaches the end
//! of the log: every page the passes before it copied. So first, without the turn, the task
//! syncs the file itself and copies again, a few rounds, each shorter than the one before; the
//! turn then waits for about one round's frames and pages. Under 1,000 ingested signals a
//! second the turn was held 17–25 ms without those rounds and 7–11 ms with them, on a virtual
//! disk where a sync costs several milliseconds (BENCHMARKS.md). One checkpoint runs at a time.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::{Mutex, MutexGuard};

use super::{Db, StoreError};

static SQLITE_WRITERS: Mutex<()> = Mutex::const_new(());

/// Set while a checkpoint is due: the writes meanwhile share it.
static CHECKPOINT_DUE: AtomicBool = AtomicBool::new(false);

/// Held while a checkpoint runs: one at a time.
static CHECKPOINTING: Mutex<()> = Mutex::const_new(());

/// How long after a write the checkpoint comes.
const CHECKPOINT_DELAY: Duration = Duration::from_millis(50);

/// Log length (frames) past which a checkpoint catches up inside a writer's turn, so that the
/// log starts over: about 64 MB of 4 KB pages, some 0.6 s of ingest at 1,000 signals a second
/// (about 25,000 frames a second measured). SQLite's own threshold (`wal_autocheckpoint`, set
/// where connections are opened) lies above this one.
const CATCH_UP_FRAMES: i64 = 16_000;

/// Rounds without the turn before it, and the round short enough to stop at.
const MAX_ROUNDS: usize = 4;
const SHORT_ROUND: Duration = Duration::from_millis(3);

/// The log's length when the last catch-up ended: until a write starts the log over, a pass
/// still reports that length, and there is nothing to catch up with.
static CAUGHT_UP: AtomicI64 = AtomicI64::new(0);

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

thread_local! {
    /// Where the turns taken on this thread schedule their checkpoints, when not on the
    /// thread's own runtime.
    static CHECKPOINT_RUNTIME: RefCell<Option<Handle>> = const { RefCell::new(None) };
}

/// Makes the turns taken on the current thread schedule their checkpoints on `runtime`.
pub fn schedule_checkpoints_on(runtime: Handle) {
    CHECKPOINT_RUNTIME.set(Some(runtime));
}

/// Schedules a checkpoint of `db` unless one is already due.
fn schedule_checkpoint(db: &Db) {
    let runtime = CHECKPOINT_RUNTIME.with_borrow(Clone::clone);
    let Some(runtime) = runtime.or_else(|| Handle::try_current().ok()) else {
        return;
    };
    if CHECKPOINT_DUE.swap(true, Ordering::AcqRel) {
        return;
    }
    let db = db.clone();
    runtime.spawn(async move {
        tokio::time::sleep(CHECKPOINT_DELAY).await;
        let _running = CHECKPOINTING.lock().await;
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
    let pass = checkpoint_wal(db).await?;
    if pass.frames < CATCH_UP_FRAMES || pass.frames == CAUGHT_UP.load(Ordering::Acquire) {
        return Ok(());
    }
    // The pass inside the turn syncs the log's frames it has not synced yet, and the database
    // file, whose pages every earlier pass copied without syncing (SQLite syncs the file only
    // when a pass reaches the end of the log). Rounds without the turn leave it less of both:
    // each syncs the file, then copies (and syncs) what was appended meanwhile, and is shorter
    // than the one before, until it is short or stops shrinking.
    let mut last_round = Duration::MAX;
    for _ in 0..MAX_ROUNDS {
        let started = Instant::now();
        sync_database_file(db).await;
        checkpoint_wal(db).await?;
        let round = started.elapsed();
        if round <= SHORT_ROUND || round >= last_round {
            break;
        }
        last_round = round;
    }
    sync_database_file(db).await;
    let _held = SQLITE_WRITERS.lock().await;
    let last = checkpoint_wal(db).await?;
    if last.frames > 0 {
        CAUGHT_UP.store(last.frames, Ordering::Release);
    }
    Ok(())
}

/// Syncs the database file (the pages checkpoint passes copied into it) without anyone's turn;
/// a file that cannot be opened (an in-memory database) is left to SQLite.
async fn sync_database_file(db: &Db) {
    let Db::Sqlite(pool) = db else {
        return;
    };
    let path = pool.connect_options().get_filename().to_path_buf();
    let synced = tokio::task::spawn_blocking(move || std::fs::File::open(path)?.sync_data()).await;
    if let Ok(Err(err)) = synced {
        tracing::debug!(error = %err, "syncing the database file failed");
    }
}

/// What a checkpoint pass reports.
#[derive(Debug, Clone, Copy, Default, sqlx::FromRow)]
struct Pass {
    /// Frames in the log (-1 when the pass could not run).
    #[sqlx(rename = "log")]
    frames: i64,
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
