//! The Webhooks API: standalone webhook subscriptions (and, for reading, testing, delivery history
//! and secret rotation, the webhooks of monitors), their deliveries and manual retries.

pub mod create;
pub mod deliveries;
pub mod input;
pub mod read;
pub mod send;
pub mod update;
pub mod views;
