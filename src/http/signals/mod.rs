//! The four signal lists: validate, count, charge one credit per executed page, answer.

pub mod docs;
pub mod filters;
pub mod identity;
pub mod investors;
pub mod pagination;
pub mod params;

use axum::extract::State;
use axum::response::Response;

use self::filters::parse_request;
use self::pagination::PagePagination;
use crate::domain::signal_type::SignalType;
use crate::http::auth::Principal;
use crate::http::charged::charged_list;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::state::AppState;
use crate::service::signals;

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
    let request = parse_request(kind, params)?;
    let paging = request.paging;
    let answer = signals::list(state, &principal.context(), request).await?;
    let pagination = PagePagination::new(paging.page, paging.limit, answer.total);
    Ok(charged_list(endpoint_name(kind), pagination, answer.page))
}

/// `GET /signals/funding`.
#[utoipa::path(get, path = "/api/v2/signals/funding", operation_id = "getFundingSignals", tag = "Signals",
    params(docs::CommonListParams, docs::CompanyFilterParams, docs::FundingParams),
    responses(
        (status = 200, description = "Funding rounds; `data` holds funding signal records, `pagination` the page object; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn funding(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::FundingRound, &q).await
}

/// `GET /signals/hiring`.
#[utoipa::path(get, path = "/api/v2/signals/hiring", operation_id = "getHiringSignals", tag = "Signals",
    params(docs::CommonListParams, docs::HiringParams),
    responses(
        (status = 200, description = "Job postings; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn hiring(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::Hiring, &q).await
}

/// `GET /signals/acquisitions`.
#[utoipa::path(get, path = "/api/v2/signals/acquisitions", operation_id = "getAcquisitionSignals", tag = "Signals",
    params(docs::CommonListParams, docs::CompanyFilterParams, docs::AcquisitionParams),
    responses(
        (status = 200, description = "Acquisitions; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn acquisitions(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::Acquisition, &q).await
}

/// `GET /signals/job-changes`.
#[utoipa::path(get, path = "/api/v2/signals/job-changes", operation_id = "getJobChangeSignals", tag = "Signals",
    params(docs::CommonListParams, docs::JobChangeParams),
    responses(
        (status = 200, description = "Job changes; costs 1 credit"),
        crate::http::openapi::ListErrors,
    ),
    security(("bearerAuth" = [])))]
pub async fn job_changes(
    State(s): State<AppState>,
    p: Principal,
    q: QueryParams,
) -> Result<Response, ApiError> {
    list(&s, &p, SignalType::JobChange, &q).await
}
