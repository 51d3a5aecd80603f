//! Processing one chunk of a job's rows: match them to companies, take a snapshot of each
//! matched company's newest signals by type, and count what the job summary reports.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::matching::{Lookup, match_companies};
use crate::domain::csv_mapping::RowIdentifiers;
use crate::domain::signal_type::SignalType;
use crate::store::Db;
use crate::store::enrichment::claims::{ChunkCounts, PendingRow, RowResult};
use crate::store::enrichment::lookup::{begin_read, newest_signals};

/// Signals of each type a result shows, newest first.
pub const SIGNALS_PER_TYPE: i64 = 10;

/// The results of a chunk and what they add to the job's counts.
#[derive(Debug, Clone, Default)]
pub struct ChunkOutcome {
    pub results: Vec<RowResult>,
    pub counts: ChunkCounts,
}

/// Matches and enriches `rows`, with a constant number of statements whatever their count.
pub async fn process_chunk(db: &Db, rows: &[PendingRow]) -> anyhow::Result<ChunkOutcome> {
    let lookups: Vec<Lookup> = rows
        .iter()
        .map(|row| {
            Lookup::of(&RowIdentifiers {
                company_name: row.company_name.clone(),
                website_url: row.website_url.clone(),
                linkedin_url: row.linkedin_url.clone(),
            })
        })
        .collect();
    let matches = match_companies(db, &lookups).await?;
    let mut company_ids: Vec<&str> = matches
        .iter()
        .flatten()
        .map(|m| m.company_id.as_str())
        .collect();
    company_ids.sort_unstable();
    company_ids.dedup();
    let snapshots = signal_snapshots(db, &company_ids).await?;

    let mut outcome = ChunkOutcome::default();
    for (row, found) in rows.iter().zip(matches) {
        let snapshot = found
            .as_ref()
            .and_then(|m| snapshots.get(&m.company_id))
            .cloned()
            .unwrap_or_else(empty_snapshot);
        count(&mut outcome.counts, found.is_some(), &snapshot);
        outcome.results.push(RowResult {
            row_index: row.row_index,
            matched_by: found.as_ref().map(|m| m.by),
            company_id: found.map(|m| m.company_id),
            signals: Value::Object(snapshot).to_string(),
        });
    }
    Ok(outcome)
}

/// For each company: signal type → ids of its newest signals of that type, every type present.
async fn signal_snapshots(
    db: &Db,
    company_ids: &[&str],
) -> anyhow::Result<HashMap<String, Map<String, Value>>> {
    let mut tx = begin_read(db).await?;
    let signals = newest_signals(&mut tx, company_ids, SIGNALS_PER_TYPE).await?;
    drop(tx);
    let mut snapshots: HashMap<String, Map<String, Value>> = HashMap::new();
    for signal in signals {
        let snapshot = snapshots.entry(signal.owner).or_insert_with(empty_snapshot);
        if let Some(Value::Array(ids)) = snapshot.get_mut(&signal.kind) {
            ids.push(json!(signal.id));
        }
    }
    Ok(snapshots)
}

fn empty_snapshot() -> Map<String, Value> {
    SignalType::ALL
        .iter()
        .map(|kind| (kind.as_str().to_string(), json!([])))
        .collect()
}

fn count(counts: &mut ChunkCounts, matched: bool, snapshot: &Map<String, Value>) {
    let has = |kind: SignalType| {
        snapshot
            .get(kind.as_str())
            .and_then(Value::as_array)
            .is_some_and(|ids| !ids.is_empty())
    };
    let one = |yes: bool| i64::from(yes);
    counts.processed += 1;
    counts.matched += one(matched);
    counts.with_funding += one(has(SignalType::FundingRound));
    counts.with_acquisition += one(has(SignalType::Acquisition));
    counts.with_hiring += one(has(SignalType::Hiring));
    counts.with_job_change += one(has(SignalType::JobChange));
}
