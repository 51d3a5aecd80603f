//! How a signal list tests a tag group (`positions`, `departments`, `seniorities`): per row read
//! in list order, or against the group's rows gathered once. Per row costs one index look-up for
//! each row read until the page is full, which is few when many rows carry the tags; gathering
//! costs a step for every row carrying them, which is little when few do (BENCHMARKS.md has the
//! figures that set the threshold below).
//!
//! A count has no order to keep: every matching row is read either way. It starts from the rows
//! of its rarest group when those are few beside the kind's rows, and tests the other groups on
//! each of them, instead of testing every row of the kind.

use super::count_cache::CountCache;
use super::query::{Conditions, cached_count};
use super::signal_filters::{Reading, conditions};
use super::signal_query::SignalQuery;
use super::{Db, StoreError};

/// Tagged rows per row up to the end of the page (offset + limit) from which a group is tested
/// per row: reading in list order then reads at most 1/100 of the list before the page is full
/// (unless other filters are rarer still), while gathering would read at least as many.
const PER_ROW_FROM: i64 = 100;

/// How one tag group is tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagTest {
    /// Each row read has its tags looked up (EXISTS).
    PerRow,
    /// The group's rows are read once; each row read is tested against them (IN).
    Gathered,
    /// The group's rows are read first and each is looked up (a count: no order to keep).
    Driving,
}

impl TagTest {
    /// The test without counting: department and seniority tags have few values, each on many
    /// rows, so per row; the others (positions) gathered.
    pub(crate) fn usual(group: &[String]) -> TagTest {
        let common = group
            .iter()
            .all(|t| t.starts_with("department:") || t.starts_with("seniority:"));
        if common {
            TagTest::PerRow
        } else {
            TagTest::Gathered
        }
    }
}

/// The tests of `q`'s tag groups for one page. On SQLite a group not usually tested per row is
/// counted (cached while the list data is unchanged) and tested per row when it tags many rows
/// for the page's depth. PostgreSQL's planner chooses between the two itself.
pub(crate) async fn for_page(
    db: &Db,
    cache: &CountCache,
    q: &SignalQuery,
) -> Result<Vec<TagTest>, StoreError> {
    let mut tests = Vec::with_capacity(q.tag_groups.len());
    for group in &q.tag_groups {
        let usual = TagTest::usual(group);
        let test = match (db, usual) {
            (Db::Sqlite(_), TagTest::Gathered) => {
                let page_end = q.offset.saturating_add(q.limit);
                if tagged_rows(db, cache, group).await? >= page_end.saturating_mul(PER_ROW_FROM) {
                    TagTest::PerRow
                } else {
                    TagTest::Gathered
                }
            }
            _ => usual,
        };
        tests.push(test);
    }
    Ok(tests)
}

/// Rows of the kind per row of the rarest group from which a count starts from that group's
/// rows: a row reached through its id costs about four steps of a row read off the kind's index
/// (a look-up of the id, then of the row), so starting there pays once the group is a quarter of
/// the kind or less (seniorities `director,head` with departments `engineering` at scale l: 119,097
/// tagged rows of 1,000,000 postings, counted in 0.44 s instead of 1.06 s).
const DRIVE_FROM: i64 = 4;

/// The tests of `q`'s tag groups for its count. On SQLite the rarest group drives the count when
/// its rows are few beside the kind's (see [`DRIVE_FROM`]); the others are tested per row. With
/// `any_tag_group` (the groups are alternatives) or on PostgreSQL, the tests of [`TagTest::usual`].
pub(crate) async fn for_count(
    db: &Db,
    cache: &CountCache,
    q: &SignalQuery,
) -> Result<Vec<TagTest>, StoreError> {
    let usual: Vec<TagTest> = q.tag_groups.iter().map(|g| TagTest::usual(g)).collect();
    let kind = match (db, q.kind) {
        (Db::Sqlite(_), Some(kind)) if !q.any_tag_group && !q.tag_groups.is_empty() => kind,
        _ => return Ok(usual),
    };
    let mut rarest: Option<(usize, i64)> = None;
    for (i, group) in q.tag_groups.iter().enumerate() {
        let rows = tagged_rows(db, cache, group).await?;
        if rarest.is_none_or(|(_, fewest)| rows < fewest) {
            rarest = Some((i, rows));
        }
    }
    let Some((driver, tagged)) = rarest else {
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
    cache: &CountCache,
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
    if conditions(db, &untagged, &[], Reading::Count).len() != 1 {
        return Ok(None);
    }
    let mut rarest = (0, i64::MAX);
    for (i, group) in q.tag_groups.iter().enumerate() {
        let rows = tagged_rows(db, cache, group).await?;
        if rows < rarest.1 {
            rarest = (i, rows);
        }
    }
    let mut c = Conditions::default();
    let driver = &q.tag_groups[rarest.0];
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
        if i != rarest.0 {
            let list = c.text_list(group);
            sql.push_str(&format!(
                " AND EXISTS (SELECT 1 FROM signal_tags u WHERE u.signal_id = t.signal_id \
                 AND u.tag IN ({list}))"
            ));
        }
    }
    Ok(Some(cached_count(db, cache, sql, c.binds()).await?))
}

/// Signals of `kind`, off the kind's index.
async fn kind_rows(db: &Db, cache: &CountCache, kind: &str) -> Result<i64, StoreError> {
    let mut c = Conditions::default();
    let k = c.text(kind);
    let sql = format!("SELECT COUNT(*) FROM signals WHERE kind = {k}");
    cached_count(db, cache, sql, c.binds()).await
}

/// Rows carrying any tag of `group`, of every kind (an estimate for one kind's list), off the
/// `(tag, signal_id)` index.
async fn tagged_rows(db: &Db, cache: &CountCache, group: &[String]) -> Result<i64, StoreError> {
    let mut c = Conditions::default();
    let list = c.text_list(group);
    let sql = format!("SELECT COUNT(*) FROM signal_tags WHERE tag IN ({list})");
    cached_count(db, cache, sql, c.binds()).await
}
