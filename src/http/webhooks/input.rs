//! Parsing of Webhooks API request bodies: canonical `snake_case` names with `camelCase` aliases,
//! unknown fields refused, and each value checked with a message that says what is wrong.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::ToSchema;

use crate::domain::webhook_url::WebhookUrl;
use crate::http::error::ApiError;
use crate::service::{Services, webhooks};

/// Body of `POST /webhooks`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhookBody {
    /// HTTP(S) URL of a public endpoint, at most 500 characters.
    #[serde(alias = "endpointUrl", default, deserialize_with = "present")]
    #[schema(value_type = String, required = true)]
    pub endpoint_url: Option<Value>,
    /// Non-empty array of event types; duplicates are removed.
    #[serde(alias = "eventTypes", default, deserialize_with = "present")]
    #[schema(value_type = Vec<String>, required = true)]
    pub event_types: Option<Value>,
    /// String filters; unrecognised keys are ignored.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub filters: Option<Value>,
}

/// Body of `PUT /webhooks/{id}`; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateWebhookBody {
    #[serde(alias = "endpointUrl", default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub endpoint_url: Option<Value>,
    /// Replaces the list.
    #[serde(alias = "eventTypes", default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<String>>)]
    pub event_types: Option<Value>,
    /// Replaces the filters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub filters: Option<Value>,
    /// `false` pauses (soft-deletes) the webhook, `true` re-enables it with its history.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<bool>)]
    pub active: Option<Value>,
    /// `true` mints a new signing secret, returned once in the response.
    #[serde(alias = "rotateSecret", default, deserialize_with = "present")]
    #[schema(value_type = Option<bool>)]
    pub rotate_secret: Option<Value>,
}

impl UpdateWebhookBody {
    /// True when the body asks for more than a secret rotation, which a monitor's webhook
    /// refuses.
    pub fn changes_more_than_the_secret(&self) -> bool {
        self.endpoint_url.is_some()
            || self.event_types.is_some()
            || self.filters.is_some()
            || self.active.is_some()
    }
}

/// Marks a field that was sent as `Some`, `null` included, so that a `null` where a value is
/// required is refused as a wrong value instead of read as "absent".
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `event_types`: an array of supported names (possibly empty), duplicates removed, order kept.
pub fn parse_event_types(value: Value) -> Result<Vec<String>, ApiError> {
    let Value::Array(items) = value else {
        return Err(webhooks::event_types_refused("").into());
    };
    Ok(webhooks::parse_event_types(
        items.iter().map(Value::as_str),
    )?)
}

/// `filters`: an object whose recognised keys carry strings in the format each filter reads;
/// other keys are dropped. `null` means no filters.
pub fn parse_filters(value: Value) -> Result<BTreeMap<String, String>, ApiError> {
    let entries = match value {
        Value::Null => return Ok(BTreeMap::new()),
        Value::Object(entries) => entries,
        _ => {
            return Err(ApiError::bad_request(
                "filters must be an object of string values",
            ));
        }
    };
    let entries = entries.into_iter().map(|(key, value)| match value {
        Value::String(text) => (key, Some(text)),
        _ => (key, None),
    });
    Ok(webhooks::parse_filters(entries)?)
}

/// `active` or `rotate_secret`: a boolean.
pub fn parse_flag(value: Value, field: &str) -> Result<bool, ApiError> {
    value
        .as_bool()
        .ok_or_else(|| ApiError::bad_request(format!("{field} must be a boolean")))
}

/// `endpoint_url`: checked exactly like a monitor's `webhook_url` — syntax, scheme, length, and
/// that every address it resolves to is public (unless private webhooks are allowed).
pub async fn check_endpoint_url(services: &Services, value: Value) -> Result<WebhookUrl, ApiError> {
    let Value::String(text) = value else {
        return Err(ApiError::bad_request(
            "endpoint_url must be an HTTP or HTTPS URL",
        ));
    };
    Ok(webhooks::check_webhook_url(services, &text, "endpoint_url").await?)
}
