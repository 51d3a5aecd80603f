//! What the generated OpenAPI document adds so that it describes the wire: every JSON 2xx body
//! inside the envelope (`success`, `data`, `meta`, and `pagination` on paginated answers), the
//! page lists' 200 bodies, the error answers every operation can give, and the enum, range and
//! default of each list parameter. The handlers' annotations describe `data`; this adds what
//! every answer shares, in one place.

use serde_json::{Map, Value, json};

use crate::domain::signal_type::SignalType;

/// The operations answering a page of records with `pagination`.
const PAGE_LISTS: &[&str] = &[
    "getFundingSignals",
    "getHiringSignals",
    "getAcquisitionSignals",
    "getJobChangeSignals",
    "getCompanies",
    "getInvestors",
    "searchPeople",
];

/// Rewrites the generated document (as JSON) to describe the wire.
pub fn describe_the_wire(doc: &mut Value, private_webhooks: bool) {
    add_shared_schemas(doc);
    constrain_bodies(doc, private_webhooks);
    let mut records = Vec::new();
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        describe_operations(paths, &mut records);
    }
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for (name, schema) in records {
            schemas.insert(name.to_string(), schema);
        }
    }
}

/// The envelope, error answers and parameter constraints of every operation; the record
/// schemas the page lists refer to are added to `records`.
fn describe_operations(paths: &mut Map<String, Value>, records: &mut Vec<(&'static str, Value)>) {
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in item.iter_mut() {
            if !matches!(method.as_str(), "get" | "put" | "post" | "delete" | "patch") {
                continue;
            }
            let has_body = operation.get("requestBody").is_some();
            let has_path_id = path.contains('{');
            let id = operation
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            {
                let page_list = PAGE_LISTS.contains(&id.as_str());
                let record = super::openapi_records::page_record(&id);
                if let Some((name, schema)) = &record {
                    records.push((*name, schema.clone()));
                }
                wrap_success_bodies(responses, page_list, record.map(|(name, _)| name));
                add_error_answers(responses, has_body, has_path_id);
            }
            if let Some(parameters) = operation
                .get_mut("parameters")
                .and_then(Value::as_array_mut)
            {
                for parameter in parameters {
                    constrain_parameter(parameter, &id);
                }
            }
        }
    }
}

fn add_shared_schemas(doc: &mut Value) {
    let schemas = doc
        .as_object_mut()
        .map(|d| d.entry("components").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
        .map(|c| c.entry("schemas").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut);
    let Some(schemas) = schemas else {
        return;
    };
    schemas.insert(
        "Meta".into(),
        json!({
            "type": "object",
            "description": "What the call was and what it cost.",
            "required": ["endpoint"],
            "properties": {
                "endpoint": { "type": "string" },
                "creditsUsed": { "type": "integer", "minimum": 0 },
                "creditsRemaining": { "type": "integer", "minimum": 0 }
            }
        }),
    );
    schemas.insert(
        "PagePagination".into(),
        json!({
            "type": "object",
            "required": ["currentPage", "totalPages", "totalCount", "hasNextPage", "hasPreviousPage"],
            "properties": {
                "currentPage": { "type": "integer", "minimum": 1 },
                "totalPages": { "type": "integer", "minimum": 0 },
                "totalCount": { "type": "integer", "minimum": 0 },
                "hasNextPage": { "type": "boolean" },
                "hasPreviousPage": { "type": "boolean" }
            }
        }),
    );
}

/// A monitor name: no control character (Unicode Cc) and at least one character that is not
/// white space (as Rust's `char::is_whitespace` has it).
const NAME_PATTERN: &str = "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\u0000-\\u0020\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\u0000-\\u001f\\u007f-\\u009f]*$";

/// A webhook URL the document promises to accept: HTTP(S) in any letter case, a public-looking
/// host name (a name's addresses are checked when it is delivered to), any port, and anything
/// after the host without white space or control characters, which the server refuses (as it
/// trims the spaces around the whole). The server takes more hosts: any with a public address and
/// no credentials. With private webhook addresses allowed (development and tests), the loopback
/// address `127.0.0.1` too.
fn webhook_url_pattern(private_webhooks: bool) -> String {
    const SCHEME: &str = "[Hh][Tt][Tt][Pp][Ss]?://";
    const NAME: &str = "(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?\\.){1,3}[A-Za-z]{2,3}";
    const PORT: &str = "(?::(?:[0-9]|[1-9][0-9]{1,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?";
    const TAIL: &str = "(?:[/?#][^\\u0000-\\u0020\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*)?";
    let host = if private_webhooks {
        format!("(?:{NAME}|127\\.0\\.0\\.1)")
    } else {
        NAME.to_string()
    };
    format!("^{TRIMMED}*{SCHEME}{host}{PORT}{TAIL}{TRIMMED}*$")
}

/// A webhook's `filters`: each recognised key takes text of its form (a blank value is no
/// filter); any other key is dropped whatever its value.
fn webhook_filters() -> Value {
    // A calendar day (29 February left out: it is a day only in leap years).
    let day = format!(
        "^{TRIMMED}*(?:[0-9]{{4}}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31))?{TRIMMED}*$"
    );
    // An amount with at most its suffix's digits (below 9·10¹⁸), then ranges of one bound each
    // (a two-bound range must not have its low end above its high one, which no pattern states).
    let amount = "\\$?(?:[0-9]{1,18}|[0-9]{1,14}[kK]|[0-9]{1,11}[mM]|[0-9]{1,8}[bB])";
    let range = format!("(?:>=?{amount}|<=?{amount}|{amount}\\+|{amount}-|-{amount})");
    let ranges = format!("^{TRIMMED}*(?:{range}(?:,{range})*)?{TRIMMED}*$");
    let mut countries = comma_list(&country_values(), true);
    countries["type"] = json!("string");
    let text = json!({ "type": "string" });
    let mut properties = serde_json::Map::new();
    for key in crate::domain::webhook_filters::FILTER_KEYS {
        let schema = match key {
            "countries" => countries.clone(),
            "dateFrom" | "dateTo" => json!({ "type": "string", "pattern": day }),
            "fundingAmount" | "acquisitionAmount" => {
                json!({ "type": "string", "pattern": ranges })
            }
            _ => text.clone(),
        };
        properties.insert(key.to_string(), schema);
    }
    json!({ "type": ["object", "null"], "properties": properties })
}

/// A target the document promises to accept: a domain or a LinkedIn company or member page
/// (the server also takes website URLs and other spellings, and lists what it cannot read in
/// `invalid` beside valid entries).
const TARGET_PATTERN: &str = "^(?:(?:[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?\\.){1,3}[a-z]{2,6}|https://www\\.linkedin\\.com/(?:company|in)/[a-z0-9]+(?:-[a-z0-9]+)*)$";

/// Text with something other than white space in it and no NUL.
const NOT_BLANK: &str = "^[^\\u0000]*[^\\u0000-\\u0020\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\u0000]*$";

/// `{required: [field], properties: {field: schema}}`.
fn requiring(field: &str, schema: Value) -> Value {
    let mut properties = Map::new();
    properties.insert(field.to_string(), schema);
    json!({ "required": [field], "properties": properties })
}

/// A company of a CSV enrichment job: at least one of `company_name`, `website_url` and
/// `linkedin_url` is text that is not blank; identifiers are text without a NUL, numbers or
/// null; other fields are kept as sent.
fn csv_company() -> Value {
    // Every spelling of an identifier is read as one: text or a number, or nothing.
    let mut properties = serde_json::Map::new();
    for field in crate::domain::csv_mapping::IdField::ALL {
        for alias in field.aliases() {
            properties.insert(
                (*alias).to_string(),
                json!({ "type": ["string", "number", "null"], "pattern": "^[^\\u0000]*$" }),
            );
        }
    }
    // A number is read as its text, which is never blank.
    let named = |field: &str| {
        requiring(
            field,
            json!({ "type": ["string", "number"], "pattern": NOT_BLANK }),
        )
    };
    json!({
        "type": "object",
        "properties": properties,
        "anyOf": [named("company_name"), named("website_url"), named("linkedin_url")]
    })
}

/// The properties of the request bodies as the server checks them: lengths, counts, the
/// vocabularies of their lists, and `null` only where it is accepted.
fn constrain_bodies(doc: &mut Value, private_webhooks: bool) {
    let signal_types = json!({
        "type": "array", "minItems": 1,
        "items": { "type": "string", "enum": ["funding_round", "acquisition", "job_change", "hiring"] }
    });
    let event_types = json!({
        "type": "array",
        "items": { "type": "string", "enum": crate::service::webhooks::EVENT_TYPES }
    });
    let name =
        json!({ "type": "string", "minLength": 1, "maxLength": 255, "pattern": NAME_PATTERN });
    let url_pattern = webhook_url_pattern(private_webhooks);
    let url = json!({ "type": "string", "maxLength": 500, "pattern": url_pattern });
    let monitor_url = json!({
        "type": ["string", "null"], "maxLength": 500,
        "pattern": optional(&url_pattern)
    });
    let entries =
        json!({ "type": ["array", "null"], "maxItems": 500, "items": { "type": "string" } });
    let filters = webhook_filters();
    let patches: [(&str, &str, Value); 20] = [
        ("CreateWebhookBody", "filters", filters.clone()),
        ("UpdateWebhookBody", "filters", filters),
        ("CreateMonitorBody", "webhook_url", monitor_url.clone()),
        ("UpdateMonitorBody", "webhook_url", monitor_url),
        ("RemoveTargetsBody", "targets", entries.clone()),
        ("RemoveTargetsBody", "target_ids", entries),
        ("CreateMonitorBody", "name", name.clone()),
        ("CreateMonitorBody", "signal_types", signal_types.clone()),
        ("UpdateMonitorBody", "name", name),
        ("UpdateMonitorBody", "signal_types", signal_types),
        ("UpdateMonitorBody", "active", json!({ "type": "boolean" })),
        ("CreateWebhookBody", "endpoint_url", url.clone()),
        ("CreateWebhookBody", "event_types", event_types.clone()),
        ("UpdateWebhookBody", "endpoint_url", url),
        ("UpdateWebhookBody", "event_types", event_types),
        ("UpdateWebhookBody", "active", json!({ "type": "boolean" })),
        (
            "UpdateWebhookBody",
            "rotate_secret",
            json!({ "type": "boolean" }),
        ),
        (
            "AddTargetsBody",
            "targets",
            json!({
                "type": "array", "minItems": 1, "maxItems": 500,
                "items": { "type": "string", "maxLength": 253, "pattern": TARGET_PATTERN }
            }),
        ),
        (
            "CreateJobBody",
            "companies",
            json!({
                "type": "array", "minItems": 1, "maxItems": 1000, "items": csv_company()
            }),
        ),
        (
            "CreateJobBody",
            "timeout",
            json!({ "type": ["integer", "null"], "minimum": 1, "maximum": 30 }),
        ),
    ];
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    // A multipart upload takes no form field but its four (the server names the stranger).
    if let Some(form) = schemas.get_mut("UploadForm") {
        form["additionalProperties"] = json!(false);
    }
    // At least one entry; at most 500 in all (a sum no schema keyword states: the description
    // says it and the server answers 400 past it).
    if let Some(remove) = schemas.get_mut("RemoveTargetsBody") {
        let one_of = |field: &str| requiring(field, json!({ "type": "array", "minItems": 1 }));
        remove["anyOf"] = json!([one_of("targets"), one_of("target_ids")]);
        remove["description"] = json!(
            "Targets to remove by value (as sent or normalized) and/or by id: 1 to 500 entries in all."
        );
    }
    for (schema, property, constrained) in patches {
        let Some(slot) = schemas
            .get_mut(schema)
            .and_then(|s| s.get_mut("properties"))
            .and_then(|p| p.get_mut(property))
        else {
            continue;
        };
        let description = slot.get("description").cloned();
        *slot = constrained;
        if let Some(description) = description {
            slot["description"] = description;
        }
    }
}

/// Each JSON 2xx body becomes `{success: true, data: <body>, meta, pagination?}`; a page list's
/// 200 gets its body.
fn wrap_success_bodies(responses: &mut Map<String, Value>, page_list: bool, record: Option<&str>) {
    for (status, response) in responses.iter_mut() {
        if !status.starts_with('2') {
            continue;
        }
        let Some(response) = response.as_object_mut() else {
            continue;
        };
        let data = response
            .get("content")
            .and_then(|c| c.get("application/json"))
            .and_then(|c| c.get("schema"))
            .cloned();
        let envelope = match (data, page_list) {
            (_, true) => json!({
                "type": "object",
                "required": ["success", "data", "meta", "pagination"],
                "properties": {
                    "success": { "type": "boolean", "enum": [true] },
                    "data": { "type": "array", "items": record.map_or_else(
                        || json!({ "type": "object" }),
                        |name| json!({ "$ref": format!("#/components/schemas/{name}") })
                    ) },
                    "meta": { "$ref": "#/components/schemas/Meta" },
                    "pagination": { "$ref": "#/components/schemas/PagePagination" }
                }
            }),
            (Some(data), false) => json!({
                "type": "object",
                "required": ["success", "data", "meta"],
                "properties": {
                    "success": { "type": "boolean", "enum": [true] },
                    "data": data,
                    "meta": { "$ref": "#/components/schemas/Meta" },
                    "pagination": { "type": "object" }
                }
            }),
            (None, false) => continue,
        };
        response.insert(
            "content".into(),
            json!({ "application/json": { "schema": envelope } }),
        );
    }
}

/// The error answers any operation can give, where the annotations leave them out: 400 (an
/// unknown query parameter, a malformed body), 404 (an id naming nothing), 413 (a body over
/// 1 MiB), 401, 403, 429 and 500.
fn add_error_answers(responses: &mut Map<String, Value>, has_body: bool, has_path_id: bool) {
    let mut answers = vec![
        (
            "400",
            "A parameter or body value is refused; the message names it",
        ),
        ("401", "Missing or invalid API key"),
        ("403", "Subscription expired"),
        ("429", "Rate limit exceeded; Retry-After says when to retry"),
        (
            "500",
            "Unexpected server error; the cause is logged, not shown",
        ),
    ];
    if has_path_id {
        answers.push(("404", "Not found"));
    }
    if has_body {
        answers.push(("413", "Body over 1 MiB"));
    }
    for (status, description) in answers {
        responses.entry(status).or_insert_with(|| {
            json!({
                "description": description,
                "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/ErrorBody" }
                } }
            })
        });
    }
}

/// The enum, range and default of a query parameter the handlers check, by name.
fn constrain_parameter(parameter: &mut Value, operation: &str) {
    if parameter.get("in").and_then(Value::as_str) != Some("query") {
        return;
    }
    let name = parameter
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let Some(schema) = constraint(&name, operation).or_else(|| without_nul(parameter)) else {
        return;
    };
    if let Some(p) = parameter.as_object_mut() {
        p.insert("schema".into(), schema);
    }
}

/// A free-text parameter: any text without a NUL character (refused everywhere).
fn without_nul(parameter: &Value) -> Option<Value> {
    let schema = parameter.get("schema")?;
    (schema.get("type") == Some(&json!("string")) && schema.get("pattern").is_none())
        .then(|| json!({ "type": "string", "pattern": "^[^\\u0000]*$" }))
}

fn enumerated(values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values })
}

fn integer(min: i64, max: i64, default: Option<i64>) -> Value {
    let mut schema = json!({ "type": "integer", "minimum": min, "maximum": max });
    if let Some(d) = default {
        schema["default"] = json!(d);
    }
    schema
}

const BOOLEAN: &[&str] = &["true", "false"];

/// One character of what the server trims off a query value (Unicode `White_Space`, as Rust's
/// `str::trim`; not `\s`, which also takes characters the server keeps).
const TRIMMED: &str =
    "[\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

/// One of `values`, or empty (taken as absent).
fn comma_one(values: &[&str]) -> Value {
    let mut with_empty = vec![""];
    with_empty.extend_from_slice(values);
    enumerated(&with_empty)
}

/// The signal type of a signal list operation.
fn list_kind(operation: &str) -> Option<SignalType> {
    match operation {
        "getFundingSignals" => Some(SignalType::FundingRound),
        "getHiringSignals" => Some(SignalType::Hiring),
        "getAcquisitionSignals" => Some(SignalType::Acquisition),
        "getJobChangeSignals" => Some(SignalType::JobChange),
        _ => None,
    }
}

/// A comma-separated list of `values` (any spacing); empty when `empty` (the parameter is then
/// taken as absent).
fn comma_list(values: &[&str], empty: bool) -> Value {
    let alternatives = values
        .iter()
        .map(|v| regex_escape(v))
        .collect::<Vec<_>>()
        .join("|");
    let list = format!("(?:{alternatives})(?:,(?:{alternatives}))*");
    let pattern = if empty {
        // The server trims a query value and reads a blank one as absent.
        format!("^{TRIMMED}*(?:{list})?{TRIMMED}*$")
    } else {
        format!("^{list}$")
    };
    json!({ "type": "string", "pattern": pattern })
}

fn regex_escape(value: &str) -> String {
    value
        .chars()
        .flat_map(|c| {
            let special = "\\.+*?()|[]{}^$-&#/ ".contains(c);
            special.then_some('\\').into_iter().chain([c])
        })
        .collect()
}

/// `^(?:…)?$` of an anchored `^…$` pattern: the same, or empty.
fn optional(pattern: &str) -> String {
    let inner = pattern.trim_start_matches('^').trim_end_matches('$');
    format!("^(?:{inner})?$")
}

/// The investor type groups.
fn investor_types() -> Vec<&'static str> {
    crate::service::investors::TYPE_GROUPS
        .iter()
        .map(|(name, _)| *name)
        .collect()
}

/// The ids of a people vocabulary.
fn vocabulary(entries: &[(&'static str, &[&str])]) -> Vec<&'static str> {
    entries.iter().map(|(id, _)| *id).collect()
}

/// Every country code and region shortcut a country filter takes (names are accepted too).
fn country_values() -> Vec<&'static str> {
    let mut values: Vec<&str> = crate::domain::countries::REGION_SHORTCUTS.to_vec();
    values.extend(crate::domain::countries::country_codes());
    values
}

const DATE: &str =
    r#"{ "type": "string", "anyOf": [{ "format": "date" }, { "format": "date-time" }] }"#;
const DOMAIN: &str = "^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,12}$";

fn constraint(name: &str, operation: &str) -> Option<Value> {
    let signal_list = PAGE_LISTS.contains(&operation) && operation != "getCompanies";
    let kind = list_kind(operation);
    Some(match name {
        "linkedin_url" if operation == "searchPeople" => json!({
            "type": "string", "pattern": "^https://www\\.linkedin\\.com/in/[a-z0-9]+(?:-[a-z0-9]+)*$"
        }),
        // Empty: the first page (a client passing back a null cursor).
        "cursor" if operation == "listWebhookDeliveries" => json!({
            "type": "string",
            "pattern": optional(crate::http::webhooks::deliveries::CURSOR_PATTERN)
        }),
        "cursor" if operation == "getCSVEnrichmentJob" => json!({
            "type": "string",
            "pattern": optional(crate::service::enrichment::views::CURSOR_PATTERN)
        }),
        "sort_by" if operation == "getCompanies" => {
            let names: Vec<&str> = crate::http::companies::SORTS
                .iter()
                .map(|(n, _)| *n)
                .collect();
            json!({ "type": "string", "enum": names, "default": "name" })
        }
        "sort_by" if kind.is_some() => {
            let kind = kind?;
            let names = crate::http::signals::filters::sort_names(kind);
            let default = if kind == SignalType::Hiring {
                "created_at"
            } else {
                "occurred_at"
            };
            json!({ "type": "string", "enum": names, "default": default })
        }
        "dateFrom" | "dateTo" | "open_as_of" | "funding_date_from" | "funding_date_to" => {
            serde_json::from_str(DATE).ok()?
        }
        "countries"
        | "exclude_countries"
        | "job_countries"
        | "company_countries"
        | "acquirer_countries"
        | "exclude_acquirer_countries"
        | "exclude_company_countries" => comma_list(&country_values(), true),
        "round" | "funding_rounds" => comma_list(crate::domain::vocabulary::ROUND_TYPES, true),
        "round_flavor" => comma_list(crate::domain::vocabulary::ROUND_FLAVORS, true),
        "verification_status" => comma_list(crate::domain::vocabulary::VERIFICATION_STATUSES, true),
        "subcategories" if operation == "getFundingSignals" => {
            comma_list(crate::domain::vocabulary::SUBCATEGORIES, true)
        }
        "applicants" => comma_list(crate::domain::vocabulary::APPLICANT_RANGES, true),
        "team_size" => comma_list(crate::domain::vocabulary::TEAM_SIZES, true),
        "states" => comma_list(&crate::domain::us_states::state_codes(), true),
        "company_domain" | "exclude_company_domain" | "domain" => {
            json!({ "type": "string", "maxLength": 253, "pattern": DOMAIN })
        }
        "company_linkedin_url" | "companyLinkedinUrl" | "linkedin_url" => json!({
            "type": "string", "pattern": "^https://www\\.linkedin\\.com/company/[a-z0-9]+(?:-[a-z0-9]+)*$"
        }),
        "personLinkedinUrl" | "person_linkedin_url" => json!({
            "type": "string", "pattern": "^(?:https://www\\.linkedin\\.com/in/[a-z0-9]+(?:-[a-z0-9]+)*)?$"
        }),
        "limit" if operation == "searchPeople" => integer(1, 100, Some(100)),
        "sort_by" if operation == "getInvestors" => {
            let names: Vec<&str> = crate::http::signals::investors::SORTS
                .iter()
                .map(|(n, _)| *n)
                .collect();
            json!({ "type": "string", "enum": names, "default": "created_at" })
        }
        "type" if operation == "getInvestors" => comma_list(&investor_types(), true),
        "categories" if operation == "getInvestors" => {
            let mut list = comma_list(&investor_types(), true);
            let piped = list["pattern"].as_str().map(|p| p.replace(',', "\\|"));
            if let Some(pattern) = piped {
                list["pattern"] = json!(pattern);
            }
            list
        }
        "ticket_size_min" | "ticket_size_max" => integer(0, i64::MAX, None),
        "country" if operation == "searchPeople" => comma_list(&country_values(), true),
        "function" => comma_list(&vocabulary(crate::service::people::FUNCTIONS), true),
        "seniority" => comma_list(&vocabulary(crate::service::people::SENIORITIES), true),
        "company_size" => {
            let bands: Vec<&str> = crate::service::people::SIZE_BANDS
                .iter()
                .map(|(b, _, _)| *b)
                .collect();
            comma_list(&bands, true)
        }
        "signal_type" => comma_list(crate::service::people::SIGNAL_TYPES, true),
        "signal_date_range" => json!({
            "type": "string", "pattern": crate::http::people::WINDOW_PATTERN, "default": "12m"
        }),
        "include_former" => json!({ "type": "string", "enum": ["false"], "default": "false" }),
        "page" if PAGE_LISTS.contains(&operation) => {
            integer(1, crate::http::signals::params::MAX_PAGE, Some(1))
        }
        "limit" if PAGE_LISTS.contains(&operation) => integer(1, 100, Some(20)),
        "limit" if operation == "listTargets" => integer(1, 200, Some(100)),
        "limit" if operation == "listWebhooks" => integer(1, 100, Some(100)),
        "limit" => integer(1, 100, Some(50)),
        "offset" => integer(0, i64::MAX, Some(0)),
        "status" if operation == "listTargets" => enumerated(&["resolved", "pending"]),
        "status" if operation == "listWebhookDeliveries" => {
            enumerated(&["pending", "done", "failed"])
        }
        "timeout" if operation == "createCSVEnrichmentJob" => integer(1, 30, Some(30)),
        "wait" if operation == "createCSVEnrichmentJob" => enumerated(BOOLEAN),
        "sort_order" => json!({ "type": "string", "enum": ["asc", "desc"], "default": "desc" }),
        "count" => enumerated(BOOLEAN),
        "filter_version" => enumerated(&["1", "2"]),
        "date_preset" if signal_list => {
            enumerated(&crate::domain::date_preset::DatePreset::ALL.map(|p| p.as_str()))
        }
        "founded_year_min" | "founded_year_max" if signal_list => integer(1700, 2100, None),
        "founded_year_min" | "founded_year_max" => integer(1800, i64::MAX, None),
        "employee_count_min" | "employee_count_max" | "amount_min" | "amount_max" => {
            integer(0, i64::MAX, None)
        }
        "include_expired"
        | "exclude_staffing_agencies"
        | "count_companies"
        | "include_total"
        | "workflow_evidence"
        | "enrich_on_miss"
        | "enrich_wait" => enumerated(BOOLEAN),
        "description" if operation == "getHiringSignals" => json!({
            "type": "string",
            "maxLength": crate::domain::keyword_query::MAX_QUERY_CHARS,
            "pattern": "^[^\\u0000]*$"
        }),
        "posted_min_days_ago" => integer(0, 3650, None),
        "max_company_postings" => integer(1, 100, None),
        "min_distinct_titles" => integer(2, 100, None),
        "enrich_timeout" => integer(1, 30, Some(10)),
        "headcount_growth_min" => json!({ "type": "number", "minimum": -10000, "maximum": 10000 }),
        "headcount_growth_window" => {
            json!({ "type": "string", "enum": ["1m", "3m", "6m", "9m", "12m"], "default": "12m" })
        }
        "work_mode" => enumerated(&["remote", "hybrid", "onsite"]),
        "role_logic" => json!({ "type": "string", "enum": ["and", "or"], "default": "and" }),
        "business_model" => enumerated(&["fitness_wellness_operators"]),
        "role_scope" => enumerated(&["software"]),
        "funding_investor_type" => enumerated(&["vc", "pe"]),
        "investor_type" => enumerated(&["vc", "pe", "angel", "corporate", "other"]),
        "date_basis" => enumerated(&[
            "occurred",
            "discovered",
            "occurred_at",
            "discovered_at",
            "announced",
        ]),
        // Read as absent when empty.
        "source" if operation == "getJobChangeSignals" => {
            comma_one(crate::domain::vocabulary::JOB_CHANGE_SOURCES)
        }
        "currency" if operation == "getFundingSignals" => {
            comma_one(crate::domain::vocabulary::FUNDING_CURRENCIES)
        }
        "currency" if operation == "getAcquisitionSignals" => {
            comma_one(crate::domain::vocabulary::ACQUISITION_CURRENCIES)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_body_is_wrapped_in_the_envelope_and_errors_are_added() {
        let mut doc = json!({
            "paths": { "/x/{id}": { "put": {
                "operationId": "putX",
                "requestBody": {},
                "parameters": [{ "name": "count", "in": "query", "schema": { "type": "string" } }],
                "responses": { "200": { "description": "ok", "content": {
                    "application/json": { "schema": { "$ref": "#/components/schemas/X" } }
                } } }
            } } }
        });
        describe_the_wire(&mut doc, false);
        let op = &doc["paths"]["/x/{id}"]["put"];
        let body = &op["responses"]["200"]["content"]["application/json"]["schema"];
        assert_eq!(body["properties"]["data"]["$ref"], "#/components/schemas/X");
        assert_eq!(body["required"], json!(["success", "data", "meta"]));
        for status in ["400", "401", "403", "404", "413", "429", "500"] {
            assert!(op["responses"].get(status).is_some(), "{status}");
        }
        assert_eq!(
            op["parameters"][0]["schema"]["enum"],
            json!(["true", "false"])
        );
        assert!(doc["components"]["schemas"]["Meta"].is_object());
    }
}
