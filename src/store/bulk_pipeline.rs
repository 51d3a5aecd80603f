//! Multi-row statements on SQLite, each bound while the one before it runs.
//!
//! A SQLite connection runs its statements on a thread of its own; the caller's task binds each
//! statement's values (sqlx copies every text it is given) and then waits for that thread. A
//! write of many statements (a bulk load's batch: thousands of rows, a few statements each) thus
//! took turns between the two threads, each idle while the other worked. Here the caller hands a
//! statement over, binds the next one meanwhile, and only then waits for the first.

use std::future::Future;
use std::pin::pin;
use std::task::Poll;

use sqlx::sqlite::{SqliteArguments, SqliteConnection, SqliteRow};
use sqlx::{Arguments, FromRow};

use super::StoreError;
use super::bulk::{RowStatement, Val};

/// One statement's SQL and bound values.
struct Bound {
    sql: String,
    arguments: SqliteArguments,
}

/// Runs `stmt` over `values` (rows of its width, laid out one after another) in statements of
/// as many rows as its limits allow; returns the rows affected.
pub(super) async fn execute_rows(
    conn: &mut SqliteConnection,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
) -> Result<u64, StoreError> {
    let affected = pipelined(conn, stmt, values, async |conn, bound| {
        let query = sqlx::query_with(sqlx::AssertSqlSafe(bound.sql), bound.arguments);
        query.execute(conn).await.map(|r| r.rows_affected())
    })
    .await?;
    Ok(affected.into_iter().sum())
}

/// As [`execute_rows`], collecting the rows the statements return.
pub(super) async fn fetch_rows<T>(
    conn: &mut SqliteConnection,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
) -> Result<Vec<T>, StoreError>
where
    T: for<'r> FromRow<'r, SqliteRow> + Send + Unpin,
{
    let pages = pipelined(conn, stmt, values, async |conn, bound| {
        let query = sqlx::query_as_with::<_, T, _>(sqlx::AssertSqlSafe(bound.sql), bound.arguments);
        query.fetch_all(conn).await
    })
    .await?;
    Ok(pages.into_iter().flatten().collect())
}

/// Runs each statement of `stmt` over `values` with `run`, binding the next one while it runs.
async fn pipelined<R>(
    conn: &mut SqliteConnection,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
    mut run: impl AsyncFnMut(&mut SqliteConnection, Bound) -> Result<R, sqlx::Error>,
) -> Result<Vec<R>, StoreError> {
    let width = stmt.width().max(1);
    let mut chunks = values.chunks(width * stmt.rows_per_statement());
    let mut outcomes = Vec::new();
    let mut next = chunks.next().map(|c| bind(stmt, c, width)).transpose()?;
    while let Some(bound) = next.take() {
        let mut running = pin!(run(&mut *conn, bound));
        // The first poll hands the statement to the connection's thread.
        let started = poll_once(running.as_mut()).await;
        next = chunks.next().map(|c| bind(stmt, c, width)).transpose()?;
        let outcome = match started {
            Poll::Ready(outcome) => outcome,
            Poll::Pending => running.await,
        };
        outcomes.push(outcome?);
    }
    Ok(outcomes)
}

/// Polls `future` once, in the calling task.
async fn poll_once<F: Future>(mut future: std::pin::Pin<&mut F>) -> Poll<F::Output> {
    std::future::poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await
}

/// The statement for `chunk` (whole rows of `width` values) with its values bound.
fn bind(stmt: &RowStatement<'_>, chunk: &[Val<'_>], width: usize) -> Result<Bound, StoreError> {
    let mut arguments = SqliteArguments::default();
    arguments.reserve(chunk.len(), 0);
    for value in chunk {
        match *value {
            Val::Text(t) => arguments.add(t),
            Val::Int(i) => arguments.add(i),
            Val::Bool(b) => arguments.add(b),
        }
        .map_err(|err| StoreError::Database(sqlx::Error::Encode(err)))?;
    }
    Ok(Bound {
        sql: stmt.sql(chunk.len() / width),
        arguments,
    })
}
