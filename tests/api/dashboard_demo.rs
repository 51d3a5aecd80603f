//! `serve --demo` prints a dashboard sign-in link for the demo team's owner beside the API key,
//! and the link opens a session.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::TestApp;
use crate::support::dashboard::Visitor;

/// Generating and loading the demo data set takes a while on a loaded machine.
const DEMO_DEADLINE: Duration = Duration::from_secs(300);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_demo_prints_a_sign_in_link_next_to_the_api_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database_url = format!("sqlite://{}", dir.path().join("demo.db").display());
    let output = dir.path().join("out.txt");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let listen = format!("127.0.0.1:{port}");
    let _server = Stopped(
        Command::new(env!("CARGO_BIN_EXE_signalwatch"))
            .args([
                "serve",
                "--demo",
                "--listen",
                &listen,
                "--database-url",
                &database_url,
            ])
            .args(["--log", "warn", "--mail-dir"])
            .arg(dir.path().join("mail"))
            .stdout(std::fs::File::create(&output).expect("output file"))
            .stderr(Stdio::null())
            .spawn()
            .expect("signalwatch starts"),
    );

    let deadline = Instant::now() + DEMO_DEADLINE;
    let printed = loop {
        let text = std::fs::read_to_string(&output).unwrap_or_default();
        if text.contains("Try (bash):") {
            break text;
        }
        assert!(Instant::now() < deadline, "no demo output in time:\n{text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let key_line = printed
        .lines()
        .position(|l| l.contains("API key") && l.contains("(shown once)"));
    let link_line = printed.lines().position(|l| l.contains("sign-in link"));
    assert!(
        key_line.is_some() && link_line == key_line.map(|n| n + 1),
        "{printed}"
    );
    let base = format!("http://{listen}");
    let link = printed
        .split_whitespace()
        .find(|word| word.starts_with(&format!("{base}/app/login/")))
        .expect("a sign-in link")
        .to_string();

    let app = TestApp::attach(base, &database_url);
    let mut visitor = Visitor::new(&app);
    visitor.open_link(&link).await;
    let monitors = visitor.get("/app/monitors").await;
    assert_eq!(monitors.status, 200);
    monitors.assert_shows("demo@signalwatch.local");
}

/// The demo server, stopped when the test ends, however it ends.
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
