//! Dashboard sign-in: e-mailed one-use links, the session cookie, sign-out, the redirects of a
//! visitor without a session, the protective headers and the rate limit on link requests.

use std::process::Command;

use crate::each_backend;
use crate::support::dashboard::{Visitor, mails_to, wait_for_link};
use crate::support::{Backend, TestApp};

each_backend!(
    a_member_signs_in_with_the_e_mailed_link_and_signs_out_again,
    a_visitor_without_a_session_is_sent_to_the_sign_in_page,
    a_sign_in_link_works_only_once,
    an_unknown_address_gets_the_same_page_and_no_e_mail,
    sign_in_link_requests_for_one_address_are_rate_limited,
    admin_login_link_prints_a_link_that_opens_a_session,
    an_https_public_url_makes_the_session_cookie_secure,
    signing_out_needs_the_form_token,
);

const OWNER: &str = "owner@example.com";

async fn a_member_signs_in_with_the_e_mailed_link_and_signs_out_again(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let mut visitor = Visitor::new(&app);

    let form = visitor.get("/app/login").await;
    assert_eq!(form.status, 200);
    form.assert_shows("<label for=\"email\">Email</label>");
    form.assert_shows("Send sign-in link");
    assert_eq!(
        form.header("content-security-policy"),
        Some("default-src 'self'")
    );
    assert_eq!(form.header("x-frame-options"), Some("DENY"));

    let asked = visitor.post("/app/login", &[("email", OWNER)]).await;
    assert_eq!(asked.status, 200);
    asked.assert_shows("a sign-in link is on its way");
    let link = wait_for_link(app.mail_dir(), OWNER, 1).await;
    let mail = mails_to(app.mail_dir(), OWNER).pop().unwrap();
    assert!(
        mail.contains("Subject: [signalwatch] Sign-in link\r\n"),
        "{mail}"
    );
    assert!(
        link.starts_with(&format!("{}/app/login/", app.base)),
        "{link}"
    );

    let opened = visitor.open_link(&link).await;
    assert_eq!(opened.location(), Some("/app/monitors"));
    let cookie = opened.session_cookie().unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");

    let monitors = visitor.get("/app/monitors").await;
    assert_eq!(monitors.status, 200, "{}", monitors.body);
    monitors.assert_shows("<h1>Monitors</h1>");
    monitors.assert_shows(OWNER);
    assert_eq!(
        monitors.header("content-security-policy"),
        Some("default-src 'self'")
    );
    assert_eq!(monitors.header("x-frame-options"), Some("DENY"));

    let out = visitor.submit(&monitors, "/app/logout", &[]).await;
    assert_eq!(out.status, 303);
    assert_eq!(out.location(), Some("/app/login"));
    assert!(out.session_cookie().unwrap().contains("Max-Age=0"));
    let after = visitor.get("/app/monitors").await;
    assert_eq!(after.status, 303, "the old cookie no longer works");
    assert_eq!(after.location(), Some("/app/login"));
}

async fn a_visitor_without_a_session_is_sent_to_the_sign_in_page(backend: Backend) {
    let app = TestApp::start(backend).await;
    let mut visitor = Visitor::new(&app);
    for path in [
        "/app",
        "/app/monitors",
        "/app/monitors/new",
        "/app/keys",
        "/app/no-such-page",
    ] {
        let page = visitor.get(path).await;
        assert_eq!(page.status, 303, "{path}");
        assert_eq!(page.location(), Some("/app/login"), "{path}");
        assert_eq!(page.header("x-frame-options"), Some("DENY"), "{path}");
    }
    let post = visitor.post("/app/monitors", &[("name", "x")]).await;
    assert_eq!(post.status, 303);
    assert_eq!(post.location(), Some("/app/login"));

    visitor.cookie = Some("sw_session=forged".into());
    let forged = visitor.get("/app/monitors").await;
    assert_eq!(forged.status, 303);
}

async fn a_sign_in_link_works_only_once(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let visitor = Visitor::new(&app);
    visitor.post("/app/login", &[("email", OWNER)]).await;
    let link = wait_for_link(app.mail_dir(), OWNER, 1).await;

    let first = visitor.get_url(&link).await;
    assert_eq!(first.status, 303);
    assert!(first.session_cookie().is_some());
    let second = visitor.get_url(&link).await;

    assert_eq!(second.status, 400);
    assert!(second.session_cookie().is_none());
    second.assert_shows("invalid, already used or expired");
    let made_up = visitor
        .get_url(&format!("{}/app/login/{}", app.base, "0".repeat(64)))
        .await;
    assert_eq!(made_up.status, 400);
    assert!(made_up.session_cookie().is_none());
}

async fn an_unknown_address_gets_the_same_page_and_no_e_mail(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let visitor = Visitor::new(&app);
    let stranger = "stranger@example.com";

    let unknown = visitor.post("/app/login", &[("email", stranger)]).await;
    let known = visitor.post("/app/login", &[("email", OWNER)]).await;

    assert_eq!(unknown.status, known.status);
    assert_eq!(unknown.body.replace(stranger, OWNER), known.body);
    wait_for_link(app.mail_dir(), OWNER, 1).await;
    assert!(mails_to(app.mail_dir(), stranger).is_empty());
    let all = std::fs::read_dir(app.mail_dir()).unwrap().count();
    assert_eq!(all, 1, "only the member's e-mail was sent");
}

async fn sign_in_link_requests_for_one_address_are_rate_limited(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let visitor = Visitor::new(&app);
    for n in 0..5 {
        let page = visitor.post("/app/login", &[("email", OWNER)]).await;
        assert_eq!(page.status, 200, "request {n}");
    }

    let limited = visitor
        .post("/app/login", &[("email", "Owner@Example.com")])
        .await;

    assert_eq!(limited.status, 429);
    assert!(limited.header("retry-after").is_some());
    limited.assert_shows("Too many sign-in links");
    let other = visitor
        .post("/app/login", &[("email", "other@example.com")])
        .await;
    assert_eq!(other.status, 200, "another address has its own limit");
    wait_for_link(app.mail_dir(), OWNER, 5).await;
}

async fn admin_login_link_prints_a_link_that_opens_a_session(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let (ok, printed) = login_link(&app, OWNER, &app.base);
    assert!(ok, "{printed}");
    let link = printed
        .split_whitespace()
        .find(|word| word.contains("/app/login/"))
        .expect("a printed link");
    assert!(
        link.starts_with(&format!("{}/app/login/", app.base)),
        "{link}"
    );

    let mut visitor = Visitor::new(&app);
    visitor.open_link(link).await;
    assert_eq!(visitor.get("/app/monitors").await.status, 200);

    let (ok, _) = login_link(&app, "nobody@example.com", &app.base);
    assert!(!ok, "an unknown address is an error");
}

async fn an_https_public_url_makes_the_session_cookie_secure(backend: Backend) {
    let public = "https://dashboard.example.com";
    let app = TestApp::start_with(backend, &["--public-url", public]).await;
    app.create_team().await;
    let visitor = Visitor::new(&app);
    visitor.post("/app/login", &[("email", OWNER)]).await;
    let link = wait_for_link(app.mail_dir(), OWNER, 1).await;
    assert!(
        link.starts_with("https://dashboard.example.com/app/login/"),
        "{link}"
    );

    let opened = visitor.get_url(&link.replace(public, &app.base)).await;

    assert_eq!(opened.status, 303);
    let cookie = opened.session_cookie().unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
}

async fn signing_out_needs_the_form_token(backend: Backend) {
    let app = TestApp::start(backend).await;
    app.create_team().await;
    let visitor = Visitor::signed_in(&app, OWNER).await;

    let refused = visitor.post("/app/logout", &[("csrf", "wrong")]).await;

    assert_eq!(refused.status, 403);
    assert_eq!(visitor.get("/app/monitors").await.status, 200);
}

/// Runs `signalwatch admin login-link` against the app's database.
fn login_link(app: &TestApp, email: &str, public: &str) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_signalwatch"))
        .args([
            "admin",
            "--database-url",
            &app.database_url,
            "--public-url",
            public,
        ])
        .args(["login-link", "--email", email])
        .output()
        .expect("signalwatch runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}
