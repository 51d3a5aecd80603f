//! `signalwatch serve`: the API server and workers in one process (or one role of them).

use clap::Args;
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

use super::demo_seed;
use crate::app::Application;
use crate::config::{Config, LogFormat};
use crate::store::Db;

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
    init_logging(&args.config);
    let app = Application::build(args.config.clone()).await?;
    let base = app
        .local_addr()
        .map(|a| format!("http://{a}"))
        .unwrap_or_default();
    let shutdown = CancellationToken::new();
    if args.demo {
        if demo_seed::is_empty(app.db()).await {
            demo_seed::seed(app.db(), &base).await?;
        } else {
            println!("The database already has data: demo loading skipped.");
        }
        tokio::spawn(demo_seed::live_feed(app.db().clone(), shutdown.clone()));
    } else {
        print_first_run_hint(app.db()).await;
    }
    match app.local_addr() {
        Some(addr) => tracing::info!(%addr, role = ?args.config.role, "signalwatch listening"),
        None => tracing::info!(role = ?args.config.role, "signalwatch workers running"),
    }
    tokio::spawn(stop_on_signal(shutdown.clone()));
    app.run(shutdown).await
}

fn init_logging(config: &Config) {
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match config.log_format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

async fn stop_on_signal(shutdown: CancellationToken) {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = ctrl_c => {}
                _ = term.recv() => {}
            }
            shutdown.cancel();
            return;
        }
    }
    let _ = ctrl_c.await;
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
