//! Parsing of monitor request bodies: canonical `snake_case` names with `camelCase` aliases,
//! unknown fields refused, and each value checked with a message that says what is wrong.

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::ToSchema;

use crate::delivery::guard::check_webhook_destination;
use crate::domain::signal_type::{SIGNAL_TYPES_MESSAGE, SignalType, parse_signal_types};
use crate::domain::webhook_url::{WebhookUrl, parse_webhook_url};
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Most monitors a team may have, paused ones included.
pub const MAX_MONITORS: i64 = 20;
/// Most active webhooks a team may have; an active monitor's webhook counts.
pub const MAX_ACTIVE_WEBHOOKS: i64 = 10;
const MAX_NAME_CHARS: usize = 255;

/// Body of `POST /monitors`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMonitorBody {
    /// 1-255 characters.
    #[serde(default, deserialize_with = "present_value")]
    #[schema(value_type = String, required = true)]
    pub name: Option<Value>,
    /// Non-empty array of `funding_round`, `acquisition`, `job_change`, `hiring`.
    #[serde(alias = "signalTypes", default, deserialize_with = "present_value")]
    #[schema(value_type = Vec<String>, required = true)]
    pub signal_types: Option<Value>,
    /// HTTP(S) URL of a public endpoint, at most 500 characters; `null` or `""` for none.
    #[serde(alias = "webhookUrl", default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub webhook_url: Option<Option<String>>,
}

/// Body of `PUT /monitors/{id}`; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateMonitorBody {
    #[serde(default, deserialize_with = "present_value")]
    #[schema(value_type = Option<String>)]
    pub name: Option<Value>,
    #[serde(alias = "signalTypes", default, deserialize_with = "present_value")]
    #[schema(value_type = Option<Vec<String>>)]
    pub signal_types: Option<Value>,
    /// A different URL replaces the webhook; `null` or `""` detaches it; the same URL keeps it.
    #[serde(alias = "webhookUrl", default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub webhook_url: Option<Option<String>>,
    /// `false` pauses the monitor, `true` resumes it.
    #[serde(default, deserialize_with = "present_value")]
    #[schema(value_type = Option<bool>)]
    pub active: Option<Value>,
}

/// Marks a field that was sent (even as `null`) as `Some`, so absent and `null` differ.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Marks a field that was sent as `Some`, `null` included (`Some(Value::Null)`), so that a
/// `null` where a value is required is refused as a wrong value instead of read as "absent".
fn present_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A monitor name, kept as sent: a string of 1-255 characters that is not only whitespace and
/// holds no control characters (PostgreSQL cannot store NUL, and none belongs in a name shown in
/// lists and e-mail subjects).
pub fn parse_name(value: Value) -> Result<String, ApiError> {
    let message = "name must be a string of 1-255 characters";
    let Value::String(name) = value else {
        return Err(ApiError::bad_request(message));
    };
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(message));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "name must not contain control characters",
        ));
    }
    Ok(name)
}

/// `signal_types`: a non-empty array of known values, duplicates removed.
pub fn parse_signal_types_value(value: Value) -> Result<Vec<SignalType>, ApiError> {
    let Value::Array(items) = value else {
        return Err(ApiError::bad_request(SIGNAL_TYPES_MESSAGE));
    };
    let names: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
    names
        .and_then(|names| parse_signal_types(&names))
        .ok_or_else(|| ApiError::bad_request(SIGNAL_TYPES_MESSAGE))
}

/// `active`: a boolean.
pub fn parse_active(value: Value) -> Result<bool, ApiError> {
    value
        .as_bool()
        .ok_or_else(|| ApiError::bad_request("active must be a boolean"))
}

/// Signal types as stored: a JSON array of wire names.
pub fn signal_types_json(types: &[SignalType]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
}

/// The webhook event types that carry the given signal types.
pub fn event_types(types: &[SignalType]) -> Vec<String> {
    types.iter().map(|t| t.event_type().to_string()).collect()
}

/// A `webhook_url` value: `None` for null or empty (no webhook).
pub fn requested_url(value: Option<String>) -> Option<String> {
    value.filter(|url| !url.trim().is_empty())
}

/// Checks a webhook URL fully: syntax, scheme, length, and that every address it resolves to
/// is public (unless private webhooks are allowed).
pub async fn check_webhook_url(state: &AppState, url: &str) -> Result<WebhookUrl, ApiError> {
    let allow_private = state.config.allow_private_webhooks;
    let parsed =
        parse_webhook_url(url, allow_private).map_err(|e| ApiError::bad_request(e.to_string()))?;
    check_webhook_destination(&parsed, allow_private)
        .await
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(parsed)
}
