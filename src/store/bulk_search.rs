//! The full-text tables of SQLite during a bulk load: merged rarely while the rows go in, and
//! once, completely, at the end.
//!
//! An FTS5 table keeps its documents in segments. Each flush of its pending terms writes a new
//! segment, and by default FTS5 merges a level's segments into one on the next level as soon as
//! four of them wait there ("automerge", and at sixteen in any case, "crisismerge"). A load's
//! batches flush often: every statement that opens a statement journal after the documents
//! were written flushes them, so the segments stay small and each document's terms are merged
//! again on every level they climb. While a bulk load runs, the tables wait for 64 segments a
//! level (256 in any case), which merges each term far fewer times; at the end one `optimize`
//! merges every table into one segment (the shape searches read fastest) and FTS5's defaults
//! are set again, for the writes of the server.
//!
//! Nothing here on PostgreSQL, whose search indexes are dropped for the load and built after it.

use super::{Db, StoreError, Tx};
use crate::on_tx;

/// The full-text tables a bulk load writes.
pub(super) const SEARCH_TABLES: [&str; 4] = [
    "company_search",
    "company_names",
    "signal_search",
    "signal_substrings",
];

/// FTS5's merge settings while a bulk load writes.
pub(super) const WHILE_LOADING: [(&str, i64); 2] = [("automerge", 64), ("crisismerge", 256)];

/// FTS5's defaults, as every other write finds them.
pub(super) const DEFAULTS: [(&str, i64); 2] = [("automerge", 4), ("crisismerge", 16)];

/// Lets the full-text tables merge rarely for the load that starts in `tx`.
pub async fn merge_rarely(tx: &mut Tx) -> Result<(), StoreError> {
    set_merging(tx, &WHILE_LOADING).await
}

/// Merges every full-text table into one segment and sets FTS5's defaults again, in a
/// transaction of its own (its pages are copied into the database file at its commit, before
/// the index builds start).
pub async fn merge_completely(db: &Db) -> Result<(), StoreError> {
    let Db::Sqlite(_) = db else {
        return Ok(());
    };
    let mut tx = db.begin_write().await?;
    for table in SEARCH_TABLES {
        let sql = optimize(table);
        on_tx!(&mut tx, |conn| sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(conn)
            .await
            .map(|_| ()))?;
    }
    set_merging(&mut tx, &DEFAULTS).await?;
    tx.commit().await
}

/// Sets FTS5's merge settings of every full-text table (through FTS5's own configuration
/// statement, so that every connection reads the new values).
async fn set_merging(tx: &mut Tx, settings: &[(&str, i64)]) -> Result<(), StoreError> {
    let Tx::Sqlite(t) = tx else {
        return Ok(());
    };
    for table in SEARCH_TABLES {
        for sql in merge_settings(table, settings) {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&mut **t)
                .await?;
        }
    }
    Ok(())
}

/// FTS5's statement merging the full-text table `table` into one segment.
pub(super) fn optimize(table: &str) -> String {
    format!("INSERT INTO {table} ({table}) VALUES ('optimize')")
}

/// FTS5's configuration statements giving the full-text table `table` the merge `settings`.
pub(super) fn merge_settings<'a>(
    table: &'a str,
    settings: &'a [(&str, i64)],
) -> impl Iterator<Item = String> + 'a {
    settings.iter().map(move |(setting, value)| {
        format!("INSERT INTO {table} ({table}, rank) VALUES ('{setting}', {value})")
    })
}
