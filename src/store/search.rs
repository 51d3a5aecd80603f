//! Full-text search on both backends: SQLite FTS5 (unicode61 tokenizer; the names' trigram table
//! is written here and read by `company_names`) and PostgreSQL tsvector. Each function returns a
//! SQL condition for the list builders, or writes the search documents of stored rows.

use std::sync::Arc;

use super::bulk::{RowStatement, Val, execute_in, execute_rows};
use super::query::Conditions;
use super::{Db, StoreError, Tx};
use crate::domain::keyword_query::KeywordQuery;

/// Lower-cased words (letters and digits) of free text.
pub fn words(text: &str) -> Vec<String> {
    text.split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Every word as a prefix, ANDed: FTS5 syntax.
fn fts5_prefixes(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("\"{w}\"*"))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// Every word as a prefix, ANDed: to_tsquery syntax.
fn tsquery_prefixes(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("{w}:*"))
        .collect::<Vec<_>>()
        .join(" & ")
}

/// Free-text match on a company (`alias`): on its name and industry when `name_industry_only`,
/// else also on description, keywords and specialties. Text without words matches nothing.
pub fn company_search_clause(
    c: &mut Conditions,
    db: &Db,
    alias: &str,
    text: &str,
    name_industry_only: bool,
) -> String {
    let words = words(text);
    if words.is_empty() {
        return "1 = 0".into();
    }
    match db {
        Db::Sqlite(_) => {
            let expr = fts5_prefixes(&words);
            let expr = if name_industry_only {
                format!("name_industry : ({expr})")
            } else {
                expr
            };
            let p = c.text(expr);
            format!(
                "{alias}.rowid IN (SELECT rowid FROM company_search WHERE company_search MATCH {p})"
            )
        }
        Db::Postgres(_) => {
            let p = c.text(tsquery_prefixes(&words));
            let column = if name_industry_only {
                "name_tsv"
            } else {
                "search_tsv"
            };
            format!("{alias}.{column} @@ to_tsquery('simple', {p})")
        }
    }
}

/// Free-text match of a posting or job change (`kind`) on its own text (job title and place, or
/// person and role) or on its company's name and industry, as one set of signals: those whose
/// own document matches, and the signals of the kind of the companies whose name or industry
/// does. Text without words matches nothing. It reads only the matches: an `OR` of the two sides
/// across the companies join had SQLite read every signal of the kind with its company (seconds
/// for a count at scale `l`). On PostgreSQL the two sides stay an `OR`, each row tested against
/// the matching companies' ids. The clause reads no `c` column, so the list needs no join for it.
pub fn own_or_company_search_clause(c: &mut Conditions, db: &Db, text: &str, kind: &str) -> String {
    let words = words(text);
    if words.is_empty() {
        return "1 = 0".into();
    }
    match db {
        Db::Sqlite(_) => {
            let own = c.text(format!("body : ({})", fts5_prefixes(&words)));
            let k = c.text(kind);
            let company = c.text(format!("name_industry : ({})", fts5_prefixes(&words)));
            // `+`: a page is read in list order off the date index, each row tested against
            // the matches, instead of reading every match and sorting (as for `description`).
            format!(
                "+s.rowid IN (SELECT rowid FROM signal_search WHERE signal_search MATCH {own} \
                 UNION SELECT s2.rowid FROM signals s2 WHERE s2.kind = {k} AND s2.company_id IN \
                 (SELECT c2.id FROM companies c2 WHERE c2.rowid IN \
                 (SELECT rowid FROM company_search WHERE company_search MATCH {company})))"
            )
        }
        Db::Postgres(_) => {
            // PostgreSQL's plan differs: a union made it fetch every matching signal's row for
            // its id (1.5–1.8 s for a job-change count at scale `l`, warm), while each row the
            // other filters leave is tested here at 0.6 s.
            let own = c.text(tsquery_prefixes(&words));
            let company = c.text(tsquery_prefixes(&words));
            format!(
                "(s.search_tsv @@ to_tsquery('simple', {own}) OR s.company_id IN \
                 (SELECT c2.id FROM companies c2 WHERE c2.name_tsv @@ to_tsquery('simple', {company})))"
            )
        }
    }
}

/// The text a place filter reads, lower-cased: a posting's city, location and region, a person's
/// city and location (each record has only its own kind's fields). On PostgreSQL the trigram
/// index `signals_place_trgm` is built on exactly this expression.
pub(crate) fn place_text(sqlite: bool) -> &'static str {
    match sqlite {
        true => {
            "lower(COALESCE(json_extract(s.payload, '$.city'), '') || ' ' \
             || COALESCE(json_extract(s.payload, '$.location'), '') || ' ' \
             || COALESCE(json_extract(s.payload, '$.region'), '') || ' ' \
             || COALESCE(json_extract(s.payload, '$.personCity'), '') || ' ' \
             || COALESCE(json_extract(s.payload, '$.personLocation'), ''))"
        }
        false => {
            "lower(COALESCE(s.payload::json ->> 'city', '') || ' ' \
             || COALESCE(s.payload::json ->> 'location', '') || ' ' \
             || COALESCE(s.payload::json ->> 'region', '') || ' ' \
             || COALESCE(s.payload::json ->> 'personCity', '') || ' ' \
             || COALESCE(s.payload::json ->> 'personLocation', ''))"
        }
    }
}

/// The name of the company `alias` contains `needle`, in any letter case. On SQLite a needle of
/// three characters or more is looked up in the names' trigram table; on PostgreSQL the
/// trigram index on `lower(name)` serves `LIKE '%…%'`.
pub fn name_contains_clause(c: &mut Conditions, db: &Db, alias: &str, needle: &str) -> String {
    let needle = needle.trim().to_lowercase();
    if needle.is_empty() {
        return "1 = 0".into();
    }
    if matches!(db, Db::Sqlite(_)) && needle.chars().count() >= 3 {
        let p = c.text(format!("\"{}\"", needle.replace('"', "\"\"")));
        return format!(
            "{alias}.rowid IN (SELECT rowid FROM company_names WHERE company_names MATCH {p})"
        );
    }
    let p = c.text(format!("%{}%", super::signal_filters::escape_like(&needle)));
    format!("lower({alias}.name) LIKE {p} ESCAPE '\\'")
}

/// The part of a signal's text a substring filter reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubstringField {
    /// A posting's city, location and region; a person's city and location (`city`,
    /// `job_locations`).
    Place,
    /// A job change's new role (`new_role`).
    Role,
}

/// The row's `field` contains any of `needles` (trimmed, non-empty), in any letter case. On
/// SQLite, needles of three characters or more are looked up in the trigram table
/// `signal_substrings`; shorter ones are tested on each row. On PostgreSQL `LIKE '%…%'` on the
/// lower-cased text, which its trigram index serves.
pub fn substring_clause(
    c: &mut Conditions,
    db: &Db,
    field: SubstringField,
    needles: &[String],
) -> String {
    let needles: Vec<String> = needles
        .iter()
        .map(|n| n.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    if needles.is_empty() {
        return "1 = 0".into();
    }
    let (column, text) = match field {
        SubstringField::Place => ("place", place_text(matches!(db, Db::Sqlite(_)))),
        SubstringField::Role => ("role", "lower(s.title)"),
    };
    let long_enough = needles.iter().all(|n| n.chars().count() >= 3);
    if matches!(db, Db::Sqlite(_)) && long_enough {
        let phrases: Vec<String> = needles
            .iter()
            .map(|n| format!("\"{}\"", n.replace('"', "\"\"")))
            .collect();
        let p = c.text(format!("{column} : ({})", phrases.join(" OR ")));
        return format!(
            "s.rowid IN (SELECT rowid FROM signal_substrings WHERE signal_substrings MATCH {p})"
        );
    }
    let parts: Vec<String> = needles
        .iter()
        .map(|n| {
            let p = c.text(format!("%{}%", super::signal_filters::escape_like(n)));
            format!("{text} LIKE {p} ESCAPE '\\'")
        })
        .collect();
    format!("({})", parts.join(" OR "))
}

/// The job-description query language on a signal's description. A query without a word
/// matches nothing; one made only of exclusions keeps the postings whose description matches
/// none of them (those without a description too). `matches_first`: the rows are reached
/// through the matches (a count with few of them) rather than tested against them in list order.
pub fn description_clause(
    c: &mut Conditions,
    db: &Db,
    query: &KeywordQuery,
    matches_first: bool,
) -> String {
    if query.is_empty() {
        return "1 = 0".into();
    }
    if let Some(excluded) = query.exclusions_as_alternatives() {
        return match db {
            Db::Sqlite(_) => {
                let p = c.text(format!("description : ({})", excluded.to_fts5()));
                format!(
                    "+s.rowid NOT IN (SELECT rowid FROM signal_search WHERE signal_search MATCH {p})"
                )
            }
            Db::Postgres(_) => {
                let p = c.text(excluded.to_tsquery());
                format!("NOT COALESCE(s.description_tsv @@ to_tsquery('simple', {p}), false)")
            }
        };
    }
    match db {
        Db::Sqlite(_) => {
            let p = c.text(format!("description : ({})", query.to_fts5()));
            // `+` keeps SQLite from reading the rows through the matches (for a page a random
            // row read and a sort for each of what can be 100,000s, 1 s at scale l): the rows are
            // read in list order off the date index instead, each tested against the matches. A
            // count with few matches reads them by rowid instead (`count_plan`).
            let plus = if matches_first { "" } else { "+" };
            format!(
                "{plus}s.rowid IN (SELECT rowid FROM signal_search WHERE signal_search MATCH {p})"
            )
        }
        Db::Postgres(_) => {
            let p = c.text(query.to_tsquery());
            format!("s.description_tsv @@ to_tsquery('simple', {p})")
        }
    }
}

/// Any of `wanted` (lower-case) is an element of the JSON array in `column`, case-insensitively.
pub fn categories_clause(c: &mut Conditions, db: &Db, column: &str, wanted: &[String]) -> String {
    let list = c.text_list(wanted);
    match db {
        Db::Sqlite(_) => {
            format!("EXISTS (SELECT 1 FROM json_each({column}) j WHERE lower(j.value) IN ({list}))")
        }
        Db::Postgres(_) => format!(
            "EXISTS (SELECT 1 FROM json_array_elements_text({column}::json) j(v) \
             WHERE lower(j.v) IN ({list}))"
        ),
    }
}

/// Writes the search documents of the given companies from their stored rows (SQLite's FTS5
/// tables); `replace` when they may have documents already (else they are only added). On
/// PostgreSQL the vectors are generated columns of the row itself: nothing to write.
pub async fn index_companies(tx: &mut Tx, ids: &[&str], replace: bool) -> Result<(), StoreError> {
    let verb = match (&*tx, replace) {
        (Tx::Postgres(_), _) => return Ok(()),
        (Tx::Sqlite(_), true) => "INSERT OR REPLACE",
        (Tx::Sqlite(_), false) => "INSERT",
    };
    let statements = [
        format!(
            "{verb} INTO company_search (rowid, name_industry, details) \
             SELECT rowid, name || ' ' || COALESCE(industry, ''), \
             COALESCE(description, '') || ' ' || keywords || ' ' || specialties \
             FROM companies WHERE id {{in}}"
        ),
        format!(
            "{verb} INTO company_names (rowid, name) \
             SELECT rowid, lower(name) FROM companies WHERE id {{in}}"
        ),
    ];
    for sql in &statements {
        execute_in(tx, sql, &[], ids).await?;
    }
    Ok(())
}

/// The search documents of one signal, as [`index_signals`] writes them.
#[derive(Debug, Clone, Copy)]
pub struct SearchDoc<'a> {
    /// The rowid of the signal's row.
    pub rowid: i64,
    /// The signal's own words (`search`).
    pub body: &'a Arc<str>,
    /// A job's description (`description`).
    pub description: &'a Arc<str>,
    /// For the kinds the substring filters serve: the place text and the lower-cased role
    /// (a job change's; empty for a posting).
    pub substrings: Option<(&'a str, &'a str)>,
}

/// Writes the search documents of stored signals; `replace` when they may have documents
/// already (else they are only added). On PostgreSQL the vectors are columns written with the
/// row itself (`signals::write_signals`), so only SQLite's FTS5 tables are written here, keyed
/// by the rows' rowids.
pub async fn index_signals(
    tx: &mut Tx,
    docs: &[SearchDoc<'_>],
    replace: bool,
) -> Result<(), StoreError> {
    if let Tx::Sqlite(_) = tx {
        let verb = if replace {
            "INSERT OR REPLACE"
        } else {
            "INSERT"
        };
        let words: Vec<Val<'_>> = docs
            .iter()
            .flat_map(|d| {
                [
                    Val::Int(Some(d.rowid)),
                    Val::shared(d.body),
                    Val::shared(d.description),
                ]
            })
            .collect();
        let head = format!("{verb} INTO signal_search (rowid, body, description) VALUES ");
        execute_rows(tx, &documents(&head), &words).await?;
        let substrings: Vec<Val<'_>> = docs
            .iter()
            .filter_map(|d| Some((d.rowid, d.substrings?)))
            .flat_map(|(rowid, (place, role))| {
                [Val::Int(Some(rowid)), Val::text(place), Val::text(role)]
            })
            .collect();
        let head = format!("{verb} INTO signal_substrings (rowid, place, role) VALUES ");
        execute_rows(tx, &documents(&head), &substrings).await?;
    }
    Ok(())
}

/// A multi-row insert of `(rowid, text, text)` documents.
fn documents(head: &str) -> RowStatement<'_> {
    RowStatement {
        head,
        template: "(?, ?, ?)",
        tail: "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_text_is_split_into_lower_case_words() {
        assert_eq!(words("Acme-Corp, Berlin!"), ["acme", "corp", "berlin"]);
    }
}
