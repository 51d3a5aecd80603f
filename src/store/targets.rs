//! Targets: the domains and LinkedIn pages a monitor watches, and their resolution to companies.

use std::collections::HashMap;

use sqlx::FromRow;

use super::{Db, StoreError, Tx, placeholders};
use crate::domain::target::TargetKind;
use crate::domain::time::now_ms;
use crate::{on_db, on_tx};

/// A target as shown to clients: with its company and that company's latest signal.
#[derive(Debug, Clone, FromRow)]
pub struct TargetView {
    pub id: String,
    pub monitor_id: String,
    pub kind: String,
    pub value: String,
    pub company_id: Option<String>,
    pub resolved_at: Option<i64>,
    pub created_at: i64,
    pub company_name: Option<String>,
    pub company_slug: Option<String>,
    pub company_domain: Option<String>,
    pub company_industry: Option<String>,
    pub company_country: Option<String>,
    pub last_signal_type: Option<String>,
    pub last_signal_at: Option<i64>,
    /// Why the last look-up of a pending target's website failed.
    pub research_error: Option<String>,
}

/// A target about to be stored.
#[derive(Debug, Clone)]
pub struct NewTarget {
    pub id: String,
    pub monitor_id: String,
    pub team_id: String,
    pub kind: TargetKind,
    pub value: String,
    pub registrable_domain: Option<String>,
    pub company_id: Option<String>,
    pub created_at: i64,
}

/// Which targets a listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    All,
    Resolved,
    Pending,
}

const VIEW_SELECT: &str = "SELECT t.id, t.monitor_id, t.kind, t.value, t.company_id, \
     t.resolved_at, t.created_at, c.name AS company_name, c.slug AS company_slug, \
     c.domain AS company_domain, c.industry AS company_industry, \
     c.headquarters_country AS company_country, \
     (SELECT sc.kind FROM signal_companies sc WHERE sc.company_id = t.company_id \
      ORDER BY sc.occurred_at DESC, sc.signal_id DESC LIMIT 1) AS last_signal_type, \
     (SELECT MAX(sc.occurred_at) FROM signal_companies sc WHERE sc.company_id = t.company_id) \
      AS last_signal_at, t.research_error \
     FROM targets t LEFT JOIN companies c ON c.id = t.company_id";

/// Number of targets across all of a team's monitors.
pub async fn count_team_targets(tx: &mut Tx, team_id: &str) -> Result<i64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM targets WHERE team_id = $1"
    )
    .bind(team_id)
    .fetch_one(conn)
    .await)?)
}

/// The ids of the monitor's targets whose value is one of `values`, keyed by value.
pub async fn ids_by_value(
    tx: &mut Tx,
    monitor_id: &str,
    values: &[String],
) -> Result<HashMap<String, String>, StoreError> {
    if values.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT value, id FROM targets WHERE monitor_id = $1 AND value IN ({})",
        placeholders(2, values.len())
    );
    let rows: Vec<(String, String)> = on_tx!(tx, |conn| {
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(monitor_id);
        for value in values {
            query = query.bind(value);
        }
        query.fetch_all(conn).await
    })?;
    Ok(rows.into_iter().collect())
}

/// Which of `ids` are targets of the monitor.
pub async fn existing_ids(
    tx: &mut Tx,
    monitor_id: &str,
    ids: &[String],
) -> Result<Vec<String>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id FROM targets WHERE monitor_id = $1 AND id IN ({})",
        placeholders(2, ids.len())
    );
    Ok(on_tx!(tx, |conn| {
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(monitor_id);
        for id in ids {
            query = query.bind(id);
        }
        query.fetch_all(conn).await
    })?)
}

/// Stores a new target.
pub async fn insert_target(tx: &mut Tx, t: &NewTarget) -> Result<(), StoreError> {
    let resolved_at = t.company_id.as_ref().map(|_| t.created_at);
    on_tx!(tx, |conn| sqlx::query(
        "INSERT INTO targets (id, monitor_id, team_id, kind, value, registrable_domain, \
         company_id, resolved_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    )
    .bind(&t.id)
    .bind(&t.monitor_id)
    .bind(&t.team_id)
    .bind(t.kind.as_str())
    .bind(&t.value)
    .bind(&t.registrable_domain)
    .bind(&t.company_id)
    .bind(resolved_at)
    .bind(t.created_at)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Number of distinct companies the monitor's resolved targets point at.
pub async fn count_resolved_companies(tx: &mut Tx, monitor_id: &str) -> Result<i64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(DISTINCT company_id) FROM targets WHERE monitor_id = $1"
    )
    .bind(monitor_id)
    .fetch_one(conn)
    .await)?)
}

fn status_clause(status: StatusFilter) -> &'static str {
    match status {
        StatusFilter::All => "",
        StatusFilter::Resolved => " AND t.company_id IS NOT NULL",
        StatusFilter::Pending => " AND t.company_id IS NULL",
    }
}

/// One page of a monitor's targets, newest first, with the total matching the filter.
pub async fn list_targets(
    db: &Db,
    team_id: &str,
    monitor_id: &str,
    status: StatusFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<TargetView>, i64), StoreError> {
    let filter = status_clause(status);
    let page_sql = format!(
        "{VIEW_SELECT} WHERE t.team_id = $1 AND t.monitor_id = $2{filter} \
         ORDER BY t.created_at DESC, t.id DESC LIMIT $3 OFFSET $4"
    );
    let count_sql = format!(
        "SELECT COUNT(*) FROM targets t WHERE t.team_id = $1 AND t.monitor_id = $2{filter}"
    );
    on_db!(db, |pool| {
        let rows = sqlx::query_as::<_, TargetView>(sqlx::AssertSqlSafe(page_sql))
            .bind(team_id)
            .bind(monitor_id)
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?;
        let total = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(count_sql))
            .bind(team_id)
            .bind(monitor_id)
            .fetch_one(pool)
            .await?;
        Ok((rows, total))
    })
}

/// Reads targets by id, in insertion order.
pub async fn views_by_ids(tx: &mut Tx, ids: &[String]) -> Result<Vec<TargetView>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "{VIEW_SELECT} WHERE t.id IN ({}) ORDER BY t.created_at, t.id",
        placeholders(1, ids.len())
    );
    Ok(on_tx!(tx, |conn| {
        let mut query = sqlx::query_as::<_, TargetView>(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(id);
        }
        query.fetch_all(conn).await
    })?)
}

/// Deletes the given targets of a monitor; returns how many went.
pub async fn delete_targets(
    tx: &mut Tx,
    team_id: &str,
    monitor_id: &str,
    ids: &[String],
) -> Result<u64, StoreError> {
    if ids.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "DELETE FROM targets WHERE team_id = $1 AND monitor_id = $2 AND id IN ({})",
        placeholders(3, ids.len())
    );
    Ok(on_tx!(tx, |conn| {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(team_id)
            .bind(monitor_id);
        for id in ids {
            query = query.bind(id);
        }
        query.execute(conn).await.map(|r| r.rows_affected())
    })?)
}

/// Resolves pending targets that designate a company just stored: domain targets with its bare or
/// registrable domain, and company-page targets with its LinkedIn page. Returns how many resolved.
pub async fn resolve_for_company(
    tx: &mut Tx,
    company_id: &str,
    domain: Option<&str>,
    registrable_domain: Option<&str>,
    linkedin_key: Option<&str>,
) -> Result<u64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query(
        "UPDATE targets SET company_id = $1, resolved_at = $2 WHERE company_id IS NULL AND \
         ((kind = 'domain' AND (value = $3 OR registrable_domain = $4)) \
          OR (kind = 'linkedin_company' AND value = $5))"
    )
    .bind(company_id)
    .bind(now_ms())
    .bind(domain)
    .bind(registrable_domain)
    .bind(linkedin_key)
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?)
}

/// Points every profile target of a person at the person's current company: pending ones resolve,
/// resolved ones follow the person to their new employer. Returns how many changed.
pub async fn follow_person(
    tx: &mut Tx,
    linkedin_key: &str,
    company_id: &str,
) -> Result<u64, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query(
        "UPDATE targets SET company_id = $2, resolved_at = COALESCE(resolved_at, $3) \
         WHERE kind = 'linkedin_profile' AND value = $1 \
         AND (company_id IS NULL OR company_id <> $2)"
    )
    .bind(linkedin_key)
    .bind(company_id)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected()))?)
}

/// Which of the given member-profile keys (`linkedin.com/in/<slug>`) some target watches, each
/// once.
pub async fn watched_profiles(tx: &mut Tx, keys: &[String]) -> Result<Vec<String>, StoreError> {
    let mut watched = Vec::new();
    for chunk in keys.chunks(500) {
        let sql = format!(
            "SELECT DISTINCT value FROM targets WHERE kind = 'linkedin_profile' AND value IN ({})",
            placeholders(1, chunk.len())
        );
        let found: Vec<String> = on_tx!(tx, |conn| {
            let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql));
            for key in chunk {
                query = query.bind(key);
            }
            query.fetch_all(conn).await
        })?;
        watched.extend(found);
    }
    Ok(watched)
}

/// Every pending target, oldest first, as (id, kind, value).
pub async fn pending_targets(db: &Db) -> Result<Vec<(String, String, String)>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as(
        "SELECT id, kind, value FROM targets WHERE company_id IS NULL ORDER BY created_at, id"
    )
    .fetch_all(pool)
    .await)?)
}

/// Marks one pending target resolved to a company.
pub async fn resolve_target(tx: &mut Tx, id: &str, company_id: &str) -> Result<bool, StoreError> {
    Ok(on_tx!(tx, |conn| sqlx::query(
        "UPDATE targets SET company_id = $2, resolved_at = $3 WHERE id = $1 AND company_id IS NULL"
    )
    .bind(id)
    .bind(company_id)
    .bind(now_ms())
    .execute(conn)
    .await
    .map(|r| r.rows_affected() > 0))?)
}

/// Domains of pending `domain` targets whose website look-up is due (every pending one when
/// `all`), those waiting longest first, each once.
pub async fn domains_due(
    db: &Db,
    now: i64,
    limit: i64,
    all: bool,
) -> Result<Vec<String>, StoreError> {
    // Every statement names each parameter it binds (PostgreSQL must infer their types).
    let due = if all {
        " AND CAST($1 AS BIGINT) IS NOT NULL"
    } else {
        " AND research_due_at <= $1"
    };
    let sql = format!(
        "SELECT value FROM targets WHERE kind = 'domain' AND company_id IS NULL{due} \
         GROUP BY value ORDER BY MIN(research_due_at), MIN(created_at), value LIMIT $2"
    );
    Ok(on_db!(db, |pool| sqlx::query_scalar(sqlx::AssertSqlSafe(
        sql
    ))
    .bind(now)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// Takes a domain's look-up: its pending targets are not due again before `hold_until`, so
/// another worker leaves it alone meanwhile. `Some(attempts so far)` when this worker took it,
/// `None` when nothing was due (resolved meanwhile, or taken by another worker).
pub async fn hold_domain(
    db: &Db,
    domain: &str,
    now: i64,
    hold_until: i64,
    all: bool,
) -> Result<Option<i64>, StoreError> {
    let due = if all {
        " AND CAST($2 AS BIGINT) IS NOT NULL"
    } else {
        " AND research_due_at <= $2"
    };
    let sql = format!(
        "UPDATE targets SET research_due_at = $3 \
         WHERE kind = 'domain' AND value = $1 AND company_id IS NULL{due} \
         RETURNING research_attempts"
    );
    let attempts: Vec<i64> = db
        .write(async |tx| {
            Ok(on_tx!(tx, |conn| sqlx::query_scalar(sqlx::AssertSqlSafe(
                sql.clone()
            ))
            .bind(domain)
            .bind(now)
            .bind(hold_until)
            .fetch_all(conn)
            .await)?)
        })
        .await?;
    Ok(attempts.into_iter().max())
}

/// Records why a domain's look-up failed on its pending targets; the next is due at `due_at`.
pub async fn record_research_failure(
    db: &Db,
    domain: &str,
    error: &str,
    due_at: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE targets SET research_error = $2, research_attempts = research_attempts + 1, \
             research_due_at = $3 WHERE kind = 'domain' AND value = $1 AND company_id IS NULL"
        )
        .bind(domain)
        .bind(error)
        .bind(due_at)
        .execute(conn)
        .await
        .map(|_| ()))?;
        Ok(())
    })
    .await
}
