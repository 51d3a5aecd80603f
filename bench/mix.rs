//! The fixed request mix: every list, with the common filters, `count=true`, free-text search,
//! the hiring description query and deep pages. Parameter names follow
//! src/http/signals/filters.rs and src/http/companies.rs.

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

use super::dataset::{Dataset, typo};

/// One request of the mix.
#[derive(Debug, Clone)]
pub struct MixRequest {
    /// Short label in the report.
    pub name: String,
    /// Path and query, e.g. `/api/v2/signals/funding?round=seed`.
    pub path_and_query: String,
}

const FUNDING: &str = "/api/v2/signals/funding";
const HIRING: &str = "/api/v2/signals/hiring";
const ACQUISITIONS: &str = "/api/v2/signals/acquisitions";
const JOB_CHANGES: &str = "/api/v2/signals/job-changes";
const COMPANIES: &str = "/api/v2/companies";

/// The mix for `data`: identity filters use one of its companies.
pub fn mix(data: &Dataset) -> Vec<MixRequest> {
    let domain = data.company_domain.as_str();
    let fuzzy = typo(&data.company_name);
    let fuzzy = fuzzy.as_str();
    vec![
        req("funding: default page", FUNDING, &[]),
        req(
            "funding: last_30d DACH series a/b by amount",
            FUNDING,
            &[
                ("date_preset", "last_30d"),
                ("countries", "DACH"),
                ("round", "series a,series b"),
                ("sort_by", "amount"),
            ],
        ),
        req(
            "funding: US amount_min 10M by amount",
            FUNDING,
            &[
                ("countries", "US"),
                ("amount_min", "10000000"),
                ("sort_by", "amount"),
            ],
        ),
        req(
            "funding: search + count=true",
            FUNDING,
            &[("search", "payments"), ("count", "true")],
        ),
        req(
            "funding: company_domain",
            FUNDING,
            &[("company_domain", domain)],
        ),
        req("funding: deep page 500", FUNDING, &[("page", "500")]),
        req("hiring: default page", HIRING, &[]),
        req(
            "hiring: description query",
            HIRING,
            &[("description", "kubernetes OR terraform -intern")],
        ),
        req(
            "hiring: positions + countries EU",
            HIRING,
            &[("positions", "engineering manager"), ("countries", "EU")],
        ),
        req(
            "hiring: last_7d job_countries US by date_posted",
            HIRING,
            &[
                ("date_preset", "last_7d"),
                ("job_countries", "US"),
                ("sort_by", "date_posted"),
            ],
        ),
        req(
            "hiring: search + count=true",
            HIRING,
            &[("search", "machine learning"), ("count", "true")],
        ),
        req(
            "hiring: seniorities + departments",
            HIRING,
            &[
                ("seniorities", "director,head"),
                ("departments", "engineering"),
            ],
        ),
        req(
            "hiring: company_name fuzzy",
            HIRING,
            &[("company_name", fuzzy)],
        ),
        req(
            "hiring: deep page 500 limit 100",
            HIRING,
            &[("page", "500"), ("limit", "100")],
        ),
        req("acquisitions: default page", ACQUISITIONS, &[]),
        req(
            "acquisitions: acquirer US amount_min 100M",
            ACQUISITIONS,
            &[
                ("acquirer_countries", "US"),
                ("amount_min", "100000000"),
                ("sort_by", "amount"),
            ],
        ),
        req(
            "acquisitions: last_1y count=true",
            ACQUISITIONS,
            &[("date_preset", "last_1y"), ("count", "true")],
        ),
        req("job-changes: default page", JOB_CHANGES, &[]),
        req(
            "job-changes: positions cto/ceo NA last_90d",
            JOB_CHANGES,
            &[
                ("positions", "cto,ceo"),
                ("countries", "NA"),
                ("date_preset", "last_90d"),
            ],
        ),
        req(
            "job-changes: search + source",
            JOB_CHANGES,
            &[("search", "product"), ("source", "press_release")],
        ),
        req(
            "job-changes: company_domain",
            JOB_CHANGES,
            &[("company_domain", domain)],
        ),
        req(
            "companies: search US count=true",
            COMPANIES,
            &[
                ("search", "payments"),
                ("countries", "US"),
                ("count", "true"),
            ],
        ),
        req(
            "companies: EUROPE employees>=50 by employee_count",
            COMPANIES,
            &[
                ("countries", "EUROPE"),
                ("employee_count_min", "50"),
                ("sort_by", "employee_count"),
            ],
        ),
        req(
            "companies: subcategories by founded_year",
            COMPANIES,
            &[
                ("subcategories", "fintech,payments"),
                ("sort_by", "founded_year"),
            ],
        ),
        req("companies: domain", COMPANIES, &[("domain", domain)]),
        req("companies: deep page 500", COMPANIES, &[("page", "500")]),
    ]
}

fn req(name: &str, path: &str, params: &[(&str, &str)]) -> MixRequest {
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{k}={}", utf8_percent_encode(v, NON_ALPHANUMERIC)))
        .collect();
    let path_and_query = if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", query.join("&"))
    };
    MixRequest {
        name: name.to_string(),
        path_and_query,
    }
}
