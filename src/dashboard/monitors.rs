//! The Monitors list and the `New monitor` form.

use askama::Template;
use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use super::page::{Layout, PageError, render, render_with, see_other, when};
use crate::domain::signal_type::SignalType;
use crate::http::state::AppState;
use crate::service::monitors::{self, NewMonitor, requested_url};
use crate::service::sessions::Session;
use crate::service::webhooks::check_webhook_url;

/// One row of the monitors table.
pub struct MonitorItem {
    pub id: String,
    pub name: String,
    pub active: bool,
    pub resolved: i64,
    pub pending: i64,
    pub signals_30d: i64,
    pub last_delivery: String,
}

#[derive(Template)]
#[template(path = "dashboard/monitors.html")]
struct MonitorsPage {
    layout: Layout,
    monitors: Vec<MonitorItem>,
}

/// A signal type checkbox of the form.
pub struct TypeChoice {
    pub value: &'static str,
    pub label: &'static str,
    pub checked: bool,
}

#[derive(Template)]
#[template(path = "dashboard/monitor_new.html")]
struct NewMonitorPage {
    layout: Layout,
    name: String,
    webhook_url: String,
    types: Vec<TypeChoice>,
    errors: FieldErrors,
}

/// Messages shown beside the fields that caused them.
#[derive(Debug, Default)]
pub struct FieldErrors {
    pub name: Option<String>,
    pub signal_types: Option<String>,
    pub webhook_url: Option<String>,
    /// A refusal of the whole form, such as a team limit.
    pub form: Option<String>,
}

impl FieldErrors {
    fn any(&self) -> bool {
        self.name.is_some()
            || self.signal_types.is_some()
            || self.webhook_url.is_some()
            || self.form.is_some()
    }
}

/// The `New monitor` form as posted. Checkboxes repeat `signal_types`.
#[derive(Debug, Default)]
pub struct NewMonitorForm {
    name: String,
    signal_types: Vec<String>,
    webhook_url: String,
}

/// The label of a signal type.
pub fn type_label(kind: SignalType) -> &'static str {
    match kind {
        SignalType::FundingRound => "Funding rounds",
        SignalType::Acquisition => "Acquisitions",
        SignalType::JobChange => "Job changes",
        SignalType::Hiring => "Hiring",
    }
}

fn choices(checked: &[String]) -> Vec<TypeChoice> {
    SignalType::ALL
        .into_iter()
        .map(|kind| TypeChoice {
            value: kind.as_str(),
            label: type_label(kind),
            checked: checked.iter().any(|c| c == kind.as_str()),
        })
        .collect()
}

/// `GET /app/monitors`.
pub async fn list(State(state): State<AppState>, session: Session) -> Result<Response, PageError> {
    let found = monitors::list(&state, &session.context()).await?;
    let monitors = found
        .into_iter()
        .map(|m| {
            let counts = m.counts.unwrap_or_default();
            MonitorItem {
                id: m.row.id,
                name: m.row.name,
                active: m.row.active,
                resolved: counts.resolved_targets,
                pending: counts.targets - counts.resolved_targets,
                signals_30d: counts.signals_since,
                last_delivery: when(m.row.last_delivery_at),
            }
        })
        .collect();
    let page = MonitorsPage {
        layout: Layout::new(&session, "monitors", "Monitors"),
        monitors,
    };
    Ok(render(&page))
}

/// `GET /app/monitors/new`.
pub async fn new_form(session: Session) -> Response {
    let page = NewMonitorPage {
        layout: Layout::new(&session, "monitors", "New monitor"),
        name: String::new(),
        webhook_url: String::new(),
        types: choices(&[]),
        errors: FieldErrors::default(),
    };
    render(&page)
}

/// `POST /app/monitors`: creates the monitor and opens its page, or shows the form again with
/// each error beside its field.
pub async fn create(
    State(state): State<AppState>,
    session: Session,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let form = read_form(pairs);
    let mut errors = FieldErrors::default();
    let name = monitors::parse_name(form.name.clone())
        .map_err(|e| errors.name = Some(e.to_string()))
        .ok();
    let names: Vec<&str> = form.signal_types.iter().map(String::as_str).collect();
    let types = if names.is_empty() {
        errors.signal_types = Some("Choose at least one signal type.".into());
        None
    } else {
        monitors::parse_signal_type_names(&names)
            .map_err(|e| errors.signal_types = Some(e.to_string()))
            .ok()
    };
    let webhook_url = match requested_url(Some(form.webhook_url.clone())) {
        Some(url) => match check_webhook_url(&state, &url, "Webhook URL").await {
            Ok(parsed) => Some(parsed),
            Err(err) => {
                errors.webhook_url = Some(err.to_string());
                None
            }
        },
        None => None,
    };
    if let (Some(name), Some(signal_types), false) = (name, types, errors.any()) {
        let input = NewMonitor {
            name,
            signal_types,
            webhook_url,
        };
        match monitors::create(&state, &session.context(), input).await {
            Ok(monitor) => {
                return match monitor.secret {
                    Some(secret) => {
                        super::monitor::created_with_secret(
                            &state,
                            &session,
                            &monitor.row.id,
                            secret,
                        )
                        .await
                    }
                    None => Ok(see_other(&format!("/app/monitors/{}", monitor.row.id))),
                };
            }
            Err(crate::service::ServiceError::Invalid(message)) => errors.form = Some(message),
            Err(err) => return Err(err.into()),
        }
    }
    let page = NewMonitorPage {
        layout: Layout::new(&session, "monitors", "New monitor"),
        types: choices(&form.signal_types),
        name: form.name,
        webhook_url: form.webhook_url,
        errors,
    };
    Ok(render_with(StatusCode::BAD_REQUEST, &page))
}

fn read_form(pairs: Vec<(String, String)>) -> NewMonitorForm {
    let mut form = NewMonitorForm::default();
    for (name, value) in pairs {
        match name.as_str() {
            "name" => form.name = value,
            "signal_types" => form.signal_types.push(value),
            "webhook_url" => form.webhook_url = value,
            _ => {}
        }
    }
    form
}
