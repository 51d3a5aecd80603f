//! The SQLite and PostgreSQL schemas cannot drift apart: both are migrated from scratch and their
//! catalogs compared — tables, columns (name, nullability, broad type) and indexes (table,
//! columns, uniqueness, partial or not). What differs on purpose is listed below with its reason;
//! anything else fails with the facts found on one side only.

use std::collections::BTreeSet;
use std::path::Path;

use signalwatch::store::Db;
use sqlx::{PgPool, SqlitePool};

use crate::support::Backend;

/// Facts about the SQLite schema that PostgreSQL has no twin of, and why. (SQLite's FTS5 virtual
/// tables and their shadow tables are left out wholesale: PostgreSQL searches with the tsvector
/// columns below instead.)
const ONLY_IN_SQLITE: &[(&str, &str)] = &[
    // Covering columns: SQLite's planner reads these list pages off the index alone.
    (
        "signal_tags index (tag, kind, signal_id)",
        "covering: tag filters and a kind's tag counts read signal ids off the index",
    ),
    (
        "signals index (kind, amount, id, company_country)",
        "covering: funding by amount",
    ),
    (
        "signals index (kind, company_country, occurred_at, round_type, amount, id)",
        "covering: funding by country and date",
    ),
    (
        "signals index (kind, discovered_at, id, company_country, country)",
        "covering: lists by discovery date",
    ),
    (
        "signals index (kind, occurred_at, id, company_country, country)",
        "covering: lists by date",
    ),
    (
        "companies index (employee_count, id, headquarters_country)",
        "covering: companies by country in employee order",
    ),
];

/// Facts about the PostgreSQL schema that SQLite has no twin of, and why.
const ONLY_IN_POSTGRES: &[(&str, &str)] = &[
    (
        "companies.name_tsv tsvector null",
        "full-text name search (SQLite: company_names FTS5)",
    ),
    ("companies index (name_tsv)", "GIN index of the name search"),
    (
        "companies index (<expression>)",
        "trigram index of the name's substrings (SQLite: company_names FTS5)",
    ),
    (
        "companies.search_tsv tsvector null",
        "full-text company search (SQLite: company_search)",
    ),
    (
        "companies index (search_tsv)",
        "GIN index of the company search",
    ),
    (
        "signals.description_tsv tsvector null",
        "full-text signal search (SQLite: signal_search)",
    ),
    (
        "signals index (description_tsv)",
        "GIN index of the description search",
    ),
    (
        "signals.search_tsv tsvector null",
        "full-text signal search (SQLite: signal_search)",
    ),
    (
        "signals index (search_tsv)",
        "GIN index of the signal search",
    ),
    (
        "signals index (<expression>)",
        "trigram indexes of the substring filters (SQLite: signal_substrings FTS5)",
    ),
    // The narrower twins of SQLite's covering indexes above.
    (
        "signal_tags index (tag)",
        "SQLite's has the kind and the signal id as covering columns",
    ),
    (
        "signals index (kind, amount)",
        "SQLite's covers id and country too",
    ),
    (
        "signals index (kind, company_country, occurred_at)",
        "SQLite's covers round and amount",
    ),
    (
        "signals index (kind, discovered_at, id)",
        "SQLite's covers the countries too",
    ),
    (
        "signals index (kind, occurred_at, id)",
        "SQLite's covers the countries too",
    ),
    (
        "companies index (employee_count, id)",
        "SQLite's covers the headquarters country",
    ),
];

/// Tables left out of the comparison altogether (a prefix of the name), and why.
const NOT_COMPARED: &[(&str, &str)] = &[
    (
        "_sqlx_migrations",
        "sqlx's own ledger: its types are the driver's business",
    ),
    (
        "sqlite_",
        "SQLite's internal tables (sequences, planner statistics)",
    ),
    (
        "bulk_signal_",
        "SQLite's bulk load stages signal company and tag rows here (PostgreSQL's writes them \
         into their tables)",
    ),
    (
        "bulk_restored_",
        "SQLite's bulk load notes here the signals a later batch stores again",
    ),
    (
        "search_facts",
        "what SQLite's full-text documents allow a count to skip (PostgreSQL plans its own)",
    ),
];

#[tokio::test]
#[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
async fn the_sqlite_and_postgresql_schemas_differ_only_where_meant_to() {
    let postgres = Backend::postgres();
    let sqlite_db = Backend::Sqlite.fresh_database().await;
    let postgres_db = postgres.fresh_database().await;
    let sqlite = match migrated(&sqlite_db.url).await {
        Db::Sqlite(sqlite) => sqlite_facts(sqlite.pool()).await,
        Db::Postgres(_) => unreachable!("a sqlite:// URL"),
    };
    let postgres = match migrated(&postgres_db.url).await {
        Db::Postgres(pool) => postgres_facts(&pool).await,
        Db::Sqlite(_) => unreachable!("a postgres:// URL"),
    };

    let mut report = String::new();
    report += &unexplained("only in SQLite", &sqlite, &postgres, ONLY_IN_SQLITE);
    report += &unexplained("only in PostgreSQL", &postgres, &sqlite, ONLY_IN_POSTGRES);
    assert!(report.is_empty(), "the schemas drifted apart:\n{report}");
}

#[test]
fn the_two_migration_folders_hold_the_same_numbers_and_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let sqlite = crate::support::file_names(&root.join("sqlite"));
    let postgres = crate::support::file_names(&root.join("postgres"));
    assert!(!sqlite.is_empty());
    assert_eq!(sqlite, postgres);
}

async fn migrated(url: &str) -> Db {
    let db = Db::connect(url).await.expect("connects");
    db.migrate().await.expect("migrates");
    db
}

/// The facts of `ours` missing from `theirs` and not explained by `meant`, one line each; an
/// explanation that no longer matches anything is reported too, so the list stays true.
fn unexplained(
    side: &str,
    ours: &BTreeSet<String>,
    theirs: &BTreeSet<String>,
    meant: &[(&str, &str)],
) -> String {
    let mut out = String::new();
    for fact in ours.difference(theirs) {
        if !meant.iter().any(|(known, _)| known == fact) {
            out += &format!("  {side}: {fact}\n");
        }
    }
    for (known, reason) in meant {
        if !ours.contains(*known) || theirs.contains(*known) {
            out += &format!("  {side}, listed as meant but not found: {known} ({reason})\n");
        }
    }
    out
}

fn compared(table: &str) -> bool {
    !NOT_COMPARED
        .iter()
        .any(|(prefix, _)| table.starts_with(prefix))
}

/// A column as compared: `table.column class null|not null`.
fn column_fact(table: &str, column: &str, class: &str, nullable: bool) -> String {
    let null = if nullable { "null" } else { "not null" };
    format!("{table}.{column} {class} {null}")
}

/// An index as compared: `table index (columns) [unique] [partial]`; its name is left out
/// (constraint-made indexes are named differently by the two databases).
fn index_fact(table: &str, columns: &[String], unique: bool, partial: bool) -> String {
    let mut fact = format!("{table} index ({})", columns.join(", "));
    if unique {
        fact += " unique";
    }
    if partial {
        fact += " partial";
    }
    fact
}

/// A SQLite declared type's class, by SQLite's own affinity rules (plus BOOLEAN, which both
/// backends' code binds as a bool).
fn sqlite_class(declared: &str) -> &'static str {
    let t = declared.to_ascii_uppercase();
    if t.contains("INT") {
        "integer"
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
        "text"
    } else if t.contains("BOOL") {
        "boolean"
    } else if t.is_empty() || t.contains("BLOB") {
        "blob"
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        "real"
    } else {
        "numeric"
    }
}

fn postgres_class(data_type: &str) -> String {
    match data_type {
        "text" | "character varying" | "character" => "text".into(),
        "bigint" | "integer" | "smallint" => "integer".into(),
        "double precision" | "real" => "real".into(),
        "numeric" => "numeric".into(),
        "boolean" => "boolean".into(),
        "bytea" => "blob".into(),
        other => other.to_string(),
    }
}

async fn sqlite_facts(pool: &SqlitePool) -> BTreeSet<String> {
    let tables: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("sqlite_master");
    let virtual_tables: Vec<&str> = tables
        .iter()
        .filter(|(_, sql)| sql.to_ascii_uppercase().starts_with("CREATE VIRTUAL"))
        .map(|(name, _)| name.as_str())
        .collect();
    // FTS5 tables and the shadow tables FTS5 keeps for each: PostgreSQL's tsvector columns do
    // their work.
    let full_text = |table: &str| {
        virtual_tables.iter().any(|v| {
            table == *v
                || ["_data", "_idx", "_content", "_docsize", "_config"]
                    .iter()
                    .any(|shadow| table == format!("{v}{shadow}"))
        })
    };
    let mut facts = BTreeSet::new();
    for (table, _) in tables.iter().filter(|(t, _)| compared(t) && !full_text(t)) {
        let table = table.as_str();
        facts.insert(format!("{table} table"));
        let columns: Vec<(String, String, bool, i64)> = sqlx::query_as(
            "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid",
        )
        .bind(table)
        .fetch_all(pool)
        .await
        .expect("table_info");
        for (name, declared, not_null, pk) in columns {
            // A primary key is never NULL in what the code writes; PostgreSQL enforces it.
            let nullable = !not_null && pk == 0;
            facts.insert(column_fact(table, &name, sqlite_class(&declared), nullable));
        }
        let indexes: Vec<(String, bool, bool)> =
            sqlx::query_as("SELECT name, \"unique\", partial FROM pragma_index_list(?)")
                .bind(table)
                .fetch_all(pool)
                .await
                .expect("index_list");
        for (index, unique, partial) in indexes {
            let columns: Vec<Option<String>> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
                    .bind(&index)
                    .fetch_all(pool)
                    .await
                    .expect("index_info");
            let columns: Vec<String> = columns
                .into_iter()
                .map(|c| c.unwrap_or_else(|| "<expression>".into()))
                .collect();
            facts.insert(index_fact(table, &columns, unique, partial));
        }
    }
    facts
}

async fn postgres_facts(pool: &PgPool) -> BTreeSet<String> {
    let mut facts = BTreeSet::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    .fetch_all(pool)
    .await
    .expect("tables");
    for table in tables.iter().filter(|t| compared(t)) {
        facts.insert(format!("{table} table"));
    }
    let columns: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, is_nullable::text, data_type::text \
         FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .fetch_all(pool)
    .await
    .expect("columns");
    for (table, column, nullable, data_type) in columns.into_iter().filter(|c| compared(&c.0)) {
        let class = postgres_class(&data_type);
        facts.insert(column_fact(&table, &column, &class, nullable == "YES"));
    }
    let indexes: Vec<(String, Vec<String>, bool, bool)> = sqlx::query_as(
        "SELECT t.relname::text, ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k, true) \
           FROM generate_series(1, ix.indnatts) AS k ORDER BY k), \
           ix.indisunique, ix.indpred IS NOT NULL \
         FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'",
    )
    .fetch_all(pool)
    .await
    .expect("indexes");
    for (table, columns, unique, partial) in indexes.into_iter().filter(|i| compared(&i.0)) {
        // SQLite's catalog does not spell out an indexed expression, only that there is one.
        let columns: Vec<String> = columns
            .into_iter()
            .map(|c| {
                if c.contains('(') {
                    "<expression>".into()
                } else {
                    c
                }
            })
            .collect();
        facts.insert(index_fact(&table, &columns, unique, partial));
    }
    facts
}
