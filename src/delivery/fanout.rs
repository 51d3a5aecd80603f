//! Fan-out (DESIGN.md flow 2): inside the transaction that accepts new signals or companies,
//! find who is interested and queue an event, one delivery per webhook and one alert item per
//! monitor. Committed together with the signal, or not at all.
//!
//! - A monitor hears of a signal when one of its resolved targets is a company the signal
//!   concerns (both sides of an acquisition, both companies of a job change) and the signal's type
//!   is among its `signal_types`; once per signal however many of its targets match. Only
//!   targets resolved now count, so nothing older than the resolution is ever sent.
//! - A standalone webhook hears of every new signal of its event types that passes its filters.

use std::collections::{HashMap, HashSet};

use super::event::{new_company_event_data, signal_event_data};
use crate::domain::signal_type::SignalType;
use crate::domain::webhook_filters::{FilterSubject, WebhookFilters};
use crate::store::company_lists::{CompanyRow, companies_by_id};
use crate::store::outbox::{
    FOLLOW_SCHEDULE, NewAlert, NewDelivery, NewEvent, StandaloneWebhook, WatchingMonitor,
    insert_alerts, insert_deliveries, insert_events, monitors_watching, nobody_listens,
    standalone_webhooks,
};
use crate::store::signals::SignalRow;
use crate::store::{StoreError, Tx, new_id};

/// What one fan-out queued.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FanOut {
    pub events: usize,
    pub deliveries: usize,
    pub alerts: usize,
}

/// A standalone webhook with its event types and filters parsed.
struct Listener {
    webhook: StandaloneWebhook,
    event_types: Vec<String>,
    filters: WebhookFilters,
}

fn listeners(webhooks: Vec<StandaloneWebhook>) -> Vec<Listener> {
    webhooks
        .into_iter()
        .map(|webhook| Listener {
            event_types: serde_json::from_str(&webhook.event_types).unwrap_or_default(),
            filters: WebhookFilters::from_stored(&webhook.filters),
            webhook,
        })
        .collect()
}

/// What is being queued, gathered before writing.
struct Outbox {
    events: Vec<NewEvent>,
    deliveries: Vec<NewDelivery>,
    alerts: Vec<NewAlert>,
    now: i64,
}

impl Outbox {
    fn new(now: i64) -> Outbox {
        Outbox {
            events: Vec::new(),
            deliveries: Vec::new(),
            alerts: Vec::new(),
            now,
        }
    }

    fn event(&mut self, event_type: &str, signal_id: &str, data: serde_json::Value) -> String {
        let id = new_id();
        self.events.push(NewEvent {
            id: id.clone(),
            event_type: event_type.to_string(),
            signal_id: Some(signal_id.to_string()),
            data: data.to_string(),
            created_at: self.now,
        });
        id
    }

    fn delivery(&mut self, event_id: &str, event_type: &str, to: (&str, &str, Option<&str>)) {
        let (webhook_id, team_id, monitor_id) = to;
        self.deliveries.push(NewDelivery {
            id: new_id(),
            webhook_id: webhook_id.to_string(),
            team_id: team_id.to_string(),
            monitor_id: monitor_id.map(str::to_string),
            event_id: event_id.to_string(),
            event_type: event_type.to_string(),
            free: false,
            max_attempts: FOLLOW_SCHEDULE,
            attempt_count: 0,
            retry_of: None,
            created_at: self.now,
        });
    }

    fn alert(&mut self, event_id: &str, monitor: &WatchingMonitor) {
        self.alerts.push(NewAlert {
            id: new_id(),
            monitor_id: monitor.monitor_id.clone(),
            team_id: monitor.team_id.clone(),
            event_id: event_id.to_string(),
            created_at: self.now,
        });
    }

    async fn write(self, tx: &mut Tx) -> Result<FanOut, StoreError> {
        insert_events(tx, &self.events).await?;
        insert_deliveries(tx, &self.deliveries).await?;
        insert_alerts(tx, &self.alerts).await?;
        Ok(FanOut {
            events: self.events.len(),
            deliveries: self.deliveries.len(),
            alerts: self.alerts.len(),
        })
    }
}

/// Queues the events of newly accepted signals.
pub async fn fan_out_signals(
    tx: &mut Tx,
    signals: &[&SignalRow],
    now: i64,
) -> Result<FanOut, StoreError> {
    if signals.is_empty() {
        return Ok(FanOut::default());
    }
    // Where standalone webhooks listen (the common case under load) that one read says someone
    // may; otherwise the cheap check spares bulk loads the look-up of monitors per company.
    let standalone = listeners(standalone_webhooks(tx).await?);
    if standalone.is_empty() && nobody_listens(tx).await? {
        return Ok(FanOut::default());
    }
    let mut concerned: Vec<&str> = signals
        .iter()
        .flat_map(|s| std::iter::once(s.company_id.as_str()).chain(s.other_company_id.as_deref()))
        .collect();
    concerned.sort_unstable();
    concerned.dedup();
    let watching = monitors_watching(tx, &concerned).await?;
    let mut by_company: HashMap<&str, Vec<&WatchingMonitor>> = HashMap::new();
    for w in &watching {
        by_company.entry(w.company_id.as_str()).or_default().push(w);
    }
    let companies: HashMap<String, CompanyRow> = companies_by_id(tx, &concerned)
        .await?
        .into_iter()
        .map(|c| (c.id.clone(), c))
        .collect();
    let mut outbox = Outbox::new(now);
    for signal in signals {
        let monitors = interested_monitors(signal, &by_company);
        let company = companies.get(&signal.company_id);
        let other = signal
            .other_company_id
            .as_ref()
            .and_then(|id| companies.get(id));
        let Some(kind) = SignalType::parse(signal.kind) else {
            continue;
        };
        let event_type = kind.event_type();
        let subject = subject(signal, company);
        let webhooks: Vec<&Listener> = standalone
            .iter()
            .filter(|l| l.event_types.iter().any(|t| t == event_type))
            .filter(|l| l.filters.accepts(&subject.view(event_type)))
            .collect();
        if monitors.is_empty() && webhooks.is_empty() {
            continue;
        }
        let data = signal_event_data(signal, company, other);
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
        for l in webhooks {
            outbox.delivery(
                &event_id,
                event_type,
                (&l.webhook.id, &l.webhook.team_id, None),
            );
        }
    }
    outbox.write(tx).await
}

/// Monitors that hear of `signal`, each once.
fn interested_monitors<'a>(
    signal: &SignalRow,
    by_company: &HashMap<&str, Vec<&'a WatchingMonitor>>,
) -> Vec<&'a WatchingMonitor> {
    let mut seen = HashSet::new();
    std::iter::once(signal.company_id.as_str())
        .chain(signal.other_company_id.as_deref())
        .flat_map(|id| by_company.get(id).into_iter().flatten().copied())
        .filter(|m| {
            serde_json::from_str::<Vec<String>>(&m.signal_types)
                .unwrap_or_default()
                .iter()
                .any(|t| t == signal.kind)
        })
        .filter(|m| seen.insert(m.monitor_id.as_str()))
        .collect()
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

fn subject(signal: &SignalRow, company: Option<&CompanyRow>) -> Subject {
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
    Subject {
        country: company.and_then(|c| c.headquarters_country.clone()),
        categories: company
            .map(|c| serde_json::from_str(&c.categories).unwrap_or_default())
            .unwrap_or_default(),
        text,
        employee_count: company.and_then(|c| c.employee_count),
        date_ms: signal.occurred_at,
        round_type: signal.round_type.clone(),
        round_flavor: signal.round_flavor.clone(),
        amount: signal.amount,
    }
}

/// Queues `new_company.created` for companies just created, to the standalone webhooks that
/// subscribe to it and whose filters accept the company.
pub async fn fan_out_new_companies(
    tx: &mut Tx,
    company_ids: &[&str],
    now: i64,
) -> Result<FanOut, StoreError> {
    if company_ids.is_empty() {
        return Ok(FanOut::default());
    }
    let event_type = "new_company.created";
    let standalone: Vec<Listener> = listeners(standalone_webhooks(tx).await?)
        .into_iter()
        .filter(|l| l.event_types.iter().any(|t| t == event_type))
        .collect();
    if standalone.is_empty() {
        return Ok(FanOut::default());
    }
    let mut outbox = Outbox::new(now);
    for company in companies_by_id(tx, company_ids).await? {
        let categories: Vec<String> = serde_json::from_str(&company.categories).unwrap_or_default();
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
        let event_id = outbox.event(event_type, &company.id, new_company_event_data(&company));
        for l in webhooks {
            outbox.delivery(
                &event_id,
                event_type,
                (&l.webhook.id, &l.webhook.team_id, None),
            );
        }
    }
    outbox.write(tx).await
}
