//! The benchmark data set: generated once with `signalwatch demo-data`, then reused.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use serde_json::Value;

/// The import files, in the order `import` loads them.
pub const FILES: &[&str] = &[
    "companies.ndjson",
    "people.ndjson",
    "funding.ndjson",
    "hiring.ndjson",
    "acquisitions.ndjson",
    "job-changes.ndjson",
];

/// A generated data set and the facts the request mix needs from it.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub dir: PathBuf,
    /// Records per file, in [`FILES`] order.
    pub counts: Vec<(String, u64)>,
    /// A company with job changes: its name and website domain, for the identity filters.
    pub company_name: String,
    pub company_domain: String,
}

impl Dataset {
    /// Records in all files.
    pub fn total_records(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }
}

/// Reuses `dir` when it holds every file, else generates it with `demo-data --seed 1`.
pub fn prepare(signalwatch: &Path, scale: &str, dir: &Path) -> anyhow::Result<Dataset> {
    if FILES.iter().all(|f| dir.join(f).is_file()) {
        eprintln!("bench: reusing the data set in {}", dir.display());
    } else {
        eprintln!(
            "bench: generating the {scale} data set in {}",
            dir.display()
        );
        let status = Command::new(signalwatch)
            .args(["demo-data", "--scale", scale, "--seed", "1", "--out"])
            .arg(dir)
            .status()
            .context("running signalwatch demo-data")?;
        if !status.success() {
            bail!("signalwatch demo-data failed: {status}");
        }
    }
    let counts = FILES
        .iter()
        .map(|f| Ok((f.to_string(), count_lines(&dir.join(f))?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (company_name, company_domain) = company_with_job_changes(dir)?;
    Ok(Dataset {
        dir: dir.to_path_buf(),
        counts,
        company_name,
        company_domain,
    })
}

/// Newlines in a file: its records.
pub fn count_lines(path: &Path) -> anyhow::Result<u64> {
    let mut reader = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut count = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(count);
        }
        count += buf.iter().filter(|&&b| b == b'\n').count() as u64;
        let used = buf.len();
        reader.consume(used);
    }
}

/// The company of the first job change: its name and bare website domain.
fn company_with_job_changes(dir: &Path) -> anyhow::Result<(String, String)> {
    let first = first_record(&dir.join("job-changes.ndjson"))?;
    let id = first["companyId"]
        .as_str()
        .context("the first job change has no companyId")?
        .to_string();
    let companies = BufReader::new(File::open(dir.join("companies.ndjson"))?);
    for line in companies.lines() {
        let company: Value = serde_json::from_str(&line?)?;
        if company["id"].as_str() == Some(id.as_str()) {
            let name = company["name"].as_str().unwrap_or_default().to_string();
            let website = company["website"].as_str().unwrap_or_default();
            let domain = website
                .trim_start_matches("https://")
                .trim_start_matches("http://")
                .trim_start_matches("www.")
                .trim_end_matches('/')
                .to_string();
            if name.is_empty() || domain.is_empty() {
                bail!("company {id} of the first job change has no name or website");
            }
            return Ok((name, domain));
        }
    }
    bail!("company {id} of the first job change is not in companies.ndjson")
}

fn first_record(path: &Path) -> anyhow::Result<Value> {
    let mut line = String::new();
    BufReader::new(File::open(path)?).read_line(&mut line)?;
    Ok(serde_json::from_str(&line)?)
}

/// `name` with one letter dropped from its first word: a typo for the fuzzy `company_name`.
pub fn typo(name: &str) -> String {
    let cut = name
        .char_indices()
        .nth(3)
        .map(|(i, _)| i)
        .unwrap_or(name.len());
    let mut out = name[..cut].to_string();
    out.extend(name[cut..].chars().skip(1));
    out
}
