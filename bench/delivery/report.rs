//! The delivery suite's markdown: one row per backend/topology, figures beside their targets.

use super::cpu::PhaseCpu;
use super::crash::CrashLoop;
use super::phases::{ClosedLoop, Drain, Paced};

/// Everything measured on one backend/topology.
pub struct Figures {
    pub name: String,
    pub ceiling: f64,
    /// Draining what the held phase queued.
    pub drain: Drain,
    /// CPU the servers and PostgreSQL spent on the drain.
    pub drain_cpu: PhaseCpu,
    /// Ingests while the team had no credits: ingest and fan-out alone.
    pub held: Paced,
    /// CPU the servers and PostgreSQL spent on the held ingests.
    pub held_cpu: PhaseCpu,
    /// Ingests with deliveries going out, at the paced rates.
    pub live: Vec<Paced>,
    /// Closed-loop ingest clients, deliveries going out.
    pub closed: Vec<ClosedLoop>,
    pub crash: Option<CrashLoop>,
    /// 1-minute load average at the end.
    pub load: String,
}

/// The report: the command, then the tables.
pub fn render(command: &str, rows: &[Figures]) -> String {
    let mut text = format!("Command: `{command}`\n\n");
    text.push_str(
        "| run | durable deliveries/s (target ≥ 5,000) | loopback POST ceiling/s | ingest with \
         fan-out to 10, deliveries held: rate, p50, p99 (target p99 ≤ 10 ms at 1,000/s) | load avg |\n\
         |---|---|---|---|---|\n",
    );
    for f in rows {
        let per_second = f.drain.deliveries as f64 / f.drain.seconds;
        text.push_str(&format!(
            "| {} | {:.0} ({} in {:.1} s, {:.0} % of ceiling) | {:.0} | {} | {} |\n",
            f.name,
            per_second,
            f.drain.deliveries,
            f.drain.seconds,
            100.0 * per_second / f.ceiling,
            f.ceiling,
            ingest(&f.held),
            f.load,
        ));
    }
    text.push_str(
        "\n| run | CPU-ms per 1,000 deliveries drained: servers / PostgreSQL | CPU-ms per 1,000 \
         signals ingested with fan-out to 10 (held): servers / PostgreSQL | PostgreSQL \
         write-ahead log: bytes per delivery drained / per signal ingested |\n|---|---|---|---|\n",
    );
    for f in rows {
        let drained = f.drain.deliveries as usize;
        text.push_str(&format!(
            "| {} | {:.0} / {:.0} | {:.0} / {:.0} | {} |\n",
            f.name,
            per(f.drain_cpu.servers_ms, drained),
            per(f.drain_cpu.postgres_ms, drained),
            per(f.held_cpu.servers_ms, f.held.accepted),
            per(f.held_cpu.postgres_ms, f.held.accepted),
            wal_per_unit(
                f.drain_cpu.wal_bytes,
                drained,
                f.held_cpu.wal_bytes,
                f.held.accepted
            ),
        ));
    }
    text.push_str(
        "\n| run | signals/s × 10 endpoints, deliveries going out | ingest: sent/s, accepted, \
         p50, p99 | ingest request sent → first attempt p50 / p99 (targets for accept → first attempt: 10 / 50 ms) |\n|---|---|---|---|\n",
    );
    for f in rows {
        for p in &f.live {
            text.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                f.name,
                p.rate,
                ingest(p),
                first_attempt(p)
            ));
        }
    }
    text.push_str(
        "\n| run | closed-loop ingest clients (one signal per request, fan-out to 10) | \
         deliveries | events/s | failed | ingest p50 / p99 | first attempts after the sending | \
         CPU-ms per 1,000 events, until the last first attempt (held: the last answer): \
         servers / PostgreSQL / harness | while sending: first attempts arrived; CPU-ms per \
         1,000 events, servers / PostgreSQL |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for f in rows {
        for c in &f.closed {
            text.push_str(&format!(
                "| {} | {} | {} | {:.0} ({} accepted) | {} | {:.1} / {:.1} ms | {} | {:.0} / {:.0} / {:.0} | {}; {:.0} / {:.0} |\n",
                f.name,
                c.clients,
                if c.held { "held" } else { "going out" },
                c.per_second,
                c.accepted,
                c.failed,
                c.ingest_p50_ms,
                c.ingest_p99_ms,
                match (c.held, c.missing) {
                    (true, _) => "none sent".to_string(),
                    (false, 0) => format!("all arrived {:.1} s later", c.drained_after_seconds),
                    (false, n) => format!(
                        "{n} never arrived ({:.0} s waited)",
                        c.drained_after_seconds
                    ),
                },
                per(c.cpu.servers_ms, c.accepted),
                per(c.cpu.postgres_ms, c.accepted),
                per(c.cpu.harness_ms, c.accepted),
                c.arrived_while_sending,
                per(c.sending_cpu.servers_ms, c.accepted),
                per(c.sending_cpu.postgres_ms, c.accepted),
            ));
        }
    }
    text.push_str(
        "\n| run | kill -9 | accepted signals × 2 endpoints | lost | repeats (same event id) | \
         delivered pairs / credits spent | recovery after the last restart |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for f in rows {
        if let Some(c) = &f.crash {
            text.push_str(&format!(
                "| {} | {} | {} | **{}** | {} | {} / {} | {:.1} s |\n",
                f.name,
                c.kills,
                c.accepted_signals,
                c.lost,
                c.repeats,
                c.delivered,
                c.credits_spent,
                c.recovery_seconds
            ));
        }
    }
    text
}

fn ingest(p: &Paced) -> String {
    format!(
        "{}/s asked, {:.0}/s sent, {} of {} accepted; p50 {:.1} ms, p99 {:.1} ms",
        p.rate, p.achieved_rate, p.accepted, p.sent, p.ingest_p50_ms, p.ingest_p99_ms
    )
}

fn first_attempt(p: &Paced) -> String {
    let missing = if p.missing > 0 {
        format!(" ({} never arrived)", p.missing)
    } else {
        String::new()
    };
    format!(
        "{:.1} / {:.1} ms{missing}",
        p.first_attempt_p50_ms, p.first_attempt_p99_ms
    )
}

/// The log's bytes per delivery drained and per signal ingested; a dash where nothing was
/// measured (SQLite, whose log this harness does not read, or no unit).
fn wal_per_unit(
    drain_bytes: Option<u64>,
    drained: usize,
    held_bytes: Option<u64>,
    ingested: usize,
) -> String {
    let each = |bytes: Option<u64>, n: usize| match (bytes, n) {
        (Some(bytes), 1..) => format!("{:.0}", bytes as f64 / n as f64),
        _ => "—".to_string(),
    };
    format!(
        "{} / {}",
        each(drain_bytes, drained),
        each(held_bytes, ingested)
    )
}

/// CPU milliseconds per 1,000 of `n` things (NaN for none).
fn per(ms: f64, n: usize) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        ms * 1000.0 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::wal_per_unit;

    #[test]
    fn the_log_is_divided_per_unit_and_a_dash_stands_where_nothing_was_measured() {
        assert_eq!(
            wal_per_unit(Some(142_000), 100, Some(11_300), 1),
            "1420 / 11300"
        );
        assert_eq!(wal_per_unit(None, 100, None, 10), "— / —");
        assert_eq!(wal_per_unit(Some(5_000), 0, Some(300), 3), "— / 100");
    }
}
