//! `serve --demo`: on an empty database, load the small generated data set, a demo team and a
//! demo monitor on a handful of its companies, and print how to try it: the API key, the docs,
//! the watched companies, and requests to paste, one of them firing a signal through the admin
//! API. The live feed (`demo_feed`) then keeps adding signals, first for watched companies.

use chrono::Utc;
use indicatif::ProgressBar;

use crate::demo::{DemoOptions, Scale, generate};
use crate::service::Services;
use crate::service::imports::{
    DEMO_OWNER_EMAIL, DemoMonitor, is_fresh, open_demo_monitor, seed_demo,
};
use crate::service::sessions::{SignInLink, issue_links};
use crate::store::Db;

/// Companies the demo monitor watches.
const WATCHED: i64 = 5;

/// True when the database holds no team yet; a database that cannot be read is not seeded.
pub async fn is_empty(db: &Db) -> bool {
    is_fresh(db).await.unwrap_or(false)
}

/// What the printed instructions need to know about the running service.
pub struct Setting<'a> {
    /// `http://host:port` of the API.
    pub base: &'a str,
    /// The base of sign-in links (the public URL, else `base`).
    pub public_base: &'a str,
    /// The admin token the service runs with.
    pub admin_token: &'a str,
    /// True when the token was generated for this run.
    pub generated_token: bool,
    /// True when webhooks may point at this machine.
    pub private_webhooks: bool,
}

/// Loads the demo data set, team and monitor into an empty database and prints how to try it.
pub async fn seed(services: &Services, setting: &Setting<'_>) -> anyhow::Result<()> {
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
    let team = seed_demo(&services.db, dir.path()).await?;
    let monitor = open_demo_monitor(services, &team, WATCHED).await?;
    let links = issue_links(&services.db, DEMO_OWNER_EMAIL, setting.public_base).await?;
    print_welcome(setting, &team.api_key, &monitor, &links);
    Ok(())
}

/// Says why nothing was loaded, how to get a key back, and the admin token of this run when
/// it was generated.
pub fn print_not_empty(setting: &Setting<'_>) {
    println!(
        "The database already has data: demo loading skipped. Lost the key? \
         `signalwatch admin team list`, then `signalwatch admin key create --team TEAM_ID`."
    );
    if setting.generated_token {
        println!(
            "Admin token (generated for this run; set SIGNALWATCH_ADMIN_TOKEN to choose one): {}",
            setting.admin_token
        );
    }
}

fn print_welcome(setting: &Setting<'_>, key: &str, monitor: &DemoMonitor, links: &[SignInLink]) {
    let base = setting.base;
    println!();
    println!("signalwatch demo at {base}");
    println!("  API key of the demo team (shown once): {key}");
    for link in links {
        println!(
            "  Dashboard sign-in link (works once, within 15 minutes): {}",
            link.url
        );
    }
    println!("  API docs: {base}/docs");
    if setting.generated_token {
        println!(
            "  Admin token (generated for this run; set SIGNALWATCH_ADMIN_TOKEN to choose one): {}",
            setting.admin_token
        );
    }
    println!(
        "  Monitor \"{}\" ({}) watches these demo companies:",
        monitor.name, monitor.monitor_id
    );
    for company in &monitor.companies {
        println!("    {:<28} {}", company.domain, company.name);
    }
    println!(
        "  A new signal arrives every {} s, first for watched companies: a monitor you make on \
         one of them hears of one within a minute.",
        super::demo_feed::FEED_PERIOD.as_secs()
    );
    if !setting.private_webhooks {
        println!(
            "  Webhooks on this machine (127.0.0.1, localhost) need \
             SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS=true."
        );
    }
    let domain = monitor
        .companies
        .first()
        .map(|c| c.domain.as_str())
        .unwrap_or("example.com");
    let today = Utc::now().format("%Y-%m-%d");
    println!();
    println!("Try (bash):");
    println!(
        "  BASE={base} KEY={key} ADMIN_TOKEN={}",
        setting.admin_token
    );
    println!(
        "  curl -fsS \"$BASE/api/v2/signals/funding?company_domain={domain}&limit=5\" \
         -H \"Authorization: Bearer $KEY\""
    );
    println!("  # fire a funding round for {domain} now (another amount, another round):");
    println!(
        "  curl -fsS -X POST \"$BASE/admin/v1/signals/funding\" \
         -H \"Authorization: Bearer $ADMIN_TOKEN\" -H 'Content-Type: application/json' \
         -d '[{{\"companyWebsite\":\"https://{domain}\",\"announcedDate\":\"{today}\",\
         \"roundType\":\"series a\",\"amount\":'$((RANDOM * 1000))'}}]'"
    );
    println!("  curl -fsS \"$BASE/api/v2/monitors\" -H \"Authorization: Bearer $KEY\"");
    println!();
}
