//! The webhook HTTP client: one POST attempt to a customer endpoint, safe against SSRF.
//!
//! The service's SSRF rules: non-public destinations are refused again at every connection,
//! redirects are never followed (a 3xx is the answer, and the worker counts it as a
//! failure) and every attempt is bounded in time and memory. How each way around the checks is
//! closed:
//! - a literal IP host (in any spelling the URL parser reads as an IP) is judged before any I/O,
//!   because the HTTP client connects to a literal IP without asking the DNS resolver;
//! - a host name is resolved only by [`PublicOnlyResolver`], so the connection can only go to an
//!   address that was checked in the same lookup (DNS rebinding gains nothing);
//! - proxies (also the ones named by `HTTP_PROXY` and friends) are disabled, since a proxy would
//!   resolve and connect on our behalf;
//! - redirects are disabled, since a redirect target is a new URL nobody has checked.
//!
//! [`WebhookClient::post`] never fails: whatever happens becomes a [`PostOutcome`] the worker
//! records as one attempt.

use std::error::Error as StdError;
use std::io;
use std::time::Duration;

use anyhow::Context as _;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use tokio::time::{Instant, timeout_at};

use crate::delivery::guard::{DestinationError, PublicOnlyResolver};
use crate::domain::address::is_public_ip;
use crate::domain::webhook_url::{WebhookUrl, parse_webhook_url};

/// Most response-body bytes read per attempt; the rest is never read, so a huge or endless body
/// costs neither memory nor time.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// Characters of the response body kept in a [`PostOutcome`] (and so in the delivery log).
pub const MAX_RESPONSE_CHARS: usize = 1_000;

/// The `User-Agent` of every delivery, so receivers can tell our requests apart.
const USER_AGENT: &str = concat!("signalwatch-webhooks/", env!("CARGO_PKG_VERSION"));

/// What one POST attempt came to.
#[derive(Debug, Clone, PartialEq)]
pub struct PostOutcome {
    /// HTTP status when the endpoint answered; None on a network error / refusal / timeout.
    pub status: Option<u16>,
    /// First 1,000 characters (chars, not bytes; lossy UTF-8) of the response body; empty when
    /// none.
    pub body: String,
    /// The raw `Retry-After` header value when the endpoint sent one.
    pub retry_after: Option<String>,
    /// Why no HTTP answer was obtained (connection refused, timeout, refused destination, ...);
    /// None when the endpoint answered.
    pub error: Option<String>,
    /// Wall time of the attempt.
    pub duration: Duration,
}

impl PostOutcome {
    /// True when the endpoint answered with a 2xx status.
    pub fn is_success(&self) -> bool {
        self.status
            .is_some_and(|status| (200..300).contains(&status))
    }

    /// An attempt that got no HTTP answer.
    fn failed(error: String, started: Instant) -> Self {
        Self {
            status: None,
            body: String::new(),
            retry_after: None,
            error: Some(error),
            duration: started.elapsed(),
        }
    }
}

/// The HTTP client of webhook delivery. Cheap to clone (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct WebhookClient {
    http: reqwest::Client,
    allow_private: bool,
    /// Non-public `ip:port` destinations a GET of research or a collector may still reach.
    private_sources: Vec<std::net::SocketAddr>,
    timeout: Duration,
}

impl WebhookClient {
    /// A client that refuses non-public destinations unless `allow_private`
    /// (`SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS`); `timeout` bounds each whole attempt (connect,
    /// send, and reading the response body).
    pub fn new(allow_private: bool, timeout: Duration) -> anyhow::Result<WebhookClient> {
        let http = reqwest::Client::builder()
            .dns_resolver(PublicOnlyResolver::new(allow_private))
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            // One call is one attempt: the worker logs and schedules every retry itself.
            .retry(reqwest::retry::never())
            .user_agent(USER_AGENT)
            .build()
            .context("building the webhook HTTP client")?;
        Ok(WebhookClient {
            http,
            allow_private,
            private_sources: Vec::new(),
            timeout,
        })
    }

    /// The bound on each whole attempt.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// POSTs `body` (already serialized JSON) with the given headers (plus
    /// `Content-Type: application/json` and a User-Agent `signalwatch-webhooks/<version>`).
    /// Never panics, never returns Err: every failure is a [`PostOutcome`] with `error` set.
    ///
    /// Once the status line has arrived the endpoint has answered: the body is read only for
    /// the delivery log, up to [`MAX_RESPONSE_BYTES`], its end, or the attempt's deadline,
    /// whichever comes first.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(String, String)],
        body: Vec<u8>,
    ) -> PostOutcome {
        let started = Instant::now();
        let deadline = started + self.timeout;
        let url = match self.destination(url) {
            Ok(url) => url,
            Err(error) => return PostOutcome::failed(error, started),
        };
        let headers = match request_headers(headers) {
            Ok(headers) => headers,
            Err(error) => return PostOutcome::failed(error, started),
        };
        let request = self
            .http
            .post(url.as_url().clone())
            .headers(headers)
            .body(body);
        let mut response = match timeout_at(deadline, request.send()).await {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => return PostOutcome::failed(describe(error), started),
            Err(_) => return PostOutcome::failed(timed_out(self.timeout), started),
        };
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        PostOutcome {
            status: Some(response.status().as_u16()),
            body: read_body_prefix(&mut response, deadline).await,
            retry_after,
            error: None,
            duration: started.elapsed(),
        }
    }

    /// The URL when a delivery may connect to it; else why not.
    fn destination(&self, input: &str) -> Result<WebhookUrl, String> {
        let url = parse_webhook_url(input, self.allow_private).map_err(|error| {
            format!(
                "destination refused: {}",
                error.message_for("the webhook URL")
            )
        })?;
        // parse_webhook_url already judges literal IPs; this keeps the one check the resolver
        // cannot do right here, next to the connection, whatever the parser's rules become.
        if let Some(ip) = url.ip()
            && !self.allow_private
            && !is_public_ip(ip)
        {
            return Err(format!("destination refused: {ip} is not a public address"));
        }
        Ok(url)
    }
}

/// The caller's headers plus `Content-Type: application/json`, or why one is unusable.
fn request_headers(headers: &[(String, String)]) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::with_capacity(headers.len() + 1);
    for (name, value) in headers {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("invalid request header name {name:?}"))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| format!("invalid value for request header {name}"))?;
        map.append(name, value);
    }
    map.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(map)
}

/// Reads at most [`MAX_RESPONSE_BYTES`] of the body before `deadline` and keeps its first
/// [`MAX_RESPONSE_CHARS`] characters. A body error ends the read: what arrived is kept.
async fn read_body_prefix(response: &mut reqwest::Response, deadline: Instant) -> String {
    let mut bytes = Vec::new();
    while bytes.len() < MAX_RESPONSE_BYTES {
        let Ok(Ok(Some(chunk))) = timeout_at(deadline, response.chunk()).await else {
            break;
        };
        let room = MAX_RESPONSE_BYTES - bytes.len();
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
    // Cutting at a byte limit may split a character; 64 KiB hold far more than 1,000
    // characters, so the replacement character it leaves never survives the cut below.
    String::from_utf8_lossy(&bytes)
        .chars()
        .take(MAX_RESPONSE_CHARS)
        .collect()
}

fn timed_out(timeout: Duration) -> String {
    let limit = if timeout.subsec_millis() == 0 {
        format!("{}s", timeout.as_secs())
    } else {
        format!("{}ms", timeout.as_millis())
    };
    format!("timed out after {limit}")
}

/// The attempt's error text: the first cause the delivery log can name plainly, else the
/// whole chain of causes.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut cause: Option<&(dyn StdError + 'static)> = Some(&error);
    while let Some(current) = cause {
        if let Some(destination) = current.downcast_ref::<DestinationError>() {
            return match destination {
                DestinationError::NoPublicAddress { .. } => {
                    format!("destination refused: {destination}")
                }
                DestinationError::Timeout { .. } | DestinationError::Lookup { .. } => {
                    destination.to_string()
                }
            };
        }
        if let Some(io_error) = current.downcast_ref::<io::Error>()
            && let Some(text) = plain_io_error(io_error.kind())
        {
            return text.to_owned();
        }
        cause = current.source();
    }
    chain(&error)
}

fn plain_io_error(kind: io::ErrorKind) -> Option<&'static str> {
    match kind {
        io::ErrorKind::ConnectionRefused => Some("connection refused"),
        io::ErrorKind::ConnectionReset => Some("connection reset by the endpoint"),
        io::ErrorKind::ConnectionAborted => Some("connection aborted"),
        io::ErrorKind::HostUnreachable => Some("host unreachable"),
        io::ErrorKind::NetworkUnreachable => Some("network unreachable"),
        io::ErrorKind::TimedOut => Some("connection timed out"),
        _ => None,
    }
}

/// "outer: inner: innermost", skipping a cause that repeats its parent's text.
fn chain(error: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut cause = error.source();
    while let Some(current) = cause {
        let text = current.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        cause = current.source();
    }
    parts.join(": ")
}

pub mod fetch;
#[cfg(test)]
mod ssrf_corpus;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
