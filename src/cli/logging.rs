//! Where a process's log events go: stderr, always (stdout carries what the commands print for
//! their user: `serve --demo`'s sign-in link, `admin`'s JSON, `import`'s summary lines).
//!
//! `serve` logs at the configured filter (`SIGNALWATCH_LOG`, `info` by default). The operator
//! commands (`import`, `admin`) log only warnings and errors unless `SIGNALWATCH_LOG` asks for
//! more: they report their own progress, and what the store warns about while they run (a
//! memory setting SQLite refused, say) would otherwise be lost.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// The filter of the operator commands when `SIGNALWATCH_LOG` is not set.
const OPERATOR_FILTER: &str = "warn";

/// Sends the process's log events to stderr through `filter` (tracing env-filter syntax; an
/// invalid one falls back to `fallback`), in `format`; colours only when stderr is a terminal,
/// so a log file or a collector gets plain text.
pub fn init(filter: &str, fallback: &str, format: LogFormat) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new(fallback));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// Logging for an operator command: `SIGNALWATCH_LOG` when set, else warnings and errors only;
/// `SIGNALWATCH_LOG_FORMAT=json` for JSON lines, as for `serve`.
pub fn init_for_operator() {
    let filter = std::env::var("SIGNALWATCH_LOG").unwrap_or_default();
    let filter = if filter.trim().is_empty() {
        OPERATOR_FILTER
    } else {
        filter.as_str()
    };
    let format = match std::env::var("SIGNALWATCH_LOG_FORMAT") {
        Ok(value) if value.trim().eq_ignore_ascii_case("json") => LogFormat::Json,
        _ => LogFormat::Text,
    };
    init(filter, OPERATOR_FILTER, format);
}
