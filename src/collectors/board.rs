//! One poll of one job board: fetch it (conditionally, in the host's turn), read its postings,
//! accept the ones never seen as hiring signals through the ingest path, remember them, and
//! date the ones gone from the board.

use std::collections::HashSet;
use std::time::Instant;

use super::posting::{DAY_MS, Posting, hiring_record, signal_id};
use super::{Collectors, ashby, greenhouse, lever};
use crate::delivery::client::fetch::FetchRequest;
use crate::domain::job_board::Provider;
use crate::domain::signal_type::SignalType;
use crate::domain::time::{format_ms, now_ms};
use crate::ingest::session::ImportSession;
use crate::ingest::{accept_signals, prepare_signals};
use crate::store::board_postings::{KnownPosting, known_postings, remember_postings, set_gone};
use crate::store::job_boards::BoardRow;
use crate::store::versions::bump_data_version;
use crate::store::{Db, StoreError};
use crate::telemetry;

/// Largest board answer read: real boards run to several megabytes.
const MAX_BOARD_BYTES: usize = 32 * 1024 * 1024;

/// What a poll found.
#[derive(Debug, Clone, Default)]
pub struct PollReport {
    /// Postings on the board (0 when it had not changed).
    pub seen: usize,
    /// Signals created for postings seen for the first time.
    pub created: usize,
    /// Postings found gone from the board.
    pub gone: usize,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// Why a poll failed: the source (recorded on the board, backed off) or the database.
#[derive(Debug)]
pub enum PollError {
    Source(String),
    Store(StoreError),
}

impl From<StoreError> for PollError {
    fn from(err: StoreError) -> Self {
        PollError::Store(err)
    }
}

impl std::fmt::Display for PollError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PollError::Source(error) => f.write_str(error),
            PollError::Store(error) => write!(f, "database: {error}"),
        }
    }
}

/// The board's API URL.
pub fn api_url(collectors: &Collectors, provider: Provider, token: &str) -> String {
    let base = collectors.base_url(provider);
    match provider {
        Provider::Greenhouse => greenhouse::board_url(base, token),
        Provider::Lever => lever::board_url(base, token),
        Provider::Ashby => ashby::board_url(base, token),
    }
}

fn parse(provider: Provider, body: &[u8]) -> Result<Vec<Posting>, String> {
    match provider {
        Provider::Greenhouse => greenhouse::parse(body),
        Provider::Lever => lever::parse(body),
        Provider::Ashby => ashby::parse(body),
    }
}

/// Polls one board the caller holds the lease of.
pub async fn poll_board(
    collectors: &Collectors,
    db: &Db,
    provider: Provider,
    board: &BoardRow,
) -> Result<PollReport, PollError> {
    let url = api_url(collectors, provider, &board.token);
    let request = FetchRequest {
        max_redirects: 3,
        max_bytes: MAX_BOARD_BYTES,
        etag: board.etag.clone(),
        last_modified: board.last_modified.clone(),
        accept: Some("application/json"),
    };
    let name = provider.as_str();
    let fetched = collectors
        .fetch(db, name, &url, &request)
        .await
        .map_err(PollError::Source)?;
    let mut report = PollReport {
        etag: fetched.etag.clone(),
        last_modified: fetched.last_modified.clone(),
        ..PollReport::default()
    };
    if fetched.not_modified() {
        return Ok(report);
    }
    match fetched.status {
        200 => {}
        404 => return Err(PollError::Source("board not found (HTTP 404)".into())),
        status => return Err(PollError::Source(format!("HTTP {status} from the board"))),
    }
    let body = fetched.body;
    let parsing = Instant::now();
    let postings = tokio::task::spawn_blocking(move || parse(provider, &body))
        .await
        .map_err(|e| PollError::Source(format!("reading the board failed: {e}")))?
        .map_err(PollError::Source)?;
    let ingesting = Instant::now();
    telemetry::collector_stage(name, "parse", ingesting - parsing);
    report.seen = postings.len();
    let known = known_postings(db, name, &board.token).await?;
    report.created = accept_new(db, provider, board, &postings, &known).await?;
    report.gone = date_gone(db, provider, &board.token, &postings, &known).await?;
    telemetry::collector_stage(name, "ingest", ingesting.elapsed());
    Ok(report)
}

/// Accepts the postings never seen on this board as hiring signals (one ingest transaction),
/// then remembers them. Returns how many signals were created: a posting accepted before a
/// crash, and so not remembered, carries the same signal id again and is not created twice.
async fn accept_new(
    db: &Db,
    provider: Provider,
    board: &BoardRow,
    postings: &[Posting],
    known: &[KnownPosting],
) -> Result<usize, StoreError> {
    let known: HashSet<&str> = known.iter().map(|k| k.posting_id.as_str()).collect();
    let mut fresh_ids = HashSet::new();
    let new: Vec<&Posting> = postings
        .iter()
        .filter(|p| !known.contains(p.id.as_str()) && fresh_ids.insert(p.id.as_str()))
        .collect();
    if new.is_empty() {
        return Ok(0);
    }
    let now = now_ms();
    let records = new
        .iter()
        .map(|p| {
            Ok(hiring_record(
                provider,
                &board.token,
                &board.company_id,
                p,
                now,
            ))
        })
        .collect();
    let mut session = ImportSession::new();
    let report = accept_signals(
        db,
        &mut session,
        prepare_signals(SignalType::Hiring, records),
    )
    .await?;
    for invalid in &report.invalid {
        tracing::warn!(
            collector = provider.as_str(),
            board = %board.token,
            posting = %new[invalid.index].id,
            error = %invalid.error,
            "a posting was not accepted"
        );
    }
    let refused: HashSet<usize> = report.invalid.iter().map(|e| e.index).collect();
    let remembered: Vec<(String, String)> = new
        .iter()
        .enumerate()
        .filter(|(i, _)| !refused.contains(i))
        .map(|(_, p)| {
            let id = signal_id(provider, &board.token, &p.id);
            (p.id.clone(), id)
        })
        .collect();
    db.write(async |tx| {
        remember_postings(tx, provider.as_str(), &board.token, &remembered, now).await
    })
    .await?;
    Ok(report.fresh.iter().filter(|fresh| **fresh).count())
}

/// Dates the postings missing from the board since today (`validThrough`), and undates the ones
/// back on it. Returns how many went.
async fn date_gone(
    db: &Db,
    provider: Provider,
    board: &str,
    postings: &[Posting],
    known: &[KnownPosting],
) -> Result<usize, StoreError> {
    let on_board: HashSet<&str> = postings.iter().map(|p| p.id.as_str()).collect();
    let missing = |k: &&KnownPosting| !on_board.contains(k.posting_id.as_str());
    let gone: Vec<String> = known
        .iter()
        .filter(|k| k.gone_at.is_none() && missing(k))
        .map(|k| k.posting_id.clone())
        .collect();
    let back: Vec<String> = known
        .iter()
        .filter(|k| k.gone_at.is_some() && !missing(k))
        .map(|k| k.posting_id.clone())
        .collect();
    if gone.is_empty() && back.is_empty() {
        return Ok(0);
    }
    let now = now_ms();
    let today = now - now.rem_euclid(DAY_MS);
    db.write(async |tx| {
        set_gone(
            tx,
            provider.as_str(),
            board,
            &gone,
            Some((today, format_ms(today))),
        )
        .await?;
        set_gone(tx, provider.as_str(), board, &back, None).await?;
        bump_data_version(tx).await
    })
    .await?;
    Ok(gone.len())
}
