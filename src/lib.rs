//! signalwatch: account monitoring, business signals and company enrichment over a REST API.
//!
//! The crate is laid out by responsibility: `domain` holds pure rules, `store` owns every SQL
//! statement, `service` holds the use cases every client calls, `ingest` accepts records and
//! writes the outbox, `http` is the axum edge, `delivery` sends to customer endpoints, and `app`
//! wires them into one process. docs/ARCHITECTURE.md tells the whole story.

pub mod app;
pub mod cli;
pub mod collectors;
pub mod config;
pub mod delivery;
pub mod demo;
pub mod domain;
pub mod enrichment;
pub mod http;
pub mod ingest;
pub mod research;
pub mod service;
pub mod store;
