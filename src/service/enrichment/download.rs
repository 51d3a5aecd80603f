//! Every processed row of a job with its matched company's short fields, and the `results.csv`
//! built from them: the input columns in their first-seen order, then `matched, company_id,
//! company_name, company_domain, industry, country, employee_count`. A null is an empty cell.

use serde_json::{Map, Value};

use super::JobRow;
use super::results::{company_domain, input_of, row_companies};
use crate::service::{ServiceError, Services};
use crate::store::StoreError;
use crate::store::enrichment::lookup::begin_read;
use crate::store::enrichment::processed_rows;

/// Rows read per statement.
const PAGE_ROWS: i64 = 500;

/// One processed row as the download shows it.
#[derive(Debug, Clone)]
pub struct DownloadRow {
    /// The row as sent.
    pub input: Map<String, Value>,
    pub matched: bool,
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    pub company_domain: Option<String>,
    pub industry: Option<String>,
    pub country: Option<String>,
    pub employee_count: Option<i64>,
}

/// The input columns of a job in their first-seen order.
pub fn input_columns(job: &JobRow) -> Result<Vec<String>, ServiceError> {
    serde_json::from_str(&job.columns).map_err(|err| {
        StoreError::Corrupt(format!("columns of enrichment job {}: {err}", job.id)).into()
    })
}

/// Every processed row of the job, in input order.
pub async fn download_rows(
    services: &Services,
    job: &JobRow,
) -> Result<Vec<DownloadRow>, ServiceError> {
    let mut out = Vec::new();
    let mut from = 0;
    loop {
        let rows = processed_rows(&services.db, &job.id, from, PAGE_ROWS).await?;
        let Some(last) = rows.last() else { break };
        from = last.row_index + 1;
        let mut tx = begin_read(&services.db).await?;
        let companies = row_companies(&mut tx, &rows).await?;
        drop(tx);
        for row in &rows {
            let company = row.company_id.as_ref().and_then(|id| companies.get(id));
            out.push(DownloadRow {
                input: input_of(row)?,
                matched: row.matched,
                company_id: row.company_id.clone(),
                company_name: company.map(|c| c.name.clone()),
                company_domain: company.and_then(company_domain),
                industry: company.and_then(|c| c.industry.clone()),
                country: company.and_then(|c| c.headquarters_country.clone()),
                employee_count: company.and_then(|c| c.employee_count),
            });
        }
    }
    Ok(out)
}

/// The columns the download adds after the input columns.
const RESULT_COLUMNS: [&str; 7] = [
    "matched",
    "company_id",
    "company_name",
    "company_domain",
    "industry",
    "country",
    "employee_count",
];

/// The job's `results.csv`: every processed row, the same for every client.
pub async fn results_csv(services: &Services, job: &JobRow) -> Result<Vec<u8>, ServiceError> {
    let columns = input_columns(job)?;
    let rows = download_rows(services, job).await?;
    let failed = |err: csv::Error| StoreError::Corrupt(format!("results.csv not written: {err}"));
    let mut out = csv::Writer::from_writer(Vec::new());
    let header = columns.iter().map(String::as_str).chain(RESULT_COLUMNS);
    out.write_record(header).map_err(failed)?;
    for row in rows {
        let mut record: Vec<String> = columns.iter().map(|c| cell(row.input.get(c))).collect();
        record.push(row.matched.to_string());
        record.push(row.company_id.unwrap_or_default());
        record.push(row.company_name.unwrap_or_default());
        record.push(row.company_domain.unwrap_or_default());
        record.push(text(row.industry));
        record.push(text(row.country));
        record.push(text(row.employee_count));
        out.write_record(&record).map_err(failed)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|err| StoreError::Corrupt(format!("results.csv not written: {err}")))?;
    Ok(bytes)
}

/// A cell for an input value: text as is, other values as JSON, null or absent as empty.
fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

fn text<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
