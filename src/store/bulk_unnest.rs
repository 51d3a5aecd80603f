//! Multi-row statements on PostgreSQL as one `SELECT … FROM UNNEST($1::text[], …)`: one array
//! parameter per column instead of one parameter per value. The statement text then depends only
//! on the statement, not on the number of rows, so the server parses and plans it once per
//! connection, and a batch of any size is one round trip. Statements of many rows read them
//! from a staging table filled by `COPY` instead (see `bulk_copy`).

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::{Query, QueryAs};
use sqlx::{FromRow, PgConnection, Postgres};

use super::StoreError;
use super::bulk::{RowStatement, Val};
use super::bulk_copy::{self, COPY_ROWS};

/// One column's values, of the type its first value has.
pub(super) enum Column<'a> {
    Text(Vec<Option<&'a str>>),
    Int(Vec<Option<i64>>),
    Bool(Vec<bool>),
}

impl Column<'_> {
    /// Values in the column.
    pub(super) fn len(&self) -> usize {
        match self {
            Column::Text(v) => v.len(),
            Column::Int(v) => v.len(),
            Column::Bool(v) => v.len(),
        }
    }

    pub(super) fn sql_type(&self) -> &'static str {
        match self {
            Column::Text(_) => "text",
            Column::Int(_) => "bigint",
            Column::Bool(_) => "boolean",
        }
    }
}

/// The values (rows laid out one after another, `width` each) as columns; `None` when a column
/// mixes value types, which no statement here does.
fn columns<'a>(values: &[Val<'a>], width: usize) -> Option<Vec<Column<'a>>> {
    let rows = values.len() / width;
    let mut columns: Vec<Column<'a>> = values[..width]
        .iter()
        .map(|v| match v {
            Val::Text(_) => Column::Text(Vec::with_capacity(rows)),
            Val::Int(_) => Column::Int(Vec::with_capacity(rows)),
            Val::Bool(_) => Column::Bool(Vec::with_capacity(rows)),
        })
        .collect();
    for row in values.chunks(width) {
        for (column, value) in columns.iter_mut().zip(row) {
            match (column, *value) {
                (Column::Text(c), Val::Text(v)) => c.push(v),
                (Column::Int(c), Val::Int(v)) => c.push(v),
                (Column::Bool(c), Val::Bool(v)) => c.push(v),
                _ => return None,
            }
        }
    }
    Some(columns)
}

/// The template's expressions, each `?` replaced by its column of `u`: `(?, lower(?))` gives
/// `u1, lower(u2)`; also the number of expressions (commas outside parentheses and quotes).
fn select_list(template: &str) -> (String, usize) {
    let inner = template.trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(inner);
    let (mut out, mut n, mut depth, mut quoted, mut items) = (String::new(), 0, 0, false, 1);
    for ch in inner.chars() {
        match ch {
            '?' if !quoted => {
                n += 1;
                out.push_str(&format!("u{n}"));
                continue;
            }
            '\'' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => items += 1,
            _ => {}
        }
        out.push(ch);
    }
    (out, items)
}

/// The statement rewritten over `UNNEST` for columns of `types`, or `None` when its shape is
/// not one of the two this knows: `… VALUES ` + rows + tail, and `… FROM (VALUES ` + rows +
/// `) AS v …` (whose columns are then named `column1, column2, …` as VALUES names them).
fn unnest_sql(stmt: &RowStatement<'_>, types: &[&str]) -> Option<String> {
    let arrays: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("${}::{t}[]", i + 1))
        .collect();
    let names: Vec<String> = (1..=types.len()).map(|i| format!("u{i}")).collect();
    let source = format!("UNNEST({}) AS u({})", arrays.join(", "), names.join(", "));
    rows_from(stmt, &source)
}

/// The statement rewritten to read its rows from `table`, whose columns are `u1, u2, …` (a
/// staging table, see `bulk_copy`); `None` as for [`unnest_sql`].
pub(super) fn staged_sql(stmt: &RowStatement<'_>, table: &str) -> Option<String> {
    rows_from(stmt, &format!("{table} AS u"))
}

/// The statement with its rows selected from `source`, a relation named `u` with columns `u1,
/// u2, …`.
fn rows_from(stmt: &RowStatement<'_>, source: &str) -> Option<String> {
    let (list, items) = select_list(stmt.template);
    let select = format!("SELECT {list} FROM {source}");
    let head = stmt.head.trim_end();
    if let Some(head) = head.strip_suffix("(VALUES") {
        let rest = stmt.tail.strip_prefix(") AS v")?;
        let columns: Vec<String> = (1..=items).map(|i| format!("column{i}")).collect();
        return Some(format!(
            "{head}({select}) AS v({}){rest}",
            columns.join(", ")
        ));
    }
    let head = head.strip_suffix("VALUES")?;
    Some(format!("{head}{select}{}", stmt.tail))
}

/// The SQL of `stmt` over `values` and the column arrays to bind to it, when it can be written
/// over UNNEST. From [`COPY_ROWS`] rows the values are copied into a staging table first and
/// the SQL reads them from there: nothing is left to bind.
pub(super) async fn prepare<'a>(
    conn: &mut PgConnection,
    stmt: &RowStatement<'_>,
    values: &[Val<'a>],
    width: usize,
) -> Result<Option<(String, Vec<Column<'a>>)>, StoreError> {
    let Some(columns) = columns(values, width) else {
        return Ok(None);
    };
    let rows = columns.first().map_or(0, Column::len);
    if rows >= COPY_ROWS && staged_sql(stmt, "u").is_some() {
        let table = bulk_copy::stage(conn, &columns).await?;
        return Ok(staged_sql(stmt, &table).map(|sql| (sql, Vec::new())));
    }
    let types: Vec<&str> = columns.iter().map(Column::sql_type).collect();
    Ok(unnest_sql(stmt, &types).map(|sql| (sql, columns)))
}

/// Binds the column arrays onto a statement.
pub(super) fn bind<'q>(
    mut q: Query<'q, Postgres, PgArguments>,
    columns: Vec<Column<'q>>,
) -> Query<'q, Postgres, PgArguments> {
    for column in columns {
        q = match column {
            Column::Text(v) => q.bind(v),
            Column::Int(v) => q.bind(v),
            Column::Bool(v) => q.bind(v),
        };
    }
    q
}

/// Binds the column arrays onto a query that returns rows.
pub(super) fn bind_as<'q, T>(
    mut q: QueryAs<'q, Postgres, T, PgArguments>,
    columns: Vec<Column<'q>>,
) -> QueryAs<'q, Postgres, T, PgArguments>
where
    T: for<'r> FromRow<'r, PgRow>,
{
    for column in columns {
        q = match column {
            Column::Text(v) => q.bind(v),
            Column::Int(v) => q.bind(v),
            Column::Bool(v) => q.bind(v),
        };
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_insert_reads_its_rows_from_one_array_per_column() {
        let stmt = RowStatement {
            head: "INSERT INTO t (a, b, c) VALUES ",
            template: "(?, COALESCE(?, '[]'), 'x, y')",
            tail: " ON CONFLICT DO NOTHING",
        };
        assert_eq!(
            unnest_sql(&stmt, &["text", "bigint"]).as_deref(),
            Some(
                "INSERT INTO t (a, b, c) SELECT u1, COALESCE(u2, '[]'), 'x, y' \
                 FROM UNNEST($1::text[], $2::bigint[]) AS u(u1, u2) ON CONFLICT DO NOTHING"
            )
        );
    }

    #[test]
    fn an_update_from_values_keeps_the_values_column_names() {
        let stmt = RowStatement {
            head: "UPDATE t SET b = v.column2 FROM (VALUES ",
            template: "(?, ?)",
            tail: ") AS v WHERE t.a = v.column1",
        };
        assert_eq!(
            unnest_sql(&stmt, &["text", "boolean"]).as_deref(),
            Some(
                "UPDATE t SET b = v.column2 FROM (SELECT u1, u2 FROM \
                 UNNEST($1::text[], $2::boolean[]) AS u(u1, u2)) AS v(column1, column2) \
                 WHERE t.a = v.column1"
            )
        );
    }

    #[test]
    fn mixed_value_types_in_a_column_are_refused() {
        let values = [Val::Int(Some(1)), Val::Text(None)];
        assert!(columns(&values, 1).is_none());
    }
}
