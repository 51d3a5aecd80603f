//! `signalwatch admin …`: operator tasks with the same effects as the admin API, plus listing
//! teams and issuing new keys. Each prints its result as JSON on stdout; which database it
//! opened goes to stderr.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::database;
use crate::config::DatabaseArgs;
use crate::service::teams::{self, TeamRequest, check_changes};
use crate::service::{keys, sessions};
use crate::store::Db;

/// Options of `admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Default per-team request limit, shown for teams without their own
    #[arg(
        long = "rate-limit-per-minute",
        alias = "rate_limit_per_minute",
        env = "SIGNALWATCH_RATE_LIMIT_PER_MINUTE",
        default_value_t = 60
    )]
    pub default_rate_limit: u32,
    /// Create the SQLite database file when it does not exist (otherwise a missing file is an
    /// error, so that a command run from the wrong directory does not make an empty database)
    #[arg(long, global = true)]
    pub create: bool,
    /// Base of printed sign-in links [default: http:// + the listen address]
    #[arg(
        long = "public-url",
        alias = "public_url",
        env = "SIGNALWATCH_PUBLIC_URL"
    )]
    pub public_url: Option<String>,
    /// The service's listen address, the default base of sign-in links
    #[arg(long, env = "SIGNALWATCH_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// Operator tasks.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Teams
    #[command(subcommand)]
    Team(TeamCommand),
    /// Team members
    #[command(subcommand)]
    Member(MemberCommand),
    /// API keys
    #[command(subcommand)]
    Key(KeyCommand),
    /// Print a one-use dashboard sign-in link for a member (valid 15 minutes)
    LoginLink {
        #[arg(long)]
        email: String,
    },
}

/// Team tasks.
#[derive(Debug, Subcommand)]
pub enum TeamCommand {
    /// List every team, oldest first
    List,
    /// Show a team with its members (user ids, e-mails, how many live keys each holds)
    Show {
        #[command(flatten)]
        team: TeamId,
    },
    /// Create a team with its owner; prints the owner's API key (shown once)
    Create {
        #[arg(long)]
        name: String,
        #[arg(long = "owner-email", alias = "owner_email")]
        owner_email: String,
        #[arg(long)]
        credits: Option<i64>,
        /// active, trialing, past_due or canceled
        #[arg(long = "subscription-status", alias = "subscription_status")]
        subscription_status: Option<String>,
        #[arg(long = "rate-limit-per-minute", alias = "rate_limit_per_minute")]
        rate_limit_per_minute: Option<i64>,
    },
    /// Change a team's credits, subscription status or rate limit
    Update {
        #[command(flatten)]
        team: TeamId,
        #[arg(long)]
        credits: Option<i64>,
        #[arg(long = "subscription-status", alias = "subscription_status")]
        subscription_status: Option<String>,
        #[arg(long = "rate-limit-per-minute", alias = "rate_limit_per_minute")]
        rate_limit_per_minute: Option<i64>,
    },
}

/// Member tasks.
#[derive(Debug, Subcommand)]
pub enum MemberCommand {
    /// Add a member to a team; prints their API key (shown once)
    Add {
        #[command(flatten)]
        team: TeamId,
        #[arg(long)]
        email: String,
    },
}

/// Key tasks.
#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Issue a new API key to a team's member (the owner unless --email names another member);
    /// prints it (shown once). Keys issued before stay valid
    Create {
        #[command(flatten)]
        team: TeamId,
        /// The member to issue it to
        #[arg(long)]
        email: Option<String>,
    },
    /// Revoke an API key
    Revoke {
        /// The key to revoke
        #[arg(required_unless_present = "api_key_flag")]
        api_key: Option<String>,
        /// The key to revoke, as a flag
        #[arg(long = "api-key", id = "api_key_flag", value_name = "API_KEY", aliases = ["api_key", "key"],
            conflicts_with = "api_key")]
        api_key_flag: Option<String>,
    },
}

/// A team named by position or by `--team-id` (also `--id`), as operators' scripts differ.
#[derive(Debug, Args)]
pub struct TeamId {
    /// The team's id
    #[arg(value_name = "TEAM_ID", required_unless_present = "team_id_flag")]
    team_id: Option<String>,
    /// The team's id, as a flag
    #[arg(long = "team-id", id = "team_id_flag", value_name = "TEAM_ID", aliases = ["team_id", "id", "team"],
        conflicts_with = "team_id")]
    team_id_flag: Option<String>,
}

impl TeamId {
    fn into_id(self) -> String {
        self.team_id.or(self.team_id_flag).unwrap_or_default()
    }
}

/// Runs one operator task and prints its result.
pub async fn run(args: AdminArgs) -> anyhow::Result<()> {
    let db = database::open(&args.database.database_url, args.create).await?;
    let base = match &args.public_url {
        Some(url) if !url.trim().is_empty() => url.trim().trim_end_matches('/').to_string(),
        _ => format!("http://{}", args.listen),
    };
    if let AdminCommand::LoginLink { email } = &args.command {
        let links = sessions::issue_links(&db, email, &base).await;
        db.close().await;
        let links = links?;
        if links.is_empty() {
            anyhow::bail!("no team member has the e-mail address {email}");
        }
        for link in links {
            println!("{}", link.url);
        }
        return Ok(());
    }
    let result = execute(&db, args.command, args.default_rate_limit).await;
    db.close().await;
    println!("{}", serde_json::to_string_pretty(&result?)?);
    Ok(())
}

fn json(value: impl Serialize) -> anyhow::Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}

async fn execute(
    db: &Db,
    command: AdminCommand,
    default_rate: u32,
) -> anyhow::Result<serde_json::Value> {
    match command {
        AdminCommand::Team(TeamCommand::List) => json(teams::list_teams(db, default_rate).await?),
        AdminCommand::Team(TeamCommand::Show { team }) => {
            json(teams::show_team(db, &team.into_id(), default_rate).await?)
        }
        AdminCommand::Key(KeyCommand::Create { team, email }) => {
            json(teams::issue_key(db, &team.into_id(), email.as_deref()).await?)
        }
        AdminCommand::Team(TeamCommand::Create {
            name,
            owner_email,
            credits,
            subscription_status,
            rate_limit_per_minute,
        }) => {
            let request = TeamRequest {
                name,
                owner_email,
                credits,
                subscription_status,
                rate_limit_per_minute,
            };
            json(teams::create_team(db, request).await?)
        }
        AdminCommand::Team(TeamCommand::Update {
            team,
            credits,
            subscription_status,
            rate_limit_per_minute,
        }) => {
            let changes = check_changes(credits, subscription_status, rate_limit_per_minute)?;
            json(teams::update_team(db, &team.into_id(), changes, default_rate).await?)
        }
        AdminCommand::Member(MemberCommand::Add { team, email }) => {
            json(teams::add_member(db, &team.into_id(), &email).await?)
        }
        AdminCommand::Key(KeyCommand::Revoke {
            api_key,
            api_key_flag,
        }) => {
            let api_key = api_key.or(api_key_flag).unwrap_or_default();
            keys::revoke_key(db, &api_key).await?;
            json(serde_json::json!({ "revoked": true }))
        }
        AdminCommand::LoginLink { .. } => unreachable!("handled before"),
    }
}
