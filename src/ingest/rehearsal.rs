//! The ingest writer's rehearsal at start. The first ingest after a start pays for what a
//! connection does once: it opens (on PostgreSQL over TLS, slow: sqlx turns Nagle's algorithm
//! off only once the handshake is over, see `store::tcp_nodelay`), parses and plans each
//! statement of the path, and on PostgreSQL its server process reads the catalog entries of
//! every table and index it writes (tens of milliseconds in all, more on a loaded machine).
//! Requests that arrive meanwhile queue behind it. So before it takes its first group the
//! writer runs one record of each signal kind through the whole path on its own connection
//! (companies, signal, search documents, fan-out to the webhooks that listen, events and
//! deliveries) and rolls each transaction back: nothing is stored, announced or charged, and
//! the first real group finds its statements prepared.
//!
//! The records name a company under `.invalid`, a domain that cannot exist, so no stored
//! company or pending target ever matches them.

use serde_json::{Value, json};

use super::fields::Record;
use super::signal_batch::{prepare_signals, rehearse_signals};
use crate::domain::signal_type::SignalType;
use crate::store::Db;

/// The company every rehearsal record names.
const COMPANY: &str = "rehearsal.signalwatch.invalid";

/// One record of `kind`, with the fields its rows, documents and links are written from.
fn record(kind: SignalType) -> Record {
    let common = json!({
        "signalId": format!("00000000-0000-4000-8000-00000000000{}", kind as u8),
        "companyWebsite": COMPANY,
        "companyName": "Signalwatch rehearsal",
        "occurredAt": "2026-01-01T00:00:00Z",
        "datePosted": "2026-01-01T00:00:00Z",
    });
    let own = match kind {
        SignalType::FundingRound => json!({
            "roundType": "seed", "amount": 1_000_000, "currency": "USD", "investors": ["A"] }),
        SignalType::Acquisition => json!({
            "acquiringCompany": "Signalwatch rehearsal acquirer", "amount": 1_000_000,
            "currency": "USD" }),
        SignalType::Hiring => json!({
            "title": "Rehearsal engineer", "city": "Berlin", "location": "Berlin, Germany",
            "jobCountry": "DE", "keywords": ["rust"] }),
        SignalType::JobChange => json!({
            "personName": "Rehearsal Person", "newRole": "Engineer", "personCity": "Berlin",
            "previousCompanyName": "Signalwatch rehearsal before" }),
    };
    let mut record = Record::new();
    for part in [common, own] {
        if let Value::Object(fields) = part {
            record.extend(fields);
        }
    }
    record
}

/// Rehearses an ingest of each signal kind on `db` (the writer's own connection). A rehearsal
/// that fails (the database not answering yet, say) changes nothing: it is logged and the rest
/// left out, and the first real group prepares what it needs itself.
pub async fn rehearse(db: &Db) {
    for kind in SignalType::ALL {
        let prepared = prepare_signals(kind, vec![Ok(record(kind))]);
        if let Err(err) = rehearse_signals(db, &prepared).await {
            tracing::warn!(kind = kind.as_str(), error = %err, "the ingest writer's rehearsal failed");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::signals::build_row;

    #[test]
    fn every_kind_has_a_valid_rehearsal_record_of_its_own() {
        let mut ids = std::collections::HashSet::new();
        for kind in SignalType::ALL {
            let record = record(kind);
            assert!(build_row(kind, &record).is_ok(), "{kind:?}: {record:?}");
            assert!(
                ids.insert(record["signalId"].clone()),
                "{kind:?} repeats an id"
            );
        }
    }
}
