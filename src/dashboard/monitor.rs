//! One monitor's page: pause or resume, delete after a confirmation step, its targets with
//! `Add targets` and `Remove`, and its recent signals.

use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::monitors::type_label;
use super::page::{Layout, PageError, render, render_with, see_other, when};
use crate::domain::signal_type::SignalType;
use crate::http::state::AppState;
use crate::service::monitors::{self, Monitor, MonitorChanges};
use crate::service::sessions::Session;
use crate::service::targets::{self, AddedTargets, StatusFilter, TargetEntry};
use crate::service::{ServiceError, TeamContext};

/// Most targets one monitor page lists.
const TARGETS_SHOWN: i64 = 200;

/// One row of the targets table.
pub struct TargetItem {
    pub id: String,
    pub value: String,
    pub kind: String,
    pub resolved: bool,
    pub company: String,
    pub last_signal: String,
}

/// One row of the recent signals table.
pub struct SignalItem {
    pub kind: String,
    pub company: String,
    pub title: String,
    pub when: String,
}

/// What the last `Add targets` came to, shown above the targets.
pub struct AddReport {
    pub added: usize,
    pub skipped: usize,
    pub pending: usize,
    pub invalid: Vec<String>,
}

#[derive(Template)]
#[template(path = "dashboard/monitor.html")]
struct MonitorPage {
    layout: Layout,
    id: String,
    name: String,
    active: bool,
    types: String,
    webhook_url: String,
    webhook_id: String,
    resolved: i64,
    pending: i64,
    signals_30d: i64,
    targets: Vec<TargetItem>,
    total_targets: i64,
    signals: Vec<SignalItem>,
    entries: String,
    entries_error: Option<String>,
    report: Option<AddReport>,
    /// The signing secret of a webhook this request created, shown once.
    secret: Option<String>,
}

#[derive(Template)]
#[template(path = "dashboard/monitor_delete.html")]
struct ConfirmDeletePage {
    layout: Layout,
    id: String,
    name: String,
}

/// The `Add targets` form.
#[derive(Debug, Deserialize)]
pub struct AddTargetsForm {
    #[serde(default)]
    entries: String,
}

/// `GET /app/monitors/{id}`.
pub async fn show(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let page = page(&state, &session, &id, String::new(), None, None).await?;
    Ok(render(&page))
}

/// The page of a monitor just created with a webhook: its signing secret is shown this once.
pub async fn created_with_secret(
    state: &AppState,
    session: &Session,
    id: &str,
    secret: String,
) -> Result<Response, PageError> {
    let mut page = page(state, session, id, String::new(), None, None).await?;
    page.secret = Some(secret);
    Ok(render_with(StatusCode::CREATED, &page))
}

async fn page(
    state: &AppState,
    session: &Session,
    id: &str,
    entries: String,
    entries_error: Option<String>,
    report: Option<AddReport>,
) -> Result<MonitorPage, PageError> {
    let ctx = session.context();
    let monitor = monitors::get(state, &ctx, id).await?;
    let listed = targets::list(state, &ctx, id, StatusFilter::All, TARGETS_SHOWN, 0).await?;
    let recent = monitors::recent_signals(state, &ctx, id).await?;
    let counts = monitor.counts.unwrap_or_default();
    Ok(MonitorPage {
        layout: Layout::new(session, "monitors", monitor.row.name.clone()),
        types: type_names(&monitor),
        id: monitor.row.id,
        name: monitor.row.name,
        active: monitor.row.active,
        webhook_url: monitor.row.webhook_url.unwrap_or_default(),
        webhook_id: monitor.row.webhook_id.unwrap_or_default(),
        resolved: counts.resolved_targets,
        pending: counts.targets - counts.resolved_targets,
        signals_30d: counts.signals_since,
        total_targets: listed.total,
        targets: listed
            .rows
            .into_iter()
            .map(|t| TargetItem {
                resolved: t.company_id.is_some(),
                company: t.company_name.unwrap_or_default(),
                last_signal: match (t.last_signal_type, t.last_signal_at) {
                    (Some(kind), at) => format!("{} · {}", kind_label(&kind), when(at)),
                    _ => "—".into(),
                },
                id: t.id,
                value: t.value,
                kind: t.kind,
            })
            .collect(),
        signals: recent
            .into_iter()
            .map(|s| SignalItem {
                kind: kind_label(&s.kind).to_string(),
                company: s.company_name,
                title: s.title.unwrap_or_default(),
                when: when(Some(s.occurred_at)),
            })
            .collect(),
        entries,
        entries_error,
        report,
        secret: None,
    })
}

fn type_names(monitor: &Monitor) -> String {
    let names: Vec<&str> = monitor
        .signal_types
        .iter()
        .map(|t| type_label(*t))
        .collect();
    names.join(", ")
}

fn kind_label(kind: &str) -> &str {
    SignalType::parse(kind).map(type_label).unwrap_or(kind)
}

/// `POST /app/monitors/{id}/pause`.
pub async fn pause(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    set_active(&state, &session.context(), &id, false).await
}

/// `POST /app/monitors/{id}/resume`.
pub async fn resume(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    set_active(&state, &session.context(), &id, true).await
}

async fn set_active(
    state: &AppState,
    ctx: &TeamContext,
    id: &str,
    active: bool,
) -> Result<Response, PageError> {
    let changes = MonitorChanges {
        active: Some(active),
        ..MonitorChanges::default()
    };
    monitors::update(state, ctx, id, changes).await?;
    Ok(see_other(&format!("/app/monitors/{id}")))
}

/// `GET /app/monitors/{id}/delete`: the confirmation step.
pub async fn confirm_delete(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let monitor = monitors::get(&state, &session.context(), &id).await?;
    let page = ConfirmDeletePage {
        layout: Layout::new(&session, "monitors", "Delete monitor"),
        id: monitor.row.id,
        name: monitor.row.name,
    };
    Ok(render(&page))
}

/// `POST /app/monitors/{id}/delete`.
pub async fn delete(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    monitors::delete(&state, &session.context(), &id).await?;
    Ok(see_other("/app/monitors"))
}

/// `POST /app/monitors/{id}/targets`: one entry per line, the same rules and report as the API.
pub async fn add_targets(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<AddTargetsForm>,
) -> Result<Response, PageError> {
    let entries: Vec<TargetEntry> = form
        .entries
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(|line| TargetEntry::Text(line.to_string()))
        .collect();
    let refused = |message: String| (form.entries.clone(), Some(message), None);
    let (kept, error, report) = if entries.is_empty() {
        refused("Enter at least one domain, website or LinkedIn URL, one per line.".into())
    } else if entries.len() > targets::MAX_ENTRIES {
        refused(format!(
            "Add at most {} entries at a time.",
            targets::MAX_ENTRIES
        ))
    } else {
        match targets::add(&state, &session.context(), &id, &entries).await {
            Ok(added) => (String::new(), None, Some(report_of(&added))),
            Err(ServiceError::Invalid(message)) => refused(message),
            Err(err) => return Err(err.into()),
        }
    };
    let status = if error.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let page = page(&state, &session, &id, kept, error, report).await?;
    Ok(render_with(status, &page))
}

fn report_of(added: &AddedTargets) -> AddReport {
    AddReport {
        added: added.added.len(),
        skipped: added.skipped_existing,
        pending: added.pending.len(),
        invalid: added.invalid.clone(),
    }
}

/// `POST /app/monitors/{id}/targets/{target_id}/remove`.
pub async fn remove_target(
    State(state): State<AppState>,
    session: Session,
    Path((id, target_id)): Path<(String, String)>,
) -> Result<Response, PageError> {
    targets::remove(&state, &session.context(), &id, &target_id).await?;
    Ok(see_other(&format!("/app/monitors/{id}")))
}
