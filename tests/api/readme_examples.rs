//! The README's examples run as pasted. Every shell block marked `<!-- example -->` is run with
//! bash, in order and in one shell (a block may use what an earlier one set), against
//! `signalwatch serve --demo`, after the `BASE=… KEY=… ADMIN_TOKEN=…` line the demo prints, as
//! the README tells the reader to paste it. Any failing command fails the test (`set -e`, and
//! the examples call `curl -fsS`, which fails on an HTTP error).

use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The marker line before a shell block that must run.
const MARKER: &str = "<!-- example -->";

/// Loading the demo data set takes a while on a busy machine.
const DEMO_DEADLINE: Duration = Duration::from_secs(300);

/// The shell blocks marked as examples, in order.
fn example_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line.trim() != MARKER {
            continue;
        }
        let fence = lines.next().unwrap_or_default().trim();
        assert!(
            fence == "```sh" || fence == "```bash",
            "{MARKER} must come right before a ```sh block, not {fence:?}"
        );
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        blocks.push(body.join("\n"));
    }
    blocks
}

/// `serve --demo` as a child process, killed when dropped.
struct Demo {
    child: Child,
    stdout: std::path::PathBuf,
    stderr: std::path::PathBuf,
}

impl Demo {
    fn start(dir: &Path) -> Demo {
        let (stdout, stderr) = (dir.join("demo.out"), dir.join("demo.err"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_signalwatch"));
        command
            .args(["serve", "--demo", "--listen", "127.0.0.1:0"])
            .arg("--database-url")
            .arg(format!("sqlite://{}", dir.join("demo.db").display()))
            .arg("--mail-dir")
            .arg(dir.join("mail"))
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(File::create(&stdout).expect("stdout file"))
            .stderr(File::create(&stderr).expect("stderr file"));
        for (name, _) in std::env::vars() {
            if name.starts_with("SIGNALWATCH_") {
                command.env_remove(name);
            }
        }
        // As the README says to start it for webhooks on this machine.
        command.env("SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS", "true");
        let child = command.spawn().expect("the signalwatch binary starts");
        Demo {
            child,
            stdout,
            stderr,
        }
    }

    fn output(&self) -> (String, String) {
        (
            std::fs::read_to_string(&self.stdout).unwrap_or_default(),
            std::fs::read_to_string(&self.stderr).unwrap_or_default(),
        )
    }

    /// The `BASE=… KEY=… ADMIN_TOKEN=…` line, once the demo printed it.
    async fn settings_line(&mut self) -> String {
        let until = Instant::now() + DEMO_DEADLINE;
        loop {
            let (stdout, stderr) = self.output();
            if let Some(line) = stdout.lines().find(|l| l.trim_start().starts_with("BASE=")) {
                return line.trim().to_string();
            }
            if let Some(status) = self.child.try_wait().expect("process status") {
                panic!("the demo exited ({status}):\n{stdout}\n{stderr}");
            }
            assert!(
                Instant::now() < until,
                "the demo printed no settings line:\n{stdout}\n{stderr}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_in_the_readme_runs_as_pasted_against_the_demo() {
    let readme = include_str!("../../README.md");
    let blocks = example_blocks(readme);
    assert!(blocks.len() >= 3, "the README marks its examples");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut demo = Demo::start(dir.path());
    let settings = demo.settings_line().await;

    let mut script = String::from("set -euo pipefail\n");
    script += &settings;
    script.push('\n');
    for (n, block) in blocks.iter().enumerate() {
        script += &format!("echo '=== README example {}' >&2\n{block}\n", n + 1);
    }
    let mut command = Command::new("bash");
    command.arg("-c").arg(&script).current_dir(dir.path());
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .expect("the shell's thread")
        .expect("bash runs");

    let (demo_out, demo_err) = demo.output();
    assert!(
        output.status.success(),
        "a README example failed ({}).\n--- stdout\n{}\n--- stderr\n{}\n--- demo\n{demo_out}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        demo_err
            .lines()
            .rev()
            .take(30)
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

#[test]
fn marked_blocks_are_found_in_order_and_unmarked_ones_left_out() {
    let text = "intro\n<!-- example -->\n```sh\necho one\n```\n```sh\necho skipped\n```\n\
                <!-- example -->\n```sh\necho two\necho three\n```\n";
    assert_eq!(example_blocks(text), ["echo one", "echo two\necho three"]);
}
