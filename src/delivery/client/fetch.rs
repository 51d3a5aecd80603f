//! GET through the SSRF-safe client, for research and the collectors: the same refusal of
//! non-public destinations at every connection, plus what reading a public page needs — a few
//! redirects, each target checked like the first URL before any connection, conditional-request
//! headers, and a cap on the body that ends the read instead of buffering what is too large.

use reqwest::StatusCode;
use reqwest::header::{
    ETAG, HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, LOCATION,
    USER_AGENT,
};
use tokio::time::{Instant, timeout_at};

use std::net::SocketAddr;
use std::time::Duration;

use super::{WebhookClient, describe, timed_out};
use crate::config::Config;
use crate::domain::webhook_url::{WebhookUrl, parse_webhook_url};

/// What a GET asks for beyond the URL.
#[derive(Debug, Clone, Default)]
pub struct FetchRequest {
    /// Most redirects followed (each target checked again); 0 = a 3xx is the answer.
    pub max_redirects: usize,
    /// Most body bytes accepted: a longer body is an error, not a cut page.
    pub max_bytes: usize,
    /// The validators of the last answer, sent as `If-None-Match` / `If-Modified-Since`.
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// `Accept` header.
    pub accept: Option<&'static str>,
}

/// A page or document as fetched.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The final URL (after redirects).
    pub url: String,
    pub status: u16,
    /// The body; empty on a 304.
    pub body: Vec<u8>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

impl Fetched {
    /// True on 304 Not Modified: the validators sent still hold.
    pub fn not_modified(&self) -> bool {
        self.status == StatusCode::NOT_MODIFIED.as_u16()
    }
}

/// The `User-Agent` of research and collector requests.
const FETCH_USER_AGENT: &str = concat!("signalwatch/", env!("CARGO_PKG_VERSION"));

impl WebhookClient {
    /// GETs `url`, following at most `request.max_redirects` redirects. Every URL, the first
    /// and each redirect target, passes the same destination check as a webhook (a private
    /// address is refused unless allowed) and resolves only to checked addresses. The whole
    /// exchange, redirects and body included, is bounded by the client's timeout. `Err` says
    /// why no usable answer came (refused, timed out, too large, too many redirects, network).
    pub async fn get(&self, url: &str, request: &FetchRequest) -> Result<Fetched, String> {
        let deadline = Instant::now() + self.timeout;
        let mut current = url.to_string();
        let mut redirects = 0;
        loop {
            let destination = self.checked(&current)?;
            let mut builder = self
                .http
                .get(destination.as_url().clone())
                .headers(conditional_headers(request));
            if let Some(accept) = request.accept {
                builder = builder.header(reqwest::header::ACCEPT, accept);
            }
            let response = match timeout_at(deadline, builder.send()).await {
                Ok(Ok(response)) => response,
                Ok(Err(error)) => return Err(describe(error)),
                Err(_) => return Err(timed_out(self.timeout)),
            };
            let status = response.status();
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                let Some(location) = header_text(response.headers(), LOCATION) else {
                    return Err(format!("HTTP {} without a Location", status.as_u16()));
                };
                if redirects >= request.max_redirects {
                    return Err(format!("more than {} redirects", request.max_redirects));
                }
                redirects += 1;
                current = self.redirect_target(&destination, &location)?;
                continue;
            }
            let etag = header_text(response.headers(), ETAG);
            let last_modified = header_text(response.headers(), LAST_MODIFIED);
            let body = read_capped(response, deadline, request.max_bytes, self.timeout).await?;
            return Ok(Fetched {
                url: current,
                status: status.as_u16(),
                body,
                etag,
                last_modified,
            });
        }
    }
}

impl WebhookClient {
    /// The client research and the collectors read public sources with: private addresses
    /// refused unless `SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS`, except the `ip:port` pairs of
    /// `SIGNALWATCH_PRIVATE_SOURCES`.
    pub fn for_sources(config: &Config, timeout: Duration) -> anyhow::Result<WebhookClient> {
        let mut client = WebhookClient::new(config.allow_private_webhooks, timeout)?;
        client.private_sources = config.private_sources.0.clone();
        Ok(client)
    }

    /// The URL when this client may connect to it, else why not. A literal address named in
    /// the private sources passes (the client connects to a literal address without a lookup).
    fn checked(&self, url: &str) -> Result<WebhookUrl, String> {
        if let Ok(url) = parse_webhook_url(url, true)
            && let Some(ip) = url.ip()
            && self
                .private_sources
                .contains(&SocketAddr::new(ip, url.port()))
        {
            return Ok(url);
        }
        self.destination(url)
            .map_err(|error| error.replace("the webhook URL", "the URL"))
    }

    /// Where a redirect from `from` to `location` leads, checked as the first URL was.
    fn redirect_target(&self, from: &WebhookUrl, location: &str) -> Result<String, String> {
        let target = from
            .as_url()
            .join(location)
            .map_err(|_| format!("redirect to an unreadable location {location:?}"))?;
        self.checked(target.as_str())
            .map(|url| url.as_url().to_string())
            .map_err(|error| format!("redirect refused: {error}"))
    }
}

fn conditional_headers(request: &FetchRequest) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(USER_AGENT, HeaderValue::from_static(FETCH_USER_AGENT));
    let validators = [
        (IF_NONE_MATCH, request.etag.as_deref()),
        (IF_MODIFIED_SINCE, request.last_modified.as_deref()),
    ];
    for (name, value) in validators {
        if let Some(value) = value.and_then(|v| HeaderValue::from_str(v).ok()) {
            headers.insert(name, value);
        }
    }
    headers
}

fn header_text(headers: &HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The whole body, unless it is longer than `max_bytes` (an error as soon as the cap is passed,
/// without reading further) or does not arrive before `deadline`.
async fn read_capped(
    mut response: reqwest::Response,
    deadline: Instant,
    max_bytes: usize,
    timeout: std::time::Duration,
) -> Result<Vec<u8>, String> {
    if response
        .content_length()
        .is_some_and(|length| length > max_bytes as u64)
    {
        return Err(format!("response larger than {max_bytes} bytes"));
    }
    let mut body = Vec::new();
    loop {
        match timeout_at(deadline, response.chunk()).await {
            Err(_) => return Err(timed_out(timeout)),
            Ok(Err(error)) => return Err(describe(error)),
            Ok(Ok(None)) => return Ok(body),
            Ok(Ok(Some(chunk))) => {
                if body.len() + chunk.len() > max_bytes {
                    return Err(format!("response larger than {max_bytes} bytes"));
                }
                body.extend_from_slice(&chunk);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public_client() -> WebhookClient {
        WebhookClient::new(false, Duration::from_secs(1)).expect("client")
    }

    #[test]
    fn every_redirect_target_is_checked_like_the_first_url() {
        let client = public_client();
        let from = parse_webhook_url("https://example.com/home", false).expect("public");
        assert_eq!(
            client.redirect_target(&from, "/careers").as_deref(),
            Ok("https://example.com/careers")
        );
        for private in [
            "http://127.0.0.1/admin",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.7/",
            "http://localhost:8080/",
        ] {
            let refused = client.redirect_target(&from, private);
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e.starts_with("redirect refused")),
                "{private}: {refused:?}"
            );
        }
    }

    #[test]
    fn a_private_source_named_in_the_settings_passes_and_its_neighbours_do_not() {
        let mut client = public_client();
        client.private_sources = vec!["127.0.0.1:8081".parse().expect("address")];
        assert!(
            client
                .checked("http://127.0.0.1:8081/v1/boards/x/jobs")
                .is_ok()
        );
        for other in [
            "http://127.0.0.1:8082/",
            "http://127.0.0.2:8081/",
            "http://localhost:8081/",
        ] {
            let refused = client.checked(other);
            assert!(
                refused.as_ref().is_err_and(|e| e.contains("refused")),
                "{other}: {refused:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_private_first_url_is_refused_before_any_connection() {
        let refused = public_client()
            .get("http://127.0.0.1:9/", &FetchRequest::default())
            .await;
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("refused")),
            "{refused:?}"
        );
    }
}
