//! Parsing of monitor request bodies: canonical `snake_case` names with `camelCase` aliases,
//! unknown fields refused, and each value checked with a message that says what is wrong.

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::ToSchema;

use crate::domain::signal_type::{SIGNAL_TYPES_MESSAGE, SignalType};
use crate::http::error::ApiError;
use crate::service::monitors::{self, NAME_MESSAGE};

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

/// `name`: a string, checked by the monitor rules.
pub fn parse_name(value: Value) -> Result<String, ApiError> {
    let Value::String(name) = value else {
        return Err(ApiError::bad_request(NAME_MESSAGE));
    };
    Ok(monitors::parse_name(name)?)
}

/// `signal_types`: a non-empty array of known values, duplicates removed.
pub fn parse_signal_types_value(value: Value) -> Result<Vec<SignalType>, ApiError> {
    let Value::Array(items) = value else {
        return Err(ApiError::bad_request(SIGNAL_TYPES_MESSAGE));
    };
    let names: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
    let names = names.ok_or_else(|| ApiError::bad_request(SIGNAL_TYPES_MESSAGE))?;
    Ok(monitors::parse_signal_type_names(&names)?)
}

/// `active`: a boolean.
pub fn parse_active(value: Value) -> Result<bool, ApiError> {
    value
        .as_bool()
        .ok_or_else(|| ApiError::bad_request("active must be a boolean"))
}
