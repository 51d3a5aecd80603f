//! The CSV enrichment measurement: jobs of 1,000 companies (names, domains and LinkedIn
//! URLs of the data set, and a few names it does not hold) submitted with
//! `POST /api/v2/csv-enrichment`, each timed from the submit to the job status `completed`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};

/// Companies per job: the API's most.
pub const ROWS: usize = 1_000;
/// How often a job's status is read while it runs.
const POLL: Duration = Duration::from_millis(5);
/// A job that has not completed after this long fails the run.
const JOB_TIMEOUT: Duration = Duration::from_secs(300);

/// The companies of `jobs` jobs, each job a different slice of the data set's companies.
pub fn job_inputs(data_dir: &Path, jobs: usize) -> anyhow::Result<Vec<Vec<Value>>> {
    let path = data_dir.join("companies.ndjson");
    let total = super::dataset::count_lines(&path)? as usize;
    let wanted = jobs * ROWS;
    // Spread the picks over the whole file, so jobs touch cold and warm parts of the database.
    let step = (total / wanted.max(1)).max(1);
    let reader = BufReader::with_capacity(1 << 20, File::open(&path)?);
    let mut picked = Vec::with_capacity(wanted);
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if i % step != 0 || line.trim().is_empty() {
            continue;
        }
        let company: Value = serde_json::from_str(&line)?;
        picked.push(input_row(picked.len(), &company));
        if picked.len() == wanted {
            break;
        }
    }
    if picked.len() < wanted {
        bail!("{} holds fewer than {wanted} companies", path.display());
    }
    Ok(picked.chunks(ROWS).map(<[Value]>::to_vec).collect())
}

/// Row `n` of the input: by turns a name, a domain or a LinkedIn URL; every 20th row names a
/// company the data set does not hold (an unmatched row).
fn input_row(n: usize, company: &Value) -> Value {
    let field = |key: &str| company[key].as_str().unwrap_or_default().to_string();
    let external_id = format!("row-{n}");
    if n % 20 == 19 {
        return json!({ "company_name": format!("Unheard Of Holdings {n}"), "external_id": external_id });
    }
    match n % 3 {
        0 => json!({ "company_name": field("name"), "external_id": external_id }),
        1 => {
            let domain = field("website")
                .trim_start_matches("https://")
                .trim_start_matches("http://")
                .trim_start_matches("www.")
                .trim_end_matches('/')
                .to_string();
            json!({ "website_url": domain, "external_id": external_id })
        }
        _ => json!({ "linkedin_url": field("linkedinUrl"), "external_id": external_id }),
    }
}

/// What the enrichment jobs measured.
#[derive(Debug, Default)]
pub struct Enrichment {
    /// Submit to `completed`, per job.
    pub jobs: Vec<Duration>,
    /// Matched rows per job, as the job summary counts them.
    pub matched: Vec<i64>,
    /// Why the jobs could not all be measured, if so.
    pub error: Option<String>,
}

/// Submits the jobs one after another (to the API processes in turn) and times each to
/// completion; a failure ends the phase and is kept in `error`, not fatal to the run.
pub async fn run(bases: &[String], api_key: &str, inputs: &[Vec<Value>]) -> Enrichment {
    let mut out = Enrichment::default();
    if let Err(e) = run_jobs(bases, api_key, inputs, &mut out).await {
        out.error = Some(format!("{e:#}"));
    }
    out
}

async fn run_jobs(
    bases: &[String],
    api_key: &str,
    inputs: &[Vec<Value>],
    out: &mut Enrichment,
) -> anyhow::Result<()> {
    let client = super::load::client()?;
    for (n, companies) in inputs.iter().enumerate() {
        let base = &bases[n % bases.len()];
        let started = Instant::now();
        let job_id = submit(&client, base, api_key, companies).await?;
        let matched = wait_completed(&client, base, api_key, &job_id).await?;
        out.jobs.push(started.elapsed());
        out.matched.push(matched);
    }
    Ok(())
}

async fn submit(
    client: &reqwest::Client,
    base: &str,
    api_key: &str,
    companies: &[Value],
) -> anyhow::Result<String> {
    let response = client
        .post(format!("{base}/api/v2/csv-enrichment"))
        .bearer_auth(api_key)
        .json(&json!({ "fileName": "bench.csv", "companies": companies }))
        .send()
        .await?;
    let status = response.status();
    let body: Value = response.json().await?;
    if !status.is_success() {
        bail!("POST /api/v2/csv-enrichment answered {status}: {body}");
    }
    body["data"]["jobId"]
        .as_str()
        .map(str::to_string)
        .context("no data.jobId in the enrichment job answer")
}

/// Polls the job until it is `completed`; returns its matched count.
async fn wait_completed(
    client: &reqwest::Client,
    base: &str,
    api_key: &str,
    job_id: &str,
) -> anyhow::Result<i64> {
    let started = Instant::now();
    let url = format!("{base}/api/v2/csv-enrichment/{job_id}?limit=1");
    while started.elapsed() < JOB_TIMEOUT {
        let body: Value = client
            .get(&url)
            .bearer_auth(api_key)
            .send()
            .await?
            .json()
            .await?;
        match body["data"]["status"].as_str() {
            Some("completed") => {
                return Ok(body["data"]["summary"]["matched"].as_i64().unwrap_or(0));
            }
            Some("failed") => bail!("enrichment job {job_id} failed: {body}"),
            Some(_) => tokio::time::sleep(POLL).await,
            None => bail!("enrichment job {job_id}: unexpected answer {body}"),
        }
    }
    bail!("enrichment job {job_id} did not complete within {JOB_TIMEOUT:?}")
}
