//! Streaming import of NDJSON files: the files of a directory in dependency order, each read in
//! batches of records, one transaction per batch, with progress reported as bytes read. One
//! import session spans a file's batches. A bulk load (a database without data) takes larger
//! batches on a connection tuned for it ([`Loading::bulk`]).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::records::parse_records;
use super::session::{BatchNumbers, ImportSession, KnownCompanies};
use super::{
    PreparedCompanies, PreparedPeople, PreparedSignals, RecordError, accept_signals,
    prepare_companies, prepare_people, prepare_signals, store_companies, store_people,
};
use crate::domain::signal_type::SignalType;
use crate::store::Db;
use crate::store::bulk_stage::StageSender;

/// Records per transaction.
const BATCH: usize = 5_000;

/// Records per transaction of a bulk load: fewer, larger commits, while the batches being read,
/// prepared and written at once stay within the load's memory budget (scale `l`: 10,000 keeps
/// the import under 1 GB, 25,000 took it to 1.3 GB for 13 % more speed).
const BULK_BATCH: usize = 10_000;

/// Records per commit of a bulk load on SQLite: the batches share transactions this long (see
/// `ImportSession::spanning`).
const BULK_SPAN: usize = 100_000;

/// Records in a file's first transaction: small, so that writing starts while the reader
/// prepares the next batches, which grow fourfold up to [`BATCH`].
const FIRST_BATCH: usize = 500;

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
    /// The first few refused records, by 1-based line number in the file.
    pub errors: Vec<RecordError>,
}

/// The files to import from a directory or a single file, with their kinds.
pub fn plan(path: &Path) -> anyhow::Result<Vec<(PathBuf, FileKind)>> {
    let metadata = std::fs::metadata(path).map_err(|err| file_error(path, &err))?;
    if metadata.is_dir() {
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
    // Opened once here, so an unreadable file is reported before anything is imported.
    std::fs::File::open(path).map_err(|err| file_error(path, &err))?;
    Ok(vec![(path.to_path_buf(), kind)])
}

/// One sentence for a file that cannot be used.
fn file_error(path: &Path, err: &std::io::Error) -> anyhow::Error {
    match err.kind() {
        std::io::ErrorKind::NotFound => {
            anyhow::anyhow!("no such file or directory: {}", path.display())
        }
        std::io::ErrorKind::PermissionDenied => {
            anyhow::anyhow!("cannot read {}: permission denied", path.display())
        }
        _ => anyhow::anyhow!("cannot read {}: {err}", path.display()),
    }
}

/// A batch of records read and prepared (parsed, rows derived) off the async runtime.
struct Chunk {
    /// The 1-based line number of each record of this batch in the file.
    lines: Vec<usize>,
    /// Records in this batch.
    records: usize,
    /// Bytes of the file read up to the end of this batch.
    read: u64,
    prepared: Prepared,
}

enum Prepared {
    Companies(PreparedCompanies),
    People(PreparedPeople),
    Signals(PreparedSignals),
}

/// How a file's batches are written: records per transaction, and the session they share.
#[derive(Debug)]
pub struct Loading {
    batch: usize,
    session: ImportSession,
}

impl Loading {
    /// Into a database that may hold data: batches of [`BATCH`], each transaction tuning its
    /// connection for bulk writes.
    pub fn ordinary() -> Loading {
        Loading::with_batch(BATCH)
    }

    /// `batch` records per transaction, otherwise as [`Loading::ordinary`].
    pub(crate) fn with_batch(batch: usize) -> Loading {
        Loading {
            batch,
            session: ImportSession::for_files(),
        }
    }

    /// A bulk load: batches of [`BULK_BATCH`] on a connection the load has tuned already,
    /// sharing transactions; its signal batches numbered by `batches`, which the load's files
    /// share, handing their search documents and company and tag rows to `stage` when there
    /// is one, and the companies known to be stored taken from and given back to `known`.
    pub fn bulk(
        batches: BatchNumbers,
        stage: Option<StageSender>,
        known: KnownCompanies,
    ) -> Loading {
        Loading {
            batch: BULK_BATCH,
            session: ImportSession::spanning(BULK_SPAN, batches, stage, known),
        }
    }
}

/// Imports one file, calling `progress(bytes_read)` after every batch. A reader thread parses
/// and prepares the next batch while the current one is written.
pub async fn import_file(
    db: &Db,
    path: &Path,
    kind: FileKind,
    progress: impl FnMut(u64),
) -> anyhow::Result<FileReport> {
    import_in_batches(db, path, kind, Loading::ordinary(), progress).await
}

/// [`import_file`] with the batches written as `loading` says.
pub async fn import_in_batches(
    db: &Db,
    path: &Path,
    kind: FileKind,
    loading: Loading,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<FileReport> {
    let Loading { batch, mut session } = loading;
    let (sender, mut receiver) = tokio::sync::mpsc::channel(2);
    let owned = path.to_path_buf();
    let reader = tokio::task::spawn_blocking(move || read_batches(&owned, kind, batch, &sender));
    let mut report = FileReport {
        file: path.display().to_string(),
        ..FileReport::default()
    };
    while let Some(chunk) = receiver.recv().await {
        report.records += chunk.records;
        let read = chunk.read;
        store_chunk(db, &mut session, chunk, &mut report).await?;
        progress(read);
    }
    reader.await??;
    session.finish().await?;
    Ok(report)
}

/// Reads the file in batches of up to `size` non-empty lines (the first ones smaller), prepares
/// each and hands it over.
fn read_batches(
    path: &Path,
    kind: FileKind,
    size: usize,
    sender: &tokio::sync::mpsc::Sender<Chunk>,
) -> anyhow::Result<()> {
    let file = std::fs::File::open(path).map_err(|err| file_error(path, &err))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut read, mut line_number, mut records) = (0u64, 0usize, 0usize);
    let (mut line, mut batch) = (String::new(), Vec::with_capacity(1 << 22));
    let mut lines = Vec::new();
    let mut limit = size.min(FIRST_BATCH);
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|err| match err.kind() {
                std::io::ErrorKind::InvalidData => anyhow::anyhow!(
                    "{} line {}: not UTF-8 text",
                    path.display(),
                    line_number + 1
                ),
                _ => file_error(path, &err),
            })?;
        read += n as u64;
        if n > 0 {
            line_number += 1;
        }
        if n > 0 && !line.trim().is_empty() {
            batch.extend_from_slice(line.as_bytes());
            lines.push(line_number);
            records += 1;
        }
        if records == limit || (n == 0 && records > 0) {
            let chunk = Chunk {
                lines: std::mem::take(&mut lines),
                records,
                read,
                prepared: prepare(kind, &batch)?,
            };
            if sender.blocking_send(chunk).is_err() {
                return Ok(());
            }
            records = 0;
            limit = size.min(limit * 4);
            batch.clear();
        }
        if n == 0 {
            return Ok(());
        }
    }
}

fn prepare(kind: FileKind, batch: &[u8]) -> anyhow::Result<Prepared> {
    Ok(match kind {
        FileKind::Companies => Prepared::Companies(prepare_companies(
            parse_records(batch).map_err(anyhow::Error::msg)?,
        )),
        FileKind::People => Prepared::People(prepare_people(
            parse_records(batch).map_err(anyhow::Error::msg)?,
        )),
        FileKind::Signals(signal) => Prepared::Signals(prepare_signals(
            signal,
            parse_records(batch).map_err(anyhow::Error::msg)?,
        )),
    })
}

async fn store_chunk(
    db: &Db,
    session: &mut ImportSession,
    chunk: Chunk,
    report: &mut FileReport,
) -> anyhow::Result<()> {
    let (stored, invalid) = match chunk.prepared {
        Prepared::Companies(records) => {
            let r = store_companies(db, session, records).await?;
            (r.upserted, r.invalid)
        }
        Prepared::People(records) => {
            let r = store_people(db, session, records).await?;
            (r.upserted, r.invalid)
        }
        Prepared::Signals(records) => {
            let r = accept_signals(db, session, records).await?;
            (r.inserted + r.updated, r.invalid)
        }
    };
    report.stored += stored;
    report.invalid += invalid.len();
    for err in invalid {
        if report.errors.len() < 20 {
            report.errors.push(RecordError {
                index: chunk.lines.get(err.index).copied().unwrap_or_default(),
                error: err.error,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_used_is_one_sentence_naming_it() {
        let path = Path::new("/data/funding.ndjson");
        let message = |kind| file_error(path, &std::io::Error::from(kind)).to_string();
        assert_eq!(
            message(std::io::ErrorKind::NotFound),
            "no such file or directory: /data/funding.ndjson"
        );
        assert_eq!(
            message(std::io::ErrorKind::PermissionDenied),
            "cannot read /data/funding.ndjson: permission denied"
        );
        assert!(
            message(std::io::ErrorKind::Other).starts_with("cannot read /data/funding.ndjson: ")
        );
    }

    #[test]
    fn a_directory_without_import_files_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = plan(dir.path()).expect_err("nothing to import");
        assert_eq!(
            err.to_string(),
            format!("no import files in {}", dir.path().display())
        );
    }
}
