//! Opening the database for an operator command (`admin`, `import`): say which database it is,
//! refuse to create a new SQLite file unless asked (a command run from the wrong directory must
//! not quietly make an empty database and then report that nothing is there), and give up on an
//! unreachable server quickly with one clear sentence.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::store::Db;

/// How long a command waits for a PostgreSQL server before giving up.
const PATIENCE: Duration = Duration::from_secs(5);

/// Where a database URL points.
#[derive(Debug, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file (as written in the URL, not made absolute).
    SqliteFile(PathBuf),
    /// An in-memory SQLite database.
    SqliteMemory,
    /// A PostgreSQL server, as `host:port/database`.
    Postgres(String),
}

impl Location {
    /// Where `url` points; `None` for a URL of no supported kind.
    pub fn of(url: &str) -> Option<Location> {
        if let Some(rest) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            let path = rest.split('?').next().unwrap_or_default();
            if path.is_empty() || path == ":memory:" || url.contains("mode=memory") {
                return Some(Location::SqliteMemory);
            }
            return Some(Location::SqliteFile(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let parsed = url::Url::parse(url).ok()?;
            let host = parsed.host_str().unwrap_or("localhost").to_string();
            let port = parsed.port().unwrap_or(5432);
            let database = parsed.path().trim_start_matches('/');
            return Some(Location::Postgres(format!("{host}:{port}/{database}")));
        }
        None
    }
}

/// Opens and migrates the database at `url`, printing to stderr which one it is. A SQLite file
/// that does not exist is created only when `create` is set.
pub async fn open(url: &str, create: bool) -> anyhow::Result<Db> {
    let db = open_unmigrated(url, create).await?;
    migrate(&db).await?;
    Ok(db)
}

/// Brings the schema of `db` up to date.
pub async fn migrate(db: &Db) -> anyhow::Result<()> {
    db.migrate()
        .await
        .context("cannot bring the database schema up to date")
}

/// As [`open`], without the migrations: for a command that first waits for its turn (a migration
/// may wait for the write lock an import holds, in silence).
pub async fn open_unmigrated(url: &str, create: bool) -> anyhow::Result<Db> {
    let location = Location::of(url).with_context(|| {
        "unsupported database URL: expected sqlite://PATH or postgres://… \
         (--database-url or SIGNALWATCH_DATABASE_URL)"
            .to_string()
    })?;
    match &location {
        Location::SqliteFile(path) => {
            let shown = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            if !path.exists() {
                if !create {
                    bail!(
                        "no database at {}: set --database-url (or SIGNALWATCH_DATABASE_URL) to \
                         the server's database, or pass --create to make a new, empty one",
                        shown.display()
                    );
                }
                eprintln!("database: creating SQLite file {}", shown.display());
            } else {
                eprintln!("database: SQLite file {}", shown.display());
            }
        }
        Location::SqliteMemory => eprintln!("database: SQLite in memory"),
        Location::Postgres(at) => eprintln!("database: PostgreSQL {at}"),
    }
    let db = Db::connect_quickly(url, PATIENCE)
        .await
        .map_err(|err| match &location {
            Location::Postgres(at) => {
                let server = at.split('/').next().unwrap_or(at);
                anyhow::anyhow!("cannot reach PostgreSQL at {server}: {err}")
            }
            _ => anyhow::anyhow!("cannot open the database: {err}"),
        })?;
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_name_their_file() {
        assert_eq!(
            Location::of("sqlite://signalwatch.db"),
            Some(Location::SqliteFile("signalwatch.db".into()))
        );
        assert_eq!(
            Location::of("sqlite:///data/signalwatch.db?mode=rwc"),
            Some(Location::SqliteFile("/data/signalwatch.db".into()))
        );
        assert_eq!(
            Location::of("sqlite::memory:"),
            Some(Location::SqliteMemory)
        );
    }

    #[test]
    fn postgres_urls_name_their_server_without_the_password() {
        assert_eq!(
            Location::of("postgres://app:secret@db.internal/signalwatch"),
            Some(Location::Postgres("db.internal:5432/signalwatch".into()))
        );
        assert_eq!(Location::of("mysql://x"), None);
    }
}
