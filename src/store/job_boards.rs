//! Companies' job boards and each board's collector state: validators of the last answer, when
//! it is due again, its failures, and the lease a worker holds while it polls it.

use sqlx::FromRow;

use super::{Db, StoreError, Tx};
use crate::domain::job_board::{JobBoard, Provider};
use crate::{on_db, on_tx};

/// A board as its collector needs it.
#[derive(Debug, Clone, FromRow)]
pub struct BoardRow {
    pub provider: String,
    pub token: String,
    pub company_id: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub failures: i64,
}

/// Who decides which company a board belongs to when it is already known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardSource {
    /// The operator: a board they name moves to the company they name it for.
    Operator,
    /// Research of a website: a board already known stays where it is.
    Discovered,
}

/// Records the company's boards.
pub async fn upsert_boards(
    tx: &mut Tx,
    company_id: &str,
    boards: &[JobBoard],
    source: BoardSource,
    now: i64,
) -> Result<(), StoreError> {
    let on_conflict = match source {
        BoardSource::Operator => {
            "DO UPDATE SET company_id = excluded.company_id WHERE job_boards.company_id <> \
             excluded.company_id"
        }
        BoardSource::Discovered => "DO NOTHING",
    };
    let sql = format!(
        "INSERT INTO job_boards (provider, token, company_id, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (provider, token) {on_conflict}"
    );
    for board in boards {
        on_tx!(tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .bind(board.provider.as_str())
            .bind(&board.token)
            .bind(company_id)
            .bind(now)
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    Ok(())
}

/// The boards of one provider a pass polls: those of companies that are resolved targets of an
/// active monitor, not leased by another worker, and due (unless `all`), most overdue first.
pub async fn boards_to_poll(
    db: &Db,
    provider: Provider,
    now: i64,
    all: bool,
) -> Result<Vec<BoardRow>, StoreError> {
    let due = if all { "" } else { " AND b.due_at <= $2" };
    let sql = format!(
        "SELECT b.provider, b.token, b.company_id, b.etag, b.last_modified, b.failures \
         FROM job_boards b WHERE b.provider = $1 AND b.lease_until <= $2{due} \
         AND EXISTS (SELECT 1 FROM targets t JOIN monitors m ON m.id = t.monitor_id \
                     WHERE t.company_id = b.company_id AND m.active) \
         ORDER BY b.due_at, b.token"
    );
    Ok(on_db!(db, |pool| sqlx::query_as::<_, BoardRow>(
        sqlx::AssertSqlSafe(sql)
    )
    .bind(provider.as_str())
    .bind(now)
    .fetch_all(pool)
    .await)?)
}

/// Takes the board's lease until `until` when nobody holds it, nobody polled it after
/// `pass_started`, and it is due by `due_by`: true when this worker has it. One conditional
/// update, so of two workers racing for a board exactly one wins, and a pass that listed the
/// board before another worker polled it leaves it alone. A poll that ended in the very
/// millisecond this pass started does not count as after it: a run asked for right after
/// another one answered (well under a millisecond on loopback) still polls the board.
pub async fn claim_board(
    db: &Db,
    board: &BoardRow,
    now: i64,
    until: i64,
    pass_started: i64,
    due_by: i64,
) -> Result<bool, StoreError> {
    db.write(async |tx| {
        Ok(on_tx!(tx, |conn| sqlx::query(
            "UPDATE job_boards SET lease_until = $3 \
             WHERE provider = $1 AND token = $2 AND lease_until <= $4 \
             AND COALESCE(last_checked_at, 0) <= $5 AND due_at <= $6"
        )
        .bind(&board.provider)
        .bind(&board.token)
        .bind(until)
        .bind(now)
        .bind(pass_started)
        .bind(due_by)
        .execute(conn)
        .await
        .map(|r| r.rows_affected() == 1))?)
    })
    .await
}

/// How a poll of a board ended.
#[derive(Debug, Clone)]
pub enum PollEnd {
    /// The board answered (new content or not modified); its validators when it sent them.
    Answered {
        etag: Option<String>,
        last_modified: Option<String>,
    },
    /// The poll failed for `error`.
    Failed { error: String },
}

/// Releases the board's lease and records how its poll ended; it is due again at `due_at`.
pub async fn finish_poll(
    db: &Db,
    provider: &str,
    token: &str,
    end: &PollEnd,
    now: i64,
    due_at: i64,
) -> Result<(), StoreError> {
    db.write(async |tx| {
        on_tx!(tx, |conn| match end {
            PollEnd::Answered {
                etag,
                last_modified,
            } => sqlx::query(
                "UPDATE job_boards SET lease_until = 0, failures = 0, last_error = NULL, \
                 etag = COALESCE($3, etag), last_modified = COALESCE($4, last_modified), \
                 last_checked_at = $5, due_at = $6 WHERE provider = $1 AND token = $2"
            )
            .bind(provider)
            .bind(token)
            .bind(etag)
            .bind(last_modified)
            .bind(now)
            .bind(due_at)
            .execute(conn)
            .await
            .map(|_| ()),
            PollEnd::Failed { error } => sqlx::query(
                "UPDATE job_boards SET lease_until = 0, failures = failures + 1, \
                 last_error = $3, last_checked_at = $4, due_at = $5 \
                 WHERE provider = $1 AND token = $2"
            )
            .bind(provider)
            .bind(token)
            .bind(error)
            .bind(now)
            .bind(due_at)
            .execute(conn)
            .await
            .map(|_| ()),
        })?;
        Ok(())
    })
    .await
}
