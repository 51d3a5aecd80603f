//! The webhook form shared by `New webhook` and the edit form: endpoint, event types and
//! filters, each checked by the same rules as the API, with errors kept beside their fields.

use std::collections::BTreeMap;

use crate::domain::webhook_filters::FILTER_KEYS;
use crate::domain::webhook_url::WebhookUrl;
use crate::http::state::AppState;
use crate::service::webhooks::{EVENT_TYPES, check_webhook_url, parse_event_types, parse_filters};

/// The form as posted. Event type checkboxes repeat `event_types`; each filter is a field
/// named like the API's filter key.
#[derive(Debug, Default, Clone)]
pub struct WebhookForm {
    pub endpoint_url: String,
    pub event_types: Vec<String>,
    pub filters: BTreeMap<String, String>,
}

/// An event type checkbox.
pub struct EventChoice {
    pub value: &'static str,
    pub checked: bool,
}

/// A filter field with its current value.
pub struct FilterField {
    pub key: &'static str,
    pub value: String,
}

/// Messages shown beside the fields that caused them.
#[derive(Debug, Default)]
pub struct WebhookErrors {
    pub endpoint_url: Option<String>,
    pub event_types: Option<String>,
    pub filters: Option<String>,
    pub form: Option<String>,
}

impl WebhookErrors {
    pub fn any(&self) -> bool {
        self.endpoint_url.is_some()
            || self.event_types.is_some()
            || self.filters.is_some()
            || self.form.is_some()
    }
}

/// The checked values of a valid form.
pub struct CheckedWebhook {
    pub endpoint_url: WebhookUrl,
    pub event_types: Vec<String>,
    pub filters: BTreeMap<String, String>,
}

impl WebhookForm {
    /// Reads the posted pairs; unknown names are ignored.
    pub fn read(pairs: Vec<(String, String)>) -> WebhookForm {
        let mut form = WebhookForm::default();
        for (name, value) in pairs {
            match name.as_str() {
                "endpoint_url" => form.endpoint_url = value,
                "event_types" => form.event_types.push(value),
                key if FILTER_KEYS.contains(&key) && !value.trim().is_empty() => {
                    form.filters
                        .insert(key.to_string(), value.trim().to_string());
                }
                _ => {}
            }
        }
        form
    }

    /// Checks every field, collecting each field's error.
    pub async fn check(&self, state: &AppState) -> Result<CheckedWebhook, WebhookErrors> {
        let mut errors = WebhookErrors::default();
        let url = if self.endpoint_url.trim().is_empty() {
            errors.endpoint_url = Some("Enter the URL that should receive the events.".into());
            None
        } else {
            check_webhook_url(state, self.endpoint_url.trim(), "Endpoint URL")
                .await
                .map_err(|e| errors.endpoint_url = Some(e.to_string()))
                .ok()
        };
        let types = if self.event_types.is_empty() {
            errors.event_types = Some("Choose at least one event type.".into());
            None
        } else {
            parse_event_types(self.event_types.iter().map(|t| Some(t.as_str())))
                .map_err(|e| errors.event_types = Some(e.to_string()))
                .ok()
        };
        let filters = parse_filters(
            self.filters
                .iter()
                .map(|(k, v)| (k.clone(), Some(v.clone()))),
        )
        .map_err(|e| errors.filters = Some(e.to_string()))
        .ok();
        match (url, types, filters) {
            (Some(endpoint_url), Some(event_types), Some(filters)) if !errors.any() => {
                Ok(CheckedWebhook {
                    endpoint_url,
                    event_types,
                    filters,
                })
            }
            _ => Err(errors),
        }
    }

    /// The event type checkboxes, ticked as in this form.
    pub fn event_choices(&self) -> Vec<EventChoice> {
        EVENT_TYPES
            .into_iter()
            .map(|value| EventChoice {
                value,
                checked: self.event_types.iter().any(|t| t == value),
            })
            .collect()
    }

    /// The filter fields, filled as in this form.
    pub fn filter_fields(&self) -> Vec<FilterField> {
        FILTER_KEYS
            .into_iter()
            .map(|key| FilterField {
                key,
                value: self.filters.get(key).cloned().unwrap_or_default(),
            })
            .collect()
    }
}
