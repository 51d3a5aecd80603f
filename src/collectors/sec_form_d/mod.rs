//! Funding rounds from SEC EDGAR Form D filings: the latest-filings feed, each filing's
//! structured document, and the funding record a filing becomes.

pub mod feed;
pub mod filing;
pub mod pass;
pub mod record;
pub mod source;
mod text;

pub use feed::{FeedEntry, parse_feed};
pub use filing::{Amount, FormD, Issuer, parse_filing};
pub use pass::{NAME, PassReport, run_pass};
pub use record::{IssuerCompany, brand_name, funding_record, issuer_country};
pub use source::Edgar;
