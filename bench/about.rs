//! What was measured, and where: the signalwatch build, the machine, its load.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::cli::Args;

/// The `--signalwatch` binary, or target/release/signalwatch built now (cheap when current).
pub fn signalwatch_binary(args: &Args) -> anyhow::Result<PathBuf> {
    if let Some(path) = &args.signalwatch {
        return Ok(path.clone());
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("bench: cargo build --release --bin signalwatch");
    let status = std::process::Command::new(cargo)
        .current_dir(manifest)
        .args(["build", "--release", "--bin", "signalwatch"])
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("cargo build --release --bin signalwatch failed: {status}");
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("target"));
    Ok(target_dir.join("release").join("signalwatch"))
}

/// Which signalwatch was measured: the given binary, or the source revision it was built from.
pub fn build_description(args: &Args, signalwatch: &Path) -> String {
    if args.signalwatch.is_some() {
        let modified = std::fs::metadata(signalwatch)
            .and_then(|m| m.modified())
            .map(|t| {
                chrono::DateTime::<chrono::Utc>::from(t)
                    .format("%Y-%m-%d %H:%M UTC")
                    .to_string()
            })
            .unwrap_or_default();
        return format!("binary {} (built {modified})", signalwatch.display());
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let revision = git(&["rev-parse", "--short", "HEAD"]);
    let modified = git(&["status", "--porcelain", "--untracked-files=no"])
        .lines()
        .count();
    format!("target/release/signalwatch built from {revision} with {modified} modified file(s)")
}

/// CPUs, memory, CPU model and kernel of this machine.
pub fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!(
        "{cpus} CPUs ({model}), {:.1} GiB RAM, Linux {}; client and server share the CPUs",
        mem_kb as f64 / 1048576.0,
        kernel.trim()
    )
}

/// The load average (1, 5, 15 minutes) now, as /proc/loadavg gives it.
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}
