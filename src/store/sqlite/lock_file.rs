//! Locks that processes sharing one SQLite database take on files beside it: one process at a
//! time migrates the database, one imports into it, and servers and bulk loads keep apart.
//!
//! The locks are taken on files of their own, never on the database file: SQLite's locks on
//! that file are POSIX record locks, which a process loses when it closes any descriptor of the
//! file. They are advisory (`flock`), and the operating system releases them when the process
//! ends, however it ends.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sqlx::sqlite::SqliteConnectOptions;

use super::super::StoreError;

/// How often a process waiting for the migration lock tries again.
const MIGRATION_RETRY: Duration = Duration::from_millis(50);

/// The lock file named `suffix` beside the database of `options`; `None` for an in-memory
/// database, which belongs to one process.
pub(crate) fn beside(options: &SqliteConnectOptions, suffix: &str) -> Option<PathBuf> {
    let database = options.get_filename();
    let name = database.to_str().unwrap_or_default();
    if name.is_empty() || name.starts_with(':') || name.starts_with("file:") {
        return None;
    }
    let mut lock = database.as_os_str().to_owned();
    lock.push(suffix);
    Some(PathBuf::from(lock))
}

/// Takes the lock of the file at `path` (created if missing), `shared` with other shared holders
/// or else alone, when no other process's lock keeps it from this one; `None` when one does.
pub(crate) fn try_lock(path: &Path, shared: bool) -> Result<Option<File>, StoreError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_error)?;
    let taken = if shared {
        file.try_lock_shared()
    } else {
        file.try_lock()
    };
    match taken {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(err)) => Err(io_error(err)),
    }
}

/// Held while a process migrates the database; dropping it releases the lock.
///
/// The migrator keeps no lock on SQLite (on PostgreSQL it holds an advisory lock): two processes
/// starting together on a fresh file both found migrations to apply, and the slower one failed
/// on a table or column the faster one had just created and exited. The next process now waits,
/// then finds nothing left to apply.
#[derive(Debug)]
pub(crate) struct MigrationLock {
    _file: Option<File>,
}

impl MigrationLock {
    /// Waits until no other process migrates the database of `options`, then holds the lock
    /// (`<database>-migrations.lock`).
    pub(crate) async fn acquire(options: &SqliteConnectOptions) -> Result<Self, StoreError> {
        let Some(path) = beside(options, "-migrations.lock") else {
            return Ok(MigrationLock { _file: None });
        };
        loop {
            if let Some(file) = try_lock(&path, false)? {
                return Ok(MigrationLock { _file: Some(file) });
            }
            tokio::time::sleep(MIGRATION_RETRY).await;
        }
    }
}

fn io_error(err: std::io::Error) -> StoreError {
    StoreError::Database(sqlx::Error::Io(err))
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn options(url: &str) -> SqliteConnectOptions {
        SqliteConnectOptions::from_str(url).expect("a SQLite URL")
    }

    #[test]
    fn a_lock_file_sits_beside_the_database() {
        assert_eq!(
            beside(&options("sqlite:///var/lib/sw/data.db"), "-import.lock"),
            Some(PathBuf::from("/var/lib/sw/data.db-import.lock"))
        );
    }

    #[test]
    fn an_in_memory_database_has_no_lock_file() {
        assert_eq!(beside(&options("sqlite::memory:"), "-import.lock"), None);
    }

    #[test]
    fn a_second_holder_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db-import.lock");
        let first = try_lock(&path, false).expect("lock").expect("free");
        assert!(try_lock(&path, false).expect("lock").is_none());
        drop(first);
        assert!(try_lock(&path, false).expect("lock").is_some());
    }

    #[test]
    fn shared_holders_go_together_and_keep_an_exclusive_one_out_until_the_last_lets_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db-serve.lock");
        let first = try_lock(&path, true).expect("lock").expect("free");
        let second = try_lock(&path, true).expect("lock").expect("shared");
        assert!(try_lock(&path, false).expect("lock").is_none());
        drop(first);
        assert!(try_lock(&path, false).expect("lock").is_none());
        drop(second);
        let alone = try_lock(&path, false).expect("lock").expect("free again");
        assert!(try_lock(&path, true).expect("lock").is_none());
        drop(alone);
    }
}
