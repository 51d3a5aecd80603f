//! One NDJSON output file: buffered, one serialized object per line, counted, and reported to the
//! shared progress bar in batches so the bar costs nothing per row.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use indicatif::ProgressBar;
use serde::Serialize;

/// Rows between progress-bar updates.
const PROGRESS_BATCH: u64 = 1024;

/// What was written to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSummary {
    pub name: &'static str,
    pub rows: u64,
    pub bytes: u64,
}

/// An NDJSON file being written.
pub struct NdjsonFile<'p> {
    name: &'static str,
    out: BufWriter<File>,
    rows: u64,
    unreported: u64,
    progress: &'p ProgressBar,
}

impl<'p> NdjsonFile<'p> {
    /// Creates (or truncates) `dir/name`.
    pub fn create(dir: &Path, name: &'static str, progress: &'p ProgressBar) -> io::Result<Self> {
        let file = File::create(dir.join(name))?;
        progress.set_message(name);
        Ok(Self {
            name,
            out: BufWriter::with_capacity(1 << 20, file),
            rows: 0,
            unreported: 0,
            progress,
        })
    }

    /// Appends one record as a line.
    pub fn write<T: Serialize>(&mut self, record: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, record)?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        self.unreported += 1;
        if self.unreported == PROGRESS_BATCH {
            self.progress.inc(self.unreported);
            self.unreported = 0;
        }
        Ok(())
    }

    /// Flushes the file and reports its size.
    pub fn finish(mut self) -> io::Result<FileSummary> {
        self.progress.inc(self.unreported);
        self.out.flush()?;
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(FileSummary {
            name: self.name,
            rows: self.rows,
            bytes: file.metadata()?.len(),
        })
    }
}
