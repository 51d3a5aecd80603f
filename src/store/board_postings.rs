//! Every posting a job board ever showed, once per (provider, board, posting id), with the signal
//! it became and the day it was first missed from its board.

use super::{Db, StoreError, Tx, placeholders};
use crate::{on_db, on_tx};

/// A posting already known for a board.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct KnownPosting {
    pub posting_id: String,
    pub signal_id: String,
    pub gone_at: Option<i64>,
}

/// The postings known for one board.
pub async fn known_postings(
    db: &Db,
    provider: &str,
    board: &str,
) -> Result<Vec<KnownPosting>, StoreError> {
    Ok(on_db!(db, |pool| sqlx::query_as(
        "SELECT posting_id, signal_id, gone_at FROM board_postings \
         WHERE provider = $1 AND board = $2"
    )
    .bind(provider)
    .bind(board)
    .fetch_all(pool)
    .await)?)
}

/// Rows per multi-row statement (four parameters each).
const CHUNK: usize = 200;

/// Remembers postings seen for the first time, each with its signal; one already remembered
/// (by another worker, or before a restart) is left as it is.
pub async fn remember_postings(
    tx: &mut Tx,
    provider: &str,
    board: &str,
    postings: &[(String, String)],
    now: i64,
) -> Result<(), StoreError> {
    for chunk in postings.chunks(CHUNK) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| format!("($1, $2, $3, ${}, ${})", 4 + 2 * i, 5 + 2 * i))
            .collect();
        let sql = format!(
            "INSERT INTO board_postings (provider, board, first_seen_at, posting_id, signal_id) \
             VALUES {} ON CONFLICT (provider, board, posting_id) DO NOTHING",
            values.join(", ")
        );
        on_tx!(tx, |conn| {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(provider)
                .bind(board)
                .bind(now);
            for (posting_id, signal_id) in chunk {
                query = query.bind(posting_id).bind(signal_id);
            }
            query.execute(conn).await.map(|_| ())
        })?;
    }
    Ok(())
}

/// Marks postings missing from their board since `day` (epoch milliseconds of that day), or
/// back on it when `day` is `None`, and gives their signals `validThrough` = that day (or
/// takes it away). Returns how many signals changed.
pub async fn set_gone(
    tx: &mut Tx,
    provider: &str,
    board: &str,
    posting_ids: &[String],
    day: Option<(i64, String)>,
) -> Result<u64, StoreError> {
    let mut changed = 0;
    for chunk in posting_ids.chunks(CHUNK) {
        let sql = format!(
            "UPDATE board_postings SET gone_at = $3 WHERE provider = $1 AND board = $2 \
             AND posting_id IN ({}) RETURNING signal_id",
            placeholders(4, chunk.len())
        );
        let signals: Vec<String> = on_tx!(tx, |conn| {
            let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .bind(provider)
                .bind(board)
                .bind(day.as_ref().map(|(ms, _)| *ms));
            for id in chunk {
                query = query.bind(id);
            }
            query.fetch_all(conn).await
        })?;
        changed +=
            set_valid_through(tx, &signals, day.as_ref().map(|(_, text)| text.as_str())).await?;
    }
    Ok(changed)
}

/// Sets (or, with `None`, removes) `validThrough` in the stored record of the given signals.
async fn set_valid_through(
    tx: &mut Tx,
    signal_ids: &[String],
    valid_through: Option<&str>,
) -> Result<u64, StoreError> {
    if signal_ids.is_empty() {
        return Ok(0);
    }
    let ids = placeholders(2, signal_ids.len());
    let (sqlite, postgres) = match valid_through {
        Some(_) => (
            format!(
                "UPDATE signals SET payload = json_set(payload, '$.validThrough', $1) \
                 WHERE id IN ({ids})"
            ),
            format!(
                "UPDATE signals SET payload = (payload::jsonb || \
                 jsonb_build_object('validThrough', $1::text))::text WHERE id IN ({ids})"
            ),
        ),
        None => (
            format!(
                "UPDATE signals SET payload = json_remove(payload, '$.validThrough') \
                 WHERE id IN ({ids}) AND $1 IS NULL"
            ),
            format!(
                "UPDATE signals SET payload = (payload::jsonb - 'validThrough')::text \
                 WHERE id IN ({ids}) AND $1::text IS NULL"
            ),
        ),
    };
    let sql = match tx {
        Tx::Sqlite(_) => sqlite,
        Tx::Postgres(_) => postgres,
    };
    Ok(on_tx!(tx, |conn| {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(valid_through);
        for id in signal_ids {
            query = query.bind(id);
        }
        query.execute(conn).await.map(|r| r.rows_affected())
    })?)
}
