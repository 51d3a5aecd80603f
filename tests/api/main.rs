//! Black-box tests: each starts the real service with a fresh database and drives it over HTTP.

mod support;

mod acquisition_list;
mod admin;
mod company_list;
mod crash_recovery;
mod credits;
mod csv_enrichment;
mod csv_enrichment_jobs;
mod csv_enrichment_results;
mod csv_enrichment_support;
mod delivery_retries;
mod delivery_support;
mod email_alerts;
mod errors;
mod funding_list;
mod hiring_list;
mod isolation;
mod job_change_list;
mod lists_support;
mod monitor_delivery;
mod monitors;
mod ops;
mod profile_targets;
mod record_types;
mod scale_out;
mod shared_limits;
mod shutdown;
mod signal_import;
mod targets;
mod webhook_access;
mod webhook_changes;
mod webhook_deliveries;
mod webhook_feed;
mod webhook_retries;
mod webhooks;
