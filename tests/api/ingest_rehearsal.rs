//! Before its first group the ingest writer rehearses one record of each signal kind through
//! the whole ingest path and rolls each back, so the first real ingest after a start finds its
//! statements prepared. A rehearsal stores, announces and sends nothing: a service restarted
//! with webhooks listening to every signal type keeps and delivers only the real signals.

use std::time::Duration;

use serde_json::json;

use crate::delivery_support::{FAST, SOON, acme_round, assert_stays_at};
use crate::each_backend;
use crate::support::Backend;
use crate::support::process::{Role, ServerProcess};
use crate::support::receiver::Receiver;
use signalwatch::store::Db;

each_backend!(a_restart_with_webhooks_listening_stores_and_sends_only_the_real_signal);

async fn a_restart_with_webhooks_listening_stores_and_sends_only_the_real_signal(backend: Backend) {
    let database = backend.fresh_database().await;
    let receiver = Receiver::start().await;
    let mut first = ServerProcess::start(&database.url, Role::All, &FAST).await;
    let team = first.app().create_team().await;
    first
        .app()
        .import_companies(json!([{ "name": "Acme", "website": "https://acme.com" }]))
        .await;
    let created = first
        .app()
        .post(
            "/api/v2/webhooks",
            &team.key,
            json!({ "endpoint_url": receiver.url, "event_types": ["funding.created",
                "acquisition.created", "job_change.created", "hiring.created"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    first.terminate();
    let exit = first.wait_for_exit(SOON).await;
    assert!(exit.success(), "exit status {exit}; log:\n{}", first.log());

    // The restarted writer rehearses with the webhook listening, then takes this ingest.
    let restarted = ServerProcess::start(&database.url, Role::All, &FAST).await;
    let id = "f5d00000-0000-4000-8000-0000000000b1";
    let stored = restarted
        .app()
        .admin(
            reqwest::Method::POST,
            "/signals/funding",
            Some(json!([acme_round(id)])),
        )
        .await;
    assert_eq!(stored.status, 200, "{:?}", stored.body);
    assert_eq!(stored.data()["inserted"], 1, "{:?}", stored.body);

    let received = receiver.wait_for(1, SOON).await;
    assert_eq!(received[0].json()["data"]["signal"]["id"], id);
    assert_stays_at(&receiver, 1, Duration::from_secs(2)).await;
    for (table, rows) in [
        ("companies", 1),
        ("signals", 1),
        ("events", 1),
        ("deliveries", 1),
    ] {
        assert_eq!(rows_in(&database.url, table).await, rows, "rows in {table}");
    }
}

/// The rows `table` holds.
async fn rows_in(database_url: &str, table: &str) -> i64 {
    let db = Db::connect(database_url).await.expect("database");
    let sql = sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}"));
    let rows = match &db {
        Db::Sqlite(sqlite) => sqlx::query_scalar(sql).fetch_one(sqlite.pool()).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect("count");
    db.close().await;
    rows
}
