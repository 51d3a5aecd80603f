//! The Usage page: credit balance, subscription, rate limit, and 30 days of credits used and
//! deliveries as server-drawn SVG charts.

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use super::charts::{Day, credits_chart, deliveries_chart};
use super::page::{Layout, PageError, render};
use crate::http::state::AppState;
use crate::service::sessions::Session;
use crate::service::usage::{USAGE_DAYS, usage};

#[derive(Template)]
#[template(path = "dashboard/usage.html")]
struct UsagePage {
    layout: Layout,
    team_name: String,
    credits: i64,
    subscription: String,
    rate_limit: i64,
    days: i64,
    credits_used: i64,
    succeeded: i64,
    failed: i64,
    credits_svg: String,
    deliveries_svg: String,
}

/// `GET /app/usage`.
pub async fn show(State(state): State<AppState>, session: Session) -> Result<Response, PageError> {
    let usage = usage(&state, &session.context()).await?;
    let credit_days: Vec<Day> = usage
        .days
        .iter()
        .map(|(day, u)| Day {
            day_ms: *day,
            values: vec![u.credits],
        })
        .collect();
    let delivery_days: Vec<Day> = usage
        .days
        .iter()
        .map(|(day, u)| Day {
            day_ms: *day,
            values: vec![u.succeeded, u.failed],
        })
        .collect();
    let chart = |drawn: Result<String, String>| {
        drawn.map_err(|err| {
            tracing::error!(error = %err, "usage chart not drawn");
            PageError::Internal
        })
    };
    let page = UsagePage {
        layout: Layout::new(&session, "usage", "Usage"),
        team_name: usage.team.name,
        credits: usage.team.credits,
        subscription: usage.team.subscription_status,
        rate_limit: usage.team.rate_limit_per_minute,
        days: USAGE_DAYS,
        credits_used: usage.days.iter().map(|(_, u)| u.credits).sum(),
        succeeded: usage.days.iter().map(|(_, u)| u.succeeded).sum(),
        failed: usage.days.iter().map(|(_, u)| u.failed).sum(),
        credits_svg: chart(credits_chart(&credit_days))?,
        deliveries_svg: chart(deliveries_chart(&delivery_days))?,
    };
    Ok(render(&page))
}
