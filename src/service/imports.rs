//! Loading companies, people and signals: the admin API's import routes, the `import` command's
//! files, and the demo mode's data set and live feed. Every path ends in the ingest module,
//! which stores the records, fans signals out and enqueues their deliveries in one transaction.

use std::path::{Path, PathBuf};

use super::teams::{CreatedTeam, TeamRequest, create_team};
use super::{ServiceError, Services};
use crate::domain::company::{CompanyRecord, PersonRecord};
use crate::domain::signal_type::SignalType;
use crate::ingest::group::GroupError;
use crate::ingest::signals::ingest_signals;
use crate::ingest::{RecordError, SignalReport, UpsertReport, ingest_companies, ingest_people};
use crate::research::{SweepReport, sweep_pending_targets};
use crate::store::{Db, StoreError, demo};

use super::monitors::{self, NewMonitor};
use super::targets::{self, TargetEntry};
use super::{TeamContext, Via};

pub use crate::store::demo::{ShowcaseCompany, WatchedCompany};

pub use crate::ingest::fields::Record;
pub use crate::ingest::files::{FileKind, FileReport, Loading};
pub use crate::ingest::records::parse_records;

/// An import payload read record by record: each one parsed, or why it could not be.
pub type ParsedRecords<T> = Vec<Result<T, RecordError>>;

/// Upserts companies; pending targets that match resolve at once.
pub async fn import_companies(
    services: &Services,
    records: ParsedRecords<CompanyRecord>,
) -> Result<UpsertReport, ServiceError> {
    let report = ingest_companies(&services.db, records).await?;
    services.dispatcher.wake();
    Ok(report)
}

/// Upserts people; profile targets follow them to their company.
pub async fn import_people(
    services: &Services,
    records: ParsedRecords<PersonRecord>,
) -> Result<UpsertReport, ServiceError> {
    let report = ingest_people(&services.db, records).await?;
    services.dispatcher.wake();
    Ok(report)
}

/// Stores signals of `kind` idempotently by id, grouped with concurrent imports.
pub async fn import_signals(
    services: &Services,
    kind: SignalType,
    records: ParsedRecords<Record>,
) -> Result<SignalReport, ServiceError> {
    let report = services
        .ingest
        .ingest(kind, records)
        .await
        .map_err(|err| match err {
            GroupError::Store(err) => ServiceError::Store(err),
            // The writer reports its failures as text; they are database failures all the same.
            GroupError::Failed(cause) => {
                ServiceError::Store(StoreError::Database(sqlx::Error::Protocol(cause)))
            }
        })?;
    // The other processes heard of the deliveries when the group committed.
    services.dispatcher.wake_local();
    Ok(report)
}

/// Re-checks every pending target now against the known companies and people, then looks every
/// domain still pending up on its website (when look-ups are on), backoff or not.
pub async fn run_research(services: &Services) -> Result<SweepReport, ServiceError> {
    let mut report = sweep_pending_targets(&services.db).await?;
    let looked_up = services.research.look_up_due(&services.db, true).await?;
    report.resolved += looked_up.resolved;
    services.dispatcher.wake();
    Ok(report)
}

/// The import files under `path` (a directory or one file), in the order they must load.
/// File errors are reported as they are, for the operator running the command.
pub fn plan_files(path: &Path) -> anyhow::Result<Vec<(PathBuf, FileKind)>> {
    crate::ingest::files::plan(path)
}

/// Imports one file, calling `progress(bytes_read)` after every batch.
pub async fn import_file(
    db: &Db,
    path: &Path,
    kind: FileKind,
    progress: impl FnMut(u64),
) -> anyhow::Result<FileReport> {
    crate::ingest::files::import_file(db, path, kind, progress).await
}

/// Imports one file with its batches written as `loading` says (see
/// [`bulk_load`](super::bulk_load) for the bulk path).
pub async fn import_file_as(
    db: &Db,
    path: &Path,
    kind: FileKind,
    loading: Loading,
    progress: impl FnMut(u64),
) -> anyhow::Result<FileReport> {
    crate::ingest::files::import_in_batches(db, path, kind, loading, progress).await
}

/// The e-mail address of the demo team's owner.
pub const DEMO_OWNER_EMAIL: &str = "demo@signalwatch.local";

/// True when the database holds no team yet, so the demo may seed it.
pub async fn is_fresh(db: &Db) -> Result<bool, ServiceError> {
    Ok(demo::has_no_team(db).await?)
}

/// Loads every import file under `dir` and opens the demo team; returns its owner's key.
pub async fn seed_demo(db: &Db, dir: &Path) -> anyhow::Result<CreatedTeam> {
    for (path, kind) in plan_files(dir)? {
        import_file(db, &path, kind, |_| {}).await?;
    }
    let team = create_team(
        db,
        TeamRequest {
            name: "Demo team".into(),
            owner_email: DEMO_OWNER_EMAIL.into(),
            ..TeamRequest::default()
        },
    )
    .await?;
    Ok(team)
}

/// The demo's monitor and the companies it watches.
#[derive(Debug, Clone)]
pub struct DemoMonitor {
    pub monitor_id: String,
    pub name: String,
    pub companies: Vec<ShowcaseCompany>,
}

/// Name of the monitor `serve --demo` opens for the demo team.
pub const DEMO_MONITOR: &str = "Demo accounts";

/// Opens a monitor for the demo team on its `count` busiest companies (by domain), every signal
/// type, no webhook: the live feed then fires where the user looks.
pub async fn open_demo_monitor(
    services: &Services,
    team: &CreatedTeam,
    count: i64,
) -> Result<DemoMonitor, ServiceError> {
    let companies = demo::busiest_companies(&services.db, count).await?;
    let ctx = TeamContext {
        team_id: team.team_id.clone(),
        user_id: team.user_id.clone(),
        via: Via::Api,
        actor: team.user_id.clone(),
    };
    let input = NewMonitor {
        name: DEMO_MONITOR.to_string(),
        signal_types: SignalType::ALL.to_vec(),
        webhook_url: None,
    };
    let monitor = monitors::create(services, &ctx, input).await?;
    let entries: Vec<TargetEntry> = companies
        .iter()
        .map(|c| TargetEntry::Text(c.domain.clone()))
        .collect();
    if !entries.is_empty() {
        targets::add(services, &ctx, &monitor.row.id, &entries).await?;
    }
    Ok(DemoMonitor {
        monitor_id: monitor.row.id,
        name: DEMO_MONITOR.to_string(),
        companies,
    })
}

/// The companies active monitors watch (resolved targets, the newest first), for the live demo
/// feed to favour.
pub async fn watched_companies(db: &Db) -> Result<Vec<WatchedCompany>, ServiceError> {
    Ok(demo::watched_companies(db, 1_000).await?)
}

/// A known company picked by `pick` (any number; it wraps around), for a live demo signal.
pub async fn demo_company(db: &Db, pick: u32) -> Result<Option<String>, ServiceError> {
    Ok(demo::company_at(db, pick).await?)
}

/// Stores one live demo signal of `kind` directly (the demo feed runs beside the server).
pub async fn add_demo_signal(
    db: &Db,
    kind: SignalType,
    record: Record,
) -> Result<(), ServiceError> {
    ingest_signals(db, kind, vec![Ok(record)]).await?;
    Ok(())
}
