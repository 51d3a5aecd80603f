//! Funding rounds from SEC EDGAR Form D filings: the latest-filings feed, each filing's
//! structured document, and the funding record a filing becomes.

pub mod feed;
pub mod filing;
pub mod record;
mod text;

pub use feed::{FeedEntry, parse_feed};
pub use filing::{Amount, FormD, Issuer, parse_filing};
pub use record::{IssuerCompany, funding_record, issuer_country};
