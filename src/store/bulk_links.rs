//! The company and tag rows of a bulk load's signals on SQLite: staged in the order they come,
//! moved into `signal_companies` and `signal_tags` sorted by their keys when the load ends
//! (migration 0030 says why). Each signal batch of the load has a number; a signal a later batch
//! stores again keeps only that batch's rows.

use super::bulk::{RowStatement, Val, execute_rows};
use super::{StoreError, Tx};
use crate::on_tx;

/// Where the company and tag rows of a batch of signals go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRows {
    /// Into their tables: every ordinary write, and a bulk load on PostgreSQL.
    Direct,
    /// Into the staging tables, as the bulk load's batch of this number (SQLite only).
    Staged(i64),
}

/// The staging tables, emptied when a load ends or starts over.
pub const STAGING_TABLES: [&str; 3] = [
    "bulk_signal_companies",
    "bulk_signal_tags",
    "bulk_restored_signals",
];

/// Staged company rows: the batch, then the columns of `signal_companies`.
pub const STAGED_COMPANIES: RowStatement<'static> = RowStatement {
    head: "INSERT INTO bulk_signal_companies (batch, signal_id, kind, company_id, occurred_at) \
           VALUES ",
    template: "(?, ?, ?, ?, ?)",
    tail: "",
};

/// Staged tag rows: the batch, then the columns of `signal_tags`.
pub const STAGED_TAGS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO bulk_signal_tags (batch, signal_id, kind, tag) VALUES ",
    template: "(?, ?, ?, ?)",
    tail: "",
};

/// Notes that batch `batch` stores the signals `ids` again: their rows of earlier batches are
/// not moved.
pub async fn note_restored(tx: &mut Tx, ids: &[&str], batch: i64) -> Result<(), StoreError> {
    let values: Vec<Val<'_>> = ids
        .iter()
        .flat_map(|id| [Val::text(id), Val::Int(Some(batch))])
        .collect();
    let stmt = RowStatement {
        head: "INSERT INTO bulk_restored_signals (signal_id, batch) VALUES ",
        template: "(?, ?)",
        tail: " ON CONFLICT DO NOTHING",
    };
    execute_rows(tx, &stmt, &values).await.map(|_| ())
}

/// Moves the staged rows into their tables in key order (each row lands after the one before it
/// in the primary-key index), then empties the staging tables. SQLite only.
pub async fn move_staged(tx: &mut Tx) -> Result<(), StoreError> {
    let restored: bool = on_tx!(tx, |conn| sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM bulk_restored_signals)"
    )
    .fetch_one(conn)
    .await)?;
    let mut statements = Vec::new();
    if restored {
        statements.extend(["bulk_signal_companies", "bulk_signal_tags"].map(|table| {
            format!(
                "DELETE FROM {table} WHERE signal_id IN \
                 (SELECT signal_id FROM bulk_restored_signals) \
                 AND batch < (SELECT MAX(r.batch) FROM bulk_restored_signals r \
                 WHERE r.signal_id = {table}.signal_id)"
            )
        }));
    }
    // `WHERE true` keeps the upsert clause from reading as a join's.
    statements.extend([
        "INSERT INTO signal_companies (signal_id, kind, company_id, occurred_at) \
         SELECT signal_id, kind, company_id, occurred_at FROM bulk_signal_companies \
         WHERE true ORDER BY signal_id, company_id ON CONFLICT DO NOTHING"
            .to_string(),
        "INSERT INTO signal_tags (signal_id, kind, tag) \
         SELECT signal_id, kind, tag FROM bulk_signal_tags \
         WHERE true ORDER BY signal_id, tag ON CONFLICT DO NOTHING"
            .to_string(),
    ]);
    statements.extend(STAGING_TABLES.iter().map(|t| format!("DELETE FROM {t}")));
    for sql in statements {
        on_tx!(tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    Ok(())
}
