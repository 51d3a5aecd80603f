//! Pure business rules: no I/O, no database, no HTTP. Everything here is unit-tested in place.

pub mod address;
pub mod api_key;
pub mod company;
pub mod countries;
pub mod csv_mapping;
pub mod date_preset;
pub mod delivery_status;
pub mod job_board;
pub mod job_tags;
pub mod keyword_query;
pub mod person_name;
pub mod record_parts;
pub mod retry;
pub mod signal_type;
pub mod signing;
pub mod subscription;
pub mod target;
pub mod time;
pub mod us_states;
pub mod vocabulary;
pub mod webhook_filters;
pub mod webhook_secret;
pub mod webhook_url;
