//! The `signalwatch` command line: one subcommand per role or operator task.

mod admin;
mod database;
mod demo_data;
mod demo_feed;
mod demo_seed;
mod import;
mod logging;
mod priority;
mod serve;

use clap::{Parser, Subcommand};

/// Account monitoring, business signals and company enrichment.
#[derive(Debug, Parser)]
#[command(name = "signalwatch", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Parsed once per process, so the size of `serve`'s settings costs nothing.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Run the API server and background workers
    Serve(serve::ServeArgs),
    /// Operator tasks: teams, members and keys
    Admin(admin::AdminArgs),
    /// Load NDJSON files of companies, people and signals
    Import(import::ImportArgs),
    /// Write a deterministic synthetic data set as NDJSON import files
    DemoData(demo_data::DemoDataArgs),
}

/// Runs the parsed command line to completion.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        match cli.command {
            Command::Serve(args) => serve::run(args).await,
            Command::Admin(args) => {
                logging::init_for_operator();
                admin::run(args).await
            }
            Command::Import(args) => {
                logging::init_for_operator();
                import::run(args).await
            }
            Command::DemoData(args) => demo_data::run(args),
        }
    })
}
