//! What one import run remembers across its batches.

use std::collections::HashSet;

/// State kept across the batches of one import (a file of the import command, or one admin API
/// call): the ids of companies known to be stored. Companies are never deleted, so an id once
/// seen stored needs no second look-up.
#[derive(Debug, Default)]
pub struct ImportSession {
    known_companies: HashSet<String>,
}

impl ImportSession {
    /// A session that knows nothing yet.
    pub fn new() -> ImportSession {
        ImportSession::default()
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
