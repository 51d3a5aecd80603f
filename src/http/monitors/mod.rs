//! The Monitoring API's monitor endpoints.

pub mod create;
pub mod input;
pub mod read;
pub mod update;
pub mod views;
