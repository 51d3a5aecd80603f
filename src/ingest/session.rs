//! What one import run remembers across its batches.

use std::collections::HashSet;

use crate::store::bulk::tune_for_bulk;
use crate::store::{Db, StoreError, Tx};

/// State kept across the batches of one import (a file of the import command, or one admin API
/// call): the ids of companies known to be stored. Companies are never deleted, so an id once
/// seen stored needs no second look-up.
#[derive(Debug, Default)]
pub struct ImportSession {
    known_companies: HashSet<String>,
    bulk: bool,
}

impl ImportSession {
    /// A session that knows nothing yet.
    pub fn new() -> ImportSession {
        ImportSession::default()
    }

    /// A session for loading files: its transactions also tune their SQLite connection for bulk
    /// writes (see `store::bulk::tune_for_bulk`).
    pub fn for_files() -> ImportSession {
        ImportSession {
            bulk: true,
            ..ImportSession::default()
        }
    }

    /// Starts a batch's transaction. On PostgreSQL no lock is taken: ingests in every process
    /// run at once, and unique keys decide which one creates a company or a signal (see
    /// `signal_batch::accept_signals`).
    pub async fn begin(&self, db: &Db) -> Result<Tx, StoreError> {
        let mut tx = db.begin_write().await?;
        if self.bulk {
            tune_for_bulk(&mut tx).await?;
        }
        Ok(tx)
    }

    /// True when the company id is known to be stored.
    pub fn knows_company(&self, id: &str) -> bool {
        self.known_companies.contains(id)
    }

    /// Remembers company ids stored by a committed batch.
    pub fn remember_companies<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        for id in ids {
            if !self.known_companies.contains(id) {
                self.known_companies.insert(id.to_string());
            }
        }
    }
}
