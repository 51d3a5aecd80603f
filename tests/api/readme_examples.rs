//! The README's examples run as pasted. Every shell block marked `<!-- example -->` is run with
//! bash, in order and in one shell (a block may use what an earlier one set), against
//! `signalwatch serve --demo`, after the `BASE=… KEY=… ADMIN_TOKEN=…` line the demo prints, as
//! the README tells the reader to paste it. Any failing command fails the test (`set -e`, and
//! the examples call `curl -fsS`, which fails on an HTTP error).

use std::process::Command;

use crate::support::demo::Demo;

/// The marker line before a shell block that must run.
const MARKER: &str = "<!-- example -->";

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
