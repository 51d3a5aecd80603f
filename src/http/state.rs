//! State shared by every request handler: the use cases' [`Services`] and what only the HTTP
//! edge needs.

use std::ops::Deref;
use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;

use super::rate_limit::RateLimiter;
use crate::service::Services;

/// Everything a handler may need. Dereferences to [`Services`], which handlers pass to the use
/// cases.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub limiter: Arc<RateLimiter>,
    pub metrics: PrometheusHandle,
}

impl Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}
