//! The test harness: the real service started on port 0 with a fresh database, driven over HTTP.

pub mod app;
pub mod backend;
pub mod browser;
pub mod command;
pub mod dashboard;
pub mod demo;
pub mod edgar;
pub mod event_receiver;
pub mod process;
pub mod receiver;
pub mod smtp_sink;
pub mod sources;

pub use app::{Team, TestApp, TestResponse};
pub use backend::{Backend, redis_url};

/// The names of the files in `dir`, sorted.
pub fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Declares black-box tests that run once per database backend. Each named `async fn(Backend)`
/// gets a module with `on_sqlite` and `on_postgres`. The PostgreSQL variant is ignored unless
/// asked for (`cargo nextest run --run-ignored all`, with `SIGNALWATCH_TEST_POSTGRES_URL` set), so
/// a run without a server reports it as skipped, never as passed; asked for without the variable,
/// it fails saying so.
#[macro_export]
macro_rules! each_backend {
    ($($test:ident),* $(,)?) => {
        $(
            mod $test {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn on_sqlite() {
                    super::$test($crate::support::Backend::Sqlite).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
                async fn on_postgres() {
                    super::$test($crate::support::Backend::postgres()).await
                }
            }
        )*
    };
}
