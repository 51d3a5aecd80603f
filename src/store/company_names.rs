//! Finding companies by name, through the names' trigram indexes (SQLite: the FTS5 trigram table
//! `company_names`; PostgreSQL: the pg_trgm GIN index on `lower(name)`) and, for needles too
//! short for trigrams, an index on the lower-cased name: names containing a needle, names
//! starting with it, and names resembling it with typos tolerated.

use super::signal_lists::escape_like;
use super::{Db, StoreError};

/// Most containing or resembling names read before ranking.
const CANDIDATES: i64 = 500;

/// Least trigram similarity of a name taken as a typo of the needle (pg_trgm's default).
const SIMILAR: f64 = 0.3;

/// On SQLite a typo search asks the trigram table for the needle's rarest trigrams only: at
/// least this many of them, ...
const MIN_SEARCHED_TRIGRAMS: usize = 6;

/// ... and more while the names holding them stay within this many. Counting the searched
/// trigrams each name holds reads every name holding one, so a common trigram (`ent`, ` co`)
/// costs tens of thousands of reads and tells little about which names resemble the needle.
const SEARCHED_NAMES_BUDGET: i64 = 5_000;

/// Most of a needle's trigrams considered (a name is rarely longer).
const MAX_TRIGRAMS: usize = 64;

/// Ids of the companies a partial, fuzzy name stands for (the lists' `company_name`), best first,
/// at most `limit`: names containing the whole of `name` in any letter case, the closest first,
/// then names resembling it (typos tolerated). A needle under 3 characters, too short for
/// trigrams, matches the names that contain it, by name.
pub async fn partial_company_ids(
    db: &Db,
    name: &str,
    limit: i64,
) -> Result<Vec<String>, StoreError> {
    if name.trim().chars().count() < 3 {
        return short_containing_ids(db, name.trim(), limit).await;
    }
    let needle = name.trim().to_lowercase();
    let containing = rank_by_similarity(&needle, containing(db, &needle).await?, 0.0, limit);
    let resembling = fuzzy_company_ids(db, &needle, limit).await?;
    Ok(merge_ranked(containing, resembling, limit))
}

/// Ids of companies whose name resembles `name` (typos tolerated), best first, at most `limit`.
pub async fn fuzzy_company_ids(db: &Db, name: &str, limit: i64) -> Result<Vec<String>, StoreError> {
    if name.trim().chars().count() < 3 {
        return prefix_company_ids(db, name.trim(), limit).await;
    }
    let needle = name.trim().to_lowercase();
    match db {
        Db::Sqlite(sqlite) => {
            let pool = sqlite.pool();
            let searched = rarest_trigrams(pool, needle_trigrams(&needle)).await?;
            let candidates = sharing_most_trigrams(pool, &searched).await?;
            Ok(rank_by_similarity(&needle, candidates, SIMILAR, limit))
        }
        Db::Postgres(pool) => Ok(sqlx::query_scalar(
            "SELECT id FROM companies WHERE lower(name) % $1 \
             ORDER BY similarity(lower(name), $1) DESC, id LIMIT $2",
        )
        .bind(&needle)
        .bind(limit)
        .fetch_all(pool)
        .await?),
    }
}

/// `(id, name)` of the [`CANDIDATES`] companies whose names hold the most of `grams` (quoted
/// trigrams), ties by age. Each trigram's names are read off its posting list and counted; this
/// is a third of the cost of FTS5's `bm25` ranking of the same `OR` query, which also reads each
/// matching name's length.
async fn sharing_most_trigrams(
    pool: &sqlx::SqlitePool,
    grams: &[String],
) -> Result<Vec<(String, String)>, StoreError> {
    if grams.is_empty() {
        return Ok(Vec::new());
    }
    let postings: Vec<String> = (1..=grams.len())
        .map(|n| format!("SELECT rowid FROM company_names WHERE company_names MATCH ${n}"))
        .collect();
    let sql = format!(
        "SELECT c.id, c.name FROM (SELECT rowid AS name_row, count(*) AS shared FROM ({}) \
         GROUP BY rowid ORDER BY shared DESC, rowid LIMIT {CANDIDATES}) best \
         JOIN companies c ON c.rowid = best.name_row",
        postings.join(" UNION ALL ")
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for gram in grams {
        query = query.bind(gram);
    }
    Ok(query.fetch_all(pool).await?)
}

/// `(id, name)` of companies whose name contains `needle` (lower case, at least 3 characters),
/// the shortest names first. On SQLite a quoted string matched against the trigram table is a
/// substring query; on PostgreSQL the trigram index serves `LIKE '%…%'`.
async fn containing(db: &Db, needle: &str) -> Result<Vec<(String, String)>, StoreError> {
    let (sql, pattern) = match db {
        Db::Sqlite(_) => (
            "SELECT c.id, c.name FROM company_names n JOIN companies c ON c.rowid = n.rowid \
             WHERE company_names MATCH $1 ORDER BY length(c.name), c.id LIMIT $2",
            format!("\"{}\"", needle.replace('"', "\"\"")),
        ),
        Db::Postgres(_) => (
            "SELECT id, name FROM companies WHERE lower(name) LIKE $1 ESCAPE '\\' \
             ORDER BY length(name), id LIMIT $2",
            format!("%{}%", escape_like(needle)),
        ),
    };
    Ok(crate::on_db!(db, |pool| sqlx::query_as(sql)
        .bind(&pattern)
        .bind(CANDIDATES)
        .fetch_all(pool)
        .await)?)
}

/// Ids of companies whose name contains `needle` (under 3 characters) ignoring case, by name:
/// each name is tested, in the order of the index on `lower(name)` until `limit` are found.
async fn short_containing_ids(
    db: &Db,
    needle: &str,
    limit: i64,
) -> Result<Vec<String>, StoreError> {
    let pattern = format!("%{}%", escape_like(&needle.to_lowercase()));
    Ok(crate::on_db!(db, |pool| sqlx::query_scalar(
        "SELECT id FROM companies WHERE lower(name) LIKE $1 ESCAPE '\\' \
         ORDER BY lower(name), id LIMIT $2"
    )
    .bind(&pattern)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// Ids of companies whose name starts with `needle` ignoring case (lower-cased by the database,
/// as the indexes are), by name. SQLite reads them off the index on `lower(name)` as a range;
/// PostgreSQL's trigram index serves `LIKE '…%'`.
async fn prefix_company_ids(db: &Db, needle: &str, limit: i64) -> Result<Vec<String>, StoreError> {
    Ok(match db {
        Db::Sqlite(sqlite) => {
            let pool = sqlite.pool();
            sqlx::query_scalar(
                "SELECT id FROM companies \
                 WHERE lower(name) >= lower($1) AND lower(name) < lower($1) || $2 \
                 ORDER BY lower(name), id LIMIT $3",
            )
            .bind(needle)
            .bind(char::MAX.to_string())
            .bind(limit)
            .fetch_all(pool)
            .await?
        }
        Db::Postgres(pool) => {
            sqlx::query_scalar(
                "SELECT id FROM companies WHERE lower(name) LIKE lower($1) ESCAPE '\\' \
                 ORDER BY name, id LIMIT $2",
            )
            .bind(format!("{}%", escape_like(needle)))
            .bind(limit)
            .fetch_all(pool)
            .await?
        }
    })
}

/// The distinct trigrams of `needle`, each quoted as an FTS5 string.
fn needle_trigrams(needle: &str) -> Vec<String> {
    let chars: Vec<char> = needle.chars().collect();
    let mut grams: Vec<String> = chars
        .windows(3)
        .map(|w| format!("\"{}\"", w.iter().collect::<String>().replace('"', "\"\"")))
        .collect();
    grams.sort();
    grams.dedup();
    grams.truncate(MAX_TRIGRAMS);
    grams
}

/// The trigrams a typo search asks for: the rarest first, as many as [`pick_rarest`] takes.
/// How many names hold each comes from the trigram table itself, in one statement.
async fn rarest_trigrams(
    pool: &sqlx::SqlitePool,
    grams: Vec<String>,
) -> Result<Vec<String>, StoreError> {
    if grams.len() <= MIN_SEARCHED_TRIGRAMS {
        return Ok(grams);
    }
    let counts: Vec<String> = (1..=grams.len())
        .map(|n| format!("(SELECT count(*) FROM company_names WHERE company_names MATCH ${n})"))
        .collect();
    let sql = format!("SELECT json_array({})", counts.join(", "));
    let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql));
    for gram in &grams {
        query = query.bind(gram);
    }
    let holding: Vec<i64> = serde_json::from_str(&query.fetch_one(pool).await?)
        .map_err(|err| StoreError::Corrupt(format!("trigram counts: {err}")))?;
    Ok(pick_rarest(grams.into_iter().zip(holding).collect()))
}

/// From `(trigram, names holding it)`: the rarest [`MIN_SEARCHED_TRIGRAMS`], then more in
/// order of rarity while the names they hold in all stay within [`SEARCHED_NAMES_BUDGET`].
fn pick_rarest(mut counted: Vec<(String, i64)>) -> Vec<String> {
    counted.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let mut held = 0;
    let mut picked = Vec::new();
    for (gram, names) in counted {
        if picked.len() >= MIN_SEARCHED_TRIGRAMS && held + names > SEARCHED_NAMES_BUDGET {
            break;
        }
        held += names;
        picked.push(gram);
    }
    picked
}

fn trigrams(text: &str) -> std::collections::HashSet<String> {
    let padded: Vec<char> = format!("  {text} ").chars().collect();
    padded.windows(3).map(|w| w.iter().collect()).collect()
}

/// Trigram similarity (shared / union), as pg_trgm computes it.
pub fn similarity(a: &str, b: &str) -> f64 {
    let (x, y) = (trigrams(a), trigrams(b));
    let shared = x.intersection(&y).count() as f64;
    let union = (x.len() + y.len()) as f64 - shared;
    if union == 0.0 { 0.0 } else { shared / union }
}

/// The ids of `candidates` scoring at least `min_score` against `needle`, best first (ties by
/// id), at most `limit`.
fn rank_by_similarity(
    needle: &str,
    candidates: Vec<(String, String)>,
    min_score: f64,
    limit: i64,
) -> Vec<String> {
    let mut scored: Vec<(f64, String)> = candidates
        .into_iter()
        .map(|(id, name)| (similarity(needle, &name.to_lowercase()), id))
        .filter(|(score, _)| *score >= min_score)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(limit.max(0) as usize)
        .map(|(_, id)| id)
        .collect()
}

/// `first`, then those of `then` not in it, at most `limit` in all.
fn merge_ranked(first: Vec<String>, then: Vec<String>, limit: i64) -> Vec<String> {
    let mut merged = first;
    for id in then {
        if !merged.contains(&id) {
            merged.push(id);
        }
    }
    merged.truncate(limit.max(0) as usize);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_score_above_the_threshold_and_others_below() {
        assert!(similarity("acme corp", "acme corporation") >= SIMILAR);
        assert!(similarity("stripe", "strpe") >= SIMILAR);
        assert!(similarity("stripe", "globex") < SIMILAR);
    }

    #[test]
    fn a_name_containing_a_short_needle_may_not_resemble_it() {
        assert!(similarity("acme", "acme corporation") < SIMILAR);
        assert!(similarity("health", "healthtech solutions") < SIMILAR);
    }

    fn named(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(id, name)| (id.to_string(), name.to_string()))
            .collect()
    }

    #[test]
    fn containing_names_rank_closest_first_and_resembling_ones_follow_without_repeats() {
        let containing = rank_by_similarity(
            "acme",
            named(&[("2", "Acme Corporation"), ("1", "ACME"), ("3", "Acme Co")]),
            0.0,
            10,
        );
        assert_eq!(containing, ["1", "3", "2"]);
        let merged = merge_ranked(containing, vec!["4".into(), "2".into(), "5".into()], 4);
        assert_eq!(merged, ["1", "3", "2", "4"]);
    }

    #[test]
    fn a_needle_is_searched_by_its_distinct_quoted_trigrams() {
        assert_eq!(needle_trigrams("ab\"c"), ["\"ab\"\"\"", "\"b\"\"c\""]);
        assert_eq!(needle_trigrams(&"x".repeat(500)), ["\"xxx\""]);
    }

    #[test]
    fn the_rarest_trigrams_are_searched_and_common_ones_only_within_the_budget() {
        let counted: Vec<(String, i64)> = [
            ("ent", 30_000),
            ("stz", 0),
            ("irp", 12),
            ("pay", 4_000),
            (" co", 25_000),
            ("tir", 40),
            ("yme", 900),
            ("aym", 800),
            ("men", 9_000),
            ("nts", 700),
        ]
        .iter()
        .map(|(g, n)| (g.to_string(), *n))
        .collect();
        assert_eq!(
            pick_rarest(counted),
            ["stz", "irp", "tir", "nts", "aym", "yme"]
        );
        let all_common: Vec<(String, i64)> = (0..8).map(|i| (format!("g{i}"), 50_000)).collect();
        assert_eq!(pick_rarest(all_common).len(), MIN_SEARCHED_TRIGRAMS);
    }

    #[test]
    fn typo_candidates_below_the_threshold_are_dropped() {
        let ranked = rank_by_similarity(
            "stripe",
            named(&[("a", "Strpe"), ("b", "Globex")]),
            SIMILAR,
            10,
        );
        assert_eq!(ranked, ["a"]);
    }
}
