//! SQLite's own memory on mimalloc, without SQLite's memory statistics.
//!
//! The SQLite library linked into the process allocates through the C library's `malloc` unless
//! told otherwise, with a size header of its own on every block, and while its memory
//! statistics are on it takes one global mutex around every allocation and free. [`install`]
//! hands SQLite mimalloc's functions, which know each block's size themselves, and turns the
//! statistics off (so `sqlite3_memory_used` and a soft heap limit no longer work: set none).
//!
//! SQLite takes its memory functions only before it first initializes (its first connection),
//! so [`install`] must run before any connection of the process opens; after that SQLite
//! refuses, [`install`] says so, and SQLite keeps the C library's: slower, never wrong.
//!
//! [`keep_freed_memory`] sets the one mimalloc option the project changes, for a process that
//! allocates and frees at a steady rate (a bulk load).
//!
//! This is the project's only unsafe code, kept in a crate of its own.

use std::ffi::{c_int, c_void};
use std::fmt;
use std::sync::OnceLock;

use libsqlite3_sys as sqlite;

/// SQLite refused the settings: it was initialized already. The codes SQLite returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// What `SQLITE_CONFIG_MEMSTATUS` returned.
    pub statistics: i32,
    /// What `SQLITE_CONFIG_MALLOC` returned.
    pub allocator: i32,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SQLite was initialized before its memory functions could be set (codes {} and {}): \
             it keeps the memory functions it started with",
            self.statistics, self.allocator
        )
    }
}

impl std::error::Error for Refused {}

/// Gives SQLite mimalloc's functions and turns its memory statistics off. Runs once per
/// process; later calls return the first one's outcome.
pub fn install() -> Result<(), Refused> {
    static OUTCOME: OnceLock<Result<(), Refused>> = OnceLock::new();
    *OUTCOME.get_or_init(configure)
}

fn configure() -> Result<(), Refused> {
    let methods = sqlite::sqlite3_mem_methods {
        xMalloc: Some(allocate),
        xFree: Some(free),
        xRealloc: Some(reallocate),
        xSize: Some(size),
        xRoundup: Some(round_up),
        xInit: Some(init),
        xShutdown: Some(shutdown),
        pAppData: std::ptr::null_mut(),
    };
    // SAFETY: `sqlite3_config` may not run beside any other SQLite call of the process: the
    // `OnceLock` runs this once, and the caller's contract is to call `install` before the
    // process's first connection. SQLite copies `methods` before the call returns. The
    // functions given keep SQLite's contract for them: 8-byte aligned blocks, `xFree` of null a
    // no-op, `xSize` asked of live blocks only.
    let (statistics, allocator) = unsafe {
        (
            sqlite::sqlite3_config(sqlite::SQLITE_CONFIG_MEMSTATUS, 0 as c_int),
            sqlite::sqlite3_config(
                sqlite::SQLITE_CONFIG_MALLOC,
                &raw const methods as *const c_void,
            ),
        )
    };
    if statistics == sqlite::SQLITE_OK && allocator == sqlite::SQLITE_OK {
        Ok(())
    } else {
        Err(Refused {
            statistics,
            allocator,
        })
    }
}

/// mimalloc's `mi_option_purge_delay` (its place in `mi_option_e` of `mimalloc.h`, the same in
/// mimalloc 2 and 3; `libmimalloc-sys` names no constant for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Makes mimalloc keep the memory the process frees for its next allocations, instead of handing
/// it back to the operating system after its purge delay (1 s in the mimalloc 3 linked here),
/// which clears each page again when the process asks for memory anew. The process then holds
/// what it held at its peak.
pub fn keep_freed_memory() {
    // SAFETY: `mi_option_set` has no precondition; mimalloc reads the option each time it
    // decides whether to purge.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) }
}

/// A block of `bytes` (SQLite never asks for less than one byte; a null answers any such
/// request, as SQLite's own allocator does).
extern "C" fn allocate(bytes: c_int) -> *mut c_void {
    match usize::try_from(bytes) {
        // SAFETY: mimalloc's `malloc` has no precondition.
        Ok(bytes) if bytes > 0 => unsafe { libmimalloc_sys::mi_malloc(bytes) },
        _ => std::ptr::null_mut(),
    }
}

extern "C" fn free(block: *mut c_void) {
    // SAFETY: SQLite frees null or a block `allocate` or `reallocate` returned and not freed
    // since, both of which mimalloc's `free` takes.
    unsafe { libmimalloc_sys::mi_free(block) }
}

extern "C" fn reallocate(block: *mut c_void, bytes: c_int) -> *mut c_void {
    let bytes = usize::try_from(bytes).unwrap_or(0);
    // SAFETY: SQLite resizes live blocks of this allocator only (mimalloc would allocate for a
    // null).
    unsafe { libmimalloc_sys::mi_realloc(block, bytes) }
}

extern "C" fn size(block: *mut c_void) -> c_int {
    // SAFETY: SQLite asks the size of live blocks of this allocator only.
    let bytes = unsafe { libmimalloc_sys::mi_usable_size(block) };
    c_int::try_from(bytes).unwrap_or(c_int::MAX)
}

extern "C" fn round_up(bytes: c_int) -> c_int {
    let bytes = usize::try_from(bytes).unwrap_or(0);
    // SAFETY: mimalloc's size rounding has no precondition.
    let rounded = unsafe { libmimalloc_sys::mi_good_size(bytes) };
    c_int::try_from(rounded).unwrap_or(c_int::MAX)
}

extern "C" fn init(_: *mut c_void) -> c_int {
    sqlite::SQLITE_OK
}

extern "C" fn shutdown(_: *mut c_void) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mimalloc_keeps_freed_memory_once_told_to() {
        // SAFETY: `mi_option_get` has no precondition.
        let delay = || unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        // The option set is the purge delay: mimalloc 3's default of 1,000 ms, unless the
        // environment sets it.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(delay(), 1_000);
        }
        keep_freed_memory();
        assert_eq!(delay(), -1);
    }

    #[test]
    fn sqlite_allocates_through_mimalloc_once_installed_and_refuses_after_it_started() {
        assert_eq!(install(), Ok(()));
        // SAFETY: after `install`, SQLite's `malloc` and `free` are safe to call; the block is
        // written within its size and freed once.
        unsafe {
            let block = sqlite::sqlite3_malloc(100).cast::<u8>();
            assert!(!block.is_null());
            std::ptr::write_bytes(block, 7, 100);
            // mimalloc's own size of the block: SQLite asked mimalloc for it.
            assert!(libmimalloc_sys::mi_usable_size(block.cast()) >= 100);
            assert!(sqlite::sqlite3_msize(block.cast()) >= 100);
            sqlite::sqlite3_free(block.cast());
            assert_eq!(sqlite::sqlite3_initialize(), sqlite::SQLITE_OK);
        }
        // A second call returns the first one's outcome, without touching SQLite again.
        assert_eq!(install(), Ok(()));
        // Once SQLite has started, it refuses the settings and keeps the ones it has.
        let refused = configure().expect_err("SQLite started already");
        assert_eq!(refused.allocator, sqlite::SQLITE_MISUSE);
        assert!(
            refused
                .to_string()
                .contains("keeps the memory functions it started with")
        );
    }
}
