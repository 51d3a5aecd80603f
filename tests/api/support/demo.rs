//! `signalwatch serve --demo` as a child process on a fresh SQLite file in a directory of the
//! test's own, with what it printed.

use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Loading the demo data set takes a while on a busy machine.
const DEMO_DEADLINE: Duration = Duration::from_secs(300);

/// `serve --demo` as a child process, killed when dropped.
pub struct Demo {
    child: Child,
    stdout: std::path::PathBuf,
    stderr: std::path::PathBuf,
}

impl Demo {
    pub fn start(dir: &Path) -> Demo {
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

    pub fn output(&self) -> (String, String) {
        (
            std::fs::read_to_string(&self.stdout).unwrap_or_default(),
            std::fs::read_to_string(&self.stderr).unwrap_or_default(),
        )
    }

    /// The value of `name` on the settings line.
    pub async fn setting(&mut self, name: &str) -> String {
        let line = self.settings_line().await;
        line.split_whitespace()
            .find_map(|pair| pair.strip_prefix(&format!("{name}=")).map(str::to_string))
            .unwrap_or_else(|| panic!("no {name} on {line}"))
    }

    /// The domains of the companies the demo monitor watches, as printed.
    pub async fn watched_domains(&mut self) -> Vec<String> {
        self.settings_line().await;
        let (stdout, _) = self.output();
        stdout
            .lines()
            .skip_while(|l| !l.contains("watches these demo companies"))
            .skip(1)
            .take_while(|l| l.starts_with("    "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    }

    /// The `BASE=… KEY=… ADMIN_TOKEN=…` line, once the demo printed it.
    pub async fn settings_line(&mut self) -> String {
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
