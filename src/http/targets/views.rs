//! The Target resource as clients see it.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::company::shown_slug;
use crate::domain::time::format_ms;
use crate::service::targets::TargetView;

/// A target: a domain or LinkedIn page a monitor watches, and the company it resolved to.
#[derive(Debug, Serialize, ToSchema)]
pub struct TargetOut {
    pub id: String,
    pub monitor_id: String,
    /// `domain`, `linkedin_company` or `linkedin_profile`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Normalized identifier.
    pub value: String,
    /// `resolved` or `pending`.
    pub status: &'static str,
    /// The matched company; `null` while pending.
    pub company: Option<TargetCompany>,
    pub resolved_at: Option<String>,
    /// Type of the company's most recent signal of any type.
    pub last_signal_type: Option<String>,
    pub last_signal_at: Option<String>,
    pub created_at: String,
    /// Why the last look-up of a pending target's website failed; `null` otherwise.
    pub research_error: Option<String>,
}

/// The company a target resolved to.
#[derive(Debug, Serialize, ToSchema)]
pub struct TargetCompany {
    pub id: String,
    pub name: Option<String>,
    pub slug: Option<String>,
    pub domain: Option<String>,
    pub industry: Option<String>,
    /// Headquarters country code.
    pub country: Option<String>,
}

impl From<TargetView> for TargetOut {
    fn from(t: TargetView) -> TargetOut {
        let slug = t
            .company_name
            .as_deref()
            .map(|name| shown_slug(t.company_slug.as_deref(), name));
        let research_error = t.research_error.filter(|_| t.company_id.is_none());
        let company = t.company_id.map(|id| TargetCompany {
            id,
            name: t.company_name,
            slug,
            domain: t.company_domain,
            industry: t.company_industry,
            country: t.company_country,
        });
        TargetOut {
            id: t.id,
            monitor_id: t.monitor_id,
            kind: t.kind,
            value: t.value,
            status: if company.is_some() {
                "resolved"
            } else {
                "pending"
            },
            company,
            resolved_at: t.resolved_at.map(format_ms),
            last_signal_type: t.last_signal_type,
            last_signal_at: t.last_signal_at.map(format_ms),
            created_at: format_ms(t.created_at),
            research_error,
        }
    }
}
