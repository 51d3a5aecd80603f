//! One import of a database at a time.
//!
//! A bulk load leaves a mark in the database while it runs (`bulk_loads`), and an import that
//! finds the mark starts the load over, deleting what it had loaded: the mark cannot tell a load
//! still running from one that stopped half-way. So every import holds this lock, exclusively,
//! from its start to its end. An import that finds it held waits; one that then finds the mark
//! knows the load that left it is gone.

use super::process_lock::{HeldLock, LockName, Mode, try_take};
use super::{Db, StoreError};

/// The lock of imports: `<database>-import.lock` beside a SQLite file; an advisory lock on
/// PostgreSQL.
const IMPORTS: LockName = LockName {
    file_suffix: "-import.lock",
    advisory_key: 0x5357_494d_504f_5254,
};

/// The lock of a running import; dropping it (or releasing it) lets the next import go.
pub type ImportLock = HeldLock;

/// Takes the import lock of `db` when no other import holds it; `None` when one does.
pub async fn try_lock(db: &Db) -> Result<Option<ImportLock>, StoreError> {
    try_take(db, IMPORTS, Mode::Exclusive).await
}
