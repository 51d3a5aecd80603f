//! When each source host may next be asked, shared by every process of the service (migration
//! 0035). A collector reserves its request's start before it sends it: the start is the later
//! of now and the host's next free moment, and the next free moment moves one spacing past that
//! start, in one statement, so two processes reserving at once get starts a spacing apart.
//! Times are the processes' wall clocks in epoch milliseconds (processes on several machines
//! need their clocks kept in step, as NTP does).

use super::{Db, StoreError};
use crate::on_tx;

/// Reserves the start of a request to `host` at `now` or later, `spacing_ms` after the last
/// start reserved by any process; returns that start (epoch milliseconds).
pub async fn reserve_start(
    db: &Db,
    host: &str,
    now: i64,
    spacing_ms: i64,
) -> Result<i64, StoreError> {
    db.write(async |tx| {
        let next: i64 = on_tx!(tx, |conn| sqlx::query_scalar(
            "INSERT INTO host_turns (host, next_at) VALUES ($1, $2 + $3) \
             ON CONFLICT (host) DO UPDATE SET next_at = \
             CASE WHEN host_turns.next_at > $2 THEN host_turns.next_at ELSE $2 END + $3 \
             RETURNING next_at"
        )
        .bind(host)
        .bind(now)
        .bind(spacing_ms)
        .fetch_one(conn)
        .await)?;
        Ok(next - spacing_ms)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn starts_reserved_at_once_come_a_spacing_apart_and_a_quiet_host_starts_now() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("turns.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");

        let first = reserve_start(&db, "boards.example:443", 1_000, 500).await;
        let second = reserve_start(&db, "boards.example:443", 1_000, 500).await;
        let third = reserve_start(&db, "boards.example:443", 1_100, 500).await;
        let other_host = reserve_start(&db, "jobs.example:443", 1_100, 500).await;
        let later = reserve_start(&db, "boards.example:443", 9_000, 500).await;

        assert_eq!(first.expect("reserved"), 1_000);
        assert_eq!(second.expect("reserved"), 1_500);
        assert_eq!(third.expect("reserved"), 2_000);
        assert_eq!(other_host.expect("reserved"), 1_100);
        assert_eq!(later.expect("reserved"), 9_000);
    }
}
