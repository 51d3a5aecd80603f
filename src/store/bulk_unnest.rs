//! Multi-row statements on PostgreSQL as one `SELECT … FROM UNNEST($1::text[], …)`: one array
//! parameter per column instead of one parameter per value. The statement text then depends only
//! on the statement, not on the number of rows, so the server parses and plans it once per
//! connection, and a batch of any size is one round trip.

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::{Query, QueryAs};
use sqlx::{FromRow, Postgres};

use super::bulk::{RowStatement, Val};

/// One column's values, of the type its first value has.
pub(super) enum Column<'a> {
    Text(Vec<Option<&'a str>>),
    Int(Vec<Option<i64>>),
    Bool(Vec<bool>),
}

impl Column<'_> {
    fn sql_type(&self) -> &'static str {
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
            Val::Text(_) | Val::Shared(_) => Column::Text(Vec::with_capacity(rows)),
            Val::Int(_) => Column::Int(Vec::with_capacity(rows)),
            Val::Bool(_) => Column::Bool(Vec::with_capacity(rows)),
        })
        .collect();
    for row in values.chunks(width) {
        for (column, value) in columns.iter_mut().zip(row) {
            match (column, *value) {
                (Column::Text(c), Val::Text(v)) => c.push(v),
                (Column::Text(c), Val::Shared(v)) => c.push(Some(&**v)),
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

/// The statement rewritten over `UNNEST` for columns of `types`, its array parameters numbered
/// from `$first`, or `None` when its shape is not one of the two this knows: `… VALUES ` + rows
/// + tail, and `… FROM (VALUES ` + rows + `) AS v …` (whose columns are then named `column1,
/// column2, …` as VALUES names them).
fn unnest_sql(stmt: &RowStatement<'_>, types: &[&str], first: usize) -> Option<String> {
    let arrays: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("${}::{t}[]", first + i))
        .collect();
    let names: Vec<String> = (1..=types.len()).map(|i| format!("u{i}")).collect();
    let (list, items) = select_list(stmt.template);
    let select = format!(
        "SELECT {list} FROM UNNEST({}) AS u({})",
        arrays.join(", "),
        names.join(", ")
    );
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

/// `sql` (from [`prepare`]) with its first array read through a scalar subquery, which the
/// planner does not look into: it then estimates the same rows for any batch, where it would
/// count each batch's elements, and PostgreSQL's plan cache, finding every plan of the
/// statement costed alike, keeps one generic plan instead of planning each execution again for
/// its number of rows. Only for statements whose plan does not depend on that number.
pub(super) fn planned_once(sql: &str) -> String {
    sql.replacen("UNNEST($1::", "UNNEST((SELECT $1)::", 1)
}

/// The SQL and the column arrays of `stmt` over `values`, when it can be written over UNNEST.
pub(super) fn prepare<'a>(
    stmt: &RowStatement<'_>,
    values: &[Val<'a>],
    width: usize,
) -> Option<(String, Vec<Column<'a>>)> {
    prepare_from(stmt, values, width, 1)
}

/// As [`prepare`], the array parameters numbered from `$first` (for a statement that binds
/// others before them).
pub(super) fn prepare_from<'a>(
    stmt: &RowStatement<'_>,
    values: &[Val<'a>],
    width: usize,
    first: usize,
) -> Option<(String, Vec<Column<'a>>)> {
    let columns = columns(values, width)?;
    let types: Vec<&str> = columns.iter().map(Column::sql_type).collect();
    Some((unnest_sql(stmt, &types, first)?, columns))
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
            unnest_sql(&stmt, &["text", "bigint"], 1).as_deref(),
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
            unnest_sql(&stmt, &["text", "boolean"], 1).as_deref(),
            Some(
                "UPDATE t SET b = v.column2 FROM (SELECT u1, u2 FROM \
                 UNNEST($1::text[], $2::boolean[]) AS u(u1, u2)) AS v(column1, column2) \
                 WHERE t.a = v.column1"
            )
        );
    }

    #[test]
    fn a_statement_planned_once_reads_its_first_array_through_a_subquery() {
        let stmt = RowStatement {
            head: "INSERT INTO t (a, b) VALUES ",
            template: "(?, ?)",
            tail: "",
        };
        let sql = unnest_sql(&stmt, &["text", "text"], 1).expect("unnest");
        assert_eq!(
            planned_once(&sql),
            "INSERT INTO t (a, b) SELECT u1, u2 \
             FROM UNNEST((SELECT $1)::text[], $2::text[]) AS u(u1, u2)"
        );
    }

    #[test]
    fn shared_and_borrowed_texts_fill_one_text_column() {
        let payload: std::sync::Arc<str> = "{\"title\":\"CTO\"}".into();
        let values = [Val::shared(&payload), Val::text("plain"), Val::Text(None)];
        let columns = columns(&values, 1).expect("one text column");
        match columns.as_slice() {
            [Column::Text(texts)] => {
                assert_eq!(texts, &[Some("{\"title\":\"CTO\"}"), Some("plain"), None]);
            }
            _ => panic!("expected one text column"),
        }
    }

    #[test]
    fn mixed_value_types_in_a_column_are_refused() {
        let values = [Val::Int(Some(1)), Val::Text(None)];
        assert!(columns(&values, 1).is_none());
    }
}
