//! State shared by every request handler.

use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;

use super::rate_limit::RateLimiter;
use crate::config::Config;
use crate::delivery::dispatch::Dispatcher;
use crate::domain::time::Clock;
use crate::ingest::group::IngestGroups;
use crate::store::Db;
use crate::store::count_cache::CountCache;

/// Everything a handler may need: the database, the configuration and shared counters.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub limiter: Arc<RateLimiter>,
    pub counts: Arc<CountCache>,
    pub metrics: PrometheusHandle,
    pub dispatcher: Arc<Dispatcher>,
    /// Groups concurrent signal ingests into shared transactions.
    pub ingest: IngestGroups,
    /// Wakes this process's enrichment worker when a job is accepted.
    pub enrichment_wake: Arc<tokio::sync::Notify>,
    /// What "now" is for rules of age, such as the retention of enrichment jobs.
    pub clock: Clock,
}
