//! A small builder for dynamic SQL: conditions joined by AND, with `$n` parameters numbered as
//! they are added, runnable on either backend.

use std::sync::Arc;

use super::count_cache::{AnswerCache, CountCache};
use super::{Db, StoreError, saved_counts};

/// A parameter value of a built query.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    Text(String),
    Int(i64),
    Float(f64),
}

/// Conditions and their parameters, in order.
#[derive(Debug, Clone, Default)]
pub struct Conditions {
    clauses: Vec<String>,
    binds: Vec<Bind>,
}

impl Conditions {
    /// Adds a parameter and returns its placeholder (`$n`).
    pub fn bind(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    /// Adds a text parameter and returns its placeholder.
    pub fn text(&mut self, value: impl Into<String>) -> String {
        self.bind(Bind::Text(value.into()))
    }

    /// Adds an integer parameter and returns its placeholder.
    pub fn int(&mut self, value: i64) -> String {
        self.bind(Bind::Int(value))
    }

    /// Adds a floating-point parameter and returns its placeholder.
    pub fn float(&mut self, value: f64) -> String {
        self.bind(Bind::Float(value))
    }

    /// Adds a list of text parameters and returns `$a, $b, …`.
    pub fn text_list(&mut self, values: &[String]) -> String {
        values
            .iter()
            .map(|v| self.text(v.clone()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Adds a condition that must hold.
    pub fn and(&mut self, clause: impl Into<String>) {
        self.clauses.push(clause.into());
    }

    /// How many conditions are joined.
    pub fn len(&self) -> usize {
        self.clauses.len()
    }

    /// True when no condition is set.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The conditions added so far, joined by AND (`1 = 1` when none).
    pub fn conjunction(&self) -> String {
        if self.clauses.is_empty() {
            "1 = 1".to_string()
        } else {
            self.clauses.join(" AND ")
        }
    }

    /// ` WHERE a AND b …`, or nothing.
    pub fn where_clause(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.clauses.join(" AND "))
        }
    }

    /// The parameters, in placeholder order.
    pub fn binds(&self) -> &[Bind] {
        &self.binds
    }
}

/// Binds every parameter onto a query of either backend.
macro_rules! bind_all {
    ($query:expr, $binds:expr) => {{
        let mut query = $query;
        for bind in $binds {
            query = match bind {
                Bind::Text(s) => query.bind(s.clone()),
                Bind::Int(i) => query.bind(*i),
                Bind::Float(f) => query.bind(*f),
            };
        }
        query
    }};
}

/// Runs a built SELECT and decodes every row.
pub async fn fetch_all<R>(db: &Db, sql: String, binds: &[Bind]) -> Result<Vec<R>, StoreError>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
        + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
        + Send
        + Unpin,
{
    Ok(crate::on_db!(db, |pool| bind_all!(
        sqlx::query_as::<_, R>(sqlx::AssertSqlSafe(sql)),
        binds
    )
    .fetch_all(pool)
    .await)?)
}

/// Runs a built `SELECT COUNT(*) …`.
pub async fn fetch_count(db: &Db, sql: String, binds: &[Bind]) -> Result<i64, StoreError> {
    Ok(crate::on_db!(db, |pool| bind_all!(
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)),
        binds
    )
    .fetch_one(pool)
    .await)?)
}

/// Runs a built count, or answers it from `cache` (else from the counts saved in the database)
/// when the list data has not changed since. A count computed here is saved for the next start.
pub async fn cached_count(
    db: &Db,
    cache: &AnswerCache<'_>,
    sql: String,
    binds: &[Bind],
) -> Result<i64, StoreError> {
    let version = cache.version(db).await?;
    let key = CountCache::key(&sql, binds);
    if let Some(count) = cache.get(&key, version) {
        return Ok(count);
    }
    if let Some(count) = saved_counts::find(db, &key, version).await? {
        cache.put(key, version, count);
        return Ok(count);
    }
    let count = fetch_count(db, sql.clone(), binds).await?;
    cache.put(key.clone(), version, count);
    if let Err(err) = saved_counts::save(db, &key, &sql, binds, version, count).await {
        tracing::warn!(error = %err, "a list count was not saved");
    }
    Ok(count)
}

/// The rows of a page query, with what identifies them in the cache: the query and the list
/// data version they were read at.
#[derive(Debug)]
pub struct CachedRows<R> {
    pub rows: Arc<Vec<R>>,
    key: String,
    version: i64,
}

impl<R> CachedRows<R> {
    /// The records made from these rows the same way (`how`, which names everything the making
    /// reads besides the rows), kept by [`CachedRows::keep_records`] while the list data is
    /// unchanged. A repeated page then costs neither its query nor its records' making.
    pub fn records<T: Send + Sync + 'static>(
        &self,
        cache: &CountCache,
        how: &str,
    ) -> Option<Arc<Vec<T>>> {
        cache.page::<T>(&self.records_key(how), self.version)
    }

    /// Keeps the records made from these rows `how` for [`CachedRows::records`]; `size`
    /// estimates the bytes a record holds, for the cache's budget.
    pub fn keep_records<T: Send + Sync + 'static>(
        &self,
        cache: &CountCache,
        how: &str,
        records: Vec<T>,
        size: impl Fn(&T) -> usize,
    ) -> Arc<Vec<T>> {
        let key = self.records_key(how);
        let bytes = records.iter().map(size).sum::<usize>() + key.len();
        let records = Arc::new(records);
        cache.put_page(key, self.version, Arc::clone(&records), bytes);
        records
    }

    fn records_key(&self, how: &str) -> String {
        format!("{how}\u{1}{}", self.key)
    }
}

/// Runs a built SELECT, or answers it from `cache` when the list data has not changed since;
/// `size` estimates the bytes a row holds, for the cache's budget. The rows are shared with the
/// cache: an answer from it copies none of them.
pub async fn cached_fetch_all<R>(
    db: &Db,
    cache: &AnswerCache<'_>,
    sql: String,
    binds: &[Bind],
    size: impl Fn(&R) -> usize,
) -> Result<CachedRows<R>, StoreError>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
        + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
        + Send
        + Sync
        + Unpin
        + 'static,
{
    let version = cache.version(db).await?;
    let key = CountCache::key(&sql, binds);
    let rows = match cache.page::<R>(&key, version) {
        Some(rows) => rows,
        None => {
            let rows: Vec<R> = fetch_all(db, sql, binds).await?;
            let bytes = rows.iter().map(&size).sum::<usize>() + key.len();
            let rows = Arc::new(rows);
            cache.put_page(key.clone(), version, Arc::clone(&rows), bytes);
            rows
        }
    };
    Ok(CachedRows { rows, key, version })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_the_order_parameters_are_added() {
        let mut c = Conditions::default();
        let a = c.text("x");
        let list = c.text_list(&["y".into(), "z".into()]);
        let n = c.int(5);
        c.and(format!("a = {a}"));
        c.and(format!("b IN ({list}) AND n > {n}"));
        assert_eq!(
            c.where_clause(),
            " WHERE a = $1 AND b IN ($2, $3) AND n > $4"
        );
        assert_eq!(c.binds().len(), 4);
    }
}
