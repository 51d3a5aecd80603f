//! Headless Chromium driven through chromedriver (WebDriver), for the dashboard's journeys.
//!
//! The browser tests are ignored unless asked for (`--run-ignored all`, as CI runs them, after
//! installing chromium and chromium-driver); asked for without a browser, they fail.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// How long a page may take to show what a journey waits for.
pub const PAGE_DEADLINE: Duration = Duration::from_secs(20);

/// A browser session and the chromedriver serving it; both end when dropped.
pub struct Browser {
    pub client: Client,
    driver: Child,
}

/// The chromedriver and browser binaries, when installed.
fn installed() -> Option<(PathBuf, PathBuf)> {
    let find = |names: &[&str]| {
        names.iter().find_map(|name| {
            std::env::var_os("PATH").and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|candidate| candidate.is_file())
            })
        })
    };
    Some((
        find(&["chromedriver"])?,
        find(&["chromium", "chromium-browser", "google-chrome"])?,
    ))
}

impl Browser {
    /// Starts chromedriver and a headless browser. The browser tests are ignored unless asked
    /// for, so a run without a browser reports them as skipped; asked for without one, they fail.
    pub async fn start(test: &str) -> Browser {
        let Some((driver_bin, chromium)) = installed() else {
            panic!(
                "{test}: chromium or chromedriver is not installed \
                 (apt-get install chromium chromium-driver)"
            );
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1000"],
            }
        });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + PAGE_DEADLINE;
        let client = loop {
            let mut builder = ClientBuilder::new(HttpConnector::new());
            builder.capabilities(capabilities.clone());
            match builder.connect(&url).await {
                Ok(client) => break client,
                Err(err) => {
                    assert!(
                        Instant::now() < deadline,
                        "chromedriver did not start: {err}"
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        };
        Browser { client, driver }
    }

    /// Opens `url`.
    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.expect("page opens");
    }

    /// Types `text` into the field labelled by the element with this id.
    pub async fn fill(&self, id: &str, text: &str) {
        let field = self.client.find(Locator::Id(id)).await.expect(id);
        field.clear().await.expect("clear");
        field.send_keys(text).await.expect("typing");
    }

    /// Clicks the button showing exactly `words`.
    pub async fn press(&self, words: &str) {
        let xpath = format!("//button[normalize-space()='{words}']");
        let button = self.client.find(Locator::XPath(&xpath)).await.expect(words);
        button.click().await.expect("click");
    }

    /// Follows the link showing exactly `words`.
    pub async fn follow(&self, words: &str) {
        let xpath = format!("//a[normalize-space()='{words}']");
        let link = self.client.find(Locator::XPath(&xpath)).await.expect(words);
        link.click().await.expect("click");
    }

    /// The page's HTML now.
    pub async fn html(&self) -> String {
        self.client.source().await.expect("page source")
    }

    /// Waits until the page (reloaded between looks when `reload`) shows `text`.
    pub async fn wait_for_text(&self, text: &str, reload: bool) {
        let deadline = Instant::now() + PAGE_DEADLINE;
        loop {
            if self.html().await.contains(text) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the page never showed {text:?}:\n{}",
                self.html().await
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            if reload {
                self.client.refresh().await.expect("reload");
            }
        }
    }

    /// The path of the current page.
    pub async fn path(&self) -> String {
        self.client
            .current_url()
            .await
            .expect("url")
            .path()
            .to_string()
    }

    /// Saves a screenshot of the page as `docs/screenshots/{name}.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot dir");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
    }

    /// The session cookie the browser holds, as a `Cookie` header value.
    pub async fn session_cookie(&self) -> String {
        let cookie = self
            .client
            .get_named_cookie("sw_session")
            .await
            .expect("a session cookie");
        format!("sw_session={}", cookie.value())
    }
}

impl Browser {
    /// Ends the browser session (the browser quits), then chromedriver.
    pub async fn finish(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
