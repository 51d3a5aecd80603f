//! The load drivers: one client for N rounds (latency), and N connections for a fixed time
//! (throughput). Every answer must be a 200; failures are counted and the first bodies kept.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::mix::MixRequest;

/// Failures kept verbatim for the report.
const KEPT_FAILURES: usize = 5;
/// Per-request timeout: a request slower than this counts as a failure.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// An HTTP client for loopback benchmarking: no proxy, bounded time.
pub fn client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(1)
        .timeout(REQUEST_TIMEOUT)
        .build()?)
}

/// What the drivers send requests to.
#[derive(Clone)]
pub struct Target {
    /// Base URLs of the API processes; clients are spread over them.
    pub bases: Arc<Vec<String>>,
    /// Bearer key; `None` for the operational endpoints.
    pub api_key: Option<String>,
    pub requests: Arc<Vec<MixRequest>>,
}

/// Non-200 answers and transport errors.
#[derive(Debug, Default, Clone)]
pub struct Failures {
    pub count: u64,
    pub first: Vec<String>,
}

impl Failures {
    fn record(&mut self, what: String) {
        self.count += 1;
        if self.first.len() < KEPT_FAILURES {
            self.first.push(what);
        }
    }

    fn merge(&mut self, other: Failures) {
        self.count += other.count;
        for f in other.first {
            if self.first.len() < KEPT_FAILURES {
                self.first.push(f);
            }
        }
    }
}

/// Whether an answer's `meta` says it was charged a credit (`"creditsUsed":1`).
fn charged(body: &[u8]) -> bool {
    const MARK: &[u8] = b"\"creditsUsed\":1";
    body.windows(MARK.len()).any(|w| w == MARK)
}

/// Sends `request` and reads the whole body; `Ok(true)` when the answer was charged a credit,
/// `Err` describes a failure.
async fn send(
    client: &reqwest::Client,
    target: &Target,
    base: usize,
    request: &MixRequest,
) -> Result<bool, String> {
    let base = &target.bases[base % target.bases.len()];
    let mut builder = client.get(format!("{base}{}", request.path_and_query));
    if let Some(key) = &target.api_key {
        builder = builder.bearer_auth(key);
    }
    let describe = |what: String| format!("GET {} -> {what}", request.path_and_query);
    let response = builder.send().await.map_err(|e| describe(e.to_string()))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| describe(e.to_string()))?;
    if status.as_u16() != 200 {
        let text = String::from_utf8_lossy(&body[..body.len().min(500)]).into_owned();
        return Err(describe(format!("{status}: {text}")));
    }
    Ok(charged(&body))
}

/// The team's balance, read from the `meta` of a count-only (free) list answer.
pub async fn balance(target: &Target) -> anyhow::Result<i64> {
    let request = MixRequest {
        name: "balance".into(),
        path_and_query: "/api/v2/signals/acquisitions?count=true&limit=1".into(),
    };
    let base = &target.bases[0];
    let mut builder = client()?.get(format!("{base}{}", request.path_and_query));
    if let Some(key) = &target.api_key {
        builder = builder.bearer_auth(key);
    }
    let body: serde_json::Value = builder.send().await?.error_for_status()?.json().await?;
    body["meta"]["creditsRemaining"]
        .as_i64()
        .ok_or_else(|| anyhow::anyhow!("no meta.creditsRemaining in {body}"))
}

/// The single-client phase: per request of the mix, its latencies.
pub struct Sequential {
    /// The first answer to each request after the server started (cold caches).
    pub cold: Vec<Duration>,
    pub per_request: Vec<Vec<Duration>>,
    pub rounds: u32,
    pub failures: Failures,
}

/// One warm-up round, then up to `rounds` rounds over the mix, stopping after `max_time`. With
/// several API processes the requests take turns among them.
pub async fn sequential(
    target: &Target,
    rounds: u32,
    max_time: Duration,
) -> anyhow::Result<Sequential> {
    let client = client()?;
    let mut failures = Failures::default();
    let mut cold = Vec::with_capacity(target.requests.len());
    for (i, request) in target.requests.iter().enumerate() {
        let t = Instant::now();
        if let Err(e) = send(&client, target, i, request).await {
            failures.record(format!("(warm-up) {e}"));
        }
        cold.push(t.elapsed());
    }
    let mut per_request = vec![Vec::new(); target.requests.len()];
    let started = Instant::now();
    let mut done = 0;
    while done < rounds && started.elapsed() < max_time {
        for (i, request) in target.requests.iter().enumerate() {
            let t = Instant::now();
            let result = send(&client, target, i + done as usize, request).await;
            per_request[i].push(t.elapsed());
            if let Err(e) = result {
                failures.record(e);
            }
        }
        done += 1;
    }
    Ok(Sequential {
        cold,
        per_request,
        rounds: done,
        failures,
    })
}

/// The result of a throughput phase.
pub struct Throughput {
    pub completed: u64,
    /// Answers charged a credit (`meta.creditsUsed` 1).
    pub charged: u64,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
    pub failures: Failures,
}

impl Throughput {
    /// Answers per second, failures included.
    pub fn per_second(&self) -> f64 {
        self.completed as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// `connections` clients, each with one connection to one of the API processes (spread evenly),
/// cycling through the requests (each from a different starting point) until `duration` has
/// passed.
pub async fn concurrent(
    target: &Target,
    connections: usize,
    duration: Duration,
) -> anyhow::Result<Throughput> {
    let deadline = Instant::now() + duration;
    let started = Instant::now();
    let failures = Arc::new(Mutex::new(Failures::default()));
    let mut workers = Vec::with_capacity(connections);
    for worker in 0..connections {
        let client = client()?;
        let target = target.clone();
        let failures = failures.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut charged = 0u64;
            let mut local = Failures::default();
            let n = target.requests.len();
            let mut i = worker % n;
            while Instant::now() < deadline {
                let t = Instant::now();
                match send(&client, &target, worker, &target.requests[i]).await {
                    Ok(true) => charged += 1,
                    Ok(false) => {}
                    Err(e) => local.record(e),
                }
                latencies.push(t.elapsed());
                i = (i + 1) % n;
            }
            failures.lock().expect("failures lock").merge(local);
            (latencies, charged)
        }));
    }
    let mut latencies = Vec::new();
    let mut charged = 0;
    for worker in workers {
        let (worker_latencies, worker_charged) = worker.await?;
        latencies.extend(worker_latencies);
        charged += worker_charged;
    }
    let elapsed = started.elapsed();
    let failures = failures.lock().expect("failures lock").clone();
    Ok(Throughput {
        completed: latencies.len() as u64,
        charged,
        elapsed,
        latencies,
        failures,
    })
}

/// The `p`-th percentile (0–100, nearest rank) of `samples`.
pub fn percentile(samples: &[Duration], p: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
