//! The sending side: everything that talks to customer endpoints (destination checks, the HTTP
//! client, the webhook worker, e-mail digests). What it sends is queued by `ingest::outbox`.

mod announcer;
pub mod client;
pub mod digest;
pub mod dispatch;
pub mod email;
pub mod event;
mod floors;
pub mod guard;
pub mod pressure;
pub mod worker;
