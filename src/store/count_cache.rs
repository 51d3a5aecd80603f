//! Exact caching of list answers: a count or a page is reused only while the list data version
//! it was computed at is still current, so a cached answer is never stale. Counts are also kept
//! in the database (`saved_counts`), so that they outlive a restart.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::query::Bind;
use super::{Db, StoreError};

/// Most counts kept; the cache is emptied when it grows past this.
const MAX_ENTRIES: usize = 10_000;

/// Most bytes of cached pages (an estimate of their rows' text); the pages are dropped when a
/// new one would go past this.
const MAX_PAGE_BYTES: usize = 64 * 1024 * 1024;

/// A cached page: its data version, its rows (a `Vec` of the list's row type) and their size.
type PageEntry = (i64, Arc<dyn Any + Send + Sync>, usize);

/// Counts and pages by query, each with the data version it was computed at.
#[derive(Debug, Default)]
pub struct CountCache {
    entries: Mutex<HashMap<String, (i64, i64)>>,
    pages: Mutex<Pages>,
}

#[derive(Default)]
struct Pages {
    entries: HashMap<String, PageEntry>,
    bytes: usize,
}

impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("entries", &self.entries.len())
            .field("bytes", &self.bytes)
            .finish()
    }
}

/// The list cache as one answer reads it: the list data version is read once, when the answer
/// first needs it, and every count and page of the answer is looked up and kept at it. Each of
/// them reading the version again cost a statement apiece and changed nothing: a version read
/// at the start of an answer was current when the answer began, as a later one would be.
#[derive(Debug)]
pub struct AnswerCache<'a> {
    cache: &'a CountCache,
    version: tokio::sync::OnceCell<i64>,
}

impl<'a> AnswerCache<'a> {
    /// The list data version this answer reads at: read from `db` the first time.
    pub async fn version(&self, db: &Db) -> Result<i64, StoreError> {
        self.version
            .get_or_try_init(|| super::versions::data_version(db))
            .await
            .copied()
    }
}

impl std::ops::Deref for AnswerCache<'_> {
    type Target = CountCache;

    fn deref(&self) -> &CountCache {
        self.cache
    }
}

impl CountCache {
    /// The cache as one answer reads it ([`AnswerCache`]).
    pub fn for_answer(&self) -> AnswerCache<'_> {
        AnswerCache {
            cache: self,
            version: tokio::sync::OnceCell::new(),
        }
    }

    /// The cache key of a built query.
    pub fn key(sql: &str, binds: &[Bind]) -> String {
        format!("{sql}|{binds:?}")
    }

    /// The count stored for `key` at `version`, if any.
    pub fn get(&self, key: &str, version: i64) -> Option<i64> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get(key)
            .filter(|(at, _)| *at == version)
            .map(|(_, count)| *count)
    }

    /// Stores a count computed at `version`.
    pub fn put(&self, key: String, version: i64, count: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, (version, count));
    }

    /// The rows stored for the page query `key` at `version`, if any.
    pub fn page<R: Send + Sync + 'static>(&self, key: &str, version: i64) -> Option<Arc<Vec<R>>> {
        let pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        let (at, rows, _) = pages.entries.get(key)?;
        if *at != version {
            return None;
        }
        rows.clone().downcast::<Vec<R>>().ok()
    }

    /// Stores the rows of a page query computed at `version`; `bytes` estimates their size.
    /// A page larger than the whole budget is not kept.
    pub fn put_page<R: Send + Sync + 'static>(
        &self,
        key: String,
        version: i64,
        rows: Arc<Vec<R>>,
        bytes: usize,
    ) {
        if bytes > MAX_PAGE_BYTES {
            return;
        }
        let mut pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, old)) = pages.entries.remove(&key) {
            pages.bytes -= old;
        }
        if pages.bytes + bytes > MAX_PAGE_BYTES || pages.entries.len() >= MAX_ENTRIES {
            pages.entries.clear();
            pages.bytes = 0;
        }
        pages.bytes += bytes;
        pages.entries.insert(key, (version, rows, bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_reused_only_at_the_version_it_was_computed_at() {
        let cache = CountCache::default();
        let key = CountCache::key("SELECT COUNT(*) FROM signals", &[Bind::Int(1)]);
        cache.put(key.clone(), 7, 42);
        assert_eq!(cache.get(&key, 7), Some(42));
        assert_eq!(cache.get(&key, 8), None);
    }

    #[test]
    fn a_page_is_reused_only_at_the_version_it_was_computed_at() {
        let cache = CountCache::default();
        let rows = Arc::new(vec!["a".to_string(), "b".to_string()]);
        cache.put_page("page".into(), 3, rows.clone(), 2);
        assert_eq!(cache.page::<String>("page", 3), Some(rows));
        assert_eq!(cache.page::<String>("page", 4), None);
    }

    #[tokio::test]
    async fn an_answer_reads_the_list_data_version_once_and_the_next_answer_reads_it_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("answers.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");
        let cache = CountCache::default();
        let answer = cache.for_answer();
        let first = answer.version(&db).await.expect("version");

        db.write(async |tx| super::super::versions::bump_data_version(tx).await)
            .await
            .expect("bump");

        assert_eq!(answer.version(&db).await.expect("version"), first);
        let next = cache.for_answer();
        assert_eq!(next.version(&db).await.expect("version"), first + 1);
    }

    #[test]
    fn pages_past_the_budget_make_room_by_dropping_the_others() {
        let cache = CountCache::default();
        let rows = Arc::new(vec![1_i64]);
        cache.put_page("first".into(), 1, rows.clone(), MAX_PAGE_BYTES - 10);
        cache.put_page("second".into(), 1, rows.clone(), 20);
        assert_eq!(cache.page::<i64>("first", 1), None);
        assert_eq!(cache.page::<i64>("second", 1), Some(rows));
    }
}
