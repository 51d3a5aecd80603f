//! The four signal lists: validate, count, charge one credit per executed page, answer.

pub mod filters;
pub mod identity;
pub mod pagination;
pub mod params;
pub mod records;

use axum::extract::State;
use axum::response::Response;

use self::filters::parse_request;
use self::pagination::PagePagination;
use self::records::signal_record;
use crate::domain::signal_type::SignalType;
use crate::http::auth::Principal;
use crate::http::envelope::charged_page;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::state::AppState;
use crate::store::credits::{balance, charge};
use crate::store::signal_lists::{count_signals, list_signals};

/// The `meta.endpoint` name of each list.
pub fn endpoint_name(kind: SignalType) -> &'static str {
    match kind {
        SignalType::FundingRound => "signals.funding",
        SignalType::Hiring => "signals.hiring",
        SignalType::Acquisition => "signals.acquisitions",
        SignalType::JobChange => "signals.jobChanges",
    }
}

async fn list(
    state: &AppState,
    principal: &Principal,
    kind: SignalType,
    params: &QueryParams,
) -> Result<Response, ApiError> {
    let request = parse_request(&state.db, kind, params).await?;
    let endpoint = endpoint_name(kind);
    let team = principal.team_id.as_str();
    let total = count_signals(&state.db, &request.query).await?;
    let pagination = PagePagination::new(request.paging.page, request.paging.limit, total);
    if request.paging.count_only {
        let remaining = balance(&state.db, team).await?;
        return Ok(charged_page(
            endpoint,
            Vec::<()>::new(),
            pagination,
            0,
            remaining,
        ));
    }
    if balance(&state.db, team).await? <= 0 {
        return Err(ApiError::out_of_credits());
    }
    let rows = list_signals(&state.db, &request.query).await?;
    let remaining = charge(&state.db, team, 1)
        .await?
        .ok_or_else(ApiError::out_of_credits)?;
    let data: Vec<_> = rows
        .iter()
        .map(|row| signal_record(row, request.match_confidence))
        .collect();
    Ok(charged_page(endpoint, data, pagination, 1, remaining))
}

/// `GET /signals/funding`.
pub async fn funding(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::FundingRound, &q).await
}

/// `GET /signals/hiring`.
pub async fn hiring(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::Hiring, &q).await
}

/// `GET /signals/acquisitions`.
pub async fn acquisitions(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::Acquisition, &q).await
}

/// `GET /signals/job-changes`.
pub async fn job_changes(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::JobChange, &q).await
}
