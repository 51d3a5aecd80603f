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
    // Listening before the build: a signal during migrations stops the process right after
    // them instead of killing it in the middle.
    let shutdown = CancellationToken::new();
    tokio::spawn(stop_on_signal(Signals::listen()?, shutdown.clone()));
    let app = Application::build(args.config.clone()).await?;
    let base = app
        .local_addr()
        .map(|a| format!("http://{a}"))
        .unwrap_or_default();
    if args.demo {
        if demo_seed::is_empty(app.db()).await {
            let public_base = match &args.config.public_url {
                Some(url) if !url.trim().is_empty() => args.config.public_base(),
                _ => base.clone(),
            };
            demo_seed::seed(app.db(), &base, &public_base).await?;
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
