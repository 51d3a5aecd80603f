//! What one import run remembers across its batches.

use std::collections::HashSet;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::bulk::tune_for_bulk;
use crate::store::bulk_links::LinkRows;
use crate::store::bulk_stage::{StageSender, StagedBatch, StagedWrites};
use crate::store::{Db, StoreError, Tx};

/// State kept across the batches of one import (a file of the import command, or one admin API
/// call): the ids of companies known to be stored, and in a bulk load on SQLite the transaction
/// its batches share. Companies are never deleted, so an id once seen stored needs no second
/// look-up.
#[derive(Debug, Default)]
pub struct ImportSession {
    known_companies: HashSet<String>,
    bulk: bool,
    /// Records per commit when the batches share transactions (0: each batch commits).
    span: usize,
    /// The shared transaction between two batches, and the records written in it so far.
    held: Option<Tx>,
    written: usize,
    /// A bulk load's numbering of its signal batches, shared by its files.
    batches: Option<BatchNumbers>,
    /// Where a bulk load keeps the companies known to be stored from one file to the next: the
    /// session takes them when it starts and gives them back when its file is done.
    shared_known: Option<KnownCompanies>,
    /// Where a bulk load on SQLite hands its signal search documents and its company and tag
    /// rows (`bulk_stage`).
    stage: Option<StageSender>,
    /// Every batch is rolled back instead of committed (see `ingest::rehearsal`).
    rehearsal: bool,
    /// The ingest writer writing these batches is saturated (see `delivery::pressure`).
    busy: bool,
}

/// The numbers of a bulk load's signal batches, in the order they are written, across the
/// load's files (see `store::bulk_links`).
#[derive(Debug, Clone, Default)]
pub struct BatchNumbers(Arc<AtomicI64>);

/// The ids of the companies a bulk load has stored or found, handed from one file's session to
/// the next (see [`ImportSession::spanning`]). Without it each file's first batches looked up
/// again, by id, the companies the files before had stored (the primary key, then the row),
/// although nothing deletes a company and nobody else writes during a load.
#[derive(Debug, Clone, Default)]
pub struct KnownCompanies(Arc<Mutex<HashSet<String>>>);

impl KnownCompanies {
    fn lock(&self) -> MutexGuard<'_, HashSet<String>> {
        // A panic while the lock was held left a set taken or put back whole.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// True when no company is known (also while a session holds them).
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Forgets every company and frees the set's memory: once the last file is loaded.
    pub fn forget(&self) {
        *self.lock() = HashSet::new();
    }
}

impl ImportSession {
    /// A session that knows nothing yet.
    pub fn new() -> ImportSession {
        ImportSession::default()
    }

    /// A session for a group of the ingest writer, saturated or not (`busy`): its batches'
    /// announcements of queued deliveries say so (see `delivery::pressure`).
    pub fn grouped(busy: bool) -> ImportSession {
        ImportSession {
            busy,
            ..ImportSession::default()
        }
    }

    /// True when the ingest writing these batches is saturated.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// A session for loading files: its transactions also tune their SQLite connection for bulk
    /// writes (see `store::bulk::tune_for_bulk`).
    pub fn for_files() -> ImportSession {
        ImportSession {
            bulk: true,
            ..ImportSession::default()
        }
    }

    /// A session whose batches do all their work and are then rolled back: nothing is stored,
    /// announced or remembered (see `ingest::rehearsal`).
    pub fn rehearsal() -> ImportSession {
        ImportSession {
            rehearsal: true,
            ..ImportSession::default()
        }
    }

    /// A session for a bulk load whose batches share one SQLite transaction per `span` records.
    ///
    /// A commit writes every page the transaction changed to the write-ahead log, and a load's
    /// unique keys (random text ids) change pages all over their indexes in every batch: with
    /// a commit per batch, the same pages are logged again and again. A transaction spanning
    /// batches logs each page about once. A failed batch then takes the batches before it in
    /// the same transaction with it, which a bulk load may lose: it is started over anyway
    /// (see `store::bulk_load`). On PostgreSQL each batch commits.
    ///
    /// Its signal batches stage their company and tag rows, numbered by `batches`, and hand
    /// their search documents and company and tag rows to `stage` when there is one. It starts
    /// knowing the companies in `known` and gives them back, with the ones it adds, when its
    /// file is done ([`ImportSession::finish`]).
    pub fn spanning(
        span: usize,
        batches: BatchNumbers,
        stage: Option<StageSender>,
        known: KnownCompanies,
    ) -> ImportSession {
        let known_companies = std::mem::take(&mut *known.lock());
        ImportSession {
            known_companies,
            span,
            batches: Some(batches),
            shared_known: Some(known),
            stage,
            ..ImportSession::default()
        }
    }

    /// Where the next signal batch, in `tx`, writes its company and tag rows: a bulk load on
    /// SQLite stages them; everything else writes them into their tables.
    pub fn link_rows(&self, tx: &Tx) -> LinkRows {
        match (&self.batches, tx) {
            (Some(BatchNumbers(next)), Tx::Sqlite(_)) => {
                LinkRows::Staged(next.fetch_add(1, Ordering::Relaxed))
            }
            _ => LinkRows::Direct,
        }
    }

    /// Where the next signal batch, in `tx`, writes its search documents (and, staged, its
    /// company and tag rows): a bulk load on SQLite with a stage collects them for it;
    /// everything else writes them in the batch.
    pub fn search_writes(&self, tx: &Tx) -> StagedWrites {
        match (&self.stage, tx) {
            (Some(_), Tx::Sqlite(_)) => StagedWrites::Staged(StagedBatch::default()),
            _ => StagedWrites::Direct,
        }
    }

    /// Hands the search documents and rows a batch collected to the load's stage, once every
    /// step of the batch has succeeded ([`ImportSession::commit`] came first).
    pub async fn hand_to_stage(&self, search: StagedWrites) -> Result<(), StoreError> {
        match (&self.stage, search) {
            (Some(stage), StagedWrites::Staged(batch)) => stage.send(batch).await,
            _ => Ok(()),
        }
    }

    /// Starts a batch's transaction, or continues the one the batches share. On PostgreSQL no
    /// lock is taken: ingests in every process run at once, and unique keys decide which one
    /// creates a company or a signal (see `signal_batch::accept_signals`).
    pub async fn begin(&mut self, db: &Db) -> Result<Tx, StoreError> {
        if let Some(tx) = self.held.take() {
            return Ok(tx);
        }
        let mut tx = db.begin_write().await?;
        if self.bulk {
            tune_for_bulk(&mut tx).await?;
        }
        Ok(tx)
    }

    /// Ends a batch of `records` records: commits its transaction, or when the batches share
    /// one and it has written fewer than the span, keeps it open for the next batch; in a
    /// rehearsal, rolls it back.
    pub async fn commit(&mut self, tx: Tx, records: usize) -> Result<(), StoreError> {
        if self.rehearsal {
            return tx.rollback().await;
        }
        self.written += records;
        if matches!(tx, Tx::Sqlite(_)) && self.written < self.span {
            self.held = Some(tx);
            return Ok(());
        }
        // A commit that fails takes the earlier batches sharing the transaction with it: this
        // one may then run again only if there were none.
        self.written -= records;
        tx.commit().await?;
        self.written = 0;
        Ok(())
    }

    /// Commits the transaction the batches share, if one is open: at the end of a file. A bulk
    /// load's session then gives the companies it knows back for the next file.
    pub async fn finish(&mut self) -> Result<(), StoreError> {
        if let Some(tx) = self.held.take() {
            tx.commit().await?;
        }
        self.written = 0;
        if let Some(shared) = &self.shared_known {
            *shared.lock() = std::mem::take(&mut self.known_companies);
        }
        Ok(())
    }

    /// True when a failed batch may run again from its start: nothing of earlier batches was
    /// lost with its transaction.
    pub fn may_run_again(&self) -> bool {
        self.written == 0
    }

    /// True when the company id is known to be stored.
    pub fn knows_company(&self, id: &str) -> bool {
        self.known_companies.contains(id)
    }

    /// Remembers company ids stored by a batch.
    pub fn remember_companies<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        if self.rehearsal {
            return;
        }
        for id in ids {
            if !self.known_companies.contains(id) {
                self.known_companies.insert(id.to_string());
            }
        }
    }
}
