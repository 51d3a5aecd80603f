//! List counts kept in the database (`list_counts`), each with the data version it was computed
//! at, so that a restarted process answers the counts it was asked before without computing
//! them again, and recomputes, in the background at start, those the data has moved past.

use std::time::Duration;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::count_cache::CountCache;
use super::query::{Bind, fetch_count};
use super::versions::data_version;
use super::{Db, StoreError};
use crate::domain::time::now_ms;
use crate::on_db;

/// Most saved counts the start-up pass reads (the most recently computed first); older ones are
/// deleted by it.
const KEPT: i64 = 2_000;

/// The pause between two counts recomputed at start, leaving the CPUs to requests.
const WARM_PAUSE: Duration = Duration::from_millis(20);

/// The stored key of a count query: the SHA-256 of its cache key, in hex.
fn digest(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// The count saved for the query with cache key `key`, if it was computed at `version`.
pub async fn find(db: &Db, key: &str, version: i64) -> Result<Option<i64>, StoreError> {
    let digest = digest(key);
    Ok(on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "SELECT total FROM list_counts WHERE query_key = $1 AND data_version = $2"
    )
    .bind(&digest)
    .bind(version)
    .fetch_optional(pool)
    .await)?)
}

/// Saves the count of the query `sql` with `binds` (cache key `key`) computed at `version`.
pub async fn save(
    db: &Db,
    key: &str,
    sql: &str,
    binds: &[Bind],
    version: i64,
    count: i64,
) -> Result<(), StoreError> {
    let digest = digest(key);
    let binds = binds_json(binds).to_string();
    let now = now_ms();
    db.write(async |tx| {
        crate::on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO list_counts \
             (query_key, query_sql, query_binds, data_version, total, computed_at) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (query_key) DO UPDATE SET data_version = excluded.data_version, \
             total = excluded.total, computed_at = excluded.computed_at"
        )
        .bind(&digest)
        .bind(sql)
        .bind(&binds)
        .bind(version)
        .bind(count)
        .bind(now)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}

/// Loads the saved counts into `cache`, the most recently computed first: those of the current
/// data version as they are, the others computed again (and saved) one at a time. Meant to run
/// in the background at start; the process answers meanwhile, computing what it needs itself.
pub async fn warm(db: &Db, cache: &CountCache) -> Result<WarmReport, StoreError> {
    let mut report = WarmReport::default();
    let saved: Vec<(String, String, i64, i64)> = on_db!(db, |pool| sqlx::query_as(
        "SELECT query_sql, query_binds, data_version, total FROM list_counts \
         ORDER BY computed_at DESC LIMIT $1"
    )
    .bind(KEPT)
    .fetch_all(pool)
    .await)?;
    let full = saved.len() as i64 >= KEPT;
    for (sql, binds, saved_version, count) in saved {
        let Some(binds) = binds_from_json(&binds) else {
            continue;
        };
        let version = data_version(db).await?;
        let key = CountCache::key(&sql, &binds);
        if saved_version == version {
            cache.put(key, version, count);
            report.loaded += 1;
            continue;
        }
        if cache.get(&key, version).is_some() {
            continue;
        }
        let count = fetch_count(db, sql.clone(), &binds).await?;
        cache.put(key.clone(), version, count);
        save(db, &key, &sql, &binds, version, count).await?;
        report.recomputed += 1;
        tokio::time::sleep(WARM_PAUSE).await;
    }
    if full {
        forget_old(db).await?;
    }
    Ok(report)
}

/// What the start-up pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WarmReport {
    /// Counts still current, loaded as saved.
    pub loaded: usize,
    /// Counts the data had moved past, computed again.
    pub recomputed: usize,
}

/// Deletes the saved counts past the [`KEPT`] most recently computed.
async fn forget_old(db: &Db) -> Result<(), StoreError> {
    db.write(async |tx| {
        crate::on_tx!(tx, |conn| sqlx::query(
            "DELETE FROM list_counts WHERE query_key NOT IN \
             (SELECT query_key FROM list_counts ORDER BY computed_at DESC LIMIT $1)"
        )
        .bind(KEPT)
        .execute(conn)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(())
    })
    .await
}

/// The parameters as stored: `[["t", text] | ["i", integer] | ["f", float], …]`.
fn binds_json(binds: &[Bind]) -> Value {
    Value::Array(
        binds
            .iter()
            .map(|b| match b {
                Bind::Text(s) => json!(["t", s]),
                Bind::Int(i) => json!(["i", i]),
                Bind::Float(f) => json!(["f", f]),
            })
            .collect(),
    )
}

/// The parameters of [`binds_json`]; `None` when the text is not of that form.
fn binds_from_json(text: &str) -> Option<Vec<Bind>> {
    let value: Value = serde_json::from_str(text).ok()?;
    value
        .as_array()?
        .iter()
        .map(|b| match (b.get(0)?.as_str()?, b.get(1)?) {
            ("t", v) => Some(Bind::Text(v.as_str()?.to_string())),
            ("i", v) => Some(Bind::Int(v.as_i64()?)),
            ("f", v) => Some(Bind::Float(v.as_f64()?)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn migrated(dir: &tempfile::TempDir) -> Db {
        let url = format!("sqlite://{}", dir.path().join("counts.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");
        db
    }

    const COUNT_SQL: &str = "SELECT COUNT(*) FROM data_version WHERE id = $1";

    #[tokio::test]
    async fn a_saved_count_is_found_only_at_the_version_it_was_computed_at() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = migrated(&dir).await;
        let binds = [Bind::Int(1)];
        let key = CountCache::key(COUNT_SQL, &binds);
        save(&db, &key, COUNT_SQL, &binds, 4, 1)
            .await
            .expect("save");
        assert_eq!(find(&db, &key, 4).await.expect("find"), Some(1));
        assert_eq!(find(&db, &key, 5).await.expect("find"), None);
    }

    #[tokio::test]
    async fn warming_loads_current_counts_and_recomputes_those_the_data_moved_past() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = migrated(&dir).await;
        let version = data_version(&db).await.expect("version");
        let current = [Bind::Int(1)];
        let current_key = CountCache::key(COUNT_SQL, &current);
        // Saved as it stands: loaded as saved, even where it is not what counting would give.
        save(&db, &current_key, COUNT_SQL, &current, version, 7)
            .await
            .expect("save");
        // No counter of the data version has this id: counted again, it is 0.
        let stale = [Bind::Int(-1)];
        let stale_key = CountCache::key(COUNT_SQL, &stale);
        save(&db, &stale_key, COUNT_SQL, &stale, version - 1, 9)
            .await
            .expect("save");

        let cache = CountCache::default();
        let report = warm(&db, &cache).await.expect("warm");

        assert_eq!(
            report,
            WarmReport {
                loaded: 1,
                recomputed: 1
            }
        );
        assert_eq!(cache.get(&current_key, version), Some(7));
        assert_eq!(cache.get(&stale_key, version), Some(0));
        assert_eq!(find(&db, &stale_key, version).await.expect("find"), Some(0));
    }

    #[test]
    fn parameters_are_stored_and_read_back_unchanged() {
        let binds = vec![Bind::Text("hiring".into()), Bind::Int(-5), Bind::Float(2.5)];
        let text = binds_json(&binds).to_string();
        assert_eq!(binds_from_json(&text), Some(binds));
    }

    #[test]
    fn stored_parameters_of_another_form_are_not_read() {
        assert_eq!(binds_from_json("[[\"x\", 1]]"), None);
        assert_eq!(binds_from_json("not json"), None);
    }
}
