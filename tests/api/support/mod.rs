//! The test harness: the real service started on port 0 with a fresh database, driven over HTTP.

pub mod app;
pub mod backend;
pub mod edgar;
pub mod event_receiver;
pub mod process;
pub mod receiver;
pub mod smtp_sink;

pub use app::{Team, TestApp, TestResponse};
pub use backend::Backend;

/// Declares black-box tests that run once per database backend. Each named `async fn(Backend)`
/// gets a module with `on_sqlite` and `on_postgres`; the latter runs only when
/// `SIGNALWATCH_TEST_POSTGRES_URL` is set.
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
                async fn on_postgres() {
                    if let Some(backend) = $crate::support::Backend::postgres() {
                        super::$test(backend).await
                    }
                }
            }
        )*
    };
}
