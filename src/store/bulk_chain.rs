//! Multi-row inserts and a closing statement sent together. On PostgreSQL they are one statement
//! of data-modifying `WITH` clauses (each insert over `UNNEST`, see `bulk_unnest`) ending with
//! the closing statement: one round trip, one plan, where one statement each would pay a round
//! trip and the server's per-statement work apiece. On SQLite (one process, no network) they run
//! one after another.
//!
//! Only for writes that nothing in the same statement reads: the clauses of one PostgreSQL
//! statement do not see each other's rows (a foreign key between them is checked at its end,
//! when they do).

use super::bulk::{RowStatement, Val, bind_vals, execute_rows, for_backend, numbered_from};
use super::bulk_unnest::{Column, bind, prepare_from};
use super::{StoreError, Tx};
use crate::on_tx;

/// Inserts gathered to be sent with a closing statement ([`Chain::run`]).
#[derive(Debug, Default)]
pub struct Chain<'a> {
    inserts: Vec<(RowStatement<'a>, Vec<Val<'a>>)>,
}

impl<'a> Chain<'a> {
    /// An empty chain.
    pub fn new() -> Chain<'a> {
        Chain::default()
    }

    /// Adds `stmt` over `values` (rows laid out one after another); nothing for no values.
    pub fn insert(&mut self, stmt: RowStatement<'a>, values: Vec<Val<'a>>) {
        if !values.is_empty() {
            self.inserts.push((stmt, values));
        }
    }

    /// Runs the inserts in order, then `last` (its parameters written `?`, bound from
    /// `last_values`).
    pub async fn run(
        self,
        tx: &mut Tx,
        last: &str,
        last_values: &[Val<'_>],
    ) -> Result<(), StoreError> {
        if let Tx::Postgres(conn) = tx
            && let Some((sql, columns)) = self.as_one_statement(last)
        {
            let q = bind(sqlx::query(sqlx::AssertSqlSafe(sql)), columns);
            bind_vals!(q, last_values).execute(&mut **conn).await?;
            return Ok(());
        }
        for (stmt, values) in &self.inserts {
            execute_rows(tx, stmt, values).await?;
        }
        let last = for_backend(tx, last);
        on_tx!(tx, |conn| bind_vals!(
            sqlx::query(sqlx::AssertSqlSafe(last)),
            last_values
        )
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
        Ok(())
    }

    /// The PostgreSQL statement and its column arrays (the closing statement's parameters come
    /// after them); `None` when an insert cannot be written over `UNNEST`.
    fn as_one_statement(&self, last: &str) -> Option<(String, Vec<Column<'a>>)> {
        let mut clauses = Vec::with_capacity(self.inserts.len());
        let mut columns = Vec::new();
        for (n, (stmt, values)) in self.inserts.iter().enumerate() {
            let (sql, mut cols) = prepare_from(stmt, values, stmt.width(), columns.len() + 1)?;
            clauses.push(format!("w{} AS ({sql})", n + 1));
            columns.append(&mut cols);
        }
        let last = numbered_from(last, columns.len() + 1);
        let sql = match clauses.is_empty() {
            true => last,
            false => format!("WITH {} {last}", clauses.join(", ")),
        };
        Some((sql, columns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVENTS: RowStatement<'static> = RowStatement {
        head: "INSERT INTO e (id, n) VALUES ",
        template: "(?, ?)",
        tail: "",
    };
    const LINKS: RowStatement<'static> = RowStatement {
        head: "INSERT INTO l (id) VALUES ",
        template: "(?)",
        tail: " ON CONFLICT DO NOTHING",
    };

    #[test]
    fn inserts_become_with_clauses_numbered_on_before_the_closing_statement() {
        let mut chain = Chain::new();
        chain.insert(EVENTS, vec![Val::text("a"), Val::Int(Some(1))]);
        chain.insert(LINKS, vec![]);
        chain.insert(LINKS, vec![Val::text("a"), Val::text("b")]);
        let (sql, columns) = chain
            .as_one_statement("UPDATE v SET n = n + 1 WHERE id = ?")
            .expect("one statement");
        assert_eq!(
            sql,
            "WITH w1 AS (INSERT INTO e (id, n) SELECT u1, u2 FROM UNNEST($1::text[], \
             $2::bigint[]) AS u(u1, u2)), w2 AS (INSERT INTO l (id) SELECT u1 FROM \
             UNNEST($3::text[]) AS u(u1) ON CONFLICT DO NOTHING) \
             UPDATE v SET n = n + 1 WHERE id = $4"
        );
        assert_eq!(columns.len(), 3);
    }

    #[test]
    fn a_chain_without_rows_is_the_closing_statement_alone() {
        let (sql, columns) = Chain::new()
            .as_one_statement("UPDATE v SET n = n + 1 WHERE id = ?")
            .expect("one statement");
        assert_eq!(sql, "UPDATE v SET n = n + 1 WHERE id = $1");
        assert!(columns.is_empty());
    }
}
