//! A worker process's CPU priority (`--worker-niceness`). Sending deliveries, research and
//! enrichment can wait, durably queued; accepting signals cannot (an ingest refused or slowed is
//! the client's problem, a delivery queued is ours, and keeps). On a machine shared with API
//! processes, a worker at a higher niceness lets them go first while a burst lasts; where it
//! runs alone, niceness changes nothing. Linux keeps niceness per thread, and a thread starts
//! with its creator's: every thread running now is set, and the ones started later follow.

/// Sets every thread of this process to `niceness` (nothing for 0); a thread that cannot be set
/// is logged and left as it is.
pub fn lower(niceness: u8) {
    if niceness == 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let threads = match std::fs::read_dir("/proc/self/task") {
            Ok(threads) => threads,
            Err(err) => {
                tracing::warn!(error = %err, "cannot list the process's threads to lower their priority");
                return;
            }
        };
        for thread in threads.flatten() {
            let Some(tid) = thread
                .file_name()
                .to_str()
                .and_then(|name| name.parse::<i32>().ok())
                .and_then(rustix::process::Pid::from_raw)
            else {
                continue;
            };
            if let Err(err) = rustix::process::setpriority_process(Some(tid), i32::from(niceness)) {
                tracing::warn!(error = %err, "cannot lower a thread's priority");
            }
        }
    }
}
