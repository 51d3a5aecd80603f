//! Black-box tests: each starts the real service with a fresh database and drives it over HTTP.

mod support;

mod admin;
mod errors;
mod isolation;
mod monitors;
mod ops;
mod targets;
