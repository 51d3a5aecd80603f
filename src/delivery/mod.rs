//! Everything that talks to customer endpoints: destination checks, the HTTP client, fan-out of
//! accepted signals, the webhook worker and e-mail digests.

pub mod client;
pub mod digest;
pub mod dispatch;
pub mod email;
pub mod event;
pub mod fanout;
pub mod guard;
pub mod worker;
