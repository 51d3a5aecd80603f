//! One pass of the `sec-form-d` collector: read the feed, take each filing not taken before,
//! read it, and store its funding round through the ingest path (fan-out and delivery as for an
//! import). One pass at a time across every worker; a filing is taken by one worker once.

use std::time::Instant;

use serde::Serialize;

use super::feed::{FeedEntry, parse_feed};
use super::filing::{FormD, parse_filing};
use super::record::{IssuerCompany, brand_name, funding_record, issuer_country};
use super::source::Edgar;
use crate::domain::signal_type::SignalType;
use crate::domain::time::now_ms;
use crate::enrichment::matching::{Lookup, match_companies};
use crate::ingest::signals::ingest_signals;
use crate::store::companies::{company_summaries, normalize_country};
use crate::store::sec_filings::{
    FilingOutcome, assign_signal, assigned_signal, claim_filing, finish_filing, offering_signal,
    release_pass_lease, take_pass_lease,
};
use crate::store::{Db, StoreError, new_id};
use crate::telemetry;

/// The collector's name, in settings, the admin API and metrics.
pub const NAME: &str = "sec-form-d";
/// How long a worker holds the pass, and a filing it reads.
const LEASE_MS: i64 = 10 * 60 * 1000;
/// A filing that failed this many times is given up.
const MAX_ATTEMPTS: i64 = 6;
/// A failed filing waits this long times 2^(attempt - 1) before it is tried again.
const RETRY_MS: i64 = 5 * 60 * 1000;

/// What a pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PassReport {
    /// Form D filings in the feed.
    pub filings_seen: i64,
    /// Filings this pass took and read.
    pub filings_read: i64,
    /// Funding signals created, and updated by amendments.
    pub signals_created: i64,
    pub signals_updated: i64,
    /// Pooled investment funds left out.
    pub funds_skipped: i64,
    /// Why the feed or filings could not be read.
    pub errors: Vec<String>,
    /// True when another worker held the pass, so this one did nothing.
    pub busy: bool,
}

enum Read {
    Stored { created: bool },
    Fund,
}

enum FilingError {
    /// The filing could not be fetched or read: tried again later.
    Source(String),
    Store(StoreError),
}

impl From<StoreError> for FilingError {
    fn from(error: StoreError) -> FilingError {
        FilingError::Store(error)
    }
}

/// Runs one pass as `holder` (a name unique to this process). `on_signal` is called after
/// each stored signal (to wake the delivery worker).
pub async fn run_pass(
    db: &Db,
    edgar: &Edgar,
    holder: &str,
    on_signal: &(dyn Fn() + Sync),
) -> Result<PassReport, StoreError> {
    let now = now_ms();
    if !take_pass_lease(db, NAME, holder, now, now + LEASE_MS).await? {
        return Ok(PassReport {
            busy: true,
            ..PassReport::default()
        });
    }
    let report = pass(db, edgar, on_signal).await;
    release_pass_lease(db, NAME, holder).await?;
    report
}

async fn pass(
    db: &Db,
    edgar: &Edgar,
    on_signal: &(dyn Fn() + Sync),
) -> Result<PassReport, StoreError> {
    let mut report = PassReport::default();
    let entries = match edgar.get(&edgar.feed_url()).await.and_then(|body| {
        let parsing = Instant::now();
        let entries = parse_feed(&body);
        telemetry::collector_stage(NAME, "parse", parsing.elapsed());
        entries
    }) {
        Ok(entries) => entries,
        Err(error) => {
            tracing::warn!(collector = NAME, %error, "the filings feed could not be read");
            report.errors.push(error);
            return Ok(report);
        }
    };
    report.filings_seen = entries.len() as i64;

    let today = chrono::Utc::now().date_naive();
    // Oldest first: an offering's first filing is stored before the amendments that follow it.
    for mut entry in entries.into_iter().rev() {
        // A round needs a date: the first sale's, else the filing's, else today.
        entry.filed = entry.filed.or(Some(today));
        let entry = &entry;
        let now = now_ms();
        let claiming = Instant::now();
        let claimed = claim_filing(db, &entry.accession, now, now + LEASE_MS, MAX_ATTEMPTS).await?;
        telemetry::collector_stage(NAME, "ingest", claiming.elapsed());
        let Some(attempt) = claimed else {
            continue;
        };
        report.filings_read += 1;
        let (outcome, error, retry_at) = match read_filing(db, edgar, entry).await {
            Ok(Read::Stored { created }) => {
                if created {
                    report.signals_created += 1;
                } else {
                    report.signals_updated += 1;
                }
                on_signal();
                (FilingOutcome::Ingested, None, 0)
            }
            Ok(Read::Fund) => {
                report.funds_skipped += 1;
                (FilingOutcome::Skipped, None, 0)
            }
            Err(FilingError::Source(error)) => {
                tracing::warn!(
                    collector = NAME, accession = %entry.accession, attempt, %error,
                    "a filing could not be read"
                );
                let error = format!("{}: {error}", entry.accession);
                report.errors.push(error.clone());
                let wait = RETRY_MS.saturating_mul(1 << (attempt - 1).clamp(0, 20));
                (FilingOutcome::Failed, Some(error), now_ms() + wait)
            }
            Err(FilingError::Store(error)) => return Err(error),
        };
        let finishing = Instant::now();
        finish_filing(
            db,
            &entry.accession,
            outcome,
            error.as_deref(),
            retry_at,
            now_ms(),
        )
        .await?;
        telemetry::collector_stage(NAME, "ingest", finishing.elapsed());
    }
    Ok(report)
}

async fn read_filing(db: &Db, edgar: &Edgar, entry: &FeedEntry) -> Result<Read, FilingError> {
    let url = edgar
        .document_url(&entry.primary_doc_url())
        .map_err(FilingError::Source)?;
    let body = edgar.get(&url).await.map_err(FilingError::Source)?;
    let parsing = Instant::now();
    let form = parse_filing(&body);
    telemetry::collector_stage(NAME, "parse", parsing.elapsed());
    let form = form.map_err(FilingError::Source)?;
    if form.is_pooled_fund() {
        return Ok(Read::Fund);
    }
    let storing = Instant::now();
    // An amendment belongs to the offering of the filing it amends.
    let amends = form
        .previous_accession
        .as_deref()
        .filter(|_| form.is_amendment() || entry.is_amendment());
    let (offering, signal) = offering_signal(db, amends.unwrap_or(&entry.accession)).await?;
    let signal_id = match signal {
        Some(id) => id,
        None => assigned_signal(db, &entry.accession)
            .await?
            .unwrap_or_else(new_id),
    };
    assign_signal(db, &entry.accession, &offering, &signal_id, now_ms()).await?;
    let matching = Instant::now();
    let company = issuer_company(db, &form).await?;
    let ingesting = Instant::now();
    telemetry::collector_stage(NAME, "match", ingesting - matching);
    let record = funding_record(&form, entry, &offering, &signal_id, &company);
    let report = ingest_signals(db, SignalType::FundingRound, vec![Ok(record)]).await;
    telemetry::collector_stage(NAME, "ingest", (matching - storing) + ingesting.elapsed());
    let report = report?;
    if let Some(refused) = report.invalid.first() {
        return Err(FilingError::Source(format!(
            "the round was refused: {}",
            refused.error
        )));
    }
    Ok(Read::Stored {
        created: report.inserted > 0,
    })
}

/// The known company of the issuer: the enrichment matcher's company for its name, when that
/// company's name is the issuer's (legal forms aside; the matcher also offers look-alikes, and
/// `Acme Labs 2` is not `Acme Labs`) and it is not known to be in another country.
async fn issuer_company(db: &Db, form: &FormD) -> Result<IssuerCompany, FilingError> {
    let brand = brand_name(&form.issuer.name);
    let found = match_companies(db, &[Lookup::Name(brand.clone())])
        .await
        .map_err(|e| FilingError::Source(format!("matching the issuer: {e}")))?;
    let Some(found) = found.into_iter().next().flatten() else {
        return Ok(IssuerCompany::New);
    };
    let (country, _) = issuer_country(form);
    let summaries = company_summaries(db, std::slice::from_ref(&found.company_id)).await?;
    let Some(company) = summaries.first() else {
        return Ok(IssuerCompany::New);
    };
    let same_name = brand_name(&company.name).to_lowercase() == brand.to_lowercase();
    let elsewhere = company
        .headquarters_country
        .as_deref()
        .zip(country)
        .is_some_and(|(known, issuer)| !normalize_country(known).eq_ignore_ascii_case(issuer));
    Ok(if same_name && !elsewhere {
        IssuerCompany::Known(found.company_id)
    } else {
        IssuerCompany::New
    })
}
