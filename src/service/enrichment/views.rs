//! The CSV enrichment job as clients see it: status, progress, summary counts and a page of
//! results with the cursor of the next one.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::results::result_views;
use crate::domain::csv_mapping::DetectedMapping;
use crate::domain::time::format_ms;
use crate::service::ServiceError;
use crate::store::Db;
use crate::store::enrichment::{JobRow, processed_rows};

/// The input field recognised for each identifier; `null` when none was.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MappingView {
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub linkedin_url: Option<String>,
}

impl From<DetectedMapping> for MappingView {
    fn from(m: DetectedMapping) -> MappingView {
        MappingView {
            company_name: m.company_name,
            website_url: m.website_url,
            linkedin_url: m.linkedin_url,
        }
    }
}

/// The answer to an accepted job (when not waiting, or when the wait ran out).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedJob {
    pub job_id: String,
    pub detected_mapping: MappingView,
}

/// Rows processed so far out of all rows.
#[derive(Debug, Serialize, ToSchema)]
pub struct Progress {
    pub processed: i64,
    pub total: i64,
}

/// Counts over the processed rows; `with…Signals` count rows whose company has at least one
/// signal of that type.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub total_inputs: i64,
    pub matched: i64,
    pub unmatched: i64,
    pub with_funding_signals: i64,
    pub with_acquisition_signals: i64,
    pub with_hiring_signals: i64,
    pub with_job_change_signals: i64,
}

/// Why a job failed.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobError {
    /// `match_engine_unavailable`.
    pub code: String,
    pub message: String,
}

/// A company's signals by type, newest first, at most 10 of each; `investors` are those of its
/// funding rounds shown here.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct SignalsView {
    #[schema(value_type = Vec<Object>)]
    pub funding: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub acquisition: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub hiring: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub job_change: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub investors: Vec<Value>,
}

/// One row's result.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultView {
    /// The company as sent, every field kept (e.g. `external_id`).
    #[schema(value_type = Object)]
    pub input: Value,
    pub matched: bool,
    pub company_id: Option<String>,
    /// The Company record plus `domain` and `country`; `null` when unmatched.
    #[schema(value_type = Option<Object>)]
    pub company: Option<Value>,
    pub signals: SignalsView,
}

/// A job with a page of its results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub job_id: String,
    /// Only in the answer to a create call that waited for completion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected_mapping: Option<MappingView>,
    /// `pending`, `running`, `completed` or `failed`.
    pub status: String,
    pub file_name: String,
    pub progress: Progress,
    pub submitted_at: String,
    pub completed_at: Option<String>,
    pub summary: Summary,
    /// Processed rows in input order, from the cursor on.
    pub results: Vec<ResultView>,
    /// Cursor of the next page of processed rows; `null` when this page reaches the last one.
    pub next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
}

/// The job with up to `limit` results from row `from` on.
pub async fn job_view(
    db: &Db,
    job: &JobRow,
    from: i64,
    limit: i64,
) -> Result<JobView, ServiceError> {
    let mut rows = processed_rows(db, &job.id, from, limit + 1).await?;
    let next_cursor = match rows.len() > limit as usize {
        true => rows.pop().map(|next| cursor_for(next.row_index)),
        false => None,
    };
    Ok(JobView {
        job_id: job.id.clone(),
        detected_mapping: None,
        status: job.status.clone(),
        file_name: job.file_name.clone(),
        progress: Progress {
            processed: job.processed,
            total: job.total,
        },
        submitted_at: format_ms(job.created_at),
        completed_at: job.completed_at.map(format_ms),
        summary: Summary {
            total_inputs: job.total,
            matched: job.matched,
            unmatched: job.processed - job.matched,
            with_funding_signals: job.with_funding,
            with_acquisition_signals: job.with_acquisition,
            with_hiring_signals: job.with_hiring,
            with_job_change_signals: job.with_job_change,
        },
        results: result_views(db, &rows).await?,
        next_cursor,
        error: job.error_message.clone().map(|message| JobError {
            code: job.error_code.clone().unwrap_or_default(),
            message,
        }),
    })
}

/// The form of a cursor: base64url (no padding) of a 48-bit row index, so every string of this
/// form names a row (one past the last gives an empty page) and the document can say exactly
/// which cursors are accepted.
pub const CURSOR_PATTERN: &str = "^[A-Za-z0-9_-]{8}$";

/// The cursor of the page starting at row `row_index` (0 to 2^48 - 1): opaque to clients.
pub fn cursor_for(row_index: i64) -> String {
    let bytes = row_index.clamp(0, (1 << 48) - 1).to_be_bytes();
    URL_SAFE_NO_PAD.encode(&bytes[2..])
}

/// The row a cursor starts at; `None` for anything not of the form of [`CURSOR_PATTERN`].
pub fn row_of_cursor(cursor: &str) -> Option<i64> {
    if cursor.len() != 8 {
        return None;
    }
    let decoded = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let mut bytes = [0u8; 8];
    bytes[2..].copy_from_slice(decoded.get(..6)?);
    Some(i64::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_to_its_row_and_others_are_refused() {
        assert_eq!(row_of_cursor(&cursor_for(250)), Some(250));
        assert_eq!(row_of_cursor(&cursor_for(0)), Some(0));
        assert_eq!(row_of_cursor("________"), Some((1 << 48) - 1));
        for bad in ["", "abc", "cm93Oi0x0", "cm93Oi0=", " AAAAAAA"] {
            assert!(row_of_cursor(bad).is_none(), "{bad}");
        }
    }
}
