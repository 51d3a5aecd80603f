//! The service's own Prometheus metrics, named in one place. Each function records one event;
//! the recorder behind them is installed by the HTTP layer and rendered at `GET /metrics`.
//! Without a recorder (a command-line tool, a unit test) they do nothing.

use std::time::Duration;

/// One webhook delivery attempt, by result: `delivered`, `failed` (will be retried),
/// `exhausted` (failed, no attempts left) or `gone` (410: retries stopped).
pub fn delivery_attempt(result: &'static str, duration: Duration) {
    metrics::counter!("signalwatch_delivery_attempts_total", "result" => result).increment(1);
    metrics::histogram!("signalwatch_delivery_attempt_duration_seconds")
        .record(duration.as_secs_f64());
}

/// A delivery that reached its end, by outcome: `delivered` or `failed`.
pub fn delivery_finished(outcome: &'static str) {
    metrics::counter!("signalwatch_deliveries_total", "outcome" => outcome).increment(1);
}

/// A failed attempt whose delivery was put back on the retry schedule.
pub fn delivery_retry_scheduled() {
    metrics::counter!("signalwatch_delivery_retries_total").increment(1);
}

/// The delivery queue as last measured: every pending delivery, those among them waiting for a
/// retry, and the age of the oldest pending one.
pub fn delivery_queue(pending: i64, retrying: i64, oldest_age: Duration) {
    metrics::gauge!("signalwatch_deliveries_pending").set(pending as f64);
    metrics::gauge!("signalwatch_deliveries_retrying").set(retrying as f64);
    metrics::gauge!("signalwatch_delivery_oldest_pending_age_seconds")
        .set(oldest_age.as_secs_f64());
}

/// A worker rested instead of claiming, giving way to a saturated ingest (`delivery::pressure`).
pub fn delivery_claim_held_back() {
    metrics::counter!("signalwatch_delivery_claims_held_back_total").increment(1);
}

/// An e-mail digest the mail server (or the mail directory) took.
pub fn email_sent() {
    metrics::counter!("signalwatch_emails_sent_total").increment(1);
}

/// Credits debited, by what for: `delivery`, `list` or `enrichment`.
pub fn credits_charged(reason: &'static str, credits: u64) {
    if credits > 0 {
        metrics::counter!("signalwatch_credits_charged_total", "reason" => reason)
            .increment(credits);
    }
}

/// One accepted batch of signal records (an admin API group, an import batch, a demo signal):
/// its kind, how many records it stored and refused, and how long its transaction took.
pub fn ingest_batch(kind: &'static str, stored: usize, refused: usize, duration: Duration) {
    metrics::counter!("signalwatch_ingest_batches_total", "kind" => kind).increment(1);
    metrics::counter!("signalwatch_ingest_records_total", "kind" => kind, "result" => "stored")
        .increment(stored as u64);
    metrics::counter!("signalwatch_ingest_records_total", "kind" => kind, "result" => "refused")
        .increment(refused as u64);
    metrics::histogram!("signalwatch_ingest_batch_duration_seconds", "kind" => kind)
        .record(duration.as_secs_f64());
}

/// One run of a collector of public sources, by outcome: `ok` or `error`.
pub fn collector_run(collector: &'static str, outcome: &'static str, signals: u64) {
    metrics::counter!("signalwatch_collector_runs_total", "collector" => collector, "outcome" => outcome)
        .increment(1);
    metrics::counter!("signalwatch_collector_signals_total", "collector" => collector)
        .increment(signals);
}

/// Time a collector spent in one stage of its work: `wait` (its turn at the source's host),
/// `fetch`, `parse`, `match` (the issuer matched to a known company) or `ingest` (the signals
/// stored, with the bookkeeping of what was seen).
pub fn collector_stage(collector: &'static str, stage: &'static str, duration: Duration) {
    metrics::histogram!("signalwatch_collector_stage_seconds", "collector" => collector, "stage" => stage)
        .record(duration.as_secs_f64());
}
