//! Requests to EDGAR: every one names the requester in its `User-Agent` (the SEC refuses
//! anonymous clients) and waits its turn, so one process stays under the SEC's request rate.
//! Every request goes to the configured EDGAR: a feed link outside its archives is refused, and
//! a redirect is followed only on the same host, so what the feed says never sends a request
//! anywhere else (say, to an address inside the operator's network).

use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

use super::pass::NAME;
use crate::telemetry;

/// Time between two requests of one process: 8 a second, under the SEC's 10.
pub const SPACING: Duration = Duration::from_millis(125);
/// Bound on one request, body included.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Largest document read; Form D documents and the feed are a few kilobytes.
const MAX_BODY: usize = 4 * 1024 * 1024;
/// Redirects followed on EDGAR's own host.
const MAX_REDIRECTS: usize = 3;

/// EDGAR as the collector reads it.
#[derive(Debug)]
pub struct Edgar {
    base_url: String,
    http: reqwest::Client,
    next: Mutex<Instant>,
    spacing: Duration,
}

impl Edgar {
    /// A client of the EDGAR at `base_url` (`https://www.sec.gov` in production) that sends
    /// `user_agent` with every request, [`SPACING`] apart.
    pub fn new(base_url: &str, user_agent: &str) -> anyhow::Result<Edgar> {
        Edgar::with_spacing(base_url, user_agent, SPACING)
    }

    /// The same with requests `spacing` apart (zero against a local benchmark EDGAR).
    pub fn with_spacing(
        base_url: &str,
        user_agent: &str,
        spacing: Duration,
    ) -> anyhow::Result<Edgar> {
        let base = url::Url::parse(base_url)?;
        let origin = (
            base.host_str().map(str::to_string),
            base.port_or_known_default(),
        );
        let same_host = reqwest::redirect::Policy::custom(move |attempt| {
            let to = (
                attempt.url().host_str().map(str::to_string),
                attempt.url().port_or_known_default(),
            );
            if to == origin && attempt.previous().len() < MAX_REDIRECTS {
                attempt.follow()
            } else {
                attempt.stop()
            }
        });
        let http = reqwest::Client::builder()
            .user_agent(user_agent)
            .timeout(TIMEOUT)
            .redirect(same_host)
            .no_proxy()
            .build()?;
        Ok(Edgar {
            base_url: base_url.trim_end_matches('/').to_string(),
            http,
            next: Mutex::new(Instant::now()),
            spacing,
        })
    }

    /// The latest-filings feed of form type D.
    pub fn feed_url(&self) -> String {
        format!(
            "{}/cgi-bin/browse-edgar?action=getcurrent&type=D&output=atom",
            self.base_url
        )
    }

    /// A document of a filing. The feed's links name the public host; they are read from the
    /// configured base instead, so a mirror (or a test server) serves the whole pass. A link
    /// outside EDGAR's archives is refused, never followed.
    pub fn document_url(&self, url: &str) -> Result<String, String> {
        match url.find("/Archives/") {
            Some(at) => Ok(format!("{}{}", self.base_url, &url[at..])),
            None => Err(format!(
                "the feed links outside EDGAR's archives ({url}): not read"
            )),
        }
    }

    /// GETs `url` in this process's turn; the body of a 200 answer, else why not.
    pub async fn get(&self, url: &str) -> Result<Vec<u8>, String> {
        let asked = std::time::Instant::now();
        self.wait_turn().await;
        let turn = std::time::Instant::now();
        telemetry::collector_stage(NAME, "wait", turn - asked);
        let body = self.fetch(url).await;
        telemetry::collector_stage(NAME, "fetch", turn.elapsed());
        body
    }

    async fn fetch(&self, url: &str) -> Result<Vec<u8>, String> {
        let mut response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| format!("GET {url}: {}", error_chain(&e)))?;
        let status = response.status();
        if status == reqwest::StatusCode::FORBIDDEN {
            return Err(format!(
                "GET {url}: 403 Forbidden (the SEC refuses requests whose User-Agent does not \
                 name the requester with a contact address)"
            ));
        }
        if !status.is_success() {
            return Err(format!("GET {url}: {status}"));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("GET {url}: {}", error_chain(&e)))?
        {
            if body.len() + chunk.len() > MAX_BODY {
                return Err(format!(
                    "GET {url}: the document is larger than {MAX_BODY} bytes"
                ));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    async fn wait_turn(&self) {
        let mut next = self.next.lock().await;
        let now = Instant::now();
        if *next > now {
            tokio::time::sleep_until(*next).await;
        }
        *next = Instant::now().max(*next) + self.spacing;
    }
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
