//! The signal search documents and the company and tag rows of a bulk load on SQLite, written
//! into a scratch database beside the loaded one, on a connection (and so a thread) of their
//! own, while the rows go in; moved into the loaded database's tables when the load ends.
//!
//! Tokenizing the documents and merging FTS5's segments took about a quarter of the loading
//! connection's time (a perf profile of a scale-`l` import), and a database file has one writer
//! at a time: the loading connection could not hand that work to the machine's other core. A
//! second file has a writer of its own. FTS5 keeps an index wholly in its shadow tables
//! (`<table>_data`, `_idx`, `_docsize` and `_config`), so the rows of the staged table, copied
//! into the shadow tables of the loaded table (empty, and defined by the same statement), are
//! the loaded table's index, document for document.
//!
//! The company and tag rows (see `bulk_links`) are kept in staging tables as the loaded database
//! defines them, and moved into its `signal_companies` and `signal_tags`, sorted by their keys,
//! before those tables' indexes are built ([`LoadStage::move_links`]). Staged in the loaded
//! database, their pages went through its write-ahead log twice (in, then out again at the
//! end), and their statements ran on the loading connection's thread.
//!
//! A batch's documents and rows are handed over once every step of the batch has succeeded. A batch
//! that fails after that (its transaction, shared with the next batches, fails to commit) fails
//! the load, which is started over: the staged documents never outlive rows that were rolled
//! back. The copy is made by the scratch database's connection, not the loading one: FTS5 keeps
//! a table's structure in memory until another connection changes the file, which the copy then
//! is.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::bulk_links::{ANY_RESTORED, STAGING_TABLES, StagedLinks, move_statements};
use super::bulk_load::forget_load;
use super::bulk_search::{DEFAULTS, WHILE_LOADING, merge_settings, optimize};
use super::search::{SearchDoc, index_signals};
use super::{Db, StoreError, Tx};

/// The full-text tables staged: the signals' own (the companies' are written in place).
const STAGED_TABLES: [&str; 2] = ["signal_search", "signal_substrings"];

/// The shadow tables that hold an FTS5 table's index (contentless, with deletes).
const SHADOW_TABLES: [&str; 4] = ["data", "idx", "docsize", "config"];

/// The scratch database's name beside the loaded one.
const SCRATCH_SUFFIX: &str = "-load-stage";

/// Batches of documents waiting for the scratch database's writer: its writer keeps up with
/// the loading connection (a fifth of its work), and each batch waiting holds its texts.
const QUEUED_BATCHES: usize = 1;

/// Documents per commit of the scratch database (each commit writes its pages once).
const STAGE_SPAN: usize = 200_000;

/// One signal's search documents, owned, as [`index_signals`] writes them.
#[derive(Debug, Clone)]
pub struct StagedDoc {
    pub rowid: i64,
    pub body: Arc<str>,
    pub description: Arc<str>,
    pub substrings: Option<(String, String)>,
    /// The signal had documents already (stored again by the load).
    pub replace: bool,
}

impl StagedDoc {
    /// The document of `doc`, owned.
    pub fn of(doc: &SearchDoc<'_>, replace: bool) -> StagedDoc {
        StagedDoc {
            rowid: doc.rowid,
            body: Arc::clone(doc.body),
            description: Arc::clone(doc.description),
            substrings: doc
                .substrings
                .map(|(place, role)| (place.to_string(), role.to_string())),
            replace,
        }
    }

    fn view(&self) -> SearchDoc<'_> {
        SearchDoc {
            rowid: self.rowid,
            body: &self.body,
            description: &self.description,
            substrings: self
                .substrings
                .as_ref()
                .map(|(place, role)| (place.as_str(), role.as_str())),
        }
    }
}

/// What one signal batch hands to the stage.
#[derive(Debug, Default)]
pub struct StagedBatch {
    pub docs: Vec<StagedDoc>,
    /// The batch's company and tag rows.
    pub links: Option<StagedLinks>,
}

impl StagedBatch {
    fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.links.as_ref().is_none_or(StagedLinks::is_empty)
    }
}

/// Where a batch's signal search documents (and in a bulk load its company and tag rows) go.
#[derive(Debug)]
pub enum StagedWrites {
    /// Into the search tables, in the batch's transaction.
    Direct,
    /// Collected, for the bulk load's stage once the batch has succeeded.
    Staged(StagedBatch),
}

/// The way a bulk load's batches hand their documents to the stage.
#[derive(Debug, Clone)]
pub struct StageSender {
    queue: mpsc::Sender<StagedBatch>,
    failure: Failure,
}

/// Why the stage's writer stopped, once it has.
type Failure = Arc<std::sync::Mutex<Option<String>>>;

impl StageSender {
    /// Hands a batch over; waits while the stage is [`QUEUED_BATCHES`] behind.
    pub async fn send(&self, batch: StagedBatch) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        self.queue.send(batch).await.map_err(|_| {
            let why = self
                .failure
                .lock()
                .map(|f| f.clone())
                .unwrap_or_default()
                .unwrap_or_else(|| "it stopped".to_string());
            failed(format!("the search documents' stage failed: {why}"))
        })
    }
}

/// The stage of a bulk load: the scratch database and the task writing into it.
#[derive(Debug)]
pub struct LoadStage {
    /// None once the stage merges.
    sender: Option<StageSender>,
    /// The writer, then the merge ([`LoadStage::merge`]).
    work: Option<JoinHandle<Result<(), StoreError>>>,
    scratch: Db,
    path: PathBuf,
    /// The loaded database's file, attached by the scratch connection for the copy.
    loaded: PathBuf,
}

impl LoadStage {
    /// Opens a stage for a load into `loaded` (SQLite, in a file; `None` otherwise): the
    /// scratch database beside it, with the staged tables and the staging tables of the
    /// company and tag rows defined as the loaded ones are.
    pub async fn open(loaded: &Db) -> Result<Option<LoadStage>, StoreError> {
        let Db::Sqlite(sqlite) = loaded else {
            return Ok(None);
        };
        let options = sqlite.pool().connect_options();
        let Some(path) = super::sqlite::lock_file::beside(&options, SCRATCH_SUFFIX) else {
            return Ok(None);
        };
        let loaded_file = options.get_filename().to_path_buf();
        let scratch = super::sqlite::SqliteDb::scratch(&path).await?;
        for table in STAGED_TABLES.iter().chain(&STAGING_TABLES) {
            let create: String = sqlx::query_scalar(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
            )
            .bind(table)
            .fetch_one(sqlite.pool())
            .await?;
            sqlx::query(sqlx::AssertSqlSafe(create))
                .execute(scratch.pool())
                .await?;
        }
        for table in STAGED_TABLES {
            for sql in merge_settings(table, &WHILE_LOADING) {
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .execute(scratch.pool())
                    .await?;
            }
        }
        let scratch = Db::Sqlite(scratch);
        let (queue, receiver) = mpsc::channel(QUEUED_BATCHES);
        let failure = Failure::default();
        let writer = tokio::spawn(write_and_tell(
            scratch.clone(),
            receiver,
            Arc::clone(&failure),
        ));
        Ok(Some(LoadStage {
            sender: Some(StageSender { queue, failure }),
            work: Some(writer),
            scratch,
            path,
            loaded: loaded_file,
        }))
    }

    /// The way the load's batches hand their documents and rows over; none once the stage
    /// moves its rows or merges.
    pub fn sender(&self) -> Option<StageSender> {
        self.sender.clone()
    }

    /// Moves the staged company and tag rows into the loaded database's tables, in one
    /// transaction, once every batch is written (no [`StageSender`] may be left): before those
    /// tables' indexes are built, and while no other transaction writes the loaded database.
    pub async fn move_links(&mut self) -> Result<(), StoreError> {
        self.sender = None;
        if let Some(writing) = self.work.take() {
            writing
                .await
                .map_err(|e| failed(format!("the search documents' stage failed: {e}")))??;
        }
        self.with_loaded(move_into_loaded).await
    }

    /// Starts the end of the stage once every batch is written (no [`StageSender`] may be
    /// left): in the background, the writer writes what is queued, then each staged table is
    /// merged into one segment and given FTS5's defaults, as the loaded tables end up. The
    /// loading connection meanwhile builds its indexes; [`LoadStage::copy_in`] waits for it.
    pub fn merge(&mut self) {
        self.sender = None;
        let scratch = self.scratch.clone();
        let writing = self.work.take();
        self.work = Some(tokio::spawn(async move {
            if let Some(writing) = writing {
                writing
                    .await
                    .map_err(|e| failed(format!("the search documents' stage failed: {e}")))??;
            }
            merge_staged(&scratch).await
        }));
    }

    /// Ends the stage ([`LoadStage::merge`] first, or here): copies the staged tables into
    /// the loaded database, then deletes the scratch database.
    pub async fn copy_in(mut self) -> Result<(), StoreError> {
        if self.sender.is_some() {
            self.merge();
        }
        let LoadStage {
            work,
            scratch,
            path,
            loaded,
            ..
        } = self;
        let outcome = async {
            if let Some(work) = work {
                work.await
                    .map_err(|e| failed(format!("the search documents' stage failed: {e}")))??;
            }
            attached(&scratch, &loaded, copy_into_loaded).await
        }
        .await;
        scratch.close().await;
        let removed = std::fs::remove_file(&path);
        outcome?;
        removed.map_err(|e| StoreError::from(sqlx::Error::Io(e)))
    }

    /// Runs `work` on the scratch connection with the loaded database attached as `loaded`.
    async fn with_loaded<F>(&self, work: F) -> Result<(), StoreError>
    where
        F: AsyncFnOnce(&mut sqlx::SqliteConnection) -> Result<(), StoreError>,
    {
        attached(&self.scratch, &self.loaded, work).await
    }

    /// Gives the stage up (the load failed): stops its work and deletes the scratch database.
    pub async fn discard(self) {
        drop(self.sender);
        if let Some(work) = self.work {
            work.abort();
            let _ = work.await;
        }
        self.scratch.close().await;
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Runs `work` on `scratch`'s connection with the database file `loaded` attached as `loaded`.
async fn attached<F>(scratch: &Db, loaded: &std::path::Path, work: F) -> Result<(), StoreError>
where
    F: AsyncFnOnce(&mut sqlx::SqliteConnection) -> Result<(), StoreError>,
{
    let Db::Sqlite(sqlite) = scratch else {
        return Ok(());
    };
    let mut conn = sqlite.pool().acquire().await?;
    sqlx::query("ATTACH DATABASE ? AS loaded")
        .bind(loaded.to_string_lossy().into_owned())
        .execute(&mut *conn)
        .await?;
    // As on the loading connection: not synced until the load ends (`bulk_load::sync_to_disk`).
    sqlx::query("PRAGMA loaded.synchronous = OFF")
        .execute(&mut *conn)
        .await?;
    let outcome = work(&mut conn).await;
    sqlx::query("DETACH DATABASE loaded")
        .execute(&mut *conn)
        .await?;
    outcome
}

/// Moves the staged company and tag rows into the attached loaded database (see
/// `bulk_links::move_statements`), sorting on two threads in runs of the small page cache,
/// spilled to temporary files rather than held in the process's memory.
async fn move_into_loaded(conn: &mut sqlx::SqliteConnection) -> Result<(), StoreError> {
    for pragma in ["PRAGMA threads = 2", "PRAGMA temp_store = FILE"] {
        sqlx::query(pragma).execute(&mut *conn).await?;
    }
    let restored: bool = sqlx::query_scalar(ANY_RESTORED)
        .fetch_one(&mut *conn)
        .await?;
    // Rolled back when dropped unfinished.
    let mut tx = sqlx::Connection::begin_with(conn, "BEGIN IMMEDIATE").await?;
    for sql in move_statements(restored, "loaded") {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Merges each staged table into one segment and sets FTS5's defaults on it.
async fn merge_staged(scratch: &Db) -> Result<(), StoreError> {
    let Db::Sqlite(sqlite) = scratch else {
        return Ok(());
    };
    for table in STAGED_TABLES {
        for sql in std::iter::once(optimize(table)).chain(merge_settings(table, &DEFAULTS)) {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(sqlite.pool())
                .await?;
        }
    }
    Ok(())
}

/// Replaces the index of each staged table of the attached loaded database by the staged one,
/// and forgets the load (the copy is its last write: until it commits, the database is
/// half-loaded, see `bulk_load::finish`), in one transaction.
async fn copy_into_loaded(conn: &mut sqlx::SqliteConnection) -> Result<(), StoreError> {
    // Rolled back when dropped unfinished.
    let mut tx = sqlx::Connection::begin_with(conn, "BEGIN IMMEDIATE").await?;
    for table in STAGED_TABLES {
        for shadow in SHADOW_TABLES {
            let name = format!("{table}_{shadow}");
            for sql in [
                format!("DELETE FROM loaded.{name}"),
                format!("INSERT INTO loaded.{name} SELECT * FROM main.{name}"),
            ] {
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .execute(&mut *tx)
                    .await?;
            }
        }
    }
    sqlx::query(sqlx::AssertSqlSafe(forget_load(Some("loaded"))))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Runs [`write_staged`], keeping its error where the senders find it.
async fn write_and_tell(
    scratch: Db,
    batches: mpsc::Receiver<StagedBatch>,
    failure: Failure,
) -> Result<(), StoreError> {
    let outcome = write_staged(scratch, batches).await;
    if let (Err(err), Ok(mut why)) = (&outcome, failure.lock()) {
        *why = Some(err.to_string());
    }
    outcome
}

/// The stage's writer: every batch handed over, in order, a commit every [`STAGE_SPAN`]
/// documents and rows, and at the end.
async fn write_staged(
    scratch: Db,
    mut batches: mpsc::Receiver<StagedBatch>,
) -> Result<(), StoreError> {
    let mut open: Option<Tx> = None;
    let mut written = 0;
    while let Some(batch) = batches.recv().await {
        let tx = match open.as_mut() {
            Some(tx) => tx,
            None => open.insert(scratch.begin_write().await?),
        };
        for replace in [false, true] {
            let docs: Vec<SearchDoc<'_>> = batch
                .docs
                .iter()
                .filter(|d| d.replace == replace)
                .map(StagedDoc::view)
                .collect();
            index_signals(tx, &docs, replace).await?;
        }
        if let Some(links) = &batch.links {
            links.write(tx).await?;
        }
        written += batch.docs.len() + batch.links.as_ref().map_or(0, StagedLinks::len);
        if written >= STAGE_SPAN
            && let Some(tx) = open.take()
        {
            tx.commit().await?;
            written = 0;
        }
    }
    match open {
        Some(tx) => tx.commit().await,
        None => Ok(()),
    }
}

/// An error of the stage that is no database's.
fn failed(message: String) -> StoreError {
    sqlx::Error::Io(std::io::Error::other(message)).into()
}
