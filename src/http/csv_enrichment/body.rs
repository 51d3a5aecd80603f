//! Reading `POST /csv-enrichment`: a JSON body (the contract's), a raw `text/csv` body, or a
//! multipart upload with the field `file`. The options `fileName`, `wait` and `timeout` come
//! from the JSON body or the form fields, else from the query string.

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use utoipa::ToSchema;

use super::errors::invalid_company_payload;
use crate::enrichment::input::{OrderedObject, Upload};
use crate::http::error::ApiError;
use crate::http::extract::{
    QueryParams, declared_too_large, describe_json_error, json_bytes, read_body,
};

const MAX_FILE_NAME_CHARS: usize = 500;
const MAX_TIMEOUT_SECONDS: u64 = 30;

/// Body of `POST /csv-enrichment` as JSON.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateJobBody {
    /// 1-1000 company objects, each with at least one of `company_name` (aliases `companyName`,
    /// `name`), `website_url` (`websiteUrl`, `website`, `domain`) or `linkedin_url`
    /// (`linkedinUrl`, `linkedin`, `company_linkedin_url`). Other fields are kept as sent.
    #[serde(default)]
    #[schema(value_type = Vec<Object>, required = true)]
    pub companies: Option<IgnoredAny>,
    /// Label stored on the job, at most 500 characters; default `api-companies.json`.
    #[serde(rename = "fileName", alias = "file_name", default)]
    #[schema(value_type = Option<String>)]
    pub file_name: Option<Value>,
    /// Wait up to `timeout` seconds and answer with the completed results; default `false`.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub wait: Option<Value>,
    /// 1-30 seconds, default 30.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub timeout: Option<Value>,
}

/// The companies alone, each object with its fields in the order sent.
#[derive(Deserialize)]
struct CompaniesOnly {
    companies: Vec<OrderedObject>,
}

/// A multipart upload: the CSV file and the options as form fields.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    /// The CSV file, with a header row.
    #[schema(value_type = String, content_media_type = "text/csv")]
    file: Vec<u8>,
    /// Label of the job: at most 500 characters, without NUL.
    #[schema(rename = "fileName", value_type = String, required = false, max_length = 500, pattern = "^[^\\u0000]*$")]
    file_name: Option<String>,
    /// Wait for the results (default `false`): the form field's text, `true` or `false`.
    #[schema(value_type = String, required = false, pattern = "^(?:true|false)$")]
    wait: Option<String>,
    /// Seconds to wait, 1-30 (default 30).
    #[schema(value_type = i64, required = false, minimum = 1, maximum = 30)]
    timeout: Option<i64>,
}

/// How the client wants the job run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobOptions {
    pub file_name: String,
    pub wait: bool,
    pub timeout_seconds: u64,
}

/// Options as sent, before they are checked.
#[derive(Debug, Default, Clone)]
struct RawOptions {
    file_name: Option<String>,
    wait: Option<String>,
    timeout: Option<String>,
}

/// Reads and checks the whole request: the companies and the options. A body over the limit is
/// 413 before anything else about the request is looked at.
pub async fn read_request(
    req: Request,
    query: &QueryParams,
) -> Result<(Upload, JobOptions), ApiError> {
    if declared_too_large(req.headers()) {
        // Read up to the limit first, so a client still sending the body gets the answer.
        let _ = read_body(req, &()).await;
        return Err(ApiError::payload_too_large());
    }
    query.allow_only(&["fileName", "wait", "timeout"])?;
    let mut raw = RawOptions {
        file_name: query.get("fileName").map(str::to_string),
        wait: query.get("wait").map(str::to_string),
        timeout: query.get("timeout").map(str::to_string),
    };
    // Options in the query are checked whatever the body is, even where the body's own win.
    raw.clone().check(String::new())?;
    let mime = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let (upload, default_name) = match mime.as_str() {
        "text/csv" => (Upload::from_csv(&read_body(req, &()).await?)?, None),
        "multipart/form-data" => read_form(req, &mut raw).await?,
        json if json == "application/json"
            || (json.starts_with("application/") && json.ends_with("+json")) =>
        {
            let bytes = json_bytes(req, &()).await?;
            (
                read_json(&bytes, &mut raw)?,
                Some("api-companies.json".into()),
            )
        }
        _ => {
            // Read first: a body over the limit is 413 whatever it is declared as.
            read_body(req, &()).await?;
            return Err(content_type_error());
        }
    };
    let default_name = default_name.unwrap_or_else(|| "api-companies.csv".to_string());
    Ok((upload, raw.check(default_name)?))
}

fn content_type_error() -> ApiError {
    ApiError::bad_request(
        "Content-Type must be application/json, text/csv or multipart/form-data (field `file`)",
    )
}

/// The JSON body: options checked for type here, companies read with their field order.
fn read_json(bytes: &[u8], raw: &mut RawOptions) -> Result<Upload, ApiError> {
    let body: CreateJobBody = serde_json::from_slice(bytes)
        .map_err(|err| ApiError::bad_request(describe_json_error(&err)))?;
    if let Some(value) = body.file_name.filter(|v| !v.is_null()) {
        let name = value.as_str().ok_or_else(|| bad_option("fileName"))?;
        raw.file_name = Some(name.to_string());
    }
    if let Some(value) = body.wait.filter(|v| !v.is_null()) {
        let wait = value.as_bool().ok_or_else(|| bad_option("wait"))?;
        raw.wait = Some(wait.to_string());
    }
    if let Some(value) = body.timeout.filter(|v| !v.is_null()) {
        // JSON has one number type: `3.0` is the integer 3, as the schema's `integer` says.
        let timeout = value
            .as_i64()
            .or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                    .map(|f| f as i64)
            })
            .ok_or_else(|| bad_option("timeout"))?;
        raw.timeout = Some(timeout.to_string());
    }
    if body.companies.is_none() {
        return Err(invalid_company_payload("companies is required"));
    }
    let companies: CompaniesOnly = serde_json::from_slice(bytes)
        .map_err(|err| invalid_company_payload(format!("companies: {err}")))?;
    Ok(Upload::from_objects(companies.companies)?)
}

/// The multipart form: the `file` field (CSV) and optional option fields.
async fn read_form(
    req: Request,
    raw: &mut RawOptions,
) -> Result<(Upload, Option<String>), ApiError> {
    let form_error = |err: axum::extract::multipart::MultipartError| {
        if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::payload_too_large()
        } else {
            ApiError::bad_request(format!(
                "Could not read the multipart form: {}",
                err.body_text()
            ))
        }
    };
    let mut form = Multipart::from_request(req, &())
        .await
        .map_err(|rejection| ApiError::bad_request(rejection.body_text()))?;
    let mut file = None;
    while let Some(field) = form.next_field().await.map_err(form_error)? {
        let name = field.name().unwrap_or_default().to_string();
        match name.as_str() {
            "file" => {
                let uploaded_name = field.file_name().map(str::to_string);
                file = Some((field.bytes().await.map_err(form_error)?, uploaded_name));
            }
            "fileName" | "file_name" => {
                raw.file_name = Some(field.text().await.map_err(form_error)?)
            }
            "wait" => raw.wait = Some(field.text().await.map_err(form_error)?),
            "timeout" => raw.timeout = Some(field.text().await.map_err(form_error)?),
            other => {
                return Err(ApiError::bad_request(format!(
                    "Unknown form field: {other} (allowed: file, fileName, wait, timeout)"
                )));
            }
        }
    }
    let (bytes, uploaded_name) =
        file.ok_or_else(|| ApiError::bad_request("The multipart form has no field `file`"))?;
    let default_name = uploaded_name
        .filter(|n| !n.trim().is_empty())
        .map(|n| n.chars().take(MAX_FILE_NAME_CHARS).collect());
    Ok((Upload::from_csv(&bytes)?, default_name))
}

fn bad_option(name: &str) -> ApiError {
    let expected = match name {
        "wait" => "a boolean",
        "timeout" => "an integer between 1 and 30",
        _ => "a string of at most 500 characters, without NUL characters",
    };
    ApiError::bad_request(format!("{name} must be {expected}"))
}

impl RawOptions {
    /// The options, defaults filled in: `wait=false`, `timeout=30`.
    fn check(self, default_name: String) -> Result<JobOptions, ApiError> {
        let file_name = match self.file_name {
            Some(name) if name.chars().count() > MAX_FILE_NAME_CHARS || name.contains('\0') => {
                return Err(bad_option("fileName"));
            }
            Some(name) if !name.trim().is_empty() => name,
            _ => default_name,
        };
        let wait = match self.wait.as_deref().map(str::trim) {
            None => false,
            Some("true") => true,
            Some("false") => false,
            Some(_) => return Err(bad_option("wait")),
        };
        let timeout_seconds = match self.timeout.as_deref().map(str::trim) {
            None => MAX_TIMEOUT_SECONDS,
            Some(text) => text
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=MAX_TIMEOUT_SECONDS).contains(s))
                .ok_or_else(|| bad_option("timeout"))?,
        };
        Ok(JobOptions {
            file_name,
            wait,
            timeout_seconds,
        })
    }
}
