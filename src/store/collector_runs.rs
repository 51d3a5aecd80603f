//! The figures of each collector's last pass.

use sqlx::FromRow;

use super::{Db, StoreError};
use crate::{on_db, on_tx};

/// One collector's last pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct RunRow {
    pub name: String,
    pub last_run_at: Option<i64>,
    pub last_error: Option<String>,
    pub sources_checked: i64,
    pub items_seen: i64,
    pub signals_created: i64,
}

/// Every collector's last pass, by name.
pub async fn runs(db: &Db) -> Result<Vec<RunRow>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as(
        "SELECT name, last_run_at, last_error, sources_checked, items_seen, signals_created \
         FROM collector_runs ORDER BY name"
    )
    .fetch_all(pool)
    .await)?)
}

/// Records a pass that just ended.
pub async fn record_run(db: &Db, run: &RunRow) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO collector_runs (name, last_run_at, last_error, sources_checked, \
             items_seen, signals_created) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (name) DO UPDATE SET last_run_at = excluded.last_run_at, \
             last_error = excluded.last_error, sources_checked = excluded.sources_checked, \
             items_seen = excluded.items_seen, signals_created = excluded.signals_created"
        )
        .bind(&run.name)
        .bind(run.last_run_at)
        .bind(&run.last_error)
        .bind(run.sources_checked)
        .bind(run.items_seen)
        .bind(run.signals_created)
        .execute(conn)
        .await
        .map(|_| ()))?;
        Ok(())
    })
    .await
}
