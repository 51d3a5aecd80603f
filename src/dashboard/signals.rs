//! The Signals page: the four signal lists and the company list, searched with form fields
//! named like the API's query parameters and checked by the API's own parser. A search is a
//! `POST` (it spends a credit, so it needs the form token) and is charged exactly as the API
//! charges it; the page says so before and after.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;

use super::page::{Layout, PageError, render_with};
use crate::domain::signal_type::SignalType;
use crate::http::companies as company_params;
use crate::http::error::ApiError;
use crate::http::extract::QueryParams;
use crate::http::signals::filters::{allowed, parse_request};
use crate::http::state::AppState;
use crate::service::credits::ChargedPage;
use crate::service::rendered::{self, Record};
use crate::service::sessions::Session;
use crate::service::{ServiceError, companies, signals};

/// The lists the page searches: (form value, label).
const LISTS: [(&str, &str); 5] = [
    ("funding", "Funding rounds"),
    ("hiring", "Hiring"),
    ("acquisitions", "Acquisitions"),
    ("job-changes", "Job changes"),
    ("companies", "Companies"),
];
/// Parameters shown first; the rest of each list's parameters sit under "More filters".
const MAIN: [&str; 6] = [
    "search",
    "date_preset",
    "dateFrom",
    "dateTo",
    "countries",
    "limit",
];

/// A filter field of the form.
pub struct FieldItem {
    pub name: &'static str,
    pub value: String,
    pub error: Option<String>,
}

/// One row of the results table.
pub struct ResultItem {
    pub date: String,
    pub company: String,
    pub detail: String,
}

/// A list choice.
pub struct ListChoice {
    pub value: &'static str,
    pub label: &'static str,
    pub selected: bool,
}

#[derive(Template)]
#[template(path = "dashboard/signals.html")]
struct SignalsPage {
    layout: Layout,
    list: String,
    lists: Vec<ListChoice>,
    main: Vec<FieldItem>,
    more: Vec<FieldItem>,
    error: Option<String>,
    searched: bool,
    results: Vec<ResultItem>,
    total: i64,
    page: i64,
    pages: i64,
    credits_used: i64,
    credits_remaining: i64,
    /// The hidden fields that repeat this search on another page.
    carried: Vec<(String, String)>,
}

/// `GET /app/signals?list=…`: the search form of one list; nothing is charged.
#[derive(Debug, Deserialize)]
pub struct Chosen {
    #[serde(default)]
    list: String,
}

/// `GET /app/signals`.
pub async fn form(session: Session, Query(chosen): Query<Chosen>) -> Result<Response, PageError> {
    let list = known_list(&chosen.list);
    let page = empty_page(&session, list, &[], None);
    Ok(render_with(StatusCode::OK, &page))
}

/// `POST /app/signals`: runs the search, charged like the API's list request.
pub async fn search(
    State(state): State<AppState>,
    session: Session,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let list = known_list(
        pairs
            .iter()
            .find(|(k, _)| k == "list")
            .map_or("", |(_, v)| v.as_str()),
    );
    let sent: Vec<(String, String)> = pairs
        .into_iter()
        .filter(|(k, v)| k != "list" && k != "csrf" && !v.trim().is_empty())
        .map(|(k, v)| (k, v.trim().to_string()))
        .collect();
    let params = QueryParams(sent.clone());
    let ctx = session.context();
    let outcome = match kind_of(list) {
        Some(kind) => match parse_request(kind, &params) {
            Ok(request) => {
                let paging = request.paging;
                signals::list(&state, &ctx, request)
                    .await
                    .map(|answer| (paging, answer.total, answer.page))
                    .map_err(Refusal::Service)
            }
            Err(err) => Err(Refusal::Api(err)),
        },
        None => match company_params::parse_request(&params) {
            Ok(request) => {
                let paging = request.paging;
                companies::list(&state, &ctx, request)
                    .await
                    .map(|answer| (paging, answer.total, answer.page))
                    .map_err(Refusal::Service)
            }
            Err(err) => Err(Refusal::Api(err)),
        },
    };
    let (paging, total, charged) = match outcome {
        Ok(found) => found,
        Err(Refusal::Api(err)) => {
            let page = empty_page(&session, list, &sent, Some(err.message));
            return Ok(render_with(err.status, &page));
        }
        Err(Refusal::Service(ServiceError::OutOfCredits)) => {
            let message = "Your team is out of credits; nothing was charged.".to_string();
            let page = empty_page(&session, list, &sent, Some(message));
            return Ok(render_with(StatusCode::PAYMENT_REQUIRED, &page));
        }
        Err(Refusal::Service(ServiceError::Invalid(message))) => {
            let page = empty_page(&session, list, &sent, Some(message));
            return Ok(render_with(StatusCode::BAD_REQUEST, &page));
        }
        Err(Refusal::Service(err)) => return Err(err.into()),
    };
    let mut page = empty_page(&session, list, &sent, None);
    fill_results(&mut page, &charged, total, paging.page, paging.limit);
    Ok(render_with(StatusCode::OK, &page))
}

enum Refusal {
    Api(ApiError),
    Service(ServiceError),
}

fn fill_results(
    page: &mut SignalsPage,
    charged: &ChargedPage<Record>,
    total: i64,
    at: i64,
    limit: i64,
) {
    page.searched = true;
    page.total = total;
    page.page = at;
    page.pages = if limit > 0 {
        (total + limit - 1) / limit
    } else {
        0
    };
    page.credits_used = charged.credits_used;
    page.credits_remaining = charged.credits_remaining;
    page.results = charged
        .rows
        .iter()
        .map(|record| result_item(&rendered::value(record)))
        .collect();
}

fn empty_page(
    session: &Session,
    list: &'static str,
    sent: &[(String, String)],
    error: Option<String>,
) -> SignalsPage {
    let names: Vec<&'static str> = match kind_of(list) {
        Some(kind) => allowed(kind),
        None => company_params::allowed().to_vec(),
    };
    let value_of = |name: &str| {
        sent.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    // The parser's message names the parameter it refused; the error goes beside that field.
    let owner = error.as_deref().and_then(|message| {
        names
            .iter()
            .filter(|n| message.contains(**n))
            .max_by_key(|n| n.len())
            .copied()
    });
    let field = |name: &'static str| FieldItem {
        name,
        value: value_of(name),
        error: (owner == Some(name)).then(|| error.clone().unwrap_or_default()),
    };
    let main = names
        .iter()
        .copied()
        .filter(|n| MAIN.contains(n))
        .map(field)
        .collect();
    let more = names
        .iter()
        .copied()
        .filter(|n| !MAIN.contains(n) && *n != "page")
        .map(field)
        .collect();
    SignalsPage {
        layout: Layout::new(session, "signals", "Signals"),
        list: list.to_string(),
        lists: LISTS
            .iter()
            .map(|(value, label)| ListChoice {
                value,
                label,
                selected: *value == list,
            })
            .collect(),
        main,
        more,
        error: if owner.is_some() { None } else { error },
        searched: false,
        results: Vec::new(),
        total: 0,
        page: 0,
        pages: 0,
        credits_used: 0,
        credits_remaining: 0,
        carried: sent.iter().filter(|(k, _)| k != "page").cloned().collect(),
    }
}

fn known_list(list: &str) -> &'static str {
    LISTS
        .iter()
        .map(|(value, _)| *value)
        .find(|value| *value == list)
        .unwrap_or("funding")
}

fn kind_of(list: &str) -> Option<SignalType> {
    match list {
        "funding" => Some(SignalType::FundingRound),
        "hiring" => Some(SignalType::Hiring),
        "acquisitions" => Some(SignalType::Acquisition),
        "job-changes" => Some(SignalType::JobChange),
        _ => None,
    }
}

/// The columns of a record of any list: its date, its company and a short detail.
fn result_item(record: &Value) -> ResultItem {
    let first = |keys: &[&str]| {
        keys.iter()
            .filter_map(|k| record.get(*k))
            .find_map(|v| match v {
                Value::String(s) if !s.is_empty() => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let date = first(&[
        "occurredAt",
        "datePosted",
        "announcedDate",
        "createdAt",
        "discoveredAt",
    ]);
    ResultItem {
        date: date.get(..10).unwrap_or(&date).to_string(),
        company: first(&["companyName", "name", "acquirerName"]),
        detail: first(&[
            "title",
            "jobTitle",
            "roundType",
            "acquiredCompanyName",
            "newTitle",
            "domain",
            "industry",
        ]),
    }
}
