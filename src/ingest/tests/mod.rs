//! Batches stored set-wise give what storing their records one at a time would: run against a
//! fresh SQLite database, and a fresh PostgreSQL one too when `SIGNALWATCH_TEST_POSTGRES_URL` is set.

mod companies;
mod session;
mod signals;

use serde_json::Value;
use tempfile::TempDir;

use super::RecordError;
use super::fields::Record;
use crate::domain::company::CompanyRecord;
use crate::store::Db;

/// A migrated database that lives as long as the value: its SQLite file is deleted with its
/// directory, its PostgreSQL database dropped.
pub struct TestDb {
    pub db: Db,
    _dir: Option<TempDir>,
    /// The server URL and the name of the PostgreSQL database, to drop at the end.
    dropped_from: Option<(String, String)>,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((server, name)) = self.dropped_from.take() else {
            return;
        };
        // On a thread and runtime of its own: the test's runtime is single-threaded and may be
        // ending. `FORCE` closes the pool's connections. Best effort: a leftover costs disk only.
        let dropping = std::thread::spawn(move || {
            use sqlx::Connection;
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async {
                let mut conn = sqlx::PgConnection::connect(&server).await.ok()?;
                let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .execute(&mut conn)
                    .await
                    .ok()
            })
        });
        let _ = dropping.join();
    }
}

/// A fresh database per backend under test.
pub async fn databases() -> Vec<TestDb> {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let mut out = vec![open(&url, Some(dir)).await];
    if let Some(server) = std::env::var("SIGNALWATCH_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        let name = format!("sw_ingest_{}", uuid::Uuid::new_v4().simple());
        let mut database = open(&postgres_database(&server, &name).await, None).await;
        database.dropped_from = Some((server, name));
        out.push(database);
    }
    out
}

async fn open(url: &str, dir: Option<TempDir>) -> TestDb {
    let db = Db::connect(url).await.expect("connect");
    db.migrate().await.expect("migrate");
    TestDb {
        db,
        _dir: dir,
        dropped_from: None,
    }
}

async fn postgres_database(server: &str, name: &str) -> String {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(server).await.expect("connect");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .expect("create database");
    let mut url = url::Url::parse(server).expect("postgres URL");
    url.set_path(&format!("/{name}"));
    url.to_string()
}

/// Signal records as an import call receives them.
pub fn records(values: &[Value]) -> Vec<Result<Record, RecordError>> {
    values
        .iter()
        .map(|v| Ok(v.as_object().cloned().expect("an object")))
        .collect()
}

/// Company records as an import call receives them.
pub fn companies(values: &[Value]) -> Vec<Result<CompanyRecord, RecordError>> {
    values
        .iter()
        .map(|v| Ok(serde_json::from_value(v.clone()).expect("a company record")))
        .collect()
}

/// The text values of a one-column query, in order.
pub async fn texts(db: &Db, sql: &str) -> Vec<Option<String>> {
    crate::on_db!(db, |pool| sqlx::query_scalar::<_, Option<String>>(
        sqlx::AssertSqlSafe(sql.to_string())
    )
    .fetch_all(pool)
    .await
    .expect("query"))
}

/// The one text value of a query.
pub async fn text(db: &Db, sql: &str) -> String {
    texts(db, sql)
        .await
        .into_iter()
        .next()
        .flatten()
        .unwrap_or_default()
}

/// The count a `SELECT COUNT(*) …` query answers.
pub async fn count(db: &Db, sql: &str) -> i64 {
    crate::on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        sqlx::AssertSqlSafe(sql.to_string())
    )
    .fetch_one(pool)
    .await
    .expect("count"))
}
