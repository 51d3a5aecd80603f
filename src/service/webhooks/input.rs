//! The rules a webhook's values follow, whichever client sent them: supported event types,
//! recognised filters, and an endpoint that is a public HTTP(S) URL.

use std::collections::BTreeMap;

use crate::delivery::guard::check_webhook_destination;
use crate::domain::webhook_filters::{FILTER_KEYS, WebhookFilters};
use crate::domain::webhook_url::{WebhookUrl, WebhookUrlError, parse_webhook_url};
use crate::service::{ServiceError, Services};
use crate::store::StoreError;

/// Event types a subscription may register for. `investor.created` exists in the reference
/// service but not here, so it is refused like any unknown name.
pub const EVENT_TYPES: [&str; 6] = [
    "funding.created",
    "acquisition.created",
    "job_change.created",
    "hiring.created",
    "new_company.created",
    "system.test",
];

/// The refusal of an `event_types` value; `detail` names the offending entry, if any.
pub fn event_types_refused(detail: &str) -> ServiceError {
    let allowed = EVENT_TYPES.join(", ");
    ServiceError::invalid(format!(
        "{detail}event_types must be an array of: {allowed}"
    ))
}

/// Event types as sent, `None` standing for an entry that is not text: a list of supported
/// names, duplicates removed, order kept. An empty list is accepted (a webhook that receives
/// nothing until its event types are changed).
pub fn parse_event_types<'a>(
    items: impl IntoIterator<Item = Option<&'a str>>,
) -> Result<Vec<String>, ServiceError> {
    let mut types: Vec<String> = Vec::new();
    for item in items {
        match item {
            Some(name) if EVENT_TYPES.contains(&name) => {
                if !types.iter().any(|t| t == name) {
                    types.push(name.to_string());
                }
            }
            Some(name) => {
                return Err(event_types_refused(&format!(
                    "Unsupported event type {name:?}: "
                )));
            }
            None => return Err(event_types_refused("")),
        }
    }
    Ok(types)
}

/// Filters as sent, `None` standing for a value that is not text: recognised keys must carry
/// text in the format each filter reads; other keys are dropped.
pub fn parse_filters(
    entries: impl IntoIterator<Item = (String, Option<String>)>,
) -> Result<BTreeMap<String, String>, ServiceError> {
    let mut filters = BTreeMap::new();
    for (key, value) in entries {
        if !FILTER_KEYS.contains(&key.as_str()) {
            continue;
        }
        let Some(text) = value else {
            return Err(ServiceError::invalid(format!(
                "filters.{key} must be a string"
            )));
        };
        filters.insert(key, text);
    }
    // Checked with the same parser the fan-out uses, so a stored filter always applies.
    WebhookFilters::parse(&filters).map_err(ServiceError::invalid)?;
    Ok(filters)
}

/// Checks a webhook URL fully: syntax, scheme, length, and that every address it resolves to is
/// public (unless private webhooks are allowed). `field` names the value in the message.
pub async fn check_webhook_url(
    services: &Services,
    url: &str,
    field: &str,
) -> Result<WebhookUrl, ServiceError> {
    let allow_private = services.config.allow_private_webhooks;
    let refuse = |e: WebhookUrlError| ServiceError::invalid(e.message_for(field));
    let parsed = parse_webhook_url(url, allow_private).map_err(refuse)?;
    check_webhook_destination(&parsed, allow_private)
        .await
        .map_err(refuse)?;
    Ok(parsed)
}

/// Stored form of filters and event types: JSON text.
pub fn to_json_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// Decodes a JSON column; a row that does not decode is corrupt, never read as empty.
pub fn from_json_text<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|err| StoreError::Corrupt(format!("{what}: {err}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: ServiceError) -> String {
        err.to_string()
    }

    #[test]
    fn event_types_keep_the_first_of_each_name_in_order() {
        let names = [
            Some("hiring.created"),
            Some("system.test"),
            Some("hiring.created"),
        ];
        let types = parse_event_types(names).unwrap();
        assert_eq!(types, ["hiring.created", "system.test"]);
    }

    #[test]
    fn an_unknown_or_non_text_event_type_or_an_empty_list_is_refused() {
        let unknown = message(parse_event_types([Some("investor.created")]).unwrap_err());
        assert!(unknown.starts_with("Unsupported event type \"investor.created\": event_types"));
        let not_text = message(parse_event_types([None]).unwrap_err());
        assert!(not_text.starts_with("event_types must be an array of: "));
        assert_eq!(parse_event_types([]).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn filters_drop_unknown_keys_and_refuse_non_text_values_of_known_ones() {
        let key = FILTER_KEYS[0].to_string();
        let dropped = parse_filters([("not_a_filter".to_string(), None)]).unwrap();
        assert!(dropped.is_empty());
        let refused = message(parse_filters([(key.clone(), None)]).unwrap_err());
        assert_eq!(refused, format!("filters.{key} must be a string"));
    }

    #[test]
    fn a_corrupt_json_column_is_an_error_not_an_empty_value() {
        let err = from_json_text::<Vec<String>>("[\"a\"", "webhooks.event_types").unwrap_err();
        assert!(matches!(err, StoreError::Corrupt(_)));
    }
}
