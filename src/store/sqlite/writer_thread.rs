//! The thread of a handle's busiest writer: a current-thread runtime of its own, on one core
//! shared with the thread of its database connection.
//!
//! A group's transaction is a dozen statements, each a hop from the writer to its connection's
//! thread (sqlx runs every SQLite connection on a thread of its own) and back. On a runtime
//! shared with the HTTP requests each hop back waited for a worker free of requests. On a
//! thread of its own, each hop still woke a thread asleep on another core, which on a virtual
//! machine costs an interrupt between cores and the time the sleeping core takes to resume:
//! about half of a small group's time went to those wake-ups. The two threads never run at once
//! (one waits for the other's answer), so on one core each hand-over is a plain switch.
//!
//! The writer's connection inherits the core because it is opened from this thread. Anything
//! else the writer's turns start (the checkpoints, which may open pool connections and sync
//! files on blocking threads) runs on the runtime captured by the write gate, so as not to
//! inherit it too.

use std::sync::{Arc, Mutex};

/// Starts `writer` on a new thread named `name`, on a current-thread runtime of its own, pinned
/// to one core when it may run on several; gives `writer` back when the thread cannot start.
pub(crate) fn spawn<F>(name: &str, writer: F) -> Result<(), (std::io::Error, F)>
where
    F: Future<Output = ()> + Send + 'static,
{
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => return Err((err, writer)),
    };
    // The thread takes the writer from here; if it cannot start, the writer is still here.
    let slot = Arc::new(Mutex::new(Some(writer)));
    let theirs = slot.clone();
    let started = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let Some(writer) = theirs.lock().ok().and_then(|mut w| w.take()) else {
                return;
            };
            if let Some(core) = pin_to_one_core() {
                tracing::debug!(core, "the writer and its connection share a core");
            }
            runtime.block_on(writer)
        });
    match started {
        Ok(_) => Ok(()),
        Err(err) => match slot.lock().ok().and_then(|mut w| w.take()) {
            Some(writer) => Err((err, writer)),
            None => Ok(()),
        },
    }
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
