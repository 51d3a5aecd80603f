//! Typed configuration: every setting is a command-line flag and an environment variable with a
//! default that shows in `--help`. Secrets are redacted from `Debug` output.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use clap::{ArgAction, Args, ValueEnum};

use crate::domain::job_board::Provider;

/// Where the database lives. Shared by every subcommand that touches data.
#[derive(Clone, Args)]
pub struct DatabaseArgs {
    /// `sqlite://PATH` (file created if missing) or `postgres://…`
    #[arg(
        long = "database-url",
        alias = "database_url",
        env = "SIGNALWATCH_DATABASE_URL",
        default_value = "sqlite://signalwatch.db",
        hide_env_values = true
    )]
    pub database_url: String,
}

impl fmt::Debug for DatabaseArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseArgs")
            .field("database_url", &redact_url(&self.database_url))
            .finish()
    }
}

/// Which parts of the service a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Role {
    /// HTTP API and every background worker.
    All,
    /// Only the HTTP API.
    Api,
    /// Only the background workers.
    Worker,
}

impl Role {
    /// True when this process serves HTTP.
    pub fn runs_api(self) -> bool {
        matches!(self, Role::All | Role::Api)
    }

    /// True when this process runs the background workers.
    pub fn runs_workers(self) -> bool {
        matches!(self, Role::All | Role::Worker)
    }
}

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// A value that never shows in logs or `Debug` output.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"[redacted]\"")
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_string()))
    }
}

/// Seconds between delivery attempts after a failure, parsed from `5,300,1800`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrySchedule(pub Vec<u64>);

impl FromStr for RetrySchedule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let steps = s
            .split(',')
            .map(|part| part.trim().parse::<u64>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| format!("retry schedule must be comma-separated seconds, got {s:?}"))?;
        Ok(RetrySchedule(steps))
    }
}

/// The collectors a process runs, parsed from `greenhouse,lever,sec-form-d`; empty = none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectorList {
    /// The job-board collectors.
    pub boards: Vec<Provider>,
    /// The SEC Form D collector.
    pub sec_form_d: bool,
}

/// Non-public addresses research and the collectors may read, parsed from
/// `127.0.0.1:8081,10.0.0.5:443`; empty = none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrivateSources(pub Vec<std::net::SocketAddr>);

impl FromStr for PrivateSources {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| {
                part.parse().map_err(|_| {
                    format!("private sources are ip:port pairs, comma-separated; got {part:?}")
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(PrivateSources)
    }
}

/// The name of the SEC Form D collector.
pub const SEC_FORM_D: &str = "sec-form-d";

impl FromStr for CollectorList {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut list = CollectorList::default();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let lower = name.to_ascii_lowercase();
            if lower == SEC_FORM_D {
                list.sec_form_d = true;
                continue;
            }
            let provider = Provider::parse(&lower).ok_or_else(|| {
                format!("unknown collector {name:?}: use greenhouse, lever, ashby or sec-form-d")
            })?;
            if !list.boards.contains(&provider) {
                list.boards.push(provider);
            }
        }
        Ok(list)
    }
}

impl Config {
    /// The database pool's settings.
    pub fn pool_settings(&self) -> crate::store::PoolSettings {
        crate::store::PoolSettings {
            max_connections: self.database_max_connections,
            acquire_timeout: std::time::Duration::from_secs(self.database_acquire_timeout_seconds),
            statement_timeout: std::time::Duration::from_secs(
                self.database_statement_timeout_seconds,
            ),
        }
    }

    /// How many API requests are handled at once and how long the others may wait.
    pub fn admission_limits(&self) -> crate::http::overload::AdmissionLimits {
        crate::http::overload::AdmissionLimits {
            in_flight: self.max_requests_in_flight as usize,
            queue: self.request_queue as usize,
            wait: std::time::Duration::from_secs(self.request_queue_seconds),
        }
    }

    /// True when pending domain targets are looked up on their website.
    pub fn research_fetches(&self) -> bool {
        self.research_fetch.unwrap_or(true)
    }

    /// Refuses settings the service cannot run with.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.collectors.sec_form_d && self.sec_user_agent().is_none() {
            anyhow::bail!(
                "the sec-form-d collector needs SIGNALWATCH_SEC_USER_AGENT: the SEC serves only \
                 clients that name themselves with a contact address, e.g. \
                 \"Example Corp ops@example.com\""
            );
        }
        if self.unthrottled_sources {
            let public = [
                (&self.sec_url, PUBLIC_SEC_URL),
                (&self.greenhouse_url, PUBLIC_GREENHOUSE_URL),
                (&self.lever_url, PUBLIC_LEVER_URL),
                (&self.ashby_url, PUBLIC_ASHBY_URL),
            ];
            if let Some((_, url)) = public
                .iter()
                .find(|(set, default)| set.trim_end_matches('/') == *default)
            {
                anyhow::bail!(
                    "SIGNALWATCH_UNTHROTTLED_SOURCES is for local test and benchmark sources only, \
                     and {url} is a public source: point every source URL at your own server"
                );
            }
        }
        Ok(())
    }

    /// The `User-Agent` of requests to the SEC, when one is set.
    pub fn sec_user_agent(&self) -> Option<&str> {
        self.sec_user_agent
            .as_deref()
            .map(str::trim)
            .filter(|agent| !agent.is_empty())
    }

    /// The base URL of a job-board provider's API.
    pub fn board_api_url(&self, provider: Provider) -> &str {
        match provider {
            Provider::Greenhouse => &self.greenhouse_url,
            Provider::Lever => &self.lever_url,
            Provider::Ashby => &self.ashby_url,
        }
    }
}

/// The public sources, the defaults of their URL settings.
const PUBLIC_SEC_URL: &str = "https://www.sec.gov";
const PUBLIC_GREENHOUSE_URL: &str = "https://boards-api.greenhouse.io";
const PUBLIC_LEVER_URL: &str = "https://api.lever.co";
const PUBLIC_ASHBY_URL: &str = "https://api.ashbyhq.com";

/// Configuration of `signalwatch serve`.
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// HTTP listen address
    #[arg(long, env = "SIGNALWATCH_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,

    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Bearer token of the admin API; unset = the admin API answers 404
    #[arg(
        long = "admin-token",
        alias = "admin_token",
        env = "SIGNALWATCH_ADMIN_TOKEN",
        hide_env_values = true
    )]
    pub admin_token: Option<Secret>,

    /// Let webhook URLs point at loopback/private addresses (development and tests only)
    #[arg(long = "allow-private-webhooks", alias = "allow_private_webhooks",
          env = "SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS", default_value_t = false,
          action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub allow_private_webhooks: bool,

    /// SMTP server for e-mail alerts, e.g. smtp://127.0.0.1:2525; unset = write .eml files
    #[arg(
        long = "smtp-url",
        alias = "smtp_url",
        env = "SIGNALWATCH_SMTP_URL",
        hide_env_values = true
    )]
    pub smtp_url: Option<Secret>,

    /// Directory receiving one .eml file per e-mail when no SMTP URL is set
    #[arg(
        long = "mail-dir",
        alias = "mail_dir",
        env = "SIGNALWATCH_MAIL_DIR",
        default_value = "./mail"
    )]
    pub mail_dir: PathBuf,

    /// Sender address of e-mail alerts
    #[arg(
        long = "mail-from",
        alias = "mail_from",
        env = "SIGNALWATCH_MAIL_FROM",
        default_value = "alerts@signalwatch.local"
    )]
    pub mail_from: String,

    /// A monitor's e-mail alerts are batched into one message per this many seconds
    #[arg(
        long = "email-digest-seconds",
        alias = "email_digest_seconds",
        env = "SIGNALWATCH_EMAIL_DIGEST_SECONDS",
        default_value_t = 300
    )]
    pub email_digest_seconds: u64,

    /// Seconds between automatic delivery attempts after a failure
    #[arg(
        long = "retry-schedule",
        alias = "retry_schedule",
        env = "SIGNALWATCH_RETRY_SCHEDULE",
        default_value = "5,300,1800,7200,18000,36000,50400,72000,86400"
    )]
    pub retry_schedule: RetrySchedule,

    /// Per-attempt timeout of a webhook POST, in seconds
    #[arg(
        long = "webhook-timeout-seconds",
        alias = "webhook_timeout_seconds",
        env = "SIGNALWATCH_WEBHOOK_TIMEOUT_SECONDS",
        default_value_t = 15
    )]
    pub webhook_timeout_seconds: u64,

    /// Period of the sweep that re-checks pending targets, in seconds
    #[arg(
        long = "research-interval-seconds",
        alias = "research_interval_seconds",
        env = "SIGNALWATCH_RESEARCH_INTERVAL_SECONDS",
        default_value_t = 86_400
    )]
    pub research_interval_seconds: u64,

    /// Website looked up for a pending domain target; `{domain}` is replaced by the domain
    #[arg(
        long = "research-url-template",
        alias = "research_url_template",
        env = "SIGNALWATCH_RESEARCH_URL_TEMPLATE",
        default_value = "https://{domain}/"
    )]
    pub research_url_template: String,

    /// Look pending domain targets up on their website (default true; false under
    /// `serve --demo` unless set)
    #[arg(long = "research-fetch", alias = "research_fetch",
          env = "SIGNALWATCH_RESEARCH_FETCH", action = ArgAction::Set, num_args = 0..=1,
          default_missing_value = "true")]
    pub research_fetch: Option<bool>,

    /// Collectors that run, comma-separated: greenhouse, lever, ashby, sec-form-d (empty = none)
    #[arg(
        long = "collectors",
        env = "SIGNALWATCH_COLLECTORS",
        default_value = ""
    )]
    pub collectors: CollectorList,

    /// Seconds between two passes of each collector
    #[arg(
        long = "collect-interval-seconds",
        alias = "collect_interval_seconds",
        env = "SIGNALWATCH_COLLECT_INTERVAL_SECONDS",
        default_value_t = 3600,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub collect_interval_seconds: u64,

    /// Base URL of SEC EDGAR, read by the sec-form-d collector
    #[arg(
        long = "sec-url",
        alias = "sec_url",
        env = "SIGNALWATCH_SEC_URL",
        default_value = PUBLIC_SEC_URL
    )]
    pub sec_url: String,

    /// User-Agent of every request to the SEC: who you are and a contact address (required
    /// with the sec-form-d collector)
    #[arg(
        long = "sec-user-agent",
        alias = "sec_user_agent",
        env = "SIGNALWATCH_SEC_USER_AGENT"
    )]
    pub sec_user_agent: Option<String>,

    /// Private addresses (`ip:port`, comma-separated) that research and the collectors may read
    /// though they are not public: a mirror on your own network, or the local sources of tests
    /// and benchmarks. Every other non-public address stays refused to them
    #[arg(
        long = "private-sources",
        alias = "private_sources",
        env = "SIGNALWATCH_PRIVATE_SOURCES",
        default_value = ""
    )]
    pub private_sources: PrivateSources,

    /// For tests and benchmarks against your own local sources only: requests to a job-board host
    /// and to the SEC are not spaced out (the sources' rate limits do not apply to a local
    /// server). Refused while any source URL is a public default
    #[arg(long = "unthrottled-sources", alias = "unthrottled_sources",
          env = "SIGNALWATCH_UNTHROTTLED_SOURCES", default_value_t = false,
          action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub unthrottled_sources: bool,

    /// Base URL of the Greenhouse job board API
    #[arg(
        long = "greenhouse-url",
        alias = "greenhouse_url",
        env = "SIGNALWATCH_GREENHOUSE_URL",
        default_value = PUBLIC_GREENHOUSE_URL
    )]
    pub greenhouse_url: String,

    /// Base URL of the Lever postings API
    #[arg(
        long = "lever-url",
        alias = "lever_url",
        env = "SIGNALWATCH_LEVER_URL",
        default_value = PUBLIC_LEVER_URL
    )]
    pub lever_url: String,

    /// Base URL of the Ashby job posting API
    #[arg(
        long = "ashby-url",
        alias = "ashby_url",
        env = "SIGNALWATCH_ASHBY_URL",
        default_value = PUBLIC_ASHBY_URL
    )]
    pub ashby_url: String,

    /// Default per-team, per-endpoint request limit per minute
    #[arg(
        long = "rate-limit-per-minute",
        alias = "rate_limit_per_minute",
        env = "SIGNALWATCH_RATE_LIMIT_PER_MINUTE",
        default_value_t = 60
    )]
    pub rate_limit_per_minute: u32,

    /// Base of the links the service sends by e-mail, such as dashboard sign-in links
    /// [default: http:// + the listen address]
    #[arg(
        long = "public-url",
        alias = "public_url",
        env = "SIGNALWATCH_PUBLIC_URL"
    )]
    pub public_url: Option<String>,

    /// Log filter (tracing env-filter syntax)
    #[arg(long, env = "SIGNALWATCH_LOG", default_value = "info")]
    pub log: String,

    /// Log format
    #[arg(long = "log-format", alias = "log_format", env = "SIGNALWATCH_LOG_FORMAT",
          value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Which parts of the service this process runs
    #[arg(long, env = "SIGNALWATCH_ROLE", value_enum, default_value_t = Role::All)]
    pub role: Role,

    /// The CPU niceness of a `--role worker` process (0–19; 0 leaves it as the process was started): on
    /// a machine it shares with API processes, accepting signals then goes first while their
    /// deliveries wait, durably queued
    #[arg(
        long = "worker-niceness",
        alias = "worker_niceness",
        env = "SIGNALWATCH_WORKER_NICENESS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u8).range(0..=19)
    )]
    pub worker_niceness: u8,

    /// While signals arrive faster than they can be stored, the workers hold new deliveries
    /// back (durably queued) until the oldest has waited this long, then send oldest first; 0
    /// sends at once whatever the load
    #[arg(
        long = "delivery-yield-seconds",
        alias = "delivery_yield_seconds",
        env = "SIGNALWATCH_DELIVERY_YIELD_SECONDS",
        default_value_t = 10
    )]
    pub delivery_yield_seconds: u64,

    /// Most PostgreSQL connections this process opens; processes together must stay under the
    /// server's `max_connections`
    #[arg(
        long = "database-max-connections",
        alias = "database_max_connections",
        env = "SIGNALWATCH_DATABASE_MAX_CONNECTIONS",
        default_value_t = crate::store::PG_MAX_CONNECTIONS,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub database_max_connections: u32,

    /// Longest a request waits for a free PostgreSQL connection before it is answered 503
    #[arg(
        long = "database-acquire-timeout-seconds",
        alias = "database_acquire_timeout_seconds",
        env = "SIGNALWATCH_DATABASE_ACQUIRE_TIMEOUT_SECONDS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub database_acquire_timeout_seconds: u64,

    /// Longest one PostgreSQL statement may run before the server cancels it (0: no limit;
    /// migrations run without one)
    #[arg(
        long = "database-statement-timeout-seconds",
        alias = "database_statement_timeout_seconds",
        env = "SIGNALWATCH_DATABASE_STATEMENT_TIMEOUT_SECONDS",
        default_value_t = 30
    )]
    pub database_statement_timeout_seconds: u64,

    /// API requests this process handles at once; the next ones wait for a turn
    #[arg(
        long = "max-requests-in-flight",
        alias = "max_requests_in_flight",
        env = "SIGNALWATCH_MAX_REQUESTS_IN_FLIGHT",
        default_value_t = 256,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub max_requests_in_flight: u64,

    /// API requests that may wait for a turn; one more is answered 503 with Retry-After at once
    #[arg(
        long = "request-queue",
        alias = "request_queue",
        env = "SIGNALWATCH_REQUEST_QUEUE",
        default_value_t = 1024
    )]
    pub request_queue: u64,

    /// Longest an API request waits for a turn before it is answered 503 with Retry-After
    #[arg(
        long = "request-queue-seconds",
        alias = "request_queue_seconds",
        env = "SIGNALWATCH_REQUEST_QUEUE_SECONDS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub request_queue_seconds: u64,

    /// When set, rate limits are shared through Redis instead of the database
    #[arg(
        long = "redis-url",
        alias = "redis_url",
        env = "SIGNALWATCH_REDIS_URL",
        hide_env_values = true
    )]
    pub redis_url: Option<Secret>,
}

impl Config {
    /// The base of links in e-mails, without a trailing slash: the public URL when set, else
    /// `http://` and the listen address.
    pub fn public_base(&self) -> String {
        match &self.public_url {
            Some(url) if !url.trim().is_empty() => url.trim().trim_end_matches('/').to_string(),
            _ => format!("http://{}", self.listen),
        }
    }

    /// True when the public URL is https, so cookies are marked `Secure`.
    pub fn public_is_https(&self) -> bool {
        self.public_base()
            .get(..8)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
    }
}

/// Hides the password of a URL such as `postgres://user:pass@host/db`.
fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("redacted"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_retry_schedule_gives_ten_attempts() {
        let schedule: RetrySchedule = "5,300,1800,7200,18000,36000,50400,72000,86400"
            .parse()
            .expect("valid");
        assert_eq!(schedule.0.len() + 1, 10);
    }

    #[test]
    fn a_malformed_retry_schedule_is_refused() {
        assert!("5,soon".parse::<RetrySchedule>().is_err());
    }

    #[test]
    fn collectors_are_named_once_each_and_unknown_ones_refused() {
        let list: CollectorList = " lever, Greenhouse,lever,".parse().expect("valid");
        assert_eq!(list.boards, [Provider::Lever, Provider::Greenhouse]);
        assert!(!list.sec_form_d);
        let list: CollectorList = "SEC-Form-D,ashby".parse().expect("valid");
        assert_eq!(list.boards, [Provider::Ashby]);
        assert!(list.sec_form_d);
        assert_eq!("".parse::<CollectorList>(), Ok(CollectorList::default()));
        assert!("lever,workday".parse::<CollectorList>().is_err());
    }

    #[derive(clap::Parser)]
    struct Serve {
        #[command(flatten)]
        config: Config,
    }

    fn serve(args: &[&str]) -> Config {
        use clap::Parser;
        let args = std::iter::once("serve").chain(args.iter().copied());
        Serve::try_parse_from(args).expect("valid settings").config
    }

    #[test]
    fn unthrottled_sources_are_refused_while_any_source_is_a_public_default() {
        assert!(serve(&[]).check().is_ok());
        let public = serve(&[
            "--unthrottled-sources",
            "true",
            "--sec-url",
            "http://127.0.0.1:1",
        ]);
        let refused = public.check().expect_err("a public board API");
        assert!(
            refused.to_string().contains(PUBLIC_GREENHOUSE_URL),
            "{refused}"
        );
        let mut args = vec!["--unthrottled-sources"];
        for flag in [
            "--sec-url",
            "--greenhouse-url",
            "--lever-url",
            "--ashby-url",
        ] {
            args.extend([flag, "http://127.0.0.1:1"]);
        }
        assert!(serve(&args).check().is_ok());
    }

    #[test]
    fn private_sources_are_ip_and_port_pairs() {
        let sources: PrivateSources = " 127.0.0.1:8081, [::1]:9000,".parse().expect("valid");
        assert_eq!(
            sources.0,
            [
                "127.0.0.1:8081".parse().expect("address"),
                "[::1]:9000".parse().expect("address")
            ]
        );
        assert_eq!("".parse::<PrivateSources>(), Ok(PrivateSources::default()));
        assert!("mirror.internal:443".parse::<PrivateSources>().is_err());
        assert!("127.0.0.1".parse::<PrivateSources>().is_err());
    }

    #[test]
    fn passwords_in_database_urls_are_redacted() {
        let args = DatabaseArgs {
            database_url: "postgres://app:hunter2@db/signalwatch".into(),
        };
        assert!(!format!("{args:?}").contains("hunter2"));
    }
}
