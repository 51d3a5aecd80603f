//! `signalwatch serve`: the API server and workers in one process (or one role of them).

use clap::Args;
use tokio_util::sync::CancellationToken;

use super::{demo_feed, demo_seed, logging};
use crate::app::Application;
use crate::config::{Config, Secret};
use crate::store::Db;
use crate::store::serving_lock::{BULK_LOAD_TOOK_OVER, hold_while_serving, keep_holding};

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub config: Config,
    /// On an empty database, create a demo team and print its API key and example requests
    #[arg(long)]
    pub demo: bool,
}

/// Starts the service and runs until SIGINT or SIGTERM.
pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    logging::init(&args.config.log, "info", args.config.log_format);
    // Listening before the build: a signal during migrations stops the process right after
    // them instead of killing it in the middle.
    let shutdown = CancellationToken::new();
    tokio::spawn(stop_on_signal(Signals::listen()?, shutdown.clone()));
    let mut config = effective_config(&args);
    if config.role == crate::config::Role::Worker {
        super::priority::lower(config.worker_niceness);
    }
    // The demo prints a request that fires a signal through the admin API: it needs a token.
    let generated_token = args.demo && config.admin_token.is_none();
    if generated_token {
        config.admin_token = Some(Secret(generate_admin_token()));
    }
    let app = Application::build(config.clone()).await?;
    // Held until the process ends (and taken again should its PostgreSQL session end): no
    // import loads this database in bulk meanwhile.
    let serving = hold_while_serving(app.db())
        .await?
        .ok_or_else(|| anyhow::anyhow!(BULK_LOAD_RUNNING))?;
    let base = app
        .local_addr()
        .map(|a| format!("http://{a}"))
        .unwrap_or_default();
    if args.demo {
        let public_base = match &config.public_url {
            Some(url) if !url.trim().is_empty() => config.public_base(),
            _ => base.clone(),
        };
        let setting = demo_seed::Setting {
            base: &base,
            public_base: &public_base,
            admin_token: config.admin_token.as_ref().map_or("", |t| t.0.as_str()),
            generated_token,
            private_webhooks: config.allow_private_webhooks,
        };
        if demo_seed::is_empty(app.db()).await {
            demo_seed::seed(app.services(), &setting).await?;
        } else {
            demo_seed::print_not_empty(&setting);
        }
        tokio::spawn(demo_feed::live_feed(app.db().clone(), shutdown.clone()));
    } else {
        print_first_run_hint(app.db()).await;
    }
    match app.local_addr() {
        Some(addr) => tracing::info!(%addr, role = ?args.config.role, "signalwatch listening"),
        None => tracing::info!(role = ?args.config.role, "signalwatch workers running"),
    }
    let held = tokio::spawn(keep_holding(app.db().clone(), serving, shutdown.clone()));
    let ran = app.run(shutdown.clone()).await;
    shutdown.cancel();
    let kept = held.await.unwrap_or(true);
    ran?;
    anyhow::ensure!(kept, BULK_LOAD_TOOK_OVER);
    Ok(())
}

/// Why a server does not start beside a bulk load.
const BULK_LOAD_RUNNING: &str = "an import is loading this database in bulk: start the server \
     once it has ended (a server running beside it could lose what it accepts)";

/// The configuration `serve` runs with: under `--demo`, whose data names made-up domains, no
/// website is looked up unless `SIGNALWATCH_RESEARCH_FETCH` says so.
fn effective_config(args: &ServeArgs) -> Config {
    let mut config = args.config.clone();
    if args.demo && config.research_fetch.is_none() {
        config.research_fetch = Some(false);
    }
    config
}

/// A random admin token for a demo run that has none.
fn generate_admin_token() -> String {
    use rand::Rng;
    let bytes: [u8; 18] = rand::rng().random();
    format!("demo-admin-{}", hex::encode(bytes))
}

/// The stop signals, registered: SIGINT and SIGTERM (Ctrl-C elsewhere).
struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn listen() -> std::io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }
}

/// Cancels `shutdown` at the first stop signal.
async fn stop_on_signal(mut signals: Signals, shutdown: CancellationToken) {
    #[cfg(unix)]
    tokio::select! {
        _ = signals.interrupt.recv() => {}
        _ = signals.terminate.recv() => {}
    }
    #[cfg(not(unix))]
    {
        let _ = &mut signals;
        let _ = tokio::signal::ctrl_c().await;
    }
    tracing::info!("stop signal received: draining");
    shutdown.cancel();
}

async fn print_first_run_hint(db: &Db) {
    if demo_seed::is_empty(db).await {
        println!(
            "No teams yet. Create one (it prints the team's API key):\n  \
             signalwatch admin team create --name \"Acme\" --owner-email you@example.com\n\
             or start with generated data: signalwatch serve --demo"
        );
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn fetches(args: &[&str]) -> bool {
        let cli = Cli::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .expect("valid arguments");
        effective_config(&cli.serve).research_fetches()
    }

    #[test]
    fn the_demo_looks_no_website_up_unless_asked() {
        assert!(fetches(&[]));
        assert!(!fetches(&["--demo"]));
        assert!(fetches(&["--demo", "--research-fetch", "true"]));
        assert!(!fetches(&["--research-fetch", "false"]));
    }
}
