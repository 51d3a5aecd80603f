//! Set-wise statements for bulk writes on both backends: multi-row `INSERT … VALUES (…), (…)`
//! statements of a bounded size (on PostgreSQL one statement over `UNNEST` of column arrays,
//! see `bulk_unnest`), and `IN (…)` lists (`= ANY($n)` with one array parameter on
//! PostgreSQL, chunked placeholder lists on SQLite).

use std::sync::Arc;

use sqlx::FromRow;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

use super::{StoreError, Tx};

/// One bound value of a bulk statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Val<'a> {
    Text(Option<&'a str>),
    /// A long text held in shared memory, bound by its reference count instead of a copy (a
    /// signal's payload and search texts, kilobytes each).
    Shared(&'a Arc<str>),
    Int(Option<i64>),
    Bool(bool),
}

impl<'a> Val<'a> {
    /// An optional text value.
    pub fn opt(value: &'a Option<String>) -> Val<'a> {
        Val::Text(value.as_deref())
    }

    /// A text value.
    pub fn text(value: &'a str) -> Val<'a> {
        Val::Text(Some(value))
    }

    /// A shared text value.
    pub fn shared(value: &'a Arc<str>) -> Val<'a> {
        Val::Shared(value)
    }
}

/// Most parameters one statement binds (SQLite's limit is 32,766, PostgreSQL's 65,535).
const MAX_PARAMS: usize = 32_000;

/// Most rows one multi-row statement writes. Large statements pay: SQLite flushes an FTS5
/// table's pending terms at every statement that writes it.
const MAX_ROWS: usize = 10_000;

/// Binds `$vals` (an iterator of [`Val`]) to the query `$q` in order.
macro_rules! bind_vals {
    ($q:expr, $vals:expr) => {{
        let mut q = $q;
        for v in $vals {
            q = match *v {
                Val::Text(t) => q.bind(t),
                Val::Shared(t) => q.bind(std::sync::Arc::clone(t)),
                Val::Int(i) => q.bind(i),
                Val::Bool(b) => q.bind(b),
            };
        }
        q
    }};
}
pub(super) use bind_vals;

/// A multi-row statement: `head`, then `template` once per row, comma-separated, then `tail`.
/// Every `?` of the template is one value of the row (numbered `$n` on PostgreSQL).
#[derive(Debug, Clone, Copy)]
pub struct RowStatement<'s> {
    pub head: &'s str,
    pub template: &'s str,
    pub tail: &'s str,
}

impl RowStatement<'_> {
    /// Values per row.
    pub(super) fn width(&self) -> usize {
        self.template.matches('?').count()
    }

    /// The SQL text for `rows` rows, parameters still written `?`.
    fn sql(&self, rows: usize) -> String {
        let mut sql = String::with_capacity(self.head.len() + rows * (self.template.len() + 2));
        sql.push_str(self.head);
        for row in 0..rows {
            if row > 0 {
                sql.push_str(", ");
            }
            sql.push_str(self.template);
        }
        sql.push_str(self.tail);
        sql
    }

    /// Rows per statement.
    fn rows_per_statement(&self) -> usize {
        (MAX_PARAMS / self.width().max(1)).clamp(1, MAX_ROWS)
    }
}

/// Runs `stmt` over `values` (rows laid out one after another, `width` values each) in as few
/// statements as the limits allow; returns the rows affected.
pub async fn execute_rows(
    tx: &mut Tx,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
) -> Result<u64, StoreError> {
    let width = stmt.width().max(1);
    if let (Tx::Postgres(t), false) = (&mut *tx, values.is_empty())
        && let Some((sql, columns)) = super::bulk_unnest::prepare(stmt, values, width)
    {
        let q = super::bulk_unnest::bind(sqlx::query(sqlx::AssertSqlSafe(sql)), columns);
        return Ok(q.execute(&mut **t).await?.rows_affected());
    }
    let mut affected = 0;
    for chunk in values.chunks(width * stmt.rows_per_statement()) {
        let sql = for_backend(tx, &stmt.sql(chunk.len() / width));
        affected += crate::on_tx!(tx, |conn| bind_vals!(
            sqlx::query(sqlx::AssertSqlSafe(sql)),
            chunk
        )
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
    }
    Ok(affected)
}

/// Runs `stmt` over `values` as [`execute_rows`] does and collects the rows it returns.
pub async fn fetch_rows<T>(
    tx: &mut Tx,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
) -> Result<Vec<T>, StoreError>
where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
{
    fetch_rows_planned(tx, stmt, values, false).await
}

/// As [`fetch_rows`], for a statement whose plan is the same for any number of rows: on
/// PostgreSQL it is planned once per connection instead of for each batch
/// (`bulk_unnest::planned_once`).
pub async fn fetch_rows_planned_once<T>(
    tx: &mut Tx,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
) -> Result<Vec<T>, StoreError>
where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
{
    fetch_rows_planned(tx, stmt, values, true).await
}

async fn fetch_rows_planned<T>(
    tx: &mut Tx,
    stmt: &RowStatement<'_>,
    values: &[Val<'_>],
    once: bool,
) -> Result<Vec<T>, StoreError>
where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
{
    let width = stmt.width().max(1);
    if let (Tx::Postgres(t), false) = (&mut *tx, values.is_empty())
        && let Some((sql, columns)) = super::bulk_unnest::prepare(stmt, values, width)
    {
        let sql = match once {
            true => super::bulk_unnest::planned_once(&sql),
            false => sql,
        };
        let q = sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql));
        return Ok(super::bulk_unnest::bind_as(q, columns)
            .fetch_all(&mut **t)
            .await?);
    }
    let mut out = Vec::new();
    for chunk in values.chunks(width * stmt.rows_per_statement()) {
        let sql = for_backend(tx, &stmt.sql(chunk.len() / width));
        let rows: Vec<T> = crate::on_tx!(tx, |conn| bind_vals!(
            sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql)),
            chunk
        )
        .fetch_all(conn)
        .await)?;
        out.extend(rows);
    }
    Ok(out)
}

/// `sql`, written with anonymous `?` parameters, as the backend takes it: unchanged for SQLite
/// (which looks named parameters up by a linear scan, making wide statements quadratic to prepare
/// and bind), numbered `$1, $2, …` for PostgreSQL. Statements given here hold no `?` otherwise.
pub(super) fn for_backend(tx: &Tx, sql: &str) -> String {
    match tx {
        Tx::Sqlite(_) => sql.to_string(),
        Tx::Postgres(_) => numbered(sql),
    }
}

/// `sql` with each `?` replaced by `$1`, `$2`, … in order.
fn numbered(sql: &str) -> String {
    numbered_from(sql, 1)
}

/// `sql` with each `?` replaced by `$first`, `$first + 1`, … in order (for a statement that binds
/// other parameters before these).
pub(super) fn numbered_from(sql: &str, first: usize) -> String {
    let mut out = String::with_capacity(sql.len() + sql.len() / 4);
    for (i, part) in sql.split('?').enumerate() {
        if i > 0 {
            out.push('$');
            out.push_str(&(first + i - 1).to_string());
        }
        out.push_str(part);
    }
    out
}

/// `sql` with its `{in}` marker written for `count` list values.
fn in_list_sql(tx: &Tx, sql: &str, count: usize) -> String {
    let list = match tx {
        Tx::Sqlite(_) => format!("IN ({})", vec!["?"; count].join(", ")),
        Tx::Postgres(_) => "= ANY(?)".to_string(),
    };
    for_backend(tx, &sql.replace("{in}", &list))
}

/// Runs a query whose `{in}` marker stands for "is one of `list`", after the `fixed` parameters
/// (written `?`, before the marker), and collects its rows. Nothing runs for an empty list.
pub async fn select_in<T>(
    tx: &mut Tx,
    sql: &str,
    fixed: &[Val<'_>],
    list: &[&str],
) -> Result<Vec<T>, StoreError>
where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
{
    let mut out = Vec::new();
    for chunk in list_chunks(tx, fixed.len(), list) {
        let sql = in_list_sql(tx, sql, chunk.len());
        let rows: Vec<T> = match tx {
            Tx::Sqlite(t) => {
                let vals = with_list(fixed, chunk);
                bind_vals!(sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql)), &vals)
                    .fetch_all(&mut **t)
                    .await?
            }
            Tx::Postgres(t) => {
                let q = bind_vals!(sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql)), fixed);
                q.bind(chunk).fetch_all(&mut **t).await?
            }
        };
        out.extend(rows);
    }
    Ok(out)
}

/// Runs a statement whose `{in}` marker stands for "is one of `list`" (see [`select_in`]);
/// returns the rows affected.
pub async fn execute_in(
    tx: &mut Tx,
    sql: &str,
    fixed: &[Val<'_>],
    list: &[&str],
) -> Result<u64, StoreError> {
    let mut affected = 0;
    for chunk in list_chunks(tx, fixed.len(), list) {
        let sql = in_list_sql(tx, sql, chunk.len());
        affected += match tx {
            Tx::Sqlite(t) => {
                let vals = with_list(fixed, chunk);
                bind_vals!(sqlx::query(sqlx::AssertSqlSafe(sql)), &vals)
                    .execute(&mut **t)
                    .await?
                    .rows_affected()
            }
            Tx::Postgres(t) => {
                let q = bind_vals!(sqlx::query(sqlx::AssertSqlSafe(sql)), fixed);
                q.bind(chunk).execute(&mut **t).await?.rows_affected()
            }
        };
    }
    Ok(affected)
}

/// The list in pieces one statement can take: one piece on PostgreSQL (an array parameter).
fn list_chunks<'l, 'v>(tx: &Tx, fixed: usize, list: &'l [&'v str]) -> Vec<&'l [&'v str]> {
    match tx {
        _ if list.is_empty() => Vec::new(),
        Tx::Sqlite(_) => list.chunks(MAX_PARAMS - fixed).collect(),
        Tx::Postgres(_) => vec![list],
    }
}

/// The fixed parameters followed by each list value as its own parameter (SQLite).
fn with_list<'v>(fixed: &[Val<'v>], list: &[&'v str]) -> Vec<Val<'v>> {
    fixed
        .iter()
        .copied()
        .chain(list.iter().map(|v| Val::Text(Some(*v))))
        .collect()
}

/// Sets up a SQLite connection for a bulk load, for the rest of its life: statement journals
/// in memory, a larger page cache (256 MiB), reads through a memory map (2 GiB) instead of a
/// read call per page, and a checkpoint every 100,000 WAL pages instead of every 1,000 (the
/// profile of a scale-`l` import showed a fifth of the time in checkpoints, which write each page
/// changed since the last one: fewer checkpoints write a page changed by many batches once).
/// Journaling and durability settings are left as they are. No-op on PostgreSQL.
pub async fn tune_for_bulk(tx: &mut Tx) -> Result<(), StoreError> {
    if let Tx::Sqlite(t) = tx {
        for pragma in [
            "PRAGMA temp_store = MEMORY",
            "PRAGMA cache_size = -262144",
            "PRAGMA mmap_size = 2147483648",
            "PRAGMA wal_autocheckpoint = 100000",
        ] {
            sqlx::query(pragma).execute(&mut **t).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_numbered_in_order_across_the_template() {
        let stmt = RowStatement {
            head: "INSERT INTO t (a, b) VALUES ",
            template: "(?, lower(?))",
            tail: " ON CONFLICT DO NOTHING",
        };
        let sql = stmt.sql(2);
        assert_eq!(
            sql,
            "INSERT INTO t (a, b) VALUES (?, lower(?)), (?, lower(?)) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            numbered(&sql),
            "INSERT INTO t (a, b) VALUES ($1, lower($2)), ($3, lower($4)) ON CONFLICT DO NOTHING"
        );
        assert_eq!(stmt.rows_per_statement(), MAX_ROWS.min(MAX_PARAMS / 2));
    }

    #[test]
    fn wide_rows_stay_under_the_parameter_limit() {
        let template = format!("({})", vec!["?"; 100].join(", "));
        let stmt = RowStatement {
            head: "",
            template: &template,
            tail: "",
        };
        assert_eq!(stmt.rows_per_statement(), 320);
    }
}
