use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the C library's allocator: requests, imports and deliveries allocate and
/// free many small values across threads, where glibc's malloc spent a fifth of an import's CPU
/// (perf, BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // One rustls crypto provider for the whole process, installed before any TLS use.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let cli = signalwatch::cli::Cli::parse();
    match signalwatch::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line: the error and its causes, without a backtrace.
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
