//! The write gate belongs to the handle: two handles write at once, one handle's writers take
//! turns. A file the service creates gets its page size; a file made before keeps its own.

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

async fn page_size(db: &Db) -> i64 {
    let Db::Sqlite(sqlite) = db else {
        unreachable!("a SQLite handle")
    };
    sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(sqlite.pool())
        .await
        .expect("page size")
}

#[tokio::test]
async fn a_new_file_gets_8_kib_pages_and_a_file_made_before_keeps_its_own() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_eq!(page_size(&connected(&dir, "new.db").await).await, 8192);

    // A file of SQLite's default page size, with a table in it, as earlier versions made them.
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
    let mut made_before = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("create the old file");
    sqlx::query("CREATE TABLE kept (id INTEGER PRIMARY KEY)")
        .execute(&mut made_before)
        .await
        .expect("a table");
    sqlx::Connection::close(made_before).await.expect("close");

    let reopened = connected(&dir, "old.db").await;
    assert_eq!(page_size(&reopened).await, 4096);
}
