//! SQLite's own memory on the process's allocator (mimalloc), without SQLite's memory
//! statistics (the `sqlite-memory` crate, which holds the project's only unsafe code).
//!
//! With the C library's `malloc`, a size header on every block and a global mutex around every
//! allocation and free (SQLite's statistics), a bulk load's writer thread spent about a sixth
//! of its time allocating (BENCHMARKS.md). SQLite takes its memory functions only before its
//! first connection opens, so every connection of the service opens after [`install`]
//! (`SqliteDb::connect`).

use std::sync::Once;

/// Gives SQLite mimalloc's functions once per process; warns when SQLite had started already
/// and keeps its own.
pub(crate) fn install() {
    static TOLD: Once = Once::new();
    if let Err(refused) = sqlite_memory::install() {
        TOLD.call_once(|| tracing::warn!("{refused}"));
    }
}
