//! Group commit for signal ingests over the admin API: a wrapper around
//! [`accept_signals`](super::accept_signals). Requests that arrive while an ingest is being
//! written queue up; one writer task then accepts all the queued records of a kind as one batch
//! — one transaction, one company look-up, one set of multi-row writes, one fan-out, one
//! commit — and hands each request the part of the report that is its own. Under load the cost of an ingest
//! is shared by the requests of its group, so throughput rises with the rate instead of
//! collapsing into a queue of transactions waiting for the database's write lock.
//!
//! Each request sees what it would have seen had the requests been stored one after the other in
//! arrival order: records keep their order, a repeated id is inserted once and then updated.

use std::time::Instant;

use tokio::sync::{mpsc, oneshot};

use super::RecordError;
use super::fields::Record;
use super::signal_batch::{SignalReport, ingest_signals_as};
use crate::delivery::pressure::{IngestPressure, WriterLoad};
use crate::domain::signal_type::SignalType;
use crate::domain::time::now_ms;
use crate::store::{Db, StoreError};

/// Records a group holds at most (a request larger than this forms a group of its own).
const MAX_GROUP_RECORDS: usize = 5_000;
/// Requests that may wait for the writer before senders wait for room.
const QUEUE: usize = 4_096;

type Reply = Result<SignalReport, Failure>;

/// Why a group failed, as each of its requests is told: the cause, and whether it was the
/// database having no connection free in time (over capacity: the request may be sent again).
#[derive(Debug, Clone)]
struct Failure {
    cause: String,
    overload: bool,
}

/// One request's records and where its report goes.
struct Job {
    kind: SignalType,
    records: Vec<Result<Record, RecordError>>,
    reply: oneshot::Sender<Reply>,
}

/// The queue of signal ingests of one process, and its writer task.
#[derive(Debug, Clone)]
pub struct IngestGroups {
    queue: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("kind", &self.kind)
            .field("records", &self.records.len())
            .finish()
    }
}

/// Why a grouped ingest failed: the database failed the group's transaction, or the writer is
/// gone (the process is stopping).
#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("ingest failed: {0}")]
    Failed(String),
}

impl IngestGroups {
    /// Starts the writer on `db`; it ends when every handle is dropped.
    ///
    /// The writer runs where the store runs its busiest writer best ([`Db::spawn_writer`]).
    /// It marks `pressure` whenever it finds itself saturated (see `delivery::pressure`).
    pub fn start(db: Db, pressure: IngestPressure) -> IngestGroups {
        let (queue, jobs) = mpsc::channel(QUEUE);
        db.spawn_writer("ingest-writer", write_groups(db.clone(), jobs, pressure));
        IngestGroups { queue }
    }

    /// A queue without a writer, for a process that serves no ingest (a worker): nothing is
    /// opened or rehearsed, and an ingest sent to it fails as to a stopped writer.
    pub fn none() -> IngestGroups {
        let (queue, _) = mpsc::channel(1);
        IngestGroups { queue }
    }

    /// Accepts `records` of `kind` with whatever else is queued, and returns this request's
    /// report once the group is committed.
    pub async fn ingest(
        &self,
        kind: SignalType,
        records: Vec<Result<Record, RecordError>>,
    ) -> Result<SignalReport, GroupError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            kind,
            records,
            reply,
        };
        let gone = || GroupError::Failed("the ingest writer has stopped".into());
        self.queue.send(job).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?.map_err(|failure| {
            if failure.overload {
                GroupError::Store(StoreError::Database(sqlx::Error::PoolTimedOut))
            } else {
                GroupError::Failed(failure.cause)
            }
        })
    }
}

/// The writer: takes the first queued request and everything queued behind it (up to
/// [`MAX_GROUP_RECORDS`]), and stores them kind by kind, in arrival order within a kind, on a
/// connection of its own ([`Db::own_writer`]), opened when the writer starts and rehearsed on
/// each kind's statements (`ingest::rehearsal`), whose caches stay warm between groups.
///
/// It measures its own load: a writer that spends nearly all its time writing is saturated,
/// and marks `pressure`, which the workers heed; its groups' announcements then say `busy`.
async fn write_groups(db: Db, mut jobs: mpsc::Receiver<Job>, pressure: IngestPressure) {
    let writer = db.own_writer();
    // At the start, not at the first group: that group's requests, and those queued behind
    // them, would wait for the connection to open and its statements to be prepared.
    super::rehearsal::rehearse(&writer).await;
    let mut load = WriterLoad::new(Instant::now());
    while let Some(first) = jobs.recv().await {
        let started = Instant::now();
        let mut size = first.records.len();
        let mut taken = vec![first];
        while size < MAX_GROUP_RECORDS {
            match jobs.try_recv() {
                Ok(job) => {
                    size += job.records.len();
                    taken.push(job);
                }
                Err(_) => break,
            }
        }
        let (busy, requests) = (pressure.active(now_ms()), taken.len());
        for group in by_kind(taken) {
            write_group(&writer, group, busy).await;
        }
        let ended = Instant::now();
        if load.wrote(requests, ended - started, ended) == Some(true) {
            pressure.mark(now_ms());
        }
    }
}

/// Jobs split by kind, kinds in order of their first job, jobs in arrival order.
fn by_kind(jobs: Vec<Job>) -> Vec<Vec<Job>> {
    let mut groups: Vec<Vec<Job>> = Vec::new();
    for job in jobs {
        match groups.iter_mut().find(|g| g[0].kind == job.kind) {
            Some(group) => group.push(job),
            None => groups.push(vec![job]),
        }
    }
    groups
}

/// Accepts one kind's jobs as one batch and answers each; `busy`: the writer is saturated.
async fn write_group(db: &Db, jobs: Vec<Job>, busy: bool) {
    let kind = jobs[0].kind;
    let mut parts = Vec::with_capacity(jobs.len());
    let mut replies = Vec::with_capacity(jobs.len());
    for job in jobs {
        parts.push(job.records);
        replies.push(job.reply);
    }
    let merged = Merged::of(parts);
    match ingest_signals_as(db, kind, merged.records, busy).await {
        Ok(report) => {
            for (reply, report) in replies.into_iter().zip(merged.layout.split(report)) {
                let _ = reply.send(Ok(report));
            }
        }
        Err(err) => {
            tracing::error!(error = %err, "grouped signal ingest failed");
            let failure = Failure {
                cause: err.to_string(),
                overload: err.is_overload(),
            };
            for reply in replies {
                let _ = reply.send(Err(failure.clone()));
            }
        }
    }
}

/// The readable records of several requests, one after the other, and where each came from.
struct Merged {
    records: Vec<Result<Record, RecordError>>,
    layout: Layout,
}

/// Where the merged records came from: per merged position, the request and its own index;
/// per request, the records that could not be read.
#[derive(Debug, Default)]
struct Layout {
    origin: Vec<(usize, usize)>,
    unreadable: Vec<Vec<RecordError>>,
}

impl Merged {
    fn of(parts: Vec<Vec<Result<Record, RecordError>>>) -> Merged {
        let mut records = Vec::new();
        let mut layout = Layout::default();
        for (request, part) in parts.into_iter().enumerate() {
            let mut unreadable = Vec::new();
            for (index, record) in part.into_iter().enumerate() {
                match record {
                    Ok(record) => {
                        layout.origin.push((request, index));
                        records.push(Ok(record));
                    }
                    Err(err) => unreadable.push(err),
                }
            }
            layout.unreadable.push(unreadable);
        }
        Merged { records, layout }
    }
}

impl Layout {
    /// Each request's report out of the group's: its refused records under its own indexes, in
    /// order, and its stored rows' ids and counts.
    fn split(self, group: SignalReport) -> Vec<SignalReport> {
        let mut reports: Vec<SignalReport> = self
            .unreadable
            .into_iter()
            .map(|invalid| SignalReport {
                invalid,
                ..SignalReport::default()
            })
            .collect();
        let mut refused = vec![None; self.origin.len()];
        for err in group.invalid {
            if let Some(slot) = refused.get_mut(err.index) {
                *slot = Some(err.error);
            }
        }
        let mut stored = group.ids.into_iter().zip(group.fresh);
        for (position, (request, index)) in self.origin.into_iter().enumerate() {
            let report = &mut reports[request];
            match refused[position].take() {
                Some(error) => report.invalid.push(RecordError { index, error }),
                None => {
                    if let Some((id, fresh)) = stored.next() {
                        if fresh {
                            report.inserted += 1;
                        } else {
                            report.updated += 1;
                        }
                        report.ids.push(id);
                        report.fresh.push(fresh);
                    }
                }
            }
        }
        for report in &mut reports {
            report.invalid.sort_by_key(|err| err.index);
        }
        reports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> Result<Record, RecordError> {
        let value = serde_json::json!({ "id": id });
        Ok(serde_json::from_value(value).expect("record"))
    }

    fn unreadable(index: usize) -> Result<Record, RecordError> {
        Err(RecordError {
            index,
            error: "not an object".into(),
        })
    }

    #[test]
    fn each_request_gets_back_its_own_rows_refusals_and_counts_under_its_own_indexes() {
        let merged = Merged::of(vec![
            vec![record("a"), unreadable(1), record("b")],
            vec![record("c"), record("a")],
        ]);
        assert_eq!(merged.records.len(), 4);
        // The group refused merged position 2 ("c") and stored a, b, a (the second a updated).
        let group = SignalReport {
            inserted: 2,
            updated: 1,
            ids: vec!["a".into(), "b".into(), "a".into()],
            fresh: vec![true, true, false],
            invalid: vec![RecordError {
                index: 2,
                error: "no company".into(),
            }],
        };
        let reports = merged.layout.split(group);
        assert_eq!(reports[0].ids, ["a", "b"]);
        assert_eq!((reports[0].inserted, reports[0].updated), (2, 0));
        let refused: Vec<usize> = reports[0].invalid.iter().map(|e| e.index).collect();
        assert_eq!(refused, [1]);
        assert_eq!(reports[1].ids, ["a"]);
        assert_eq!((reports[1].inserted, reports[1].updated), (0, 1));
        assert_eq!(reports[1].invalid[0].index, 0);
        assert_eq!(reports[1].invalid[0].error, "no company");
    }

    #[test]
    fn jobs_are_grouped_by_kind_in_arrival_order() {
        let job = |kind| Job {
            kind,
            records: Vec::new(),
            reply: oneshot::channel().0,
        };
        let groups = by_kind(vec![
            job(SignalType::Hiring),
            job(SignalType::FundingRound),
            job(SignalType::Hiring),
        ]);
        let kinds: Vec<(SignalType, usize)> = groups.iter().map(|g| (g[0].kind, g.len())).collect();
        assert_eq!(
            kinds,
            [(SignalType::Hiring, 2), (SignalType::FundingRound, 1)]
        );
    }
}
