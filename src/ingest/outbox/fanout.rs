//! Fan-out: inside the transaction that accepts new signals or companies, find who is
//! interested and gather an event, one delivery per webhook and one alert item per monitor into
//! the [`Outbox`], which the same transaction then enqueues.
//!
//! - A monitor hears of a signal when one of its resolved targets is a company the signal
//!   concerns (both sides of an acquisition, both companies of a job change) and the signal's type
//!   is among its `signal_types`; once per signal however many of its targets match. Only
//!   targets resolved now count, so nothing older than the resolution is ever sent.
//! - A standalone webhook hears of every new signal of its event types that passes its filters.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::de::DeserializeOwned;

use super::Outbox;
use super::event::{new_company_event_data, signal_event_data};
use crate::domain::signal_type::SignalType;
use crate::domain::webhook_filters::{FilterSubject, WebhookFilters};
use crate::store::company_lists::{CompanyRow, companies_by_id};
use crate::store::outbox::{StandaloneWebhook, WatchingMonitor, listeners_of, standalone_webhooks};
use crate::store::signals::SignalRow;
use crate::store::{StoreError, Tx};

/// A standalone webhook with its event types and filters parsed.
struct Listener {
    webhook: StandaloneWebhook,
    event_types: Vec<String>,
    filters: WebhookFilters,
}

fn listeners(webhooks: Vec<StandaloneWebhook>) -> Result<Vec<Listener>, StoreError> {
    webhooks
        .into_iter()
        .map(|webhook| {
            let what = || format!("webhook {}", webhook.id);
            let filters: BTreeMap<String, String> =
                decode(&webhook.filters, &format!("{} filters", what()))?;
            let filters = WebhookFilters::parse(&filters)
                .map_err(|err| corrupt(&format!("{} filters", what()), &err))?;
            Ok(Listener {
                event_types: decode(&webhook.event_types, &format!("{} event types", what()))?,
                filters,
                webhook,
            })
        })
        .collect()
}

/// A JSON column read back: what does not decode is corrupt data, never "nothing stored" (an
/// empty list of filters would send a webhook everything).
pub(super) fn decode<T: DeserializeOwned>(json: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(json).map_err(|err| corrupt(what, &err))
}

/// Logs corrupt data once, where it is found, and the error that carries it up.
fn corrupt(what: &str, err: &dyn std::fmt::Display) -> StoreError {
    tracing::error!(what, error = %err, "stored data does not decode");
    StoreError::Corrupt(format!("{what}: {err}"))
}

/// Gathers the events of newly accepted signals into `outbox`.
pub async fn fan_out_signals(
    tx: &mut Tx,
    signals: &[&SignalRow],
    outbox: &mut Outbox,
) -> Result<(), StoreError> {
    if signals.is_empty() {
        return Ok(());
    }
    let mut concerned: Vec<&str> = signals
        .iter()
        .flat_map(|s| std::iter::once(s.company_id.as_str()).chain(s.other_company_id.as_deref()))
        .collect();
    concerned.sort_unstable();
    concerned.dedup();
    // The standalone webhooks and the monitors watching these companies in one round trip.
    let (webhooks, watching) = listeners_of(tx, &concerned).await?;
    let standalone = listeners(webhooks)?;
    if standalone.is_empty() && watching.is_empty() {
        return Ok(());
    }
    let mut by_company: HashMap<&str, Vec<&WatchingMonitor>> = HashMap::new();
    for w in &watching {
        by_company.entry(w.company_id.as_str()).or_default().push(w);
    }
    let companies: HashMap<String, CompanyRow> = companies_by_id(tx, &concerned)
        .await?
        .into_iter()
        .map(|c| (c.id.clone(), c))
        .collect();
    for signal in signals {
        let monitors = interested_monitors(signal, &by_company)?;
        let company = companies.get(&signal.company_id);
        let other = signal
            .other_company_id
            .as_ref()
            .and_then(|id| companies.get(id));
        let Some(kind) = SignalType::parse(signal.kind) else {
            continue;
        };
        let event_type = kind.event_type();
        let subject = subject(signal, company)?;
        let webhooks: Vec<&Listener> = standalone
            .iter()
            .filter(|l| l.event_types.iter().any(|t| t == event_type))
            .filter(|l| l.filters.accepts(&subject.view(event_type)))
            .collect();
        if monitors.is_empty() && webhooks.is_empty() {
            continue;
        }
        let data = signal_event_data(signal, company, other)?;
        let event_id = outbox.event(event_type, &signal.id, data);
        for monitor in monitors {
            outbox.alert(&event_id, monitor);
            if let Some(webhook_id) = &monitor.webhook_id {
                let to = (
                    webhook_id.as_str(),
                    monitor.team_id.as_str(),
                    Some(monitor.monitor_id.as_str()),
                );
                outbox.delivery(&event_id, event_type, to);
            }
        }
        deliver_to_webhooks(outbox, &event_id, event_type, &webhooks);
    }
    Ok(())
}

/// Monitors that hear of `signal`, each once.
fn interested_monitors<'a>(
    signal: &SignalRow,
    by_company: &HashMap<&str, Vec<&'a WatchingMonitor>>,
) -> Result<Vec<&'a WatchingMonitor>, StoreError> {
    let mut seen = HashSet::new();
    let mut interested = Vec::new();
    let concerned = std::iter::once(signal.company_id.as_str())
        .chain(signal.other_company_id.as_deref())
        .flat_map(|id| by_company.get(id).into_iter().flatten().copied());
    for monitor in concerned {
        let what = format!("monitor {} signal types", monitor.monitor_id);
        let types: Vec<String> = decode(&monitor.signal_types, &what)?;
        if types.iter().any(|t| t == signal.kind) && seen.insert(monitor.monitor_id.as_str()) {
            interested.push(monitor);
        }
    }
    Ok(interested)
}

/// What standalone filters look at in a signal, owned.
struct Subject {
    country: Option<String>,
    categories: Vec<String>,
    text: String,
    employee_count: Option<i64>,
    date_ms: i64,
    round_type: Option<String>,
    round_flavor: Option<String>,
    amount: Option<i64>,
}

impl Subject {
    fn view<'a>(&'a self, event_type: &'a str) -> FilterSubject<'a> {
        FilterSubject {
            event_type,
            country: self.country.as_deref(),
            categories: &self.categories,
            text: &self.text,
            employee_count: self.employee_count,
            date_ms: Some(self.date_ms),
            round_type: self.round_type.as_deref(),
            round_flavor: self.round_flavor.as_deref(),
            amount: self.amount,
        }
    }
}

fn subject(signal: &SignalRow, company: Option<&CompanyRow>) -> Result<Subject, StoreError> {
    let mut text = String::new();
    if let Some(c) = company {
        for part in [Some(&c.name), c.description.as_ref(), c.industry.as_ref()]
            .into_iter()
            .flatten()
        {
            text.push_str(part);
            text.push(' ');
        }
    }
    text.push_str(&signal.search_body);
    let categories = match company {
        Some(c) => decode(&c.categories, &format!("company {} categories", c.id))?,
        None => Vec::new(),
    };
    Ok(Subject {
        country: company.and_then(|c| c.headquarters_country.clone()),
        categories,
        text,
        employee_count: company.and_then(|c| c.employee_count),
        date_ms: signal.occurred_at,
        round_type: signal.round_type.clone(),
        round_flavor: signal.round_flavor.clone(),
        amount: signal.amount,
    })
}

/// Gathers `new_company.created` for companies just created into `outbox`, to the standalone
/// webhooks that subscribe to it and whose filters accept the company.
pub async fn fan_out_new_companies(
    tx: &mut Tx,
    company_ids: &[&str],
    outbox: &mut Outbox,
) -> Result<(), StoreError> {
    if company_ids.is_empty() {
        return Ok(());
    }
    let event_type = "new_company.created";
    let standalone: Vec<Listener> = listeners(standalone_webhooks(tx).await?)?
        .into_iter()
        .filter(|l| l.event_types.iter().any(|t| t == event_type))
        .collect();
    if standalone.is_empty() {
        return Ok(());
    }
    for company in companies_by_id(tx, company_ids).await? {
        let what = format!("company {} categories", company.id);
        let categories: Vec<String> = decode(&company.categories, &what)?;
        let text = format!(
            "{} {} {}",
            company.name,
            company.description.as_deref().unwrap_or(""),
            company.industry.as_deref().unwrap_or("")
        );
        let view = FilterSubject {
            event_type,
            country: company.headquarters_country.as_deref(),
            categories: &categories,
            text: &text,
            employee_count: company.employee_count,
            date_ms: Some(company.created_at),
            ..FilterSubject::default()
        };
        let webhooks: Vec<&Listener> = standalone
            .iter()
            .filter(|l| l.filters.accepts(&view))
            .collect();
        if webhooks.is_empty() {
            continue;
        }
        let event_id = outbox.event(event_type, &company.id, new_company_event_data(&company)?);
        deliver_to_webhooks(outbox, &event_id, event_type, &webhooks);
    }
    Ok(())
}

/// Queues the event for each standalone webhook that accepts it.
fn deliver_to_webhooks(
    outbox: &mut Outbox,
    event_id: &str,
    event_type: &str,
    webhooks: &[&Listener],
) {
    for l in webhooks {
        outbox.delivery(
            event_id,
            event_type,
            (&l.webhook.id, &l.webhook.team_id, None),
        );
    }
}
