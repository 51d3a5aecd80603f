//! A team's usage as its members see it: balance, subscription, rate limit, and 30 days of
//! credits used and deliveries by outcome.

use super::teams::{TeamOut, get_team};
use super::{ServiceError, Services, TeamContext};
use crate::domain::time::{DAY_MS, now_ms};
use crate::store::usage::daily_usage;

pub use crate::store::usage::DayUsage;

/// How many days the charts cover, today included.
pub const USAGE_DAYS: i64 = 30;

/// The usage page's figures.
#[derive(Debug, Clone)]
pub struct Usage {
    pub team: TeamOut,
    /// One entry per day, oldest first, `USAGE_DAYS` of them: (UTC midnight in ms, figures).
    pub days: Vec<(i64, DayUsage)>,
}

/// The team's usage over the last 30 days.
pub async fn usage(services: &Services, ctx: &TeamContext) -> Result<Usage, ServiceError> {
    let team = get_team(
        &services.db,
        ctx.team(),
        services.config.rate_limit_per_minute,
    )
    .await?;
    let today = now_ms().div_euclid(DAY_MS) * DAY_MS;
    let first = today - (USAGE_DAYS - 1) * DAY_MS;
    let found = daily_usage(&services.db, ctx.team(), first).await?;
    let days = (0..USAGE_DAYS)
        .map(|n| {
            let day = first + n * DAY_MS;
            (day, found.get(&day).copied().unwrap_or_default())
        })
        .collect();
    Ok(Usage { team, days })
}
