//! `bench`: the load harness of BENCHMARKS.md, e.g.
//! `cargo run --release --bin bench -- --scale l --backend both`.

use clap::Parser;

#[path = "../../bench/mod.rs"]
mod harness;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The one rustls crypto provider, installed before any client is built (as in `main.rs`).
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    harness::run(harness::cli::Args::parse()).await
}
