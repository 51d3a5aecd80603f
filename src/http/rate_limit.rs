//! Per team, per endpoint request limits: up to N requests in each 60-second window, the window
//! opening at the first request after the previous one closed.
//!
//! One process (SQLite) counts in memory. Several API processes on one PostgreSQL database share
//! their counters in the database, so a team's limit holds however requests are spread.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::store::Db;
use crate::store::rate_limits::count_request;
use crate::store::redis_limits::RedisWindows;

const WINDOW_MS: i64 = 60_000;
const SWEEP_EVERY: u64 = 4096;

/// The outcome of counting one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Unix seconds when the window resets.
    pub reset_at: u64,
    /// Seconds until the window resets, at least 1.
    pub retry_after: u64,
}

#[derive(Debug, Clone, Copy)]
struct Window {
    opened_at: i64,
    count: u32,
}

/// Where request counts are kept.
#[derive(Debug)]
pub enum RateLimiter {
    /// In this process: right when one process serves the API.
    Local(LocalWindows),
    /// In the database, shared by every process using it; counted in process while the
    /// database cannot be reached.
    Shared(Db, LocalWindows),
    /// In Redis, shared by every process using it; in process while Redis cannot be reached.
    Redis(RedisWindows, LocalWindows),
}

impl Default for RateLimiter {
    fn default() -> Self {
        RateLimiter::Local(LocalWindows::default())
    }
}

impl RateLimiter {
    /// The limiter of a service: in Redis when a URL is given, else shared through the database
    /// on PostgreSQL (where several processes may serve the API), else in process (SQLite).
    pub async fn connect(db: &Db, redis_url: Option<&str>) -> anyhow::Result<RateLimiter> {
        if let Some(url) = redis_url {
            let redis = RedisWindows::connect(url).await?;
            return Ok(RateLimiter::Redis(redis, LocalWindows::default()));
        }
        Ok(RateLimiter::for_db(db))
    }

    /// The limiter for a database: shared on PostgreSQL, in process on SQLite.
    pub fn for_db(db: &Db) -> RateLimiter {
        match db {
            Db::Postgres(_) => RateLimiter::Shared(db.clone(), LocalWindows::default()),
            Db::Sqlite(_) => RateLimiter::default(),
        }
    }

    /// Counts one request of `team_id` on `endpoint` at `now_ms` against `limit` per minute.
    /// When the shared counter cannot be reached, the request is counted in process instead of
    /// being refused.
    pub async fn check(
        &self,
        team_id: &str,
        endpoint: &'static str,
        limit: u32,
        now_ms: i64,
    ) -> RateDecision {
        match self {
            RateLimiter::Local(windows) => windows.check(team_id, endpoint, limit, now_ms),
            RateLimiter::Shared(db, fallback) => {
                match count_request(db, team_id, endpoint, now_ms, WINDOW_MS).await {
                    Ok((opened_at, count)) => counted(opened_at, count, limit, now_ms),
                    Err(err) => {
                        tracing::error!(error = %err, "shared rate limit unavailable");
                        fallback.check(team_id, endpoint, limit, now_ms)
                    }
                }
            }
            RateLimiter::Redis(redis, fallback) => {
                match redis
                    .count_request(team_id, endpoint, now_ms, WINDOW_MS)
                    .await
                {
                    Ok((opened_at, count)) => counted(opened_at, count, limit, now_ms),
                    Err(err) => {
                        tracing::error!(error = %err, "Redis rate limit unavailable");
                        fallback.check(team_id, endpoint, limit, now_ms)
                    }
                }
            }
        }
    }
}

/// The decision for a request that was counted `count`th in the window opened at `opened_at`.
fn counted(opened_at: i64, count: i64, limit: u32, now_ms: i64) -> RateDecision {
    let count = u32::try_from(count).unwrap_or(u32::MAX);
    let window = Window {
        opened_at,
        count: count.min(limit),
    };
    decision(window, limit, count <= limit, now_ms)
}

/// In-process fixed-window counters keyed by team and endpoint.
#[derive(Debug, Default)]
pub struct LocalWindows {
    windows: Mutex<HashMap<(String, &'static str), Window>>,
    checks: AtomicU64,
}

impl LocalWindows {
    /// Counts one request of `team_id` on `endpoint` at `now_ms` against `limit` per minute.
    pub fn check(
        &self,
        team_id: &str,
        endpoint: &'static str,
        limit: u32,
        now_ms: i64,
    ) -> RateDecision {
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if self
            .checks
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(SWEEP_EVERY)
        {
            windows.retain(|_, w| now_ms - w.opened_at < WINDOW_MS);
        }
        let window = windows
            .entry((team_id.to_string(), endpoint))
            .or_insert(Window {
                opened_at: now_ms,
                count: 0,
            });
        if now_ms - window.opened_at >= WINDOW_MS {
            *window = Window {
                opened_at: now_ms,
                count: 0,
            };
        }
        let allowed = window.count < limit;
        if allowed {
            window.count += 1;
        }
        decision(*window, limit, allowed, now_ms)
    }
}

fn decision(window: Window, limit: u32, allowed: bool, now_ms: i64) -> RateDecision {
    let reset_ms = window.opened_at + WINDOW_MS;
    RateDecision {
        allowed,
        limit,
        remaining: limit.saturating_sub(window.count),
        reset_at: (reset_ms + 999).div_euclid(1000) as u64,
        retry_after: ((reset_ms - now_ms + 999) / 1000).max(1) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_past_the_limit_is_refused_until_the_window_closes() {
        let limiter = LocalWindows::default();
        for i in 0..3 {
            let d = limiter.check("team", "monitors.list", 3, 1_000 + i);
            assert!(d.allowed);
            assert_eq!(d.remaining, 2 - i as u32);
        }
        let refused = limiter.check("team", "monitors.list", 3, 30_000);
        assert!(!refused.allowed);
        assert_eq!(refused.remaining, 0);
        assert_eq!(refused.retry_after, 31);
        assert!(limiter.check("team", "monitors.list", 3, 61_000).allowed);
    }

    #[test]
    fn endpoints_and_teams_are_counted_separately() {
        let limiter = LocalWindows::default();
        assert!(limiter.check("a", "monitors.list", 1, 0).allowed);
        assert!(limiter.check("a", "monitors.get", 1, 0).allowed);
        assert!(limiter.check("b", "monitors.list", 1, 0).allowed);
        assert!(!limiter.check("a", "monitors.list", 1, 0).allowed);
    }
}
