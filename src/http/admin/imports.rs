//! Admin endpoints that load companies and people, and run the pending-target sweep.

use axum::extract::{Request, State};
use axum::http::header;
use axum::response::Response;

use crate::domain::company::{CompanyRecord, PersonRecord};
use crate::domain::signal_type::SignalType;
use crate::http::envelope::ok;
use crate::http::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::state::AppState;
use crate::service::imports::{self, ParsedRecords, Record};

/// Reads an import body (JSON array or NDJSON) into per-record results.
async fn read_records<T: serde::de::DeserializeOwned>(
    req: Request,
) -> Result<ParsedRecords<T>, ApiError> {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    if !is_json {
        return Err(ApiError::bad_request(
            "Content-Type must be application/json or application/x-ndjson",
        ));
    }
    let body = axum::body::to_bytes(req.into_body(), super::MAX_ADMIN_BODY)
        .await
        .map_err(|_| ApiError::payload_too_large())?;
    imports::parse_records(&body).map_err(ApiError::bad_request)
}

/// `POST /admin/v1/companies`: upserts companies; pending targets that match resolve at once.
pub async fn import_companies(
    State(state): State<AppState>,
    req: Request,
) -> Result<Response, ApiError> {
    let records = read_records::<CompanyRecord>(req).await?;
    let report = imports::import_companies(&state, records).await?;
    Ok(ok("admin.companies.import", report))
}

/// `POST /admin/v1/people`: upserts people; profile targets follow them to their company.
pub async fn import_people(
    State(state): State<AppState>,
    req: Request,
) -> Result<Response, ApiError> {
    let records = read_records::<PersonRecord>(req).await?;
    let report = imports::import_people(&state, records).await?;
    Ok(ok("admin.people.import", report))
}

/// The signal kind of an import path segment.
pub fn kind_of_path(segment: &str) -> Option<SignalType> {
    match segment {
        "funding" => Some(SignalType::FundingRound),
        "hiring" => Some(SignalType::Hiring),
        "acquisitions" => Some(SignalType::Acquisition),
        "job-changes" => Some(SignalType::JobChange),
        _ => None,
    }
}

/// `POST /admin/v1/signals/{kind}`: stores signals idempotently by id.
pub async fn import_signals(
    State(state): State<AppState>,
    PathParams(segment): PathParams<String>,
    req: Request,
) -> Result<Response, ApiError> {
    let kind = kind_of_path(&segment).ok_or_else(|| {
        ApiError::not_found("Unknown signal kind: use funding, hiring, acquisitions or job-changes")
    })?;
    let records = read_records::<Record>(req).await?;
    let report = imports::import_signals(&state, kind, records).await?;
    Ok(ok("admin.signals.import", report))
}

/// `POST /admin/v1/research/run`: re-checks every pending target now.
pub async fn run_research(State(state): State<AppState>) -> Result<Response, ApiError> {
    let report = imports::run_research(&state).await?;
    Ok(ok("admin.research.run", report))
}
