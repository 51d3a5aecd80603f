//! `serve --demo`: on an empty database, load the small generated data set and a demo team,
//! print the team's key with example requests, then keep adding a few new signals a minute so
//! monitors and webhooks visibly fire.

use std::time::Duration;

use chrono::Utc;
use indicatif::ProgressBar;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::demo::{DemoOptions, Scale, generate};
use crate::domain::signal_type::SignalType;
use crate::domain::time::{format_ms, now_ms};
use crate::service::imports::{
    DEMO_OWNER_EMAIL, add_demo_signal, demo_company, is_fresh, seed_demo,
};
use crate::service::sessions::issue_links;
use crate::store::Db;

/// Seconds between two live demo signals.
const FEED_PERIOD: Duration = Duration::from_secs(15);

/// True when the database holds no team yet; a database that cannot be read is not seeded.
pub async fn is_empty(db: &Db) -> bool {
    is_fresh(db).await.unwrap_or(false)
}

/// Loads the demo data set and team into an empty database and prints how to try it.
pub async fn seed(db: &Db, base: &str, public_base: &str) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let now = Utc::now();
    let options = DemoOptions {
        scale: Scale::S,
        seed: 1,
        anchor: now.date_naive(),
        now,
        out: dir.path().to_path_buf(),
    };
    println!("Generating and loading the demo data set…");
    generate(&options, &ProgressBar::hidden())?;
    let team = seed_demo(db, dir.path()).await?;
    let key = team.api_key;
    println!("Demo team created. API key (shown once): {key}");
    for link in issue_links(db, DEMO_OWNER_EMAIL, public_base).await? {
        println!(
            "Dashboard sign-in link (works once, within 15 minutes): {}",
            link.url
        );
    }
    println!("Try:");
    println!(
        "  curl -s '{base}/api/v2/signals/funding?date_preset=last_30d&limit=5' -H 'Authorization: Bearer {key}'"
    );
    println!(
        "  curl -s -X POST {base}/api/v2/monitors -H 'Authorization: Bearer {key}' \
         -H 'Content-Type: application/json' \
         -d '{{\"name\":\"Competitors\",\"signal_types\":[\"funding_round\",\"hiring\"]}}'"
    );
    Ok(())
}

/// Adds a new signal for a random known company every few seconds until shutdown.
pub async fn live_feed(db: Db, shutdown: CancellationToken) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(now_ms() as u64);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(FEED_PERIOD) => {}
        }
        let Ok(Some(company_id)) = demo_company(&db, rng.random()).await else {
            continue;
        };
        let (kind, record) = new_signal(&mut rng, &company_id);
        let record = record.as_object().cloned().unwrap_or_default();
        if let Err(err) = add_demo_signal(&db, kind, record).await {
            tracing::warn!(error = %err, "demo signal not stored");
        }
    }
}

fn new_signal(rng: &mut impl Rng, company_id: &str) -> (SignalType, Value) {
    let now = format_ms(now_ms());
    match rng.random_range(0..3) {
        0 => {
            let round = ["seed", "series a", "series b"]
                .choose(rng)
                .copied()
                .unwrap_or("seed");
            let amount = rng.random_range(1..40) * 1_000_000;
            (
                SignalType::FundingRound,
                json!({
                    "companyId": company_id, "occurredAt": now, "announcedDate": &now[..10],
                    "roundType": round,
                    "amount": amount, "currency": "USD", "verificationStatus": "unverified",
                    "investors": [], "sources": []
                }),
            )
        }
        1 => {
            let title = [
                "Senior Software Engineer",
                "Head of Product",
                "Account Executive",
            ]
            .choose(rng)
            .copied()
            .unwrap_or("Engineer");
            let job_id = rng
                .random_range(4_000_000_000_u64..5_000_000_000)
                .to_string();
            (
                SignalType::Hiring,
                json!({
                    "companyId": company_id, "datePosted": now, "createdAt": now, "title": title,
                    "jobId": job_id, "jobUrl": format!("https://www.linkedin.com/jobs/view/{job_id}"),
                    "descriptionText": "A new role on a growing team.", "numApplicants": "0"
                }),
            )
        }
        _ => {
            let role = [
                "VP of Sales",
                "Chief Technology Officer",
                "Head of Marketing",
            ]
            .choose(rng)
            .copied()
            .unwrap_or("Director");
            let person = rng.random_range(1000..10_000);
            (
                SignalType::JobChange,
                json!({
                    "companyId": company_id, "occurredAt": now, "personName": "Alex Demo",
                    "personLinkedinUrl": format!("https://www.linkedin.com/in/alex-demo-{person}"),
                    "newRole": role, "source": "linkedin"
                }),
            )
        }
    }
}
