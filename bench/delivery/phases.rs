//! The measured phases: the receiver's own ceiling, draining a backlog durably, and paced
//! single-signal ingests with their latency and the latency to each first delivery attempt.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::bail;
use tokio::task::JoinSet;

use super::cpu::{PhaseCpu, PhaseStart};
use super::process::{Api, done_deliveries, new_ids, pending_deliveries};
use super::receiver::BenchReceiver;

/// The `p`-th percentile (0–100, nearest rank) of `samples`, in milliseconds.
pub fn percentile_ms(samples: &mut [Duration], p: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_unstable();
    let rank = ((p / 100.0) * samples.len() as f64).ceil() as usize;
    samples[rank.clamp(1, samples.len()) - 1].as_secs_f64() * 1000.0
}

/// POSTs a delivery-sized body straight at the receiver from `connections` clients for
/// `duration`; returns requests per second (what loopback HTTP allows on this machine).
pub async fn ceiling(
    receiver: &BenchReceiver,
    connections: usize,
    duration: Duration,
) -> anyhow::Result<f64> {
    let body =
        serde_json::json!({ "data": { "signal": { "id": "ceiling" }, "filler": "x".repeat(900) },
        "event_id": "e", "event_type": "funding.created", "timestamp": "t" })
        .to_string();
    let url = receiver.url(999);
    let until = Instant::now() + duration;
    let started = Instant::now();
    let mut clients = JoinSet::new();
    for _ in 0..connections {
        let client = reqwest::Client::builder().no_proxy().build()?;
        let (url, body) = (url.clone(), body.clone());
        clients.spawn(async move {
            let mut n = 0_u64;
            while Instant::now() < until {
                let sent = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await;
                if sent.is_ok_and(|r| r.status().is_success()) {
                    n += 1;
                }
            }
            n
        });
    }
    let total: u64 = clients.join_all().await.into_iter().sum();
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

/// Draining a backlog: deliveries, seconds from release to the last one recorded done.
#[derive(Debug, Clone, Copy)]
pub struct Drain {
    pub deliveries: i64,
    pub seconds: f64,
}

/// Gives the team credits again after a held phase, and times until the database holds no
/// pending delivery; then checks that `expected` more than `already` (done before the held
/// phase) are done.
pub async fn release(
    api: &Api,
    database_url: &str,
    team_id: &str,
    already: i64,
    expected: i64,
) -> anyhow::Result<Drain> {
    let released = Instant::now();
    api.set_credits(team_id, 1_000_000_000_000).await?;
    let until = released + Duration::from_secs(600);
    // Every 200 ms: a count of 100,000 pending rows takes the database 20 ms of CPU, which
    // polled more often would be a good part of one of the two CPUs the drain is measured on.
    while pending_deliveries(database_url).await? > 0 {
        if Instant::now() > until {
            bail!("the backlog was not drained within 10 minutes");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let seconds = released.elapsed().as_secs_f64();
    let done = done_deliveries(database_url).await? - already;
    if done < expected {
        bail!("the backlog drained with {done} of {expected} deliveries done");
    }
    Ok(Drain {
        deliveries: expected,
        seconds,
    })
}

/// Paced ingests of one signal each, and what became of them.
#[derive(Debug, Clone)]
pub struct Paced {
    pub rate: u32,
    pub sent: usize,
    pub accepted: usize,
    pub achieved_rate: f64,
    pub ingest_p50_ms: f64,
    pub ingest_p99_ms: f64,
    pub first_attempt_p50_ms: f64,
    pub first_attempt_p99_ms: f64,
    /// (endpoint, signal) pairs that never arrived within the wait.
    pub missing: usize,
    /// Each accepted request: when it was sent (since the phase began) and how long its answer
    /// took, in the order they were sent.
    pub requests: Vec<(Duration, Duration)>,
}

impl Paced {
    /// The requests as CSV lines: milliseconds into the phase, latency in milliseconds.
    pub fn requests_csv(&self) -> String {
        let mut csv = String::from("sent_ms,latency_ms\n");
        for (sent, latency) in &self.requests {
            csv.push_str(&format!(
                "{:.3},{:.3}\n",
                sent.as_secs_f64() * 1e3,
                latency.as_secs_f64() * 1e3
            ));
        }
        csv
    }
}

/// Sends one signal per request at `rate` a second for `duration` (open loop: a slow answer does
/// not slow the sending), spread over `apis`; then waits for every first attempt at the
/// `endpoints` endpoints (unless `held`: the team has no credits, so nothing goes out yet).
pub async fn paced(
    held: bool,
    apis: &[Api],
    receiver: &BenchReceiver,
    endpoints: u32,
    rate: u32,
    duration: Duration,
) -> anyhow::Result<Paced> {
    receiver.clear();
    let accepted: Arc<Mutex<Vec<(String, Instant, Duration)>>> = Arc::default();
    let mut ticker = tokio::time::interval(Duration::from_secs(1) / rate);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let total = (rate as f64 * duration.as_secs_f64()) as usize;
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for (i, id) in new_ids(total).into_iter().enumerate() {
        ticker.tick().await;
        let (api, accepted) = (apis[i % apis.len()].clone(), accepted.clone());
        tasks.spawn(async move {
            let sent = Instant::now();
            if api.ingest(std::slice::from_ref(&id)).await.unwrap_or(false) {
                // Measured from the request, not the answer: under load the first attempt can
                // come before the answer does.
                accepted
                    .lock()
                    .expect("lock")
                    .push((id, sent, sent.elapsed()));
            }
        });
    }
    let sending = started.elapsed();
    tasks.join_all().await;
    let accepted = std::mem::take(&mut *accepted.lock().expect("lock"));
    let wanted = accepted.len() * endpoints as usize;
    let until = Instant::now() + Duration::from_secs(if held { 0 } else { 300 });
    while receiver.distinct() < wanted && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut requests: Vec<(Duration, Duration)> = accepted
        .iter()
        .map(|(_, sent, latency)| (sent.duration_since(started), *latency))
        .collect();
    requests.sort();
    let mut ingest: Vec<Duration> = accepted.iter().map(|a| a.2).collect();
    let mut first = Vec::with_capacity(wanted);
    let mut missing = 0;
    for (id, at, _) in &accepted {
        for n in 0..endpoints {
            match receiver.arrival(n, id) {
                Some(arrival) => first.push(arrival.first.saturating_duration_since(*at)),
                None => missing += 1,
            }
        }
    }
    Ok(Paced {
        rate,
        sent: total,
        accepted: accepted.len(),
        achieved_rate: total as f64 / sending.as_secs_f64(),
        ingest_p50_ms: percentile_ms(&mut ingest, 50.0),
        ingest_p99_ms: percentile_ms(&mut ingest, 99.0),
        first_attempt_p50_ms: percentile_ms(&mut first, 50.0),
        first_attempt_p99_ms: percentile_ms(&mut first, 99.0),
        missing,
        requests,
    })
}

/// Closed-loop ingest: clients that each send the next single-signal ingest as soon as the
/// last is answered, deliveries going out (or held: the team has no credits).
#[derive(Debug, Clone)]
pub struct ClosedLoop {
    pub clients: usize,
    /// The team had no credits: the ingests queued their deliveries and nothing went out.
    pub held: bool,
    pub accepted: usize,
    pub failed: usize,
    pub per_second: f64,
    pub ingest_p50_ms: f64,
    pub ingest_p99_ms: f64,
    /// (endpoint, signal) pairs that never arrived within the wait (0 when held).
    pub missing: usize,
    /// From the end of the sending until the last first attempt arrived (0 when held).
    pub drained_after_seconds: f64,
    /// CPU from the first request until the last first attempt arrived (held: the last answer).
    pub cpu: PhaseCpu,
    /// First attempts that arrived while the clients were still sending.
    pub arrived_while_sending: usize,
    /// CPU from the first request to the last answer: what the sending shared the CPUs with.
    pub sending_cpu: PhaseCpu,
}

/// Runs `clients` closed-loop clients for `duration`, spread over `apis`, then (unless `held`)
/// waits for every first attempt at the `endpoints` endpoints; `cpu` measures the processes
/// from the first request to the end of that wait.
pub async fn closed_loop(
    apis: &[Api],
    receiver: &BenchReceiver,
    (endpoints, held): (u32, bool),
    clients: usize,
    duration: Duration,
    cpu: PhaseStart,
) -> anyhow::Result<ClosedLoop> {
    receiver.clear();
    let started = Instant::now();
    let until = started + duration;
    let mut tasks = JoinSet::new();
    for client in 0..clients {
        let api = apis[client % apis.len()].clone();
        tasks.spawn(async move {
            let (mut accepted, mut failed, mut times) = (Vec::new(), 0, Vec::new());
            while Instant::now() < until {
                let id = new_ids(1);
                let sent = Instant::now();
                if api.ingest(&id).await.unwrap_or(false) {
                    times.push(sent.elapsed());
                    accepted.extend(id);
                } else {
                    failed += 1;
                }
            }
            (accepted, failed, times)
        });
    }
    let (mut accepted, mut failed, mut times) = (Vec::new(), 0, Vec::new());
    for (a, f, t) in tasks.join_all().await {
        accepted.extend(a);
        failed += f;
        times.extend(t);
    }
    let sending = started.elapsed();
    let arrived_while_sending = receiver.distinct();
    let sending_cpu = cpu.end().await?;
    let wanted = if held {
        0
    } else {
        accepted.len() * endpoints as usize
    };
    let wait_until = Instant::now() + Duration::from_secs(300);
    while receiver.distinct() < wanted && Instant::now() < wait_until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let cpu = cpu.end().await?;
    let drained_after_seconds = (started.elapsed() - sending).as_secs_f64();
    let missing = accepted
        .iter()
        .filter(|_| !held)
        .flat_map(|id| (0..endpoints).map(move |n| (n, id)))
        .filter(|(n, id)| receiver.arrival(*n, id).is_none())
        .count();
    Ok(ClosedLoop {
        clients,
        held,
        accepted: accepted.len(),
        failed,
        per_second: accepted.len() as f64 / sending.as_secs_f64(),
        ingest_p50_ms: percentile_ms(&mut times, 50.0),
        ingest_p99_ms: percentile_ms(&mut times, 99.0),
        missing,
        drained_after_seconds,
        cpu,
        arrived_while_sending,
        sending_cpu,
    })
}
