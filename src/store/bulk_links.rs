//! The company and tag rows of a bulk load's signals on SQLite: staged in the order they come,
//! moved into `signal_companies` and `signal_tags` sorted by their keys when the load ends
//! (migration 0030 says why). Each signal batch of the load has a number; a signal a later batch
//! stores again keeps only that batch's rows.
//!
//! A load into a file stages them in its scratch database (`bulk_stage`), on the stage's own
//! connection, which moves them into the loaded tables at the end ([`StagedLinks`],
//! [`move_statements`]); the loaded database's own staging tables serve a load without one.

use std::sync::Arc;

use super::bulk::{RowStatement, Val, execute_rows};
use super::signals::SignalRow;
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
const STAGED_COMPANIES: RowStatement<'static> = RowStatement {
    head: "INSERT INTO bulk_signal_companies (batch, signal_id, kind, company_id, occurred_at) \
           VALUES ",
    template: "(?, ?, ?, ?, ?)",
    tail: "",
};

/// Staged tag rows: the batch, then the columns of `signal_tags`.
const STAGED_TAGS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO bulk_signal_tags (batch, signal_id, kind, tag) VALUES ",
    template: "(?, ?, ?, ?)",
    tail: "",
};

/// Notes that batch `batch` stores the signals `ids` again: their rows of earlier batches are
/// not moved.
async fn note_restored(tx: &mut Tx, ids: &[&str], batch: i64) -> Result<(), StoreError> {
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

/// True when a staged signal was stored again by a later batch (the staging tables are the
/// connection's `main` ones).
pub const ANY_RESTORED: &str = "SELECT EXISTS (SELECT 1 FROM main.bulk_restored_signals)";

/// The statements that move the staged rows (in the connection's `main` database) into the
/// tables of database `into`, in key order (each row lands after the one before it in the
/// primary-key index), the rows of a signal stored again (`restored`) from its last batch only.
pub fn move_statements(restored: bool, into: &str) -> Vec<String> {
    let mut statements = Vec::new();
    if restored {
        statements.extend(["bulk_signal_companies", "bulk_signal_tags"].map(|table| {
            format!(
                "DELETE FROM main.{table} WHERE signal_id IN \
                 (SELECT signal_id FROM main.bulk_restored_signals) \
                 AND batch < (SELECT MAX(r.batch) FROM main.bulk_restored_signals r \
                 WHERE r.signal_id = {table}.signal_id)"
            )
        }));
    }
    // `WHERE true` keeps the upsert clause from reading as a join's.
    statements.extend([
        format!(
            "INSERT INTO {into}.signal_companies (signal_id, kind, company_id, occurred_at) \
             SELECT signal_id, kind, company_id, occurred_at FROM main.bulk_signal_companies \
             WHERE true ORDER BY signal_id, company_id ON CONFLICT DO NOTHING"
        ),
        format!(
            "INSERT INTO {into}.signal_tags (signal_id, kind, tag) \
             SELECT signal_id, kind, tag FROM main.bulk_signal_tags \
             WHERE true ORDER BY signal_id, tag ON CONFLICT DO NOTHING"
        ),
    ]);
    statements
}

/// Moves the rows staged in the loaded database's own staging tables into their tables (see
/// [`move_statements`]), then empties the staging tables. SQLite only.
pub async fn move_staged(tx: &mut Tx) -> Result<(), StoreError> {
    let restored: bool = on_tx!(tx, |conn| sqlx::query_scalar(ANY_RESTORED)
        .fetch_one(conn)
        .await)?;
    let mut statements = move_statements(restored, "main");
    statements.extend(STAGING_TABLES.iter().map(|t| format!("DELETE FROM {t}")));
    for sql in statements {
        on_tx!(tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    Ok(())
}

/// The rows of `signal_companies` and `signal_tags` a signal has: its company, the other one
/// when it differs, and its tags without repeats.
pub fn links_of(s: &SignalRow) -> (Vec<&str>, Vec<&str>) {
    let others = s.other_company_id.iter().filter(|o| **o != s.company_id);
    let companies = std::iter::once(&s.company_id)
        .chain(others)
        .map(String::as_str)
        .collect();
    let mut tags: Vec<&str> = Vec::with_capacity(s.tags.len());
    for tag in &s.tags {
        if !tags.contains(&tag.as_str()) {
            tags.push(tag);
        }
    }
    (companies, tags)
}

/// The company and tag rows of one signal batch of a bulk load, owned, for its stage: written
/// into the stage's staging tables once the batch has succeeded.
#[derive(Debug, Clone, Default)]
pub struct StagedLinks {
    batch: i64,
    /// Signal id, kind, company id, date.
    companies: Vec<(Arc<str>, &'static str, String, i64)>,
    /// Signal id, kind, tag.
    tags: Vec<(Arc<str>, &'static str, String)>,
    /// Signals the batch stores again.
    restored: Vec<String>,
}

impl StagedLinks {
    /// The rows of batch `batch`, which stores the signals `restored` again.
    pub fn new(batch: i64, restored: &[&str]) -> StagedLinks {
        StagedLinks {
            batch,
            restored: restored.iter().map(|id| id.to_string()).collect(),
            ..StagedLinks::default()
        }
    }

    /// Adds the rows of signal `s`.
    pub fn add(&mut self, s: &SignalRow) {
        let id: Arc<str> = Arc::from(s.id.as_str());
        let (companies, tags) = links_of(s);
        for company_id in companies {
            self.companies.push((
                Arc::clone(&id),
                s.kind,
                company_id.to_string(),
                s.occurred_at,
            ));
        }
        for tag in tags {
            self.tags.push((Arc::clone(&id), s.kind, tag.to_string()));
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.companies.len() + self.tags.len() + self.restored.len()
    }

    /// True when the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the rows into the staging tables of `tx`'s database.
    pub async fn write(&self, tx: &mut Tx) -> Result<(), StoreError> {
        let restored: Vec<&str> = self.restored.iter().map(String::as_str).collect();
        note_restored(tx, &restored, self.batch).await?;
        let batch = Val::Int(Some(self.batch));
        let companies: Vec<Val<'_>> = self
            .companies
            .iter()
            .flat_map(|(id, kind, company, at)| {
                [
                    batch,
                    Val::shared(id),
                    Val::text(kind),
                    Val::text(company),
                    Val::Int(Some(*at)),
                ]
            })
            .collect();
        execute_rows(tx, &STAGED_COMPANIES, &companies).await?;
        let tags: Vec<Val<'_>> = self
            .tags
            .iter()
            .flat_map(|(id, kind, tag)| [batch, Val::shared(id), Val::text(kind), Val::text(tag)])
            .collect();
        execute_rows(tx, &STAGED_TAGS, &tags).await.map(|_| ())
    }
}
