//! Rate limits shared by several API processes: through the database on PostgreSQL, or through
//! Redis when `--redis-url` is set.

use crate::support::{Backend, Team, TestApp, redis_url};

/// Redis tests are ignored unless asked for (`--run-ignored all` with
/// `SIGNALWATCH_TEST_REDIS_URL` set, as CI does), so a run without Redis reports them as skipped.
mod with_redis_two_api_processes_share_a_teams_limit {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs Redis: set SIGNALWATCH_TEST_REDIS_URL, run with --run-ignored all"]
    async fn on_sqlite() {
        let backend = crate::support::Backend::Sqlite;
        super::with_redis_two_api_processes_share_a_teams_limit(backend).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL and Redis: set SIGNALWATCH_TEST_POSTGRES_URL and SIGNALWATCH_TEST_REDIS_URL, run with --run-ignored all"]
    async fn on_postgres() {
        let backend = crate::support::Backend::postgres();
        super::with_redis_two_api_processes_share_a_teams_limit(backend).await
    }
}

/// Only PostgreSQL is served by several processes at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
async fn two_api_processes_on_one_postgres_database_share_a_teams_limit() {
    share_a_limit_through_the_database(Backend::postgres()).await
}

const LIMIT: [&str; 2] = ["--rate-limit-per-minute", "4"];

/// Lists the team's monitors through `apps` in turn, `n` times; returns the statuses.
async fn alternate(apps: &[&TestApp], team: &Team, n: usize) -> Vec<u16> {
    let mut statuses = Vec::new();
    for i in 0..n {
        let app = apps[i % apps.len()];
        statuses.push(app.get("/api/v2/monitors", &team.key).await.status);
    }
    statuses
}

async fn share_a_limit_through_the_database(backend: Backend) {
    let first = TestApp::start_with(backend, &LIMIT).await;
    let second = first.start_beside(&LIMIT).await;
    let team = first.create_team().await;

    let statuses = alternate(&[&first, &second], &team, 6).await;

    assert_eq!(statuses, [200, 200, 200, 200, 429, 429]);
}

async fn with_redis_two_api_processes_share_a_teams_limit(backend: Backend) {
    let redis = redis_url();
    let mut settings = LIMIT.to_vec();
    settings.extend_from_slice(&["--redis-url", &redis]);
    let first = TestApp::start_with(backend, &settings).await;
    let second = first.start_beside(&settings).await;
    let team = first.create_team().await;

    let statuses = alternate(&[&first, &second], &team, 6).await;

    assert_eq!(statuses, [200, 200, 200, 200, 429, 429]);
    let refused = first.get("/api/v2/monitors", &team.key).await;
    assert_eq!(refused.header("X-RateLimit-Remaining"), Some("0"));
    let retry_after = refused.header("Retry-After").expect("Retry-After");
    assert_eq!(refused.body["retryAfter"].to_string(), retry_after);
}
