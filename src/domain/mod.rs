//! Pure business rules: no I/O, no database, no HTTP. Everything here is unit-tested in place.

pub mod address;
pub mod api_key;
pub mod company;
pub mod signal_type;
pub mod subscription;
pub mod target;
pub mod time;
pub mod webhook_secret;
pub mod webhook_url;
