//! A dashboard visitor over plain HTTP: keeps the session cookie itself, follows no redirect
//! (tests assert on each 303), and reads sign-in links from the app's mail dir.

use std::path::Path;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, LOCATION, SET_COOKIE};

use super::TestApp;

/// How long a test waits for a sign-in e-mail.
const MAIL_DEADLINE: Duration = Duration::from_secs(15);

/// One visitor of the dashboard, with or without a session.
pub struct Visitor<'a> {
    pub app: &'a TestApp,
    client: reqwest::Client,
    /// `sw_session=…`, once signed in.
    pub cookie: Option<String>,
}

/// An answer read whole.
#[derive(Debug)]
pub struct Page {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: String,
}

impl Page {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Where a redirect points.
    pub fn location(&self) -> Option<&str> {
        self.header(LOCATION.as_str())
    }

    /// The `Set-Cookie` header of the session cookie.
    pub fn session_cookie(&self) -> Option<&str> {
        self.headers
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("sw_session="))
    }

    /// The CSRF token the page's forms carry.
    pub fn csrf(&self) -> String {
        let marker = "name=\"csrf\" value=\"";
        let start = self.body.find(marker).expect("a form with a CSRF token") + marker.len();
        let end = self.body[start..].find('"').expect("end of the token") + start;
        self.body[start..end].to_string()
    }

    /// Asserts that the page shows `text`.
    #[track_caller]
    pub fn assert_shows(&self, text: &str) {
        assert!(
            self.body.contains(text),
            "page ({}) does not show {text:?}:\n{}",
            self.status,
            self.body
        );
    }
}

impl<'a> Visitor<'a> {
    /// A visitor without a session.
    pub fn new(app: &'a TestApp) -> Visitor<'a> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        Visitor {
            app,
            client,
            cookie: None,
        }
    }

    /// A visitor signed in as `email` through the e-mailed link.
    pub async fn signed_in(app: &'a TestApp, email: &str) -> Visitor<'a> {
        let mut visitor = Visitor::new(app);
        let before = mails_to(app.mail_dir(), email).len();
        let asked = visitor.post("/app/login", &[("email", email)]).await;
        assert_eq!(asked.status, 200, "{}", asked.body);
        let link = wait_for_link(app.mail_dir(), email, before + 1).await;
        visitor.open_link(&link).await;
        visitor
    }

    /// Opens a sign-in link and keeps the session cookie it sets.
    pub async fn open_link(&mut self, link: &str) -> Page {
        let page = self.get_url(link).await;
        assert_eq!(page.status, 303, "{}", page.body);
        let cookie = page.session_cookie().expect("a session cookie");
        let pair = cookie.split(';').next().unwrap().to_string();
        self.cookie = Some(pair);
        page
    }

    /// GET a dashboard path.
    pub async fn get(&self, path: &str) -> Page {
        self.get_url(&format!("{}{path}", self.app.base)).await
    }

    /// GET an absolute URL.
    pub async fn get_url(&self, url: &str) -> Page {
        self.send(self.client.get(url)).await
    }

    /// POST a form (as a browser sends it) to a dashboard path.
    pub async fn post(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body = serde_urlencoded(fields);
        let request = self
            .client
            .post(format!("{}{path}", self.app.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        self.send(request).await
    }

    /// POST a body of the given content type to a dashboard path.
    pub async fn post_raw(&self, path: &str, content_type: &str, body: String) -> Page {
        let request = self
            .client
            .post(format!("{}{path}", self.app.base))
            .header("content-type", content_type)
            .body(body);
        self.send(request).await
    }

    /// POST a form with the CSRF token of `page` added.
    pub async fn submit(&self, page: &Page, path: &str, fields: &[(&str, &str)]) -> Page {
        let token = page.csrf();
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        self.post(path, &all).await
    }

    async fn send(&self, mut request: reqwest::RequestBuilder) -> Page {
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.expect("request reaches the service");
        Page {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            body: response.text().await.expect("body"),
        }
    }
}

/// `application/x-www-form-urlencoded` text of the fields.
pub fn serde_urlencoded(fields: &[(&str, &str)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        out.append_pair(name, value);
    }
    out.finish()
}

/// The e-mails in `dir` addressed to `email`, decoded enough to read links.
pub fn mails_to(dir: &Path, email: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut mails: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            Some((e.file_name().to_string_lossy().into_owned(), text))
        })
        .filter(|(_, text)| text.contains(&format!("To: {email}\r\n")))
        .collect();
    mails.sort();
    mails
        .into_iter()
        .map(|(_, text)| text.replace("=\r\n", ""))
        .collect()
}

/// The sign-in link in an e-mail.
pub fn link_in(mail: &str) -> String {
    let start = mail.find("http").expect("a link");
    let end = mail[start..]
        .find(char::is_whitespace)
        .map_or(mail.len(), |n| start + n);
    let link = mail[start..end].to_string();
    assert!(link.contains("/app/login/"), "{link}");
    link
}

/// Waits until `count` e-mails reached `email` and returns the link of the last one.
pub async fn wait_for_link(dir: &Path, email: &str, count: usize) -> String {
    let deadline = Instant::now() + MAIL_DEADLINE;
    loop {
        let mails = mails_to(dir, email);
        if mails.len() >= count {
            return link_in(mails.last().expect("a mail"));
        }
        assert!(
            Instant::now() < deadline,
            "no sign-in e-mail reached {email} in time"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
