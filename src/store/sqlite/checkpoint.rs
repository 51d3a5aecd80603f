//! The write-ahead log's checkpoints, taken off the writers' path.
//!
//! Left to itself, SQLite checkpoints in the commit that takes the log past its threshold: the
//! copy and two syncs land on whichever ingest commits then. Instead, shortly after a turn ends,
//! a task copies the log back without waiting for anyone (`PASSIVE`). That never finishes while
//! the ingest writer keeps appending, and the log only starts over once a checkpoint has caught
//! up with it; so when the log has grown long, the task copies again inside a writer's turn.
//! That last pass syncs the log's new frames and the database file, which SQLite syncs only when
//! a pass reaches the end of the log: every page the passes before it copied. So first, without
//! the turn, the task syncs the file itself and copies again, a few rounds, each shorter than
//! the one before; the turn then waits for about one round's frames and pages instead of all of
//! them. One checkpoint runs at a time.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;

use super::gate::WriteGate;
use crate::store::StoreError;

/// How long after a write the checkpoint comes.
const CHECKPOINT_DELAY: Duration = Duration::from_millis(50);

/// Log length (frames) past which a checkpoint catches up inside a writer's turn, so that the
/// log starts over: about 128 MB of 8 KiB pages, well under a second of ingest at the tuned rate.
/// SQLite's own threshold (`wal_autocheckpoint`, set where connections are opened) lies above
/// this one.
const CATCH_UP_FRAMES: i64 = 16_000;

/// Rounds without the turn before it, and the round short enough to stop at.
const MAX_ROUNDS: usize = 4;
const SHORT_ROUND: Duration = Duration::from_millis(3);

/// The scheduled checkpoint: waits a little, so that the writes meanwhile share it, then runs.
pub(super) async fn run(gate: Arc<WriteGate>) {
    tokio::time::sleep(CHECKPOINT_DELAY).await;
    let _running = gate.checkpointing.lock().await;
    // Cleared first: what is written during this checkpoint schedules the next.
    gate.due.store(false, Ordering::Release);
    if let Err(err) = checkpoint(&gate).await {
        tracing::debug!(error = %err, "checkpointing the write-ahead log failed");
    }
}

/// A `PASSIVE` checkpoint; when the log has grown long, a last pass inside a writer's turn, so
/// that it catches up and the next write starts the log over.
async fn checkpoint(gate: &WriteGate) -> Result<(), StoreError> {
    let pool = &gate.pool;
    let pass = checkpoint_wal(pool).await?;
    if pass.frames < CATCH_UP_FRAMES || pass.frames == gate.caught_up.load(Ordering::Acquire) {
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
        sync_database_file(pool).await;
        checkpoint_wal(pool).await?;
        let round = started.elapsed();
        if round <= SHORT_ROUND || round >= last_round {
            break;
        }
        last_round = round;
    }
    sync_database_file(pool).await;
    let _held = gate.bare_turn().await;
    let last = checkpoint_wal(pool).await?;
    if last.frames > 0 {
        gate.caught_up.store(last.frames, Ordering::Release);
    }
    Ok(())
}

/// Syncs the database file (the pages checkpoint passes copied into it) without anyone's turn;
/// a file that cannot be opened (an in-memory database) is left to SQLite.
async fn sync_database_file(pool: &SqlitePool) {
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

/// Copies the write-ahead log back into the database file as far as open readers allow,
/// waiting for no lock (a `PASSIVE` checkpoint), and reports how far it got.
async fn checkpoint_wal(pool: &SqlitePool) -> Result<Pass, StoreError> {
    Ok(sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await?)
}
