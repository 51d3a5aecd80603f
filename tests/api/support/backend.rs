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
    /// The PostgreSQL backend, when `SIGNALWATCH_TEST_POSTGRES_URL` is set.
    pub fn postgres() -> Option<Backend> {
        std::env::var("SIGNALWATCH_TEST_POSTGRES_URL")
            .ok()
            .filter(|url| !url.is_empty())
            .map(Backend::Postgres)
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
