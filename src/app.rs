//! Builds the whole service: database, migrations, HTTP router and background workers, all
//! stopped by one shutdown signal. Tests start the real thing on port 0 through [`Application`].

use anyhow::Context as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::collectors::Collectors;
use crate::collectors::worker::collector_loop;
use crate::config::Config;
use crate::delivery::dispatch::Dispatcher;
use crate::delivery::worker::delivery_loop;
use crate::domain::time::Clock;
use crate::http::metrics::recorder;
use crate::http::rate_limit::RateLimiter;
use crate::http::state::AppState;
use crate::ingest::group::IngestGroups;
use crate::research::lookup::Researcher;
use crate::research::worker::research_loop;
use crate::service::Services;
use crate::store::Db;

/// How long in-flight requests may take to finish after a shutdown signal.
const DRAIN_DEADLINE: Duration = Duration::from_secs(30);

/// Beyond a delivery lease, how long workers may take to stop after a shutdown signal.
const WORKER_SLACK: Duration = Duration::from_secs(5);

/// How long closing the database may wait for connections still in use at exit.
const CLOSE_DEADLINE: Duration = Duration::from_secs(5);

/// A built, not yet running, service bound to its listen address.
pub struct Application {
    state: AppState,
    listener: Option<TcpListener>,
}

impl Application {
    /// Connects and migrates the database and binds the listener (when this role serves HTTP).
    pub async fn build(mut config: Config) -> anyhow::Result<Application> {
        config.check()?;
        if config.allow_private_webhooks {
            tracing::warn!("private webhook addresses are allowed: use this only in development");
        }
        let db = Db::connect_with(&config.database.database_url, &config.pool_settings())
            .await
            .context("opening the database")?;
        db.migrate().await.context("migrating the database")?;
        crate::service::bulk_load::refuse_half_loaded(&db).await?;
        let listener = if config.role.runs_api() {
            Some(TcpListener::bind(&config.listen).await?)
        } else {
            None
        };
        if let (None, Some(addr)) = (&config.public_url, listener.as_ref()) {
            // Links name the address actually bound (the listen port may be 0).
            config.public_url = addr.local_addr().ok().map(|a| format!("http://{a}"));
        }
        let dispatcher = Arc::new(Dispatcher::new(db.clone(), &config)?);
        let redis_url = config.redis_url.as_ref().map(|s| s.0.as_str());
        let limiter = Arc::new(
            RateLimiter::connect(&db, redis_url)
                .await
                .context("setting up the rate limiter")?,
        );
        let research = Researcher::new(&config)?;
        let collectors = Collectors::new(&config)?;
        // Signal ingests arrive only through the API.
        let ingest = match config.role.runs_api() {
            true => IngestGroups::start(db.clone(), dispatcher.pressure()),
            false => IngestGroups::none(),
        };
        let services = Services {
            ingest,
            db,
            dispatcher,
            config: Arc::new(config),
            counts: Arc::default(),
            charges: Arc::default(),
            enrichment_wake: Arc::default(),
            research: Arc::new(research),
            research_wake: Arc::default(),
            collectors: Arc::new(collectors),
            clock: Clock::default(),
        };
        let state = AppState {
            services,
            limiter,
            metrics: recorder(),
        };
        Ok(Application { state, listener })
    }

    /// The bound HTTP address, when this role serves HTTP.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// A handle on this service's clock: tests move it forward to reach rules of age.
    pub fn clock(&self) -> Clock {
        self.state.clock.clone()
    }

    /// The database this service uses.
    pub fn db(&self) -> &Db {
        &self.state.db
    }

    /// The use cases' shared handles, for work the process does beside its clients (the demo).
    pub fn services(&self) -> &Services {
        &self.state.services
    }

    /// Runs the server and workers until `shutdown` is cancelled. Then, counted from that
    /// moment: the listener stops accepting and in-flight requests get [`DRAIN_DEADLINE`] to
    /// finish, while the workers let their work in flight end and be recorded or give it back
    /// (a delivery attempt ends within its lease); the database closes and this returns.
    pub async fn run(self, shutdown: CancellationToken) -> anyhow::Result<()> {
        let workers = self.spawn_workers(&shutdown);
        if self.listener.is_some() {
            tokio::spawn(warm_list_counts(
                self.state.services.clone(),
                shutdown.clone(),
            ));
        }
        let worker_deadline =
            Duration::from_millis(self.state.dispatcher.lease_ms().max(0) as u64) + WORKER_SLACK;
        let requests = async {
            let Some(listener) = self.listener else {
                return Ok(());
            };
            let served = serve(listener, self.state.clone(), &shutdown).await;
            // Should the server have stopped on an error, the workers stop with it.
            shutdown.cancel();
            served
        };
        let work = async {
            shutdown.cancelled().await;
            let all_done = async {
                for worker in workers {
                    let _ = worker.await;
                }
            };
            if tokio::time::timeout(worker_deadline, all_done)
                .await
                .is_err()
            {
                tracing::warn!("workers still busy at the shutdown deadline; their leases run out");
            }
        };
        let (served, ()) = tokio::join!(requests, work);
        if tokio::time::timeout(CLOSE_DEADLINE, self.state.db.close())
            .await
            .is_err()
        {
            tracing::warn!("database connections still in use at exit");
        }
        served
    }

    fn spawn_workers(&self, shutdown: &CancellationToken) -> Vec<JoinHandle<()>> {
        if !self.state.config.role.runs_workers() {
            return Vec::new();
        }
        let state = &self.state;
        vec![
            tokio::spawn(delivery_loop(state.dispatcher.clone(), shutdown.clone())),
            tokio::spawn(crate::enrichment::worker::enrichment_loop(
                state.db.clone(),
                state.enrichment_wake.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(research_loop(
                state.db.clone(),
                state.research.clone(),
                state.research_wake.clone(),
                Duration::from_secs(state.config.research_interval_seconds.max(1)),
                shutdown.clone(),
            )),
            tokio::spawn(collector_loop(
                state.db.clone(),
                state.collectors.clone(),
                state.dispatcher.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::delivery::digest::digest_loop(
                state.db.clone(),
                state.config.clone(),
                shutdown.clone(),
            )),
        ]
    }
}

/// Loads the list counts saved by earlier runs, recomputing those the data has moved past, in the
/// background: the process is ready and answers meanwhile.
async fn warm_list_counts(services: crate::service::Services, shutdown: CancellationToken) {
    let warm = crate::store::saved_counts::warm(&services.db, &services.counts);
    tokio::select! {
        outcome = warm => match outcome {
            Ok(report) => tracing::info!(
                loaded = report.loaded,
                recomputed = report.recomputed,
                "saved list counts warmed"
            ),
            Err(err) => tracing::warn!(error = %err, "saved list counts not warmed"),
        },
        _ = shutdown.cancelled() => {}
    }
}

/// Serves HTTP until `shutdown`, then stops accepting and gives the requests in flight
/// [`DRAIN_DEADLINE`] to finish.
async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: &CancellationToken,
) -> anyhow::Result<()> {
    let stop = shutdown.clone();
    let server = axum::serve(listener, crate::http::router(state))
        .with_graceful_shutdown(async move { stop.cancelled().await });
    let deadline = async {
        shutdown.cancelled().await;
        tokio::time::sleep(DRAIN_DEADLINE).await;
    };
    tokio::select! {
        served = server => served?,
        _ = deadline => tracing::warn!("requests still in flight at the drain deadline"),
    }
    Ok(())
}
