//! Which database a test runs on, and a fresh database for each test.

use tempfile::TempDir;

/// A database backend under test.
#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// Server URL from `SIGNALWATCH_TEST_POSTGRES_URL`.
    Postgres(String),
}

/// A database that exists for one test.
pub struct FreshDatabase {
    pub url: String,
    pub _dir: Option<TempDir>,
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
                }
            }
            Backend::Postgres(server) => FreshDatabase {
                url: create_pg_database(server).await,
                _dir: None,
            },
        }
    }
}

async fn create_pg_database(server: &str) -> String {
    use sqlx::Connection;
    let name = format!("sw_test_{}", uuid::Uuid::new_v4().simple());
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
