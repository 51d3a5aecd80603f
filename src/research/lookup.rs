//! Looking a pending domain target up on its website: fetch the home page through the SSRF-safe
//! client, read who the company says it is, and store it as a new company — which resolves
//! every pending target on that domain and announces the company (`new_company.created`) in
//! the ingest transaction. A failed look-up leaves the targets pending with the reason, and the
//! next one waits longer each time.

use std::time::Duration;

use crate::config::Config;
use crate::delivery::client::WebhookClient;
use crate::delivery::client::fetch::FetchRequest;
use crate::domain::company::CompanyRecord;
use crate::domain::time::now_ms;
use crate::ingest::session::ImportSession;
use crate::ingest::{prepare_companies, store_companies};
use crate::research::on_demand::{Researched, Running};
use crate::research::website::{WebsiteFacts, read_website};
use crate::store::targets::{domains_due, hold_domain, record_research_failure};
use crate::store::{Db, StoreError};

/// Bound on one look-up, redirects and body included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bytes of a home page read.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;
/// Most redirects followed, each target checked again.
const MAX_REDIRECTS: usize = 3;
/// How long a worker holds a domain while it looks it up.
pub(super) const HOLD_MS: i64 = 2 * 60 * 1000;
/// Most domains looked up per round.
const BATCH: i64 = 50;
/// First wait after a failed look-up; each further failure doubles it, up to [`MAX_BACKOFF_MS`].
const FIRST_BACKOFF_MS: i64 = 5 * 60 * 1000;
const MAX_BACKOFF_MS: i64 = 24 * 60 * 60 * 1000;

/// How long to wait before looking a domain up again after `failures` failed look-ups
/// (`failures` ≥ 1): 5 minutes, then twice as long each time, at most a day.
pub fn backoff_ms(failures: i64) -> i64 {
    let doublings = (failures - 1).clamp(0, 20) as u32;
    FIRST_BACKOFF_MS
        .saturating_mul(1_i64 << doublings)
        .min(MAX_BACKOFF_MS)
}

/// The website look-up of one process: its client and settings.
#[derive(Debug, Clone)]
pub struct Researcher {
    client: WebhookClient,
    template: String,
    enabled: bool,
    /// The look-ups requests asked for that are under way in this process, and the domains
    /// whose look-up failed lately.
    pub(super) running: Running,
}

/// What one round of look-ups did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LookupReport {
    pub looked_up: usize,
    pub resolved: usize,
}

impl Researcher {
    /// The look-up `config` asks for (`SIGNALWATCH_RESEARCH_FETCH`, the URL template, private
    /// addresses allowed or not).
    pub fn new(config: &Config) -> anyhow::Result<Researcher> {
        Ok(Researcher {
            client: WebhookClient::for_sources(config, FETCH_TIMEOUT)?,
            template: config.research_url_template.clone(),
            enabled: config.research_fetches(),
            running: Running::default(),
        })
    }

    /// True when websites are looked up at all.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Looks up the domains whose look-up is due (every pending one when `all`), one after
    /// another. Nothing when look-ups are off.
    pub async fn look_up_due(&self, db: &Db, all: bool) -> Result<LookupReport, StoreError> {
        let mut report = LookupReport::default();
        if !self.enabled {
            return Ok(report);
        }
        let now = now_ms();
        for domain in domains_due(db, now, BATCH, all).await? {
            let Some(failures) = hold_domain(db, &domain, now, now + HOLD_MS, all).await? else {
                continue;
            };
            report.looked_up += 1;
            if let Researched::Found { .. } = self.look_up(db, &domain, failures).await? {
                report.resolved += 1;
            }
        }
        Ok(report)
    }

    /// Looks one domain up (`failures`: its failed look-ups so far) and stores what came of it:
    /// the company, or the reason on the domain's pending targets with the next look-up due
    /// after a backoff. Only a store error is an error.
    pub(super) async fn look_up(
        &self,
        db: &Db,
        domain: &str,
        failures: i64,
    ) -> Result<Researched, StoreError> {
        match self.read_site(domain).await {
            Ok(facts) => {
                let boards = facts.job_boards.len();
                let record = company_record(domain, facts);
                let name = record.name.clone();
                // The company, its job boards and the targets it resolves, in one transaction.
                let prepared = prepare_companies(vec![Ok(record)]).discovered();
                let report = store_companies(db, &mut ImportSession::new(), prepared).await?;
                let company_id = report.ids.first().cloned().unwrap_or_default();
                tracing::info!(domain, company = %name, company_id = %company_id, boards, "research found the company");
                metrics::counter!("signalwatch_research_lookups_total", "outcome" => "found")
                    .increment(1);
                Ok(Researched::Found { company_id })
            }
            Err(error) => {
                let retry_at = now_ms() + backoff_ms(failures + 1);
                tracing::info!(
                    domain,
                    error,
                    failures = failures + 1,
                    "research look-up failed"
                );
                metrics::counter!("signalwatch_research_lookups_total", "outcome" => "failed")
                    .increment(1);
                record_research_failure(db, domain, &error, retry_at).await?;
                Ok(Researched::Failed {
                    reason: error,
                    retry_at,
                })
            }
        }
    }

    /// The facts of the domain's home page, or why there are none.
    async fn read_site(&self, domain: &str) -> Result<WebsiteFacts, String> {
        let url = self.template.replace("{domain}", domain);
        let request = FetchRequest {
            max_redirects: MAX_REDIRECTS,
            max_bytes: MAX_PAGE_BYTES,
            accept: Some("text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"),
            ..FetchRequest::default()
        };
        let page = self.client.get(&url, &request).await?;
        if page.status != 200 {
            return Err(format!("HTTP {} from the website", page.status));
        }
        let html = String::from_utf8_lossy(&page.body);
        let facts = read_website(&html, &page.url);
        if facts.name.is_none() {
            return Err("no company name found on the website".into());
        }
        Ok(facts)
    }
}

/// The company a website describes, on the domain it was looked up by.
fn company_record(domain: &str, facts: WebsiteFacts) -> CompanyRecord {
    CompanyRecord {
        id: None,
        name: facts.name.unwrap_or_else(|| domain.to_string()),
        slug: None,
        description: facts.description,
        website: Some(format!("https://{domain}")),
        linkedin_url: facts.linkedin_url,
        twitter_url: None,
        logo_url: facts.logo,
        industry: None,
        subcategory: None,
        founded_year: facts.founded_year,
        headquarters_country: facts.country,
        employee_count: facts.employee_count,
        categories: None,
        keywords: None,
        specialties: None,
        growth_info: None,
        job_boards: (!facts.job_boards.is_empty()).then_some(facts.job_boards),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failed_look_up_waits_twice_as_long_up_to_a_day() {
        let minutes: Vec<i64> = (1..=6).map(|n| backoff_ms(n) / 60_000).collect();
        assert_eq!(minutes, [5, 10, 20, 40, 80, 160]);
        assert_eq!(backoff_ms(30), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(0), FIRST_BACKOFF_MS);
    }
}
