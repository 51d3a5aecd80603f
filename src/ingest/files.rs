//! Streaming import of NDJSON files: the files of a directory in dependency order, each read in
//! batches of records, one transaction per batch, with progress reported as bytes read.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::records::parse_records;
use super::signals::ingest_signals;
use super::{RecordError, ingest_companies, ingest_people};
use crate::domain::signal_type::SignalType;
use crate::store::Db;

/// Records per transaction.
const BATCH: usize = 2_000;

/// What one import file holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Companies,
    People,
    Signals(SignalType),
}

/// File names of an import directory, in the order they are loaded.
pub const FILE_ORDER: [(&str, FileKind); 6] = [
    ("companies.ndjson", FileKind::Companies),
    ("people.ndjson", FileKind::People),
    (
        "funding.ndjson",
        FileKind::Signals(SignalType::FundingRound),
    ),
    ("hiring.ndjson", FileKind::Signals(SignalType::Hiring)),
    (
        "acquisitions.ndjson",
        FileKind::Signals(SignalType::Acquisition),
    ),
    (
        "job-changes.ndjson",
        FileKind::Signals(SignalType::JobChange),
    ),
];

/// Outcome of importing one file.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileReport {
    pub file: String,
    pub records: usize,
    pub stored: usize,
    pub invalid: usize,
    /// The first few problems, with 1-based line numbers.
    pub errors: Vec<RecordError>,
}

/// The files to import from a directory or a single file, with their kinds.
pub fn plan(path: &Path) -> anyhow::Result<Vec<(PathBuf, FileKind)>> {
    if path.is_dir() {
        let files: Vec<_> = FILE_ORDER
            .iter()
            .map(|(name, kind)| (path.join(name), *kind))
            .filter(|(p, _)| p.is_file())
            .collect();
        anyhow::ensure!(!files.is_empty(), "no import files in {}", path.display());
        return Ok(files);
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let kind = FILE_ORDER
        .iter()
        .find(|(file, _)| *file == name || file.trim_end_matches(".ndjson") == name)
        .map(|(_, kind)| *kind)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "cannot tell what {name} holds: name it like companies.ndjson or hiring.ndjson"
            )
        })?;
    Ok(vec![(path.to_path_buf(), kind)])
}

/// Imports one file, calling `progress(bytes_read)` after every batch.
pub async fn import_file(
    db: &Db,
    path: &Path,
    kind: FileKind,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<FileReport> {
    let mut reader = BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    let mut report = FileReport {
        file: path.display().to_string(),
        ..FileReport::default()
    };
    let (mut read, mut line, mut batch) = (0u64, String::new(), Vec::with_capacity(1 << 20));
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        read += n as u64;
        if n > 0 && !line.trim().is_empty() {
            batch.extend_from_slice(line.as_bytes());
            report.records += 1;
        }
        let batch_full = report.records.is_multiple_of(BATCH) && !batch.is_empty();
        if n == 0 || batch_full {
            let first_line = report.records - count_lines(&batch);
            store_batch(db, kind, &batch, first_line, &mut report).await?;
            batch.clear();
            progress(read);
        }
        if n == 0 {
            return Ok(report);
        }
    }
}

fn count_lines(batch: &[u8]) -> usize {
    batch.iter().filter(|b| **b == b'\n').count()
        + usize::from(!batch.ends_with(b"\n") && !batch.is_empty())
}

async fn store_batch(
    db: &Db,
    kind: FileKind,
    batch: &[u8],
    first_index: usize,
    report: &mut FileReport,
) -> anyhow::Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    let (stored, invalid) = match kind {
        FileKind::Companies => {
            let r = ingest_companies(db, parse_records(batch).map_err(anyhow::Error::msg)?).await?;
            (r.upserted, r.invalid)
        }
        FileKind::People => {
            let r = ingest_people(db, parse_records(batch).map_err(anyhow::Error::msg)?).await?;
            (r.upserted, r.invalid)
        }
        FileKind::Signals(signal) => {
            let records = parse_records(batch).map_err(anyhow::Error::msg)?;
            let r = ingest_signals(db, signal, records).await?;
            (r.inserted + r.updated, r.invalid)
        }
    };
    report.stored += stored;
    report.invalid += invalid.len();
    for err in invalid {
        if report.errors.len() < 20 {
            report.errors.push(RecordError {
                index: first_index + err.index + 1,
                error: err.error,
            });
        }
    }
    Ok(())
}
