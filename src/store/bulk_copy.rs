//! Large multi-row statements on PostgreSQL fed by `COPY`: the rows go into a temporary staging
//! table of the statement's column types in PostgreSQL's text format (one stream, parsed by the
//! server's `COPY` code instead of as array parameters), and the statement then reads them from
//! there as it would from `UNNEST` (see `bulk_unnest`). The staging step keeps every statement's
//! derived columns, joins and `ON CONFLICT` clauses as they are: a plain `COPY` into the target
//! table could do none of them.
//!
//! A staging table is made once per connection and column types (`CREATE TEMP TABLE IF NOT
//! EXISTS`), emptied before each use and at every commit, and lives as long as the connection.

use sqlx::PgConnection;

use super::StoreError;
use super::bulk_unnest::Column;

/// Rows from which a statement's values go through `COPY` rather than array parameters: the
/// import's batches (thousands of rows), not the API's groups of a few.
pub(super) const COPY_ROWS: usize = 1_000;

/// Copies `columns` into the staging table of their types, emptied first, and returns the
/// table's name, whose columns are `u1, u2, …`.
pub(super) async fn stage(
    conn: &mut PgConnection,
    columns: &[Column<'_>],
) -> Result<String, StoreError> {
    let name = staging_table(columns);
    let definition: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("u{} {}", i + 1, c.sql_type()))
        .collect();
    let create = format!(
        "CREATE TEMP TABLE IF NOT EXISTS {name} ({}) ON COMMIT DELETE ROWS",
        definition.join(", ")
    );
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "SET LOCAL client_min_messages = warning; {create}; TRUNCATE {name}"
    )))
    .execute(&mut *conn)
    .await?;
    let mut copy = conn.copy_in_raw(&format!("COPY {name} FROM STDIN")).await?;
    copy.send(encode(columns)).await?;
    copy.finish().await?;
    Ok(name)
}

/// The staging table for columns of these types: one letter a column (`t`ext, `i`nteger,
/// `b`oolean).
fn staging_table(columns: &[Column<'_>]) -> String {
    let types: String = columns
        .iter()
        .map(|c| match c {
            Column::Text(_) => 't',
            Column::Int(_) => 'i',
            Column::Bool(_) => 'b',
        })
        .collect();
    format!("bulk_stage_{types}")
}

/// The rows of `columns` in `COPY`'s text format: a line a row, values separated by tabs,
/// `\N` for a null, backslash, tab and line breaks escaped.
fn encode(columns: &[Column<'_>]) -> Vec<u8> {
    let rows = columns.first().map_or(0, Column::len);
    let mut out = Vec::with_capacity(rows * columns.len() * 12);
    for row in 0..rows {
        for (i, column) in columns.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            match column {
                Column::Text(values) => match values[row] {
                    Some(text) => escape_into(&mut out, text),
                    None => out.extend_from_slice(b"\\N"),
                },
                Column::Int(values) => match values[row] {
                    Some(value) => out.extend_from_slice(value.to_string().as_bytes()),
                    None => out.extend_from_slice(b"\\N"),
                },
                Column::Bool(values) => out.push(if values[row] { b't' } else { b'f' }),
            }
        }
        out.push(b'\n');
    }
    out
}

/// Appends `text` escaped for `COPY`'s text format.
fn escape_into(out: &mut Vec<u8>, text: &str) {
    for &byte in text.as_bytes() {
        match byte {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(byte),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_tab_separated_lines_with_nulls_and_escapes() {
        let columns = vec![
            Column::Text(vec![Some("a\tb\\c"), None]),
            Column::Int(vec![Some(-42), None]),
            Column::Bool(vec![true, false]),
            Column::Text(vec![Some("line\r\nnext"), Some("\\N")]),
        ];
        assert_eq!(
            String::from_utf8(encode(&columns)).unwrap(),
            "a\\tb\\\\c\t-42\tt\tline\\r\\nnext\n\\N\t\\N\tf\t\\\\N\n"
        );
    }

    #[test]
    fn a_staging_table_is_named_for_its_column_types() {
        let columns = vec![
            Column::Text(vec![]),
            Column::Int(vec![]),
            Column::Bool(vec![]),
        ];
        assert_eq!(staging_table(&columns), "bulk_stage_tib");
    }

    /// The awkward text of row `i`: tabs, line breaks, backslashes, a `\N` that is not a null,
    /// and letters beyond ASCII; every seventh row has none.
    fn awkward(i: usize) -> Option<String> {
        (!i.is_multiple_of(7)).then(|| format!("row {i}\tTab\there\nnew\r\\N \\ é✓"))
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn many_rows_go_through_copy_and_arrive_exactly_as_sent() {
        use crate::store::bulk::{RowStatement, Val, execute_rows, fetch_rows};
        use crate::store::{Db, Tx};

        let url = std::env::var("SIGNALWATCH_TEST_POSTGRES_URL")
            .expect("SIGNALWATCH_TEST_POSTGRES_URL names the PostgreSQL server");
        let db = Db::connect(&url).await.expect("connect");
        let mut tx = db.begin_write().await.expect("a transaction");
        let Tx::Postgres(t) = &mut tx else {
            panic!("a PostgreSQL URL gives a PostgreSQL transaction");
        };
        sqlx::query(
            "CREATE TEMP TABLE copied (k bigint PRIMARY KEY, a text, upper_a text, flag boolean) \
             ON COMMIT DROP",
        )
        .execute(&mut **t)
        .await
        .unwrap();
        let rows = COPY_ROWS + 500;
        let texts: Vec<Option<String>> = (0..rows).map(awkward).collect();
        let mut values = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let k = i64::try_from(i).unwrap() - 3;
            values.extend([Val::Int(Some(k)), Val::opt(text), Val::opt(text)]);
            values.push(Val::Bool(i.is_multiple_of(2)));
        }
        let insert = RowStatement {
            head: "INSERT INTO copied (k, a, upper_a, flag) VALUES ",
            template: "(?, ?, upper(?), ?)",
            tail: "",
        };
        let inserted = execute_rows(&mut tx, &insert, &values).await.unwrap();
        assert_eq!(inserted, rows as u64);
        let Tx::Postgres(t) = &mut tx else {
            unreachable!()
        };
        let staged: Option<String> =
            sqlx::query_scalar("SELECT to_regclass('pg_temp.bulk_stage_ittb')::text")
                .fetch_one(&mut **t)
                .await
                .unwrap();
        assert!(staged.is_some(), "the rows went through the staging table");
        let stored: Vec<(i64, Option<String>, Option<String>, bool)> =
            sqlx::query_as("SELECT k, a, upper_a, flag FROM copied ORDER BY k")
                .fetch_all(&mut **t)
                .await
                .unwrap();
        assert_eq!(stored.len(), rows);
        for (i, (k, a, upper_a, flag)) in stored.into_iter().enumerate() {
            assert_eq!(k, i64::try_from(i).unwrap() - 3);
            assert_eq!(a, texts[i], "row {i}");
            assert_eq!(upper_a, texts[i].as_ref().map(|t| t.to_uppercase()));
            assert_eq!(flag, i.is_multiple_of(2));
        }
        // A statement that returns rows reads them back through the staging table too.
        let upsert = RowStatement {
            head: "INSERT INTO copied (k, a, upper_a, flag) VALUES ",
            template: "(?, ?, ?, ?)",
            tail: " ON CONFLICT (k) DO UPDATE SET flag = excluded.flag RETURNING k, (xmax = 0)",
        };
        let returned: Vec<(i64, bool)> = fetch_rows(&mut tx, &upsert, &values).await.unwrap();
        assert_eq!(returned.len(), rows);
        assert!(
            returned.iter().all(|(_, inserted)| !inserted),
            "every row existed"
        );
        tx.commit().await.unwrap();
    }
}
