//! The operator's control of the collectors: their state, and a pass run on demand.

use super::{ServiceError, Services};
use crate::collectors::CollectorStatus;
use crate::collectors::sec_pass::SecPassError;
use crate::config::SEC_FORM_D;
use crate::domain::job_board::Provider;

/// Every collector with the figures of its last pass.
pub async fn list(services: &Services) -> Result<Vec<CollectorStatus>, ServiceError> {
    Ok(services.collectors.statuses(&services.db).await?)
}

/// Runs one pass of the collector `name` now, over all of its boards, and returns its figures
/// when it ends. An unknown name is "not found".
pub async fn run(services: &Services, name: &str) -> Result<CollectorStatus, ServiceError> {
    if name == SEC_FORM_D {
        let sec = services.collectors.sec();
        return sec
            .run(&services.db, &services.dispatcher, true)
            .await
            .map_err(|error| match error {
                SecPassError::NoUserAgent => ServiceError::Conflict(error.to_string()),
                SecPassError::Store(error) => ServiceError::Store(error),
            });
    }
    let provider = Provider::parse(name).ok_or_else(|| {
        ServiceError::NotFound(format!(
            "Unknown collector {name:?}: use greenhouse, lever, ashby or sec-form-d"
        ))
    })?;
    Ok(services
        .collectors
        .run_pass(&services.db, &services.dispatcher, provider, true)
        .await?)
}
