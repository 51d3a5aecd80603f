//! Request extractors that turn every malformed input into a clear 4xx in the error envelope:
//! JSON bodies (size, content type, syntax, unknown fields), strict query strings and path ids.

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::error::ApiError;

/// Largest JSON body accepted by the team API.
pub const MAX_JSON_BODY: usize = 1024 * 1024;

/// A JSON request body: an object, deserialized strictly into `T`.
pub struct JsonBody<T>(pub T);

impl<T, S> FromRequest<S> for JsonBody<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        RawJson::from_request(req, state)
            .await?
            .parse()
            .map(JsonBody)
    }
}

/// A body meant as JSON, read whole (its size checked: 413) but not yet judged: [`RawJson::parse`]
/// checks its Content-Type and reads it. For handlers whose path names a resource: they look it
/// up first, so a path that names nothing is 404 whatever the body says.
pub struct RawJson {
    bytes: Bytes,
    declared_json: bool,
}

impl<S: Send + Sync> FromRequest<S> for RawJson {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let declared_json = is_json_content_type(req.headers().get(header::CONTENT_TYPE));
        let bytes = read_body(req, state).await?;
        Ok(RawJson {
            bytes,
            declared_json,
        })
    }
}

impl RawJson {
    /// The body as a JSON object deserialized strictly into `T`; 400 for a missing or non-JSON
    /// Content-Type, malformed JSON, a body that is not an object, or one that does not fit `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let bytes = self.declared_bytes()?;
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|err| ApiError::bad_request(describe_json_error(&err)))?;
        if !value.is_object() {
            return Err(ApiError::bad_request("Request body must be a JSON object"));
        }
        serde_json::from_slice(bytes)
            .map_err(|err| ApiError::bad_request(describe_json_error(&err)))
    }

    /// The bytes, once the body is declared as JSON.
    fn declared_bytes(&self) -> Result<&Bytes, ApiError> {
        if !self.declared_json {
            return Err(ApiError::bad_request(
                "Content-Type must be application/json",
            ));
        }
        Ok(&self.bytes)
    }
}

/// Reads a body that must be declared as JSON. The size comes first: a body over
/// [`MAX_JSON_BODY`] is 413 whatever its Content-Type, and only then is a missing or non-JSON
/// Content-Type refused (400).
pub async fn json_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    let raw = RawJson::from_request(req, state).await?;
    raw.declared_bytes().cloned()
}

/// Reads a whole body of at most [`MAX_JSON_BODY`] bytes, else 413: a declared Content-Length
/// over the limit is 413 whatever arrives, and a body without one is cut off as soon as it grows
/// past the limit. Either way the body is read up to the limit before the answer goes out, so a
/// client that is still sending it gets the 413 rather than a broken connection.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    let declared_too_large = declared_too_large(req.headers());
    match Bytes::from_request(req, state).await {
        _ if declared_too_large => Err(ApiError::payload_too_large()),
        Ok(bytes) => Ok(bytes),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            Err(ApiError::payload_too_large())
        }
        Err(rejection) => Err(ApiError::bad_request(format!(
            "Could not read the request body: {rejection}"
        ))),
    }
}

/// True when the request declares a Content-Length over [`MAX_JSON_BODY`].
pub fn declared_too_large(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|length| length > MAX_JSON_BODY as u64)
}

fn is_json_content_type(value: Option<&header::HeaderValue>) -> bool {
    let Some(value) = value.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let mime = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// Turns a serde_json error into a message a client can act on.
pub fn describe_json_error(err: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match err.classify() {
        Category::Syntax | Category::Eof => format!("Malformed JSON body: {err}"),
        Category::Data | Category::Io => format!("Invalid request body: {err}"),
    }
}

/// The raw query string as ordered name/value pairs.
#[derive(Debug, Clone, Default)]
pub struct QueryParams(pub Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        // No stored text holds a NUL (PostgreSQL text cannot), so no value with one can match
        // anything; refusing it keeps it away from the database.
        if let Some((name, _)) = params
            .iter()
            .find(|(k, v)| k.contains('\0') || v.contains('\0'))
        {
            return Err(ApiError::bad_request(format!(
                "Query parameter {name} contains a NUL character"
            )));
        }
        Ok(QueryParams(params))
    }
}

impl QueryParams {
    /// Refuses any parameter not in `allowed`, naming it.
    pub fn allow_only(&self, allowed: &[&str]) -> Result<(), ApiError> {
        let unknown: Vec<&str> = self
            .0
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !allowed.contains(k))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        let allowed_list = if allowed.is_empty() {
            "this endpoint takes no query parameters".to_string()
        } else {
            format!("allowed: {}", allowed.join(", "))
        };
        Err(ApiError::bad_request(format!(
            "Unknown query parameter(s): {} ({allowed_list})",
            unknown.join(", ")
        )))
    }

    /// The last value given for `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// An optional integer parameter within `min..=max`.
    pub fn int_in_range(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        match raw.trim().parse::<i64>() {
            Ok(value) if (min..=max).contains(&value) => Ok(Some(value)),
            _ if max == i64::MAX => Err(ApiError::bad_request(format!(
                "{name} must be an integer >= {min}"
            ))),
            _ => Err(ApiError::bad_request(format!(
                "{name} must be an integer between {min} and {max}"
            ))),
        }
    }
}

/// Path parameters, read as axum's `Path` reads them. One that cannot be read (percent-encoded
/// bytes that are not UTF-8) names nothing that exists: 404 in the error envelope, where axum
/// would answer a plain-text 400.
pub struct PathParams<T>(pub T);

impl<T, S> FromRequestParts<S> for PathParams<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(params)) => Ok(PathParams(params)),
            Err(PathRejection::FailedToDeserializePathParams(_)) => {
                Err(ApiError::not_found("Not found"))
            }
            // A route without the parameters its handler reads: a bug, not a client error.
            Err(rejection) => Err(ApiError::internal(rejection.body_text())),
        }
    }
}

/// A path id that must be a UUID; anything else is answered as not found.
pub fn parse_path_id(raw: &str, what: &str) -> Result<String, ApiError> {
    uuid::Uuid::parse_str(raw)
        .map(|id| id.to_string())
        .map_err(|_| ApiError::not_found(format!("{what} not found")))
}
