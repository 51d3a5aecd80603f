//! The detail sections of the report: latency per request, failures, import output.

use std::fmt::Write;

use super::load::percentile;
use super::report::{BackendResult, Context, ms};

/// Per request of the mix: cold, p50 and p99 latency of each run, then the requests.
pub fn per_request(out: &mut String, ctx: &Context, results: &[BackendResult]) {
    let _ = writeln!(out, "\n## Single-client latency per request (ms)\n");
    let _ = writeln!(
        out,
        "`cold` is the first answer after the server started (warm-up round, not in p50/p99).\n"
    );
    let _ = write!(out, "| request |");
    for r in results {
        let _ = write!(out, " {0} cold | {0} p50 | {0} p99 |", r.backend);
    }
    let _ = writeln!(out, "\n|---|{}", "---:|---:|---:|".repeat(results.len()));
    for (i, request) in ctx.mix.iter().enumerate() {
        let _ = write!(out, "| {} |", request.name);
        for r in results {
            let samples = &r.sequential.per_request[i];
            let cold = r.sequential.cold[i];
            let (p50, p99) = (percentile(samples, 50.0), percentile(samples, 99.0));
            let _ = write!(out, " {} | {} | {} |", ms(cold), ms(p50), ms(p99));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nRequests:\n");
    for request in ctx.mix {
        let _ = writeln!(out, "- {}: `{}`", request.name, request.path_and_query);
    }
}

/// The first failures, and the import output of each run.
pub fn failures_and_imports(out: &mut String, results: &[BackendResult]) {
    for r in results {
        let all = [&r.sequential.failures, &r.mix.failures, &r.health.failures];
        if all.iter().any(|f| f.count > 0) {
            let _ = writeln!(out, "\n## Failures on {}\n", r.backend);
            for f in all.iter().flat_map(|f| f.first.iter()) {
                let _ = writeln!(out, "- `{f}`");
            }
        }
        if let Some((_, output)) = &r.import {
            let _ = writeln!(
                out,
                "\n## Import output on {}\n\n```\n{output}```",
                r.backend
            );
        }
    }
}
