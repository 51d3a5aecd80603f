//! `--explain FILE`: the query plan and run time of each SQL statement in FILE (one a line,
//! values written in), on the `--existing-database`, through the SQLite that signalwatch links
//! (its planner can differ from the `sqlite3` shell's) or PostgreSQL's `EXPLAIN ANALYZE`.

use std::path::Path;
use std::time::Instant;

use sqlx::{Connection, Row};

/// Prints plan and time of every statement of `file` on `url`.
pub async fn explain(url: &str, file: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file)?;
    let statements = text.lines().map(str::trim).filter(|l| !l.is_empty());
    if url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(url).await?;
        for sql in statements {
            println!("\n{sql}");
            let plan = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
                .fetch_all(&mut conn)
                .await?;
            for row in plan {
                let detail: String = row.try_get("detail")?;
                println!("  {detail}");
            }
            let started = Instant::now();
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
                .fetch_all(&mut conn)
                .await?;
            println!("  -> {} rows in {:?}", rows.len(), started.elapsed());
        }
    } else {
        let mut conn = sqlx::PgConnection::connect(url).await?;
        for sql in statements {
            println!("\n{sql}");
            let plan = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN ANALYZE {sql}")))
                .fetch_all(&mut conn)
                .await?;
            for row in plan {
                let line: String = row.try_get(0)?;
                println!("  {line}");
            }
        }
    }
    Ok(())
}
