//! A team's usage per UTC day, for the dashboard's charts: credits charged for lists and
//! enrichment jobs, and
//! deliveries by outcome (a successful paid delivery costs one credit too). Days are UTC days
//! of 86,400,000 ms.

use std::collections::BTreeMap;

use super::{Db, StoreError};
use crate::on_db;

/// One day's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DayUsage {
    /// Credits charged: lists and enrichment jobs, plus successful paid deliveries.
    pub credits: i64,
    pub succeeded: i64,
    pub failed: i64,
}

/// (day, credits)
type CreditRow = (i64, i64);
/// (day, succeeded, failed, charged)
type DeliveryRow = (i64, i64, i64, i64);

/// The team's usage per day since `since_day` (epoch ms of a UTC midnight), keyed by day; days
/// without any usage are absent.
pub async fn daily_usage(
    db: &Db,
    team_id: &str,
    since_day: i64,
) -> Result<BTreeMap<i64, DayUsage>, StoreError> {
    let (credits, deliveries): (Vec<CreditRow>, Vec<DeliveryRow>) = on_db!(db, |pool| {
        let credits = sqlx::query_as(
            "SELECT day, credits FROM credit_usage_daily WHERE team_id = $1 AND day >= $2",
        )
        .bind(team_id)
        .bind(since_day)
        .fetch_all(pool)
        .await?;
        let deliveries = sqlx::query_as(
            "SELECT (d.created_at / 86400000) * 86400000 AS day, \
             SUM(CASE WHEN d.status = 'done' THEN 1 ELSE 0 END), \
             SUM(CASE WHEN d.status = 'failed' THEN 1 ELSE 0 END), \
             SUM(CASE WHEN d.status = 'done' AND NOT d.free THEN 1 ELSE 0 END) \
             FROM deliveries d \
             WHERE d.webhook_id IN (SELECT id FROM webhooks WHERE team_id = $1) \
             AND d.created_at >= $2 GROUP BY (d.created_at / 86400000) * 86400000",
        )
        .bind(team_id)
        .bind(since_day)
        .fetch_all(pool)
        .await?;
        Ok::<_, sqlx::Error>((credits, deliveries))
    })?;
    let mut days: BTreeMap<i64, DayUsage> = BTreeMap::new();
    for (day, used) in credits {
        days.entry(day).or_default().credits += used;
    }
    for (day, succeeded, failed, charged) in deliveries {
        let entry = days.entry(day).or_default();
        entry.succeeded += succeeded;
        entry.failed += failed;
        entry.credits += charged;
    }
    Ok(days)
}
