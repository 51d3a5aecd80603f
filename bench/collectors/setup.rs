//! What the collectors benchmark sets up through the service's APIs, as an operator and a user
//! would: the data set's companies given their job boards (`POST /admin/v1/companies`), a team,
//! and two monitors posting to the harness's receiver that watch those companies by domain —
//! the first `subset` of them in one (the pass at the real rate), the rest in the other.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, bail};
use serde_json::{Value, json};

use super::boards::token;
use super::edgar::KnownIssuer;
use super::process::{ADMIN_TOKEN, Server, UNLIMITED_RATE};

/// Most targets one request adds.
const TARGETS_PER_REQUEST: usize = 500;

/// Companies of the data set the benchmark uses.
pub struct Picked {
    /// One company record (with a website) per board, in board order.
    pub boards: Vec<Value>,
    /// Issuers of the filings that name known companies.
    pub issuers: Vec<KnownIssuer>,
}

/// Picks `boards` companies spread over the data set, and about a quarter of `filings` US (or
/// country-less) companies as known issuers.
pub fn pick_companies(dir: &Path, boards: usize, filings: usize) -> anyhow::Result<Picked> {
    let path = dir.join("companies.ndjson");
    let total = super::super::dataset::count_lines(&path)? as usize;
    let every = (total / boards.max(1)).max(1);
    let issuers_wanted = (filings / 4).max(1);
    let issuer_every = (total / issuers_wanted).max(1);
    let mut picked = Picked {
        boards: Vec::with_capacity(boards),
        issuers: Vec::with_capacity(issuers_wanted),
    };
    for (n, line) in BufReader::new(File::open(&path)?).lines().enumerate() {
        let line = line?;
        if n % every == 0 && picked.boards.len() < boards {
            let company: Value = serde_json::from_str(&line)?;
            if domain(&company).is_some() {
                picked.boards.push(company);
            }
        }
        if n % issuer_every == 1 && picked.issuers.len() < issuers_wanted {
            let company: Value = serde_json::from_str(&line)?;
            let country = company["headquartersCountry"].as_str();
            if let Some(name) = company["name"].as_str()
                && matches!(country, None | Some("US"))
            {
                picked.issuers.push(KnownIssuer {
                    name: name.to_string(),
                });
            }
        }
    }
    if picked.boards.len() < boards {
        bail!(
            "the data set has {} companies with a website to give boards to, not {boards}",
            picked.boards.len()
        );
    }
    Ok(picked)
}

/// A company's bare website domain.
fn domain(company: &Value) -> Option<String> {
    let website = company["website"].as_str()?;
    let domain = website
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .trim_start_matches("www.")
        .trim_end_matches('/');
    (!domain.is_empty()).then(|| domain.to_string())
}

/// The team and monitors of the run.
pub struct Watched {
    key: String,
    /// The monitor of every company but the first `subset`.
    rest: String,
}

/// Gives each picked company its board, and watches them all (the first `subset` in a monitor
/// of their own) with monitors of hiring and funding rounds posting to `webhook_url`.
pub async fn watch(
    server: &Server,
    companies: &[Value],
    subset: usize,
    webhook_url: &str,
) -> anyhow::Result<Watched> {
    let records: Vec<Value> = companies
        .iter()
        .enumerate()
        .map(|(n, company)| {
            let mut record = company.clone();
            record["jobBoards"] = json!([{ "provider": "greenhouse", "token": token(n) }]);
            record
        })
        .collect();
    for chunk in records.chunks(500) {
        let answer = server
            .call(
                reqwest::Method::POST,
                "/admin/v1/companies",
                ADMIN_TOKEN,
                Some(Value::Array(chunk.to_vec())),
            )
            .await?;
        let upserted = answer["data"]["upserted"].as_u64().unwrap_or_default();
        if upserted != chunk.len() as u64 {
            bail!(
                "{upserted} of {} companies were taken: {answer}",
                chunk.len()
            );
        }
    }
    let team = server
        .call(
            reqwest::Method::POST,
            "/admin/v1/teams",
            ADMIN_TOKEN,
            Some(
                json!({ "name": "bench-collectors", "owner_email": "bench@signalwatch.local",
                "credits": 1_000_000_000_000_i64, "rate_limit_per_minute": UNLIMITED_RATE }),
            ),
        )
        .await?;
    let key = team["data"]["api_key"]
        .as_str()
        .context("api_key")?
        .to_string();
    let domains: Vec<String> = companies.iter().filter_map(domain).collect();
    let subset = subset.min(domains.len());
    let mut monitors = Vec::new();
    for (name, watched) in [("subset", &domains[..subset]), ("rest", &domains[subset..])] {
        let monitor = server
            .call(
                reqwest::Method::POST,
                "/api/v2/monitors",
                &key,
                Some(json!({ "name": format!("Hiring ({name})"),
                    "signal_types": ["hiring", "funding_round"], "webhook_url": webhook_url })),
            )
            .await?;
        let id = monitor["data"]["id"]
            .as_str()
            .context("monitor id")?
            .to_string();
        let mut resolved = 0;
        for chunk in watched.chunks(TARGETS_PER_REQUEST) {
            let added = server
                .call(
                    reqwest::Method::POST,
                    &format!("/api/v2/monitors/{id}/targets"),
                    &key,
                    Some(json!({ "targets": chunk })),
                )
                .await?;
            resolved = added["data"]["resolved_companies"]
                .as_u64()
                .unwrap_or_default();
        }
        if resolved != watched.len() as u64 {
            bail!(
                "monitor {name}: {resolved} of {} targets resolved to their company",
                watched.len()
            );
        }
        monitors.push(id);
    }
    Ok(Watched {
        key,
        rest: monitors.pop().context("the rest monitor")?,
    })
}

impl Watched {
    /// Pauses the monitor of the companies outside the subset: only the subset's boards are
    /// polled from now on.
    pub async fn pause_all_but_subset(&self, server: &Server) -> anyhow::Result<()> {
        server
            .call(
                reqwest::Method::PUT,
                &format!("/api/v2/monitors/{}", self.rest),
                &self.key,
                Some(json!({ "active": false })),
            )
            .await?;
        Ok(())
    }
}
