//! `signalwatch serve`: the API server and workers in one process (or one role of them).

use clap::Args;
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

use crate::app::Application;
use crate::config::{Config, LogFormat};
use crate::operator::{self, TeamRequest};
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
    if args.demo {
        seed_demo(app.db(), &base).await?;
    } else {
        print_first_run_hint(app.db()).await;
    }
    if let Some(addr) = app.local_addr() {
        tracing::info!(%addr, role = ?args.config.role, "signalwatch listening");
    }
    let shutdown = CancellationToken::new();
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

async fn has_teams(db: &Db) -> bool {
    crate::on_db!(db, |pool| sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM teams"
    )
    .fetch_one(pool)
    .await
    .map(|n| n > 0)
    .unwrap_or(true))
}

async fn print_first_run_hint(db: &Db) {
    if !has_teams(db).await {
        println!(
            "No teams yet. Create one (it prints the team's API key):\n  \
             signalwatch admin team create --name \"Acme\" --owner-email you@example.com"
        );
    }
}

async fn seed_demo(db: &Db, base: &str) -> anyhow::Result<()> {
    if has_teams(db).await {
        println!("Database already has data; demo seeding skipped.");
        return Ok(());
    }
    let team = operator::create_team(
        db,
        TeamRequest {
            name: "Demo team".into(),
            owner_email: "demo@signalwatch.local".into(),
            ..TeamRequest::default()
        },
    )
    .await?;
    let key = team.api_key;
    println!("Demo team created. API key (shown once): {key}");
    println!("Try:");
    println!(
        "  curl -s -X POST {base}/api/v2/monitors -H 'Authorization: Bearer {key}' \
         -H 'Content-Type: application/json' \
         -d '{{\"name\":\"Competitors\",\"signal_types\":[\"funding_round\",\"hiring\"]}}'"
    );
    println!("  curl -s {base}/api/v2/monitors -H 'Authorization: Bearer {key}'");
    Ok(())
}
