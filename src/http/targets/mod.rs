//! The Monitoring API's target endpoints.

pub mod add;
pub mod entries;
pub mod list;
pub mod remove;
pub mod views;
