//! The CSV enrichment API: submit companies as a job (`create`), read its status and results by
//! cursor (`read`), download them as CSV (`download`).

pub mod body;
pub mod create;
pub mod download;
pub mod errors;
pub mod read;
