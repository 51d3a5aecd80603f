//! A local stand-in for the public sources research and the collectors read: company websites
//! and the Greenhouse, Lever and Ashby board APIs, served in their real shapes from loopback.
//! Each path answers what the test scripted (a page, a board, an error status, a redirect, a
//! hang, a page after a delay); an unscripted path is a 404, as an unknown board is. Every
//! request is recorded with its headers, and a page with an ETag answers 304 to a request that
//! names it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Where every service a test starts looks for websites and job boards unless the test points
/// it at [`Sources`]: a closed port on loopback, so nothing ever leaves the machine (and website
/// look-ups are off, so tests that do not ask for them see targets as before).
pub const OFFLINE_SOURCES: [(&str, &str); 5] = [
    (
        "--research-url-template",
        "http://127.0.0.1:9/sites/{domain}/",
    ),
    ("--research-fetch", "false"),
    ("--greenhouse-url", "http://127.0.0.1:9"),
    ("--lever-url", "http://127.0.0.1:9"),
    ("--ashby-url", "http://127.0.0.1:9"),
];

/// What a path answers.
#[derive(Debug, Clone)]
pub enum Page {
    /// 200 with this content type and body, and an ETag when given.
    Body {
        content_type: &'static str,
        body: Vec<u8>,
        etag: Option<String>,
    },
    /// This status with a short body.
    Status(u16),
    /// 302 to this location.
    Redirect(String),
    /// Never answers.
    Hang,
    /// This page, after this long.
    Slow(std::time::Duration, Box<Page>),
}

impl Page {
    /// A JSON document.
    pub fn json(body: impl Into<String>) -> Page {
        Page::Body {
            content_type: "application/json",
            body: body.into().into_bytes(),
            etag: None,
        }
    }

    /// A JSON document with an ETag.
    pub fn json_tagged(body: impl Into<String>, etag: &str) -> Page {
        Page::Body {
            content_type: "application/json",
            body: body.into().into_bytes(),
            etag: Some(format!("\"{etag}\"")),
        }
    }

    /// An HTML page.
    pub fn html(body: impl Into<String>) -> Page {
        Page::Body {
            content_type: "text/html; charset=utf-8",
            body: body.into().into_bytes(),
            etag: None,
        }
    }
}

/// One request a source got.
#[derive(Debug, Clone)]
pub struct SourceRequest {
    pub path: String,
    pub headers: HeaderMap,
    pub at: Instant,
}

impl SourceRequest {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

#[derive(Default)]
struct Shared {
    pages: HashMap<String, Page>,
    requests: Vec<SourceRequest>,
}

/// The running sources. Stop when dropped.
pub struct Sources {
    /// `http://127.0.0.1:port`, the base URL of every source.
    pub base: String,
    shared: Arc<Mutex<Shared>>,
    stop: CancellationToken,
}

/// The example payloads of the real formats.
pub const GREENHOUSE_EXAMPLE: &str = include_str!("../../fixtures/sources/greenhouse-jobs.json");
pub const LEVER_EXAMPLE: &str = include_str!("../../fixtures/sources/lever-postings.json");
pub const ASHBY_EXAMPLE: &str = include_str!("../../fixtures/sources/ashby-job-board.json");
pub const WEBSITE_EXAMPLE: &str = include_str!("../../fixtures/sources/website.html");

impl Sources {
    /// Starts the sources with nothing scripted.
    pub async fn start() -> Sources {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let stop = CancellationToken::new();
        let router = axum::Router::new()
            .fallback(answer)
            .with_state(shared.clone());
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        Sources {
            base: format!("http://{addr}"),
            shared,
            stop,
        }
    }

    /// The settings that point a service at these sources, with website look-ups on. The
    /// sources are on loopback: the service must also allow private addresses.
    pub fn settings(&self) -> Vec<String> {
        vec![
            "--research-url-template".into(),
            format!("{}/sites/{{domain}}/", self.base),
            "--research-fetch".into(),
            "true".into(),
            "--greenhouse-url".into(),
            self.base.clone(),
            "--lever-url".into(),
            self.base.clone(),
            "--ashby-url".into(),
            self.base.clone(),
        ]
    }

    /// The settings that point a service at these sources with every other non-public address
    /// refused to research and the collectors: only these sources' own address is let through
    /// (`--private-sources`), so a redirect elsewhere on the machine is refused. The service
    /// must not allow private webhooks (that lets sources reach any private address).
    pub fn settings_refusing_other_private_addresses(&self) -> Vec<String> {
        let mut settings = self.settings();
        let address = self.base.trim_start_matches("http://").to_string();
        settings.extend(["--private-sources".to_string(), address]);
        settings
    }

    /// Scripts what `path` answers (without its query).
    pub fn serve(&self, path: &str, page: Page) {
        self.lock().pages.insert(path.to_string(), page);
    }

    /// Scripts the home page of `domain`.
    pub fn website(&self, domain: &str, page: Page) {
        self.serve(&format!("/sites/{domain}/"), page);
    }

    /// The path of a board's API.
    pub fn board_path(provider: &str, token: &str) -> String {
        match provider {
            "greenhouse" => format!("/v1/boards/{token}/jobs"),
            "lever" => format!("/v0/postings/{token}"),
            "ashby" => format!("/posting-api/job-board/{token}"),
            other => panic!("no such provider {other}"),
        }
    }

    /// Scripts a board of `provider`.
    pub fn board(&self, provider: &str, token: &str, page: Page) {
        self.serve(&Sources::board_path(provider, token), page);
    }

    /// Every request to `path`, in order.
    pub fn requests_to(&self, path: &str) -> Vec<SourceRequest> {
        self.lock()
            .requests
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<SourceRequest> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Sources {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn answer(State(shared): State<Arc<Mutex<Shared>>>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    let headers = request.headers().clone();
    let page = {
        let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.requests.push(SourceRequest {
            path: path.clone(),
            headers: headers.clone(),
            at: Instant::now(),
        });
        shared.pages.get(&path).cloned()
    };
    let page = match page {
        Some(Page::Slow(after, page)) => {
            tokio::time::sleep(after).await;
            Some(*page)
        }
        page => page,
    };
    let response = Response::builder();
    match page {
        None => status(404, r#"{"ok": false, "error": "Document not found"}"#),
        Some(Page::Status(code)) => status(code, "source error"),
        Some(Page::Hang) => std::future::pending().await,
        Some(Page::Slow(..)) => status(500, "a slow page inside a slow page"),
        Some(Page::Redirect(location)) => response
            .status(StatusCode::FOUND)
            .header("location", location)
            .body(Body::empty())
            .expect("response"),
        Some(Page::Body {
            content_type,
            body,
            etag,
        }) => {
            let asked = headers.get("if-none-match").and_then(|v| v.to_str().ok());
            if let Some(etag) = &etag
                && asked == Some(etag.as_str())
            {
                return response
                    .status(StatusCode::NOT_MODIFIED)
                    .header("etag", etag)
                    .body(Body::empty())
                    .expect("response");
            }
            let mut response = response.status(200).header("content-type", content_type);
            if let Some(etag) = etag {
                response = response.header("etag", etag);
            }
            response.body(Body::from(body)).expect("response")
        }
    }
}

fn status(code: u16, body: &'static str) -> Response {
    Response::builder()
        .status(code)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("response")
}

/// A Greenhouse board of `count` generated jobs, ids `first..first+count`.
pub fn greenhouse_board(token: &str, first: u64, count: u64) -> String {
    let jobs: Vec<serde_json::Value> = (first..first + count)
        .map(|id| {
            serde_json::json!({
                "id": id,
                "internal_job_id": id + 1_000_000,
                "title": format!("Software Engineer {id}"),
                "updated_at": "2026-11-18T09:12:44-05:00",
                "first_published": "2026-11-17T15:02:10-05:00",
                "location": {"name": "Berlin, Germany"},
                "absolute_url": format!("https://job-boards.greenhouse.io/{token}/jobs/{id}"),
                "metadata": null,
                "language": "en",
                "content": "&lt;p&gt;Build our &lt;strong&gt;platform&lt;/strong&gt;.&lt;/p&gt;",
                "departments": [{"id": 1, "name": "Engineering", "parent_id": null, "child_ids": []}],
                "offices": [],
            })
        })
        .collect();
    serde_json::json!({"jobs": jobs, "meta": {"total": count}}).to_string()
}
