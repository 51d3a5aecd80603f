//! Exact caching of list counts: a count is reused only while the list data version it was
//! computed at is still current, so a cached answer is never stale.

use std::collections::HashMap;
use std::sync::Mutex;

use super::query::Bind;

/// Most counts kept; the cache is emptied when it grows past this.
const MAX_ENTRIES: usize = 10_000;

/// Counts by query, each with the data version it was computed at.
#[derive(Debug, Default)]
pub struct CountCache {
    entries: Mutex<HashMap<String, (i64, i64)>>,
}

impl CountCache {
    /// The cache key of a built count query.
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
}
