//! Black-box tests: each starts the real service with a fresh database and drives it over HTTP.

mod support;

mod admin;
mod errors;
mod funding_list;
mod isolation;
mod lists_support;
mod monitors;
mod ops;
mod targets;
