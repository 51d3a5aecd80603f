//! A bulk load's batches share a SQLite transaction until they have written the span; on
//! PostgreSQL each batch commits.

use super::databases;
use crate::ingest::session::{BatchNumbers, ImportSession, KnownCompanies};
use crate::store::Db;
use crate::store::versions::{bump_data_version, data_version};

/// One batch of `records` records: a change the other connections see once it is committed.
async fn write_batch(db: &Db, session: &mut ImportSession, records: usize) {
    let mut tx = session.begin(db).await.expect("begin");
    bump_data_version(&mut tx).await.expect("write");
    session.commit(tx, records).await.expect("commit");
}

#[tokio::test]
async fn a_bulk_session_commits_once_its_batches_reach_the_span_and_at_the_end() {
    for t in databases().await {
        let db = &t.db;
        let sqlite = matches!(db, Db::Sqlite(_));
        let start = data_version(db).await.expect("version");
        let mut session =
            ImportSession::spanning(3, BatchNumbers::default(), None, KnownCompanies::default());

        write_batch(db, &mut session, 2).await;
        let after_first = data_version(db).await.expect("version");
        let may_run_again = session.may_run_again();
        write_batch(db, &mut session, 2).await;
        let after_span = data_version(db).await.expect("version");
        write_batch(db, &mut session, 1).await;
        let before_end = data_version(db).await.expect("version");
        session.finish().await.expect("finish");
        let after_end = data_version(db).await.expect("version");

        if sqlite {
            assert_eq!(after_first, start, "the first batch is held open");
            assert!(!may_run_again, "a batch failing now would lose the first");
            assert_eq!(after_span, start + 2, "both batches commit at the span");
            assert_eq!(before_end, after_span, "the last batch is held open");
        } else {
            assert_eq!(after_first, start + 1, "each batch commits");
            assert!(may_run_again);
            assert_eq!(after_span, start + 2);
            assert_eq!(before_end, start + 3);
        }
        assert_eq!(after_end, start + 3, "the end of the file commits the rest");
        assert!(session.may_run_again());
    }
}

#[tokio::test]
async fn a_bulk_loads_files_hand_the_companies_they_know_on_to_the_next_file() {
    let known = KnownCompanies::default();
    let mut companies_file =
        ImportSession::spanning(10, BatchNumbers::default(), None, known.clone());
    companies_file.remember_companies(["c-1", "c-2"]);
    assert!(
        known.is_empty(),
        "the file's session holds the set while it runs"
    );
    companies_file.finish().await.expect("finish");
    assert!(
        !known.is_empty(),
        "the set is given back when the file is done"
    );

    let signals_file = ImportSession::spanning(10, BatchNumbers::default(), None, known.clone());
    assert!(signals_file.knows_company("c-1"));
    assert!(signals_file.knows_company("c-2"));
    assert!(!signals_file.knows_company("c-3"));

    known.forget();
    let after_the_files = ImportSession::spanning(10, BatchNumbers::default(), None, known);
    assert!(!after_the_files.knows_company("c-1"));
}
