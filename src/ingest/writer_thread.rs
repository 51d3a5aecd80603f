//! The SQLite group writer's thread: a current-thread runtime of its own, on one core shared
//! with the thread of its database connection.
//!
//! A group's transaction is a dozen statements, each a hop from the writer to its connection's
//! thread (sqlx runs every SQLite connection on a thread of its own) and back. On a runtime
//! shared with the HTTP requests each hop back waited for a worker free of requests. On a
//! thread of its own, each hop still woke a thread asleep on another core, which on a virtual
//! machine costs an interrupt between cores and the time the sleeping core takes to resume: a
//! group of one signal took 1.3 ms, about half of it in those wake-ups. The two threads never
//! run at once (one waits for the other's answer), so on one core each hand-over is a plain
//! switch, and the same group takes 0.7 ms (BENCHMARKS.md).
//!
//! The writer's connection inherits the core because it is opened from this thread. Anything
//! else the writer's turns start (the checkpoints of `store::write_turn`, which may open pool
//! connections and sync files on blocking threads) runs on the runtime that started the
//! writer, so as not to inherit it too.

use tokio::runtime::Handle;

use crate::store::write_turn::schedule_checkpoints_on;

/// Starts `writer` on a new thread named `ingest-writer`, on a current-thread runtime of its
/// own, pinned to one core when it may run on several.
pub fn spawn<F>(writer: F) -> std::io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let starter = Handle::try_current().ok();
    std::thread::Builder::new()
        .name("ingest-writer".into())
        .spawn(move || {
            if let Some(core) = pin_to_one_core() {
                tracing::debug!(core, "the ingest writer and its connection share a core");
            }
            if let Some(starter) = starter {
                schedule_checkpoints_on(starter);
            }
            runtime.block_on(writer)
        })?;
    Ok(())
}

/// Pins the current thread to the last core it may run on, when it may run on more than one;
/// returns that core.
fn pin_to_one_core() -> Option<usize> {
    let cores = core_affinity::get_core_ids()?;
    if cores.len() < 2 {
        return None;
    }
    let last = *cores.last()?;
    core_affinity::set_for_current(last).then_some(last.id)
}
