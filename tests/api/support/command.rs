//! The real `signalwatch` binary run as a command (`admin …`, `import …`), to completion or in
//! the background, with none of the caller's `SIGNALWATCH_*` settings.

use std::path::Path;
use std::process::{Child, Command, Stdio};

/// What a command did: whether it exited 0, and what it printed.
#[derive(Debug)]
pub struct CommandRun {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

impl CommandRun {
    /// stdout as JSON (the `admin` commands print their result so).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|err| {
            panic!(
                "stdout is not JSON ({err}): {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }
}

/// Runs `signalwatch ARGS…` in `dir` (the test's own directory, so that nothing is written
/// elsewhere) and waits for it to end.
pub async fn signalwatch(dir: &Path, args: &[&str]) -> CommandRun {
    start_signalwatch(dir, args).finish().await
}

/// A `signalwatch` command started and not yet waited for.
pub struct RunningCommand {
    child: Child,
}

/// Starts `signalwatch ARGS…` in `dir`, as [`signalwatch`] does, and returns at once.
pub fn start_signalwatch(dir: &Path, args: &[&str]) -> RunningCommand {
    start_signalwatch_with(dir, args, &[])
}

/// Runs `signalwatch ARGS…` as [`signalwatch`] does, with the environment variables `env` set.
pub async fn signalwatch_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> CommandRun {
    start_signalwatch_with(dir, args, env).finish().await
}

/// Starts `signalwatch ARGS…` as [`start_signalwatch`] does, with the environment variables
/// `env` set (every other `SIGNALWATCH_` variable of the test run is removed).
pub fn start_signalwatch_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> RunningCommand {
    let mut command = Command::new(env!("CARGO_BIN_EXE_signalwatch"));
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, _) in std::env::vars() {
        if name.starts_with("SIGNALWATCH_") {
            command.env_remove(name);
        }
    }
    command.envs(env.iter().copied());
    RunningCommand {
        child: command.spawn().expect("the signalwatch binary runs"),
    }
}

impl RunningCommand {
    /// Waits for the command to end.
    pub async fn finish(self) -> CommandRun {
        let child = self.child;
        let output = tokio::task::spawn_blocking(move || child.wait_with_output())
            .await
            .expect("the command's thread")
            .expect("the command's output");
        CommandRun {
            success: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}
