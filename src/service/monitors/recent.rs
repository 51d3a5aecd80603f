//! A monitor's recent signals, for the dashboard's monitor page.

use super::find;
use crate::service::{ServiceError, Services, TeamContext};
use crate::store::monitor_signals::{self, RecentSignal};

/// How many recent signals a monitor's page shows.
const RECENT_LIMIT: i64 = 20;

/// The newest signals of the monitor's companies, of the monitor's signal types.
pub async fn recent_signals(
    services: &Services,
    ctx: &TeamContext,
    id: &str,
) -> Result<Vec<RecentSignal>, ServiceError> {
    let row = find(&services.db, ctx, id).await?;
    let types = super::stored_types(&row)?;
    let kinds: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    Ok(monitor_signals::recent_signals(&services.db, ctx.team(), id, &kinds, RECENT_LIMIT).await?)
}
