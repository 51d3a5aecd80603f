//! CPU time spent by the processes of a run: the signalwatch processes (their pids) and the
//! PostgreSQL backends serving the run's database (found in `pg_stat_activity`), read from
//! `/proc/PID/stat` before and after a phase. On a machine shared with other work, wall-clock
//! rates move with the load; the CPU milliseconds one delivery costs move far less. On
//! PostgreSQL the write-ahead log the phase wrote is read too (`pg_current_wal_lsn()` before
//! and after; the log is the cluster's, so the harness's database should be the only one
//! written meanwhile).

use std::collections::HashMap;

use sqlx::Connection;

/// Clock ticks per second of `/proc/PID/stat` (`getconf CLK_TCK`; 100 on Linux).
const TICKS_PER_SECOND: u64 = 100;

/// CPU ticks (user + system) per process at one moment.
#[derive(Debug, Clone, Default)]
pub struct CpuSample {
    ticks: HashMap<u32, u64>,
}

impl CpuSample {
    /// The ticks of `pids` now (processes gone are left out).
    pub fn of(pids: &[u32]) -> CpuSample {
        CpuSample {
            ticks: pids
                .iter()
                .filter_map(|pid| ticks_of(*pid).map(|t| (*pid, t)))
                .collect(),
        }
    }

    /// Milliseconds of CPU spent since `earlier` by the processes of both samples (a process
    /// that started meanwhile counts from 0; one that ended meanwhile is not counted).
    pub fn ms_since(&self, earlier: &CpuSample) -> f64 {
        let ticks: u64 = self
            .ticks
            .iter()
            .map(|(pid, now)| now.saturating_sub(earlier.ticks.get(pid).copied().unwrap_or(0)))
            .sum();
        ticks as f64 * 1000.0 / TICKS_PER_SECOND as f64
    }
}

/// User + system ticks of a process, from `/proc/PID/stat` (fields 14 and 15).
fn ticks_of(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// What PostgreSQL reports at one moment: the backends connected to the run's database, and the
/// position of its write-ahead log in bytes since its start (none and `None` on SQLite).
async fn pg_now(database_url: &str) -> anyhow::Result<(Vec<u32>, Option<u64>)> {
    if !database_url.starts_with("postgres") {
        return Ok((Vec::new(), None));
    }
    let mut conn = sqlx::PgConnection::connect(database_url).await?;
    let pids: Vec<i32> = sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
         AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut conn)
    .await?;
    let wal: i64 =
        sqlx::query_scalar("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
            .fetch_one(&mut conn)
            .await?;
    conn.close().await?;
    Ok((
        pids.into_iter().map(|p| p as u32).collect(),
        u64::try_from(wal).ok(),
    ))
}

/// CPU of the run's server processes, of its PostgreSQL backends and of the harness itself
/// (load generator and receiver) over one phase, and the bytes of write-ahead log PostgreSQL
/// wrote meanwhile (`None` on SQLite).
#[derive(Debug, Clone, Copy, Default)]
pub struct PhaseCpu {
    pub servers_ms: f64,
    pub postgres_ms: f64,
    pub harness_ms: f64,
    pub wal_bytes: Option<u64>,
}

/// Samples taken at the start of a phase.
pub struct PhaseStart {
    servers: CpuSample,
    postgres: CpuSample,
    harness: CpuSample,
    wal: Option<u64>,
    server_pids: Vec<u32>,
    database_url: String,
}

impl PhaseStart {
    /// Samples the server processes and the database's backends now.
    pub async fn now(server_pids: &[u32], database_url: &str) -> anyhow::Result<PhaseStart> {
        let (backends, wal) = pg_now(database_url).await?;
        Ok(PhaseStart {
            servers: CpuSample::of(server_pids),
            postgres: CpuSample::of(&backends),
            harness: CpuSample::of(&[std::process::id()]),
            wal,
            server_pids: server_pids.to_vec(),
            database_url: database_url.to_string(),
        })
    }

    /// The CPU spent since the start.
    pub async fn end(&self) -> anyhow::Result<PhaseCpu> {
        let (backends, wal) = pg_now(&self.database_url).await?;
        Ok(PhaseCpu {
            servers_ms: CpuSample::of(&self.server_pids).ms_since(&self.servers),
            postgres_ms: CpuSample::of(&backends).ms_since(&self.postgres),
            harness_ms: CpuSample::of(&[std::process::id()]).ms_since(&self.harness),
            wal_bytes: self
                .wal
                .zip(wal)
                .map(|(start, end)| end.saturating_sub(start)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_cpu_ticks_and_a_sample_never_goes_back() {
        let me = std::process::id();
        let before = CpuSample::of(&[me]);
        let mut spin = 0u64;
        for i in 0..5_000_000u64 {
            spin = spin.wrapping_add(i * i);
        }
        assert!(spin > 0);
        let after = CpuSample::of(&[me]);
        assert!(after.ms_since(&before) >= 0.0);
        assert!(before.ticks.contains_key(&me));
    }
}
