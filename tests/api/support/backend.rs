//! Which database a test runs on, and a fresh database for each test.

use tempfile::TempDir;

/// A database backend under test.
#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// Server URL from `SIGNALWATCH_TEST_POSTGRES_URL`.
    Postgres(String),
}

/// A database that exists for one test: a temporary directory's file, or a PostgreSQL database
/// dropped again when the test is over.
pub struct FreshDatabase {
    pub url: String,
    pub _dir: Option<TempDir>,
    /// The server URL and name of the PostgreSQL database to drop.
    postgres: Option<(String, String)>,
}

impl Drop for FreshDatabase {
    fn drop(&mut self) {
        if let Some((server, name)) = self.postgres.take() {
            // A thread of its own: the test's runtime may be shutting down, or be single-threaded.
            let _ = std::thread::spawn(move || drop_pg_database(&server, &name)).join();
        }
    }
}

impl Backend {
    /// The PostgreSQL backend at `SIGNALWATCH_TEST_POSTGRES_URL`. PostgreSQL tests are ignored
    /// unless asked for; asked for without a server named, they fail rather than pass untested.
    pub fn postgres() -> Backend {
        Backend::Postgres(required_env(
            "SIGNALWATCH_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/postgres",
        ))
    }

    /// Creates an empty database for one test.
    pub async fn fresh_database(&self) -> FreshDatabase {
        match self {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("test.db").display());
                FreshDatabase {
                    url,
                    _dir: Some(dir),
                    postgres: None,
                }
            }
            Backend::Postgres(server) => {
                let name = format!("sw_test_{}", uuid::Uuid::new_v4().simple());
                FreshDatabase {
                    url: create_pg_database(server, &name).await,
                    _dir: None,
                    postgres: Some((server.clone(), name)),
                }
            }
        }
    }
}

async fn create_pg_database(server: &str, name: &str) -> String {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(server)
        .await
        .expect("connect to SIGNALWATCH_TEST_POSTGRES_URL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .expect("create test database");
    let _ = conn.close().await;
    let mut url = url::Url::parse(server).expect("postgres URL");
    url.set_path(&format!("/{name}"));
    url.to_string()
}

/// Drops a test's database, closing the connections the stopped service left open. Best effort:
/// a database left behind takes only disk space.
fn drop_pg_database(server: &str, name: &str) {
    use sqlx::Connection;
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    runtime.block_on(async {
        if let Ok(mut conn) = sqlx::PgConnection::connect(server).await {
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            let _ = sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&mut conn)
                .await;
            let _ = conn.close().await;
        }
    });
}

/// The Redis server of the Redis tests, from `SIGNALWATCH_TEST_REDIS_URL`. Those tests are
/// ignored unless asked for; asked for without a server named, they fail.
pub fn redis_url() -> String {
    required_env("SIGNALWATCH_TEST_REDIS_URL", "redis://127.0.0.1:6379")
}

/// The value of `name`; panics with how to set it when it is unset or empty.
fn required_env(name: &str, example: &str) -> String {
    match std::env::var(name) {
        Ok(value) if !value.is_empty() => value,
        _ => panic!("this test needs a server: set {name} (e.g. {example})"),
    }
}
