//! Use cases: the one code path every client takes. The JSON API, the admin API, the CLI and
//! the dashboard parse their own input formats into the typed values these functions take, call
//! them with a [`TeamContext`], and render what they return. A use case opens the transaction
//! it needs, applies the team's limits, and returns typed results or a [`ServiceError`]; it
//! knows nothing of HTTP.

pub mod bulk_load;
pub mod collectors;
pub mod companies;
mod company_research;
pub mod credits;
pub mod deliveries;
pub mod enrichment;
pub mod error;
pub mod imports;
pub mod investors;
pub mod keys;
pub mod lists;
pub mod monitors;
pub mod people;
pub mod rendered;
pub mod sessions;
pub mod signals;
pub mod targets;
pub mod teams;
pub mod usage;
pub mod webhooks;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::collectors::Collectors;
use crate::config::Config;
use crate::delivery::dispatch::Dispatcher;
use crate::domain::time::Clock;
use crate::ingest::group::IngestGroups;
use crate::research::lookup::Researcher;
use crate::store::Db;
use crate::store::count_cache::CountCache;
use crate::store::credits::ChargeGroups;

pub use error::ServiceError;

/// What the use cases run against: the database and the process's shared parts. Cheap to clone.
#[derive(Clone)]
pub struct Services {
    pub db: Db,
    pub config: Arc<Config>,
    /// Cached list counts and pages, per query.
    pub counts: Arc<CountCache>,
    /// The charges of concurrent list requests, committed together.
    pub charges: Arc<ChargeGroups>,
    /// Wakes the delivery worker and sends webhook tests.
    pub dispatcher: Arc<Dispatcher>,
    /// Groups concurrent signal ingests into shared transactions.
    pub ingest: IngestGroups,
    /// Wakes this process's enrichment worker when a job is accepted.
    pub enrichment_wake: Arc<Notify>,
    /// Looks pending domain targets up on their websites.
    pub research: Arc<Researcher>,
    /// Wakes this process's research worker when targets are added.
    pub research_wake: Arc<Notify>,
    /// The job-board collectors this process runs.
    pub collectors: Arc<Collectors>,
    /// What "now" is for rules of age, such as the retention of enrichment jobs.
    pub clock: Clock,
}

/// The client a change came through, recorded as `last_modified_via`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Api,
    Dashboard,
}

impl Via {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Api => "api",
            Via::Dashboard => "dashboard",
        }
    }
}

/// Who is acting: the team every read and write is scoped to, the user whose key or session it
/// is, and the client the request came through.
#[derive(Debug, Clone)]
pub struct TeamContext {
    pub team_id: String,
    pub user_id: String,
    pub via: Via,
    /// Who a change is recorded as made by (`last_modified_by`): the user id through the API,
    /// the member's e-mail address through the dashboard.
    pub actor: String,
}

impl TeamContext {
    /// The team id, for store calls.
    pub fn team(&self) -> &str {
        &self.team_id
    }

    /// The `last_modified_by` of a change made in this context.
    pub fn modified_by(&self) -> &str {
        &self.actor
    }
}
