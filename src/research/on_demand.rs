//! Research on demand: a request that finds no company for a domain (the company list's
//! `enrich_on_miss`) has the domain looked up at once, and may wait for what comes of it.
//!
//! The look-up runs in a task of its own, so it ends (and stores the company) even when the
//! request that asked for it stops waiting. A process looks one domain up once at a time: a
//! request for a domain already being looked up waits for that look-up instead of fetching the
//! site again. A domain that has pending targets is held as the research worker holds it (the
//! worker leaves it alone meanwhile); the company resolves those targets, and a failure is
//! written on them with their backoff, exactly as the worker's own look-ups. A domain whose
//! look-up failed is not looked up on demand again before that backoff has passed (5 minutes
//! after a first failure), so repeated requests cannot make the service hammer a site.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;
use tokio::time::Instant;

use super::lookup::{HOLD_MS, Researcher};
use crate::domain::time::now_ms;
use crate::store::companies::{CompanyKey, ids_where_in};
use crate::store::targets::hold_domain;
use crate::store::{Db, StoreError};

/// What came of looking a domain up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Researched {
    /// The website named the company, now stored (or it was known by then).
    Found { company_id: String },
    /// The look-up failed; the domain is not looked up on demand again before `retry_at`.
    Failed { reason: String, retry_at: i64 },
    /// Nothing was looked up: website look-ups are off.
    Off,
}

/// A look-up asked for; its outcome can be waited for.
#[derive(Debug)]
pub struct Researching(watch::Receiver<Option<Researched>>);

impl Researching {
    fn ready(outcome: Researched) -> Researching {
        // The value stays readable after the sender is gone.
        let (_, receiver) = watch::channel(Some(outcome));
        Researching(receiver)
    }

    /// What came of the look-up, when it ends before `deadline`.
    pub async fn outcome_by(mut self, deadline: Instant) -> Option<Researched> {
        let ended = tokio::time::timeout_at(deadline, self.0.wait_for(Option::is_some)).await;
        match ended {
            Ok(Ok(outcome)) => outcome.clone(),
            _ => None,
        }
    }
}

/// The look-ups of one process that requests asked for: those under way and those that failed
/// lately. Cheap to clone (shared).
#[derive(Debug, Clone, Default)]
pub struct Running(Arc<Mutex<Lookups>>);

#[derive(Debug, Default)]
struct Lookups {
    under_way: HashMap<String, watch::Receiver<Option<Researched>>>,
    /// Failed domains: the reason, and when one may be looked up again.
    failed: HashMap<String, (String, i64)>,
}

impl Running {
    fn lock(&self) -> MutexGuard<'_, Lookups> {
        // The map stays consistent whatever panicked while holding it.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A look-up under way: its entry leaves the map when the task ends, however it ends.
struct Slot {
    running: Running,
    domain: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.running.lock().under_way.remove(&self.domain);
    }
}

impl Researcher {
    /// Looks `domain` (normalized, no company known for it) up now for a request, or joins the
    /// look-up of it already under way in this process. Nothing is fetched when look-ups are
    /// off or the domain failed lately.
    pub fn research_now(self: &Arc<Self>, db: &Db, domain: &str) -> Researching {
        if !self.enabled() {
            return Researching::ready(Researched::Off);
        }
        let mut lookups = self.running.lock();
        if let Some(under_way) = lookups.under_way.get(domain) {
            return Researching(under_way.clone());
        }
        let now = now_ms();
        lookups.failed.retain(|_, (_, retry_at)| *retry_at > now);
        if let Some((reason, retry_at)) = lookups.failed.get(domain) {
            return Researching::ready(Researched::Failed {
                reason: reason.clone(),
                retry_at: *retry_at,
            });
        }
        let (sender, receiver) = watch::channel(None);
        lookups
            .under_way
            .insert(domain.to_string(), receiver.clone());
        drop(lookups);
        let (researcher, db) = (self.clone(), db.clone());
        let slot = Slot {
            running: self.running.clone(),
            domain: domain.to_string(),
        };
        tokio::spawn(async move {
            let outcome = researcher.look_up_for_request(&db, &slot.domain).await;
            if let Researched::Failed { reason, retry_at } = &outcome {
                let failed = (reason.clone(), *retry_at);
                researcher
                    .running
                    .lock()
                    .failed
                    .insert(slot.domain.clone(), failed);
            }
            sender.send_replace(Some(outcome));
            drop(slot);
        });
        Researching(receiver)
    }

    /// One look-up for a request; a store error is logged and counts as a failure.
    async fn look_up_for_request(&self, db: &Db, domain: &str) -> Researched {
        match self.try_look_up_for_request(db, domain).await {
            Ok(outcome) => outcome,
            Err(err) => {
                tracing::error!(domain, error = %err, "research on demand failed");
                Researched::Failed {
                    reason: "the look-up could not be stored".into(),
                    retry_at: now_ms(),
                }
            }
        }
    }

    async fn try_look_up_for_request(
        &self,
        db: &Db,
        domain: &str,
    ) -> Result<Researched, StoreError> {
        // Another process may have stored the company since the request looked.
        let known = ids_where_in(db, CompanyKey::Domain, &[domain.to_string()]).await?;
        if let Some(company_id) = known.into_iter().next() {
            return Ok(Researched::Found { company_id });
        }
        let now = now_ms();
        let failures = hold_domain(db, domain, now, now + HOLD_MS, true)
            .await?
            .unwrap_or(0);
        self.look_up(db, domain, failures).await
    }
}
