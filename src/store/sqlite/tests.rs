//! The write gate belongs to the handle: two handles write at once, one handle's writers take
//! turns.

use std::time::Duration;

use crate::store::Db;

async fn connected(dir: &tempfile::TempDir, file: &str) -> Db {
    let url = format!("sqlite://{}", dir.path().join(file).display());
    let db = Db::connect(&url).await.expect("connect");
    db.migrate().await.expect("migrate");
    db
}

#[tokio::test]
async fn two_connected_handles_hold_write_transactions_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (first, second) = (connected(&dir, "a.db").await, connected(&dir, "b.db").await);
    let held = first.begin_write().await.expect("first");
    let other = tokio::time::timeout(Duration::from_secs(5), second.begin_write())
        .await
        .expect("the second handle does not wait for the first one's gate")
        .expect("second");
    other.commit().await.expect("commit");
    held.commit().await.expect("commit");
}

#[tokio::test]
async fn a_second_write_on_one_handle_waits_until_the_first_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = connected(&dir, "a.db").await;
    let held = db.begin_write().await.expect("first");
    // Clones and the own writer share the gate.
    for other in [db.clone(), db.own_writer()] {
        let waited = tokio::time::timeout(Duration::from_millis(200), other.begin_write()).await;
        assert!(
            waited.is_err(),
            "a second writer got in while the first held the gate"
        );
    }
    let second = tokio::spawn({
        let db = db.clone();
        async move { db.begin_write().await.map(|_| ()) }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!second.is_finished(), "the second writer did not wait");
    drop(held);
    tokio::time::timeout(Duration::from_secs(5), second)
        .await
        .expect("the second writer gets its turn once the first ends")
        .expect("join")
        .expect("second");
}
