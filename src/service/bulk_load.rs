//! Which way an import writes. Into a database that holds no companies, people or signals, and
//! where nothing (no monitor, no webhook) would hear of new ones, it loads in bulk: the list and
//! search indexes are dropped first and built once the rows are in, and the batches are larger.
//! The records, their companies, tags and search documents are the same as the ordinary path
//! writes; fan-out finds no listener either way. Anywhere else it takes the ordinary path, the
//! admin API's, batch by batch with every index kept.
//!
//! A bulk load stopped half-way (killed, or failed) leaves its mark in the database: the server
//! refuses to start on it ([`refuse_half_loaded`]) and the next import starts the load over.
//! Imports of one database take turns ([`wait_for_turn`]), so the mark an import finds is never
//! that of a load still running. Servers and bulk loads keep apart (`store::serving_lock`): an
//! import into an empty database a server is running on takes the ordinary path, and no server
//! starts while a bulk load runs.

use std::sync::Mutex;
use std::time::Duration;

use super::ServiceError;
use crate::domain::time::now_ms;
use crate::ingest::files::{FileKind, Loading};
use crate::ingest::session::{BatchNumbers, KnownCompanies};
use crate::store::bulk_load::{
    add_country_index, clear_loaded_rows, finish, holds_no_data, interrupted_since, start,
    sync_to_disk, tune_loading_connection,
};
use crate::store::bulk_search::merge_completely;
use crate::store::bulk_stage::LoadStage;
use crate::store::import_lock::{self, ImportLock};
use crate::store::serving_lock::keep_servers_out;
use crate::store::{Db, HeldLock};

/// How an import writes.
#[derive(Debug)]
pub enum LoadPath {
    /// Rows first, indexes after, on a connection of its own.
    Bulk(BulkLoad),
    /// Batch by batch with every index kept.
    Ordinary(Ordinary),
}

/// Why an import takes the ordinary path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ordinary {
    /// The database holds data, or monitors or webhooks would hear of what is loaded.
    HoldsData,
    /// A server is running on the (empty) database and may write to it meanwhile.
    Served,
}

/// A bulk load under way.
#[derive(Debug)]
pub struct BulkLoad {
    writer: Db,
    /// True when an interrupted load was found and started over.
    pub restarted: bool,
    /// Indexes to build once the rows are in.
    pub deferred_indexes: usize,
    /// The numbers of the load's signal batches, across its files.
    batches: BatchNumbers,
    /// The companies the load has stored or found, handed from each file to the next.
    known: KnownCompanies,
    /// Keeps servers from starting until the load ends.
    servers_out: HeldLock,
    /// Where the signal search documents and company and tag rows are written meanwhile
    /// (SQLite, in a file), until they are moved and copied in.
    stage: Mutex<Option<LoadStage>>,
}

/// How often an import waiting for another one to end tries again.
const TURN_RETRY: Duration = Duration::from_millis(250);

/// Waits until no other import (in any process) writes to `db`, calling `waiting` once when it
/// has to wait, and returns the lock that keeps the others waiting until it is released or
/// dropped. Without it, an import started during a bulk load took the load's mark for that of
/// an interrupted one and deleted the rows loaded so far.
pub async fn wait_for_turn(db: &Db, waiting: impl FnOnce()) -> Result<ImportLock, ServiceError> {
    let mut waiting = Some(waiting);
    loop {
        if let Some(lock) = import_lock::try_lock(db).await? {
            return Ok(lock);
        }
        if let Some(tell) = waiting.take() {
            tell();
        }
        tokio::time::sleep(TURN_RETRY).await;
    }
}

/// Chooses the way an import writes into `db` and, for a bulk load, drops the indexes it builds
/// afterwards. An interrupted bulk load is started over: its rows are deleted first.
pub async fn begin_import(db: &Db) -> Result<LoadPath, ServiceError> {
    let interrupted = interrupted_since(db).await?.is_some();
    if !interrupted && !holds_no_data(db).await? {
        return Ok(LoadPath::Ordinary(Ordinary::HoldsData));
    }
    // Before anything is deleted or dropped: no server may be writing to the tables a bulk load
    // (or its restart) takes over, and none may start until the load ends.
    let Some(servers_out) = keep_servers_out(db).await? else {
        if interrupted {
            return Err(ServiceError::conflict(
                "a half-finished bulk load was found while a server is running on the \
                 database: stop the server, then run the import again",
            ));
        }
        return Ok(LoadPath::Ordinary(Ordinary::Served));
    };
    if interrupted {
        clear_loaded_rows(db).await?;
        if !holds_no_data(db).await? {
            servers_out.release().await;
            return Err(ServiceError::conflict(
                "a half-finished bulk load was found, but the database now has monitors or \
                 webhooks: it cannot be loaded in bulk again",
            ));
        }
    }
    let deferred_indexes = if interrupted {
        // The indexes were dropped and saved by the interrupted load.
        0
    } else {
        start(db, now_ms()).await?.len()
    };
    let writer = db.own_writer();
    tune_loading_connection(&writer).await?;
    let stage = LoadStage::open(&writer).await?;
    Ok(LoadPath::Bulk(BulkLoad {
        writer,
        restarted: interrupted,
        deferred_indexes,
        batches: BatchNumbers::default(),
        known: KnownCompanies::default(),
        servers_out,
        stage: Mutex::new(stage),
    }))
}

impl BulkLoad {
    /// The connection the load writes through.
    pub fn db(&self) -> &Db {
        &self.writer
    }

    /// How the load's file of `kind` writes its batches; before a file of signals, the index
    /// its signals copy their company's country from (`store::bulk_load::COUNTRY_INDEX`).
    pub async fn loading(&self, kind: FileKind) -> Result<Loading, ServiceError> {
        if let FileKind::Signals(_) = kind {
            add_country_index(&self.writer).await?;
        }
        let stage = self.stage().as_ref().and_then(LoadStage::sender);
        Ok(Loading::bulk(
            self.batches.clone(),
            stage,
            self.known.clone(),
        ))
    }

    /// Moves the company and tag rows the load's stage holds into their tables (SQLite; see
    /// `store::bulk_stage`), before their indexes are built. Every file must be loaded.
    pub async fn move_staged_links(&self) -> Result<(), ServiceError> {
        // No file is left to look companies up: the closing steps get the memory.
        self.known.forget();
        let stage = self.stage().take();
        let Some(mut stage) = stage else {
            return Ok(());
        };
        match stage.move_links().await {
            Ok(()) => {
                *self.stage() = Some(stage);
                Ok(())
            }
            Err(err) => {
                stage.discard().await;
                Err(err.into())
            }
        }
    }

    /// Merges each full-text table into one segment (SQLite; see `store::bulk_search`), the
    /// staged ones in the background (see `store::bulk_stage`) while the load goes on
    /// to its indexes. Every file must be loaded.
    pub async fn merge_search_tables(&self) -> Result<(), ServiceError> {
        if let Some(stage) = self.stage().as_mut() {
            stage.merge();
        }
        Ok(merge_completely(&self.writer).await?)
    }

    /// Copies the staged search tables, once merged, into the database (after the index
    /// builds: one transaction writes at a time) and ends the load, in one transaction.
    pub async fn copy_search_tables(&self) -> Result<(), ServiceError> {
        let stage = self.stage().take();
        if let Some(stage) = stage {
            stage.copy_in().await?;
        }
        Ok(())
    }

    fn stage(&self) -> std::sync::MutexGuard<'_, Option<LoadStage>> {
        // A panic while the lock was held left nothing half-changed: an Option taken or read.
        self.stage
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Builds the dropped indexes and, without a stage, ends the load (a stage's copy of its
    /// search tables ends it, see [`BulkLoad::copy_search_tables`]); returns how many were built.
    pub async fn build_indexes(&self) -> Result<usize, ServiceError> {
        let ends_load = self.stage().is_none();
        Ok(finish(&self.writer, ends_load).await?.len())
    }

    /// Refreshes the query planner's statistics of the loaded database.
    pub async fn analyze(&self) -> Result<(), ServiceError> {
        Ok(self.writer.analyze().await?)
    }

    /// Puts the loaded database on disk: the load's commits were not synced.
    pub async fn sync_to_disk(&self) -> Result<(), ServiceError> {
        Ok(sync_to_disk(&self.writer).await?)
    }

    /// Closes the load's connection and lets servers start again.
    pub async fn close(self) {
        let stage = self.stage().take();
        if let Some(stage) = stage {
            stage.discard().await;
        }
        self.writer.close().await;
        self.servers_out.release().await;
    }
}

/// What to tell an operator whose database is half-loaded.
pub const HALF_LOADED: &str = "the database is half-loaded: a bulk import into it has not \
     finished (it is still running, or it stopped). Once no import is running, run \
     `signalwatch import` with the same files again: it starts the load over";

/// Refuses a database whose bulk load stopped half-way (its lists would miss rows and indexes).
pub async fn refuse_half_loaded(db: &Db) -> Result<(), ServiceError> {
    match interrupted_since(db).await? {
        Some(_) => Err(ServiceError::conflict(HALF_LOADED)),
        None => Ok(()),
    }
}
