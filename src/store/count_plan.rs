//! How a signal list's count is read. A page is read in list order, each row tested until the
//! page is full; a count reads every match, so it starts from the smallest set of candidates it
//! can name and tests the other filters on each of them (SQLite; PostgreSQL's planner chooses
//! itself):
//!
//! - a kind with tag groups and nothing else is counted off the tag index alone, which carries
//!   each tag's signal kind ([`count_off_tags`]);
//! - postings with a description query and nothing else are counted off the full-text index
//!   alone, where only postings have description documents ([`count_off_description`]);
//! - otherwise the rarest tag group's rows, or a description's matches, drive the count when they
//!   are few beside the kind's rows ([`DRIVE_FROM`]).

use super::count_cache::AnswerCache;
use super::query::{Conditions, cached_count};
use super::signal_filters::{Reading, conditions};
use super::signal_query::SignalQuery;
use super::tag_strategy::{TagTest, tagged_rows};
use super::{Db, StoreError};
use crate::domain::signal_type::SignalType;

/// How a count reads its rows: the tests of its tag groups, and whether a description query's
/// matches are read first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CountPlan {
    pub tags: Vec<TagTest>,
    pub reading: Reading,
}

/// The plan of `q`'s count.
pub(crate) async fn plan(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<CountPlan, StoreError> {
    let tags = for_count(db, cache, q).await?;
    // A tag group that drives is the cheaper start: the description is then tested per row.
    let description_first =
        !tags.contains(&TagTest::Driving) && description_drives(db, cache, q).await?;
    Ok(CountPlan {
        tags,
        reading: Reading::Count { description_first },
    })
}

/// True when `q`'s description matches are few enough beside its kind's rows to start from.
/// Their number comes off the full-text index alone (milliseconds).
async fn description_drives(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<bool, StoreError> {
    let (Some(kind), Some(matches)) = (q.kind, description_matches(db, cache, q).await?) else {
        return Ok(false);
    };
    Ok(matches.saturating_mul(DRIVE_FROM) <= kind_rows(db, cache, kind.as_str()).await?)
}

/// The documents matching `q`'s description query, off the full-text index alone (SQLite);
/// `None` without such a query, for one of exclusions only (its matches are what it drops), or
/// on PostgreSQL.
async fn description_matches(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<Option<i64>, StoreError> {
    let (Db::Sqlite(_), Some(query)) = (db, &q.description) else {
        return Ok(None);
    };
    if query.is_empty() || query.exclusions_as_alternatives().is_some() {
        return Ok(None);
    }
    let mut c = Conditions::default();
    let p = c.text(format!("description : ({})", query.to_fts5()));
    let sql = format!("SELECT COUNT(*) FROM signal_search WHERE signal_search MATCH {p}");
    Ok(Some(cached_count(db, cache, sql, c.binds()).await?))
}

/// The count of `q` read off the full-text index alone (SQLite), when `q` asks for postings
/// matching a description query and nothing else, and only postings have description documents
/// (migration 0033 notes whether another kind of signal was given one before): each match is
/// then a posting, and no row is read to learn its kind (a random read of the signals table per
/// match, the slowest first answer after an import; BENCHMARKS.md). `None` otherwise.
pub(crate) async fn count_off_description(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<Option<i64>, StoreError> {
    if q.kind != Some(SignalType::Hiring) || q.count_companies || !q.tag_groups.is_empty() {
        return Ok(None);
    }
    let undescribed = SignalQuery {
        description: None,
        ..q.clone()
    };
    let reading = Reading::Count {
        description_first: false,
    };
    // The kind's own condition, and nothing else.
    if conditions(db, &undescribed, &[], reading).len() != 1 || !postings_only_described(db).await?
    {
        return Ok(None);
    }
    description_matches(db, cache, q).await
}

/// True when no signal but a posting has a description document (SQLite, migration 0033).
async fn postings_only_described(db: &Db) -> Result<bool, StoreError> {
    let Db::Sqlite(sqlite) = db else {
        return Ok(false);
    };
    let noted: Option<bool> =
        sqlx::query_scalar("SELECT descriptions_of_postings_only FROM search_facts WHERE id = 1")
            .fetch_optional(sqlite.pool())
            .await?;
    Ok(noted == Some(true))
}

/// Rows of the kind per candidate from which a count starts from the candidates (a tag group's
/// rows, a description's matches): a row reached through its id or rowid costs about four steps
/// of a row read off the kind's index, so starting there pays once the candidates are a quarter
/// of the kind or fewer (at scale l: seniorities `director,head` with departments `engineering`,
/// 119,097 tagged rows of 1,000,000 postings, counted in 0.44 s instead of 1.06 s; a description
/// query matching 94,982 postings in 131 ms instead of 248 ms).
const DRIVE_FROM: i64 = 4;

/// The tests of `q`'s tag groups for its count. On SQLite the rarest group drives the count when
/// its rows are few beside the kind's (see [`DRIVE_FROM`]); the others are tested per row. With
/// `any_tag_group` (the groups are alternatives) or on PostgreSQL, the tests of [`TagTest::usual`].
async fn for_count(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<Vec<TagTest>, StoreError> {
    let usual: Vec<TagTest> = q.tag_groups.iter().map(|g| TagTest::usual(g)).collect();
    let kind = match (db, q.kind) {
        (Db::Sqlite(_), Some(kind)) if !q.any_tag_group && !q.tag_groups.is_empty() => kind,
        _ => return Ok(usual),
    };
    let Some((driver, tagged)) = rarest_group(db, cache, q).await? else {
        return Ok(usual);
    };
    if tagged.saturating_mul(DRIVE_FROM) > kind_rows(db, cache, kind.as_str()).await? {
        return Ok(usual);
    }
    Ok((0..q.tag_groups.len())
        .map(|i| {
            if i == driver {
                TagTest::Driving
            } else {
                TagTest::PerRow
            }
        })
        .collect())
}

/// The count of `q` read off the tag index alone (SQLite), when `q` asks for nothing but signals
/// of one kind carrying a tag of each of its groups: the rarest group's rows of the kind, each
/// tested for the other groups on the `(signal_id, tag)` key. `None` when `q` asks for more (or
/// counts companies); the count then reads the signals.
pub(crate) async fn count_off_tags(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<Option<i64>, StoreError> {
    let Some(kind) = q.kind else {
        return Ok(None);
    };
    if !matches!(db, Db::Sqlite(_))
        || q.count_companies
        || q.any_tag_group
        || q.tag_groups.is_empty()
    {
        return Ok(None);
    }
    let untagged = SignalQuery {
        tag_groups: Vec::new(),
        ..q.clone()
    };
    // The kind's own condition, and nothing else.
    let reading = Reading::Count {
        description_first: false,
    };
    if conditions(db, &untagged, &[], reading).len() != 1 {
        return Ok(None);
    }
    let Some((rarest, _)) = rarest_group(db, cache, q).await? else {
        return Ok(None);
    };
    let mut c = Conditions::default();
    let driver = &q.tag_groups[rarest];
    let list = c.text_list(driver);
    let k = c.text(kind.as_str());
    let mut sql = format!(
        "SELECT {} FROM signal_tags t WHERE t.tag IN ({list}) AND t.kind = {k}",
        // A signal has one row per tag: two of one group would count it twice.
        if driver.len() == 1 {
            "COUNT(*)"
        } else {
            "COUNT(DISTINCT t.signal_id)"
        }
    );
    for (i, group) in q.tag_groups.iter().enumerate() {
        if i != rarest {
            let list = c.text_list(group);
            sql.push_str(&format!(
                " AND EXISTS (SELECT 1 FROM signal_tags u WHERE u.signal_id = t.signal_id \
                 AND u.tag IN ({list}))"
            ));
        }
    }
    Ok(Some(cached_count(db, cache, sql, c.binds()).await?))
}

/// The index in `q.tag_groups` of the group tagging the fewest rows, and their number; `None`
/// without groups.
async fn rarest_group(
    db: &Db,
    cache: &AnswerCache<'_>,
    q: &SignalQuery,
) -> Result<Option<(usize, i64)>, StoreError> {
    let mut rarest: Option<(usize, i64)> = None;
    for (i, group) in q.tag_groups.iter().enumerate() {
        let rows = tagged_rows(db, cache, group).await?;
        if rarest.is_none_or(|(_, fewest)| rows < fewest) {
            rarest = Some((i, rows));
        }
    }
    Ok(rarest)
}

/// Signals of `kind`, off the kind's index. The statement is the unfiltered list's count, so the
/// two share one cached (and saved) figure.
async fn kind_rows(db: &Db, cache: &AnswerCache<'_>, kind: &str) -> Result<i64, StoreError> {
    let mut c = Conditions::default();
    let k = c.text(kind);
    let sql = format!("SELECT COUNT(*) FROM signals s WHERE s.kind = {k}");
    cached_count(db, cache, sql, c.binds()).await
}
