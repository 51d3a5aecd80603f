//! A fresh, empty database per backend run: a SQLite file in a temp dir, or a PostgreSQL
//! database created on the server and dropped afterwards.

use std::path::PathBuf;

use anyhow::Context;
use sqlx::Connection;
use tempfile::TempDir;

/// A database backend under benchmark.
#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// The server URL (its maintenance database) to create databases on.
    Postgres(String),
}

impl Backend {
    /// The backend's name in the report.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }
}

/// A database that exists for one backend run.
pub struct FreshDatabase {
    pub url: String,
    /// The SQLite file, for its size on disk.
    pub file: Option<PathBuf>,
    dir: Option<TempDir>,
    pg: Option<(String, String)>,
}

impl FreshDatabase {
    /// Creates an empty database on `backend`.
    pub async fn create(backend: &Backend) -> anyhow::Result<FreshDatabase> {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::Builder::new().prefix("sw-bench-").tempdir()?;
                let file = dir.path().join("bench.db");
                Ok(FreshDatabase {
                    url: format!("sqlite://{}", file.display()),
                    file: Some(file),
                    dir: Some(dir),
                    pg: None,
                })
            }
            Backend::Postgres(server) => {
                let name = format!("sw_bench_{}", uuid::Uuid::new_v4().simple());
                execute(server, &format!("CREATE DATABASE {name}")).await?;
                let mut url = url::Url::parse(server).context("--postgres-url")?;
                url.set_path(&format!("/{name}"));
                Ok(FreshDatabase {
                    url: url.to_string(),
                    file: None,
                    dir: None,
                    pg: Some((server.clone(), name)),
                })
            }
        }
    }

    /// A database that exists already, left as it is afterwards.
    pub fn existing(url: &str) -> FreshDatabase {
        let file = url
            .strip_prefix("sqlite://")
            .map(|path| PathBuf::from(path.split('?').next().unwrap_or(path)));
        FreshDatabase {
            url: url.to_string(),
            file,
            dir: None,
            pg: None,
        }
    }

    /// Size of the database on disk, in bytes (SQLite file plus WAL; PostgreSQL database size).
    pub async fn size_bytes(&self) -> Option<u64> {
        if let Some(file) = &self.file {
            let wal = PathBuf::from(format!("{}-wal", file.display()));
            let main = std::fs::metadata(file).ok()?.len();
            return Some(main + std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0));
        }
        let mut conn = sqlx::PgConnection::connect(&self.url).await.ok()?;
        let size: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())")
            .fetch_one(&mut conn)
            .await
            .ok()?;
        let _ = conn.close().await;
        u64::try_from(size).ok()
    }

    /// Removes the database, or keeps it and says where it is.
    pub async fn finish(mut self, keep: bool) -> anyhow::Result<()> {
        if keep {
            if let Some(dir) = self.dir.take() {
                let kept = dir.keep();
                eprintln!("bench: kept SQLite database in {}", kept.display());
            }
            if self.pg.is_some() {
                eprintln!("bench: kept PostgreSQL database {}", self.url);
            }
            return Ok(());
        }
        if let Some((server, name)) = self.pg.take() {
            execute(
                &server,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            )
            .await?;
        }
        Ok(())
    }
}

async fn execute(server: &str, sql: &str) -> anyhow::Result<()> {
    let mut conn = sqlx::PgConnection::connect(server)
        .await
        .with_context(|| format!("connecting to {server}"))?;
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&mut conn)
        .await
        .with_context(|| format!("running {sql}"))?;
    let _ = conn.close().await;
    Ok(())
}
