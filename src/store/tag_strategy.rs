//! How a signal list tests a tag group (`positions`, `departments`, `seniorities`): per row read
//! in list order, or against the group's rows gathered once. Per row costs one index look-up for
//! each row read until the page is full, which is few when many rows carry the tags; gathering
//! costs a step for every row carrying them, which is little when few do (BENCHMARKS.md has the
//! figures that set the threshold below).
//! A count reads its tag groups its own way (`count_plan`).

use super::count_cache::AnswerCache;
use super::query::{Conditions, cached_count};
use super::signal_query::SignalQuery;
use super::{Db, StoreError};

/// Tagged rows per row up to the end of the page (offset + limit) from which a group is tested
/// per row: reading in list order then reads at most 1/1,000 of the list before the page is
/// full (unless other filters are rarer still). Per row, each row read looks its tags up at a
/// random place of `signal_tags`; gathering reads the group's rows side by side off the
/// `(tag, kind, signal_id)` index. With 1/100, a group on 5,617 of a million postings was
/// tested per row (a look-up for each posting read until 20 of them also passed a country
/// filter), and on a file the operating system had not cached its first page took 284 ms;
/// gathered it took under 68 ms (BENCHMARKS.md).
const PER_ROW_FROM: i64 = 1_000;

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
    cache: &AnswerCache<'_>,
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

/// Rows carrying any tag of `group`, of every kind (an estimate for one kind's list), off the
/// `(tag, kind, signal_id)` index.
pub(crate) async fn tagged_rows(
    db: &Db,
    cache: &AnswerCache<'_>,
    group: &[String],
) -> Result<i64, StoreError> {
    let mut c = Conditions::default();
    let list = c.text_list(group);
    let sql = format!("SELECT COUNT(*) FROM signal_tags WHERE tag IN ({list})");
    cached_count(db, cache, sql, c.binds()).await
}
