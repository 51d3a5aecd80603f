//! A small data set for the parameters the real service's clients send beyond the reference:
//! three companies, their funding rounds, job postings placed relative to today (validity and
//! age), and two job changes, loaded through the admin API.

#![allow(dead_code)]

use chrono::{Days, NaiveDate, Utc};
use serde_json::{Value, json};

use crate::lists_support::{Lists, import_signals};
use crate::support::Backend;

pub const ALPHA: &str = "c1000000-0000-4000-8000-000000000001";
pub const BETA: &str = "c1000000-0000-4000-8000-000000000002";
pub const GAMMA: &str = "c1000000-0000-4000-8000-000000000003";

/// Gamma's seed round (June 2025, Sequoia Capital, a VC).
pub const GAMMA_SEED: &str = "f1000000-0000-4000-8000-000000000001";
/// Gamma's series A (January 2024, Big Equity Partners, private equity).
pub const GAMMA_SERIES_A: &str = "f1000000-0000-4000-8000-000000000002";
/// Alpha's series A (February 2025, Jane Angel, an angel).
pub const ALPHA_SERIES_A: &str = "f1000000-0000-4000-8000-000000000003";

/// Gamma, Berlin, posted 40 days ago, expired yesterday, remote.
pub const SOFTWARE_ENGINEER: &str = "b1000000-0000-4000-8000-000000000001";
/// Gamma, Munich, posted 5 days ago, valid for 30 more days, hybrid.
pub const SALES_MANAGER: &str = "b1000000-0000-4000-8000-000000000002";
/// Alpha, "Remote - US" without a work mode, posted 2 days ago, no end.
pub const DATA_SCIENTIST: &str = "b1000000-0000-4000-8000-000000000003";
/// Beta, Toronto, posted 100 days ago, no end, on site.
pub const FITNESS_COACH: &str = "b1000000-0000-4000-8000-000000000004";
/// Gamma, Berlin, posted 10 days ago, valid through today.
pub const MARKETING_MANAGER: &str = "b1000000-0000-4000-8000-000000000005";

/// Jane Doe becomes a Senior Engineer at Gamma.
pub const JANE_ENGINEER: &str = "e1000000-0000-4000-8000-000000000001";
/// John Roe becomes VP Sales at Beta.
pub const JOHN_VP_SALES: &str = "e1000000-0000-4000-8000-000000000002";

pub const HIRING: &str = "/api/v2/signals/hiring";
pub const FUNDING: &str = "/api/v2/signals/funding";
pub const JOB_CHANGES: &str = "/api/v2/signals/job-changes";
pub const ACQUISITIONS: &str = "/api/v2/signals/acquisitions";
pub const COMPANIES: &str = "/api/v2/companies";

/// Today in UTC.
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// `days` before today (negative: after), as `YYYY-MM-DD`.
pub fn day(days: i64) -> String {
    let date = if days >= 0 {
        today().checked_sub_days(Days::new(days as u64))
    } else {
        today().checked_add_days(Days::new(days.unsigned_abs()))
    };
    date.expect("a date").format("%Y-%m-%d").to_string()
}

/// Noon of `days` before today, as an RFC 3339 timestamp.
pub fn noon(days: i64) -> String {
    format!("{}T12:00:00Z", day(days))
}

/// A service with a team and the data set loaded.
pub async fn with_data(backend: Backend) -> Lists {
    let lists = Lists::empty(backend).await;
    lists.app.import_companies(companies()).await;
    import_signals(&lists.app, "funding", funding_rounds()).await;
    import_signals(&lists.app, "hiring", postings()).await;
    import_signals(&lists.app, "job-changes", job_changes()).await;
    lists
}

fn companies() -> Value {
    json!([
        {
            "id": ALPHA, "name": "Alpha Staffing", "website": "https://alpha.example",
            "linkedinUrl": "https://www.linkedin.com/company/alpha-staffing",
            "industry": "Staffing and Recruiting", "foundedYear": 1750,
            "headquartersCountry": "US", "employeeCount": 5, "categories": ["Services"],
            "growthInfo": { "growth_1m": 1.0, "growth_3m": 2.0, "growth_6m": 4.0, "growth_9m": 9.0, "growth_12m": 30.0 }
        },
        {
            "id": BETA, "name": "Beta Wellness", "website": "https://beta.example",
            "linkedinUrl": "https://www.linkedin.com/company/beta-wellness",
            "industry": "Wellness and Fitness Services", "foundedYear": 2015,
            "headquartersCountry": "CA", "employeeCount": 120, "categories": ["Health"],
            "subcategory": "sports",
            "growthInfo": { "growth_3m": 1.0, "growth_12m": 5.0 }
        },
        {
            "id": GAMMA, "name": "Gamma Soft", "website": "https://gamma.example",
            "linkedinUrl": "https://www.linkedin.com/company/gamma-soft",
            "industry": "Software", "foundedYear": 2001, "subcategory": "saas",
            "headquartersCountry": "DE", "employeeCount": 40, "categories": ["Software"],
            "growthInfo": { "growth_3m": 12.0, "growth_12m": 8.0 }
        }
    ])
}

fn investor(name: &str, kind: &str) -> Value {
    json!({ "name": name, "type": kind, "isLead": true })
}

fn funding_rounds() -> Value {
    json!([
        {
            "signalId": GAMMA_SEED, "companyId": GAMMA, "occurredAt": "2025-06-01T09:00:00Z",
            "discoveredAt": "2025-06-20T09:00:00Z", "roundType": "seed", "amount": 3_000_000,
            "currency": "EUR", "announcedDate": "2025-06-01",
            "investors": [investor("Sequoia Capital", "vc")]
        },
        {
            "signalId": GAMMA_SERIES_A, "companyId": GAMMA, "occurredAt": "2024-01-10T09:00:00Z",
            "discoveredAt": "2024-01-11T09:00:00Z", "roundType": "series a", "amount": 9_000_000,
            "currency": "USD", "announcedDate": "2024-01-10",
            "investors": [investor("Big Equity Partners", "pe")]
        },
        {
            "signalId": ALPHA_SERIES_A, "companyId": ALPHA, "occurredAt": "2025-02-01T09:00:00Z",
            "discoveredAt": "2025-06-25T09:00:00Z", "roundType": "series a", "amount": 1_000_000,
            "currency": "USD", "announcedDate": "2025-02-01",
            "investors": [investor("Jane Angel", "angel"), "Plain Name Fund"]
        }
    ])
}

fn posting(
    id: &str,
    company: &str,
    title: &str,
    place: (&str, Option<&str>, Option<&str>),
) -> Value {
    let (location, city, region) = place;
    json!({
        "id": id, "companyId": company, "title": title, "location": location, "city": city,
        "region": region, "jobUrl": format!("https://jobs.example/{id}")
    })
}

fn postings() -> Value {
    let mut engineer = posting(
        SOFTWARE_ENGINEER,
        GAMMA,
        "Senior Software Engineer",
        ("Berlin, Germany", Some("Berlin"), None),
    );
    engineer["datePosted"] = json!(noon(40));
    engineer["validThrough"] = json!(format!("{}T23:00:00.000Z", day(1)));
    engineer["workMode"] = json!("remote");
    let mut sales = posting(
        SALES_MANAGER,
        GAMMA,
        "Regional Sales Manager",
        ("Munich, Bavaria", Some("Munich"), Some("Bavaria")),
    );
    sales["datePosted"] = json!(noon(5));
    sales["validThrough"] = json!(noon(-30));
    sales["workMode"] = json!("Hybrid");
    let mut data = posting(
        DATA_SCIENTIST,
        ALPHA,
        "Data Scientist",
        ("Remote - US", None, None),
    );
    data["datePosted"] = json!(noon(2));
    let mut coach = posting(
        FITNESS_COACH,
        BETA,
        "Fitness Coach",
        ("Toronto, Ontario", Some("Toronto"), Some("Ontario")),
    );
    coach["datePosted"] = json!(noon(100));
    coach["workMode"] = json!("onsite");
    let mut marketing = posting(
        MARKETING_MANAGER,
        GAMMA,
        "Product Marketing Manager",
        ("Berlin", None, None),
    );
    marketing["datePosted"] = json!(noon(10));
    marketing["validThrough"] = json!(day(0));
    json!([engineer, sales, data, coach, marketing])
}

fn job_changes() -> Value {
    json!([
        {
            "signalId": JANE_ENGINEER, "companyId": GAMMA, "occurredAt": noon(3),
            "personName": "Jane Doe", "personLinkedinUrl": "https://www.linkedin.com/in/jane-doe",
            "newRole": "Senior Engineer", "personCity": "Hamburg", "source": "linkedin"
        },
        {
            "signalId": JOHN_VP_SALES, "companyId": BETA, "occurredAt": noon(4),
            "personName": "John Roe", "personLinkedinUrl": "https://www.linkedin.com/in/john-roe",
            "newRole": "VP Sales", "personCity": "Vancouver", "source": "linkedin"
        }
    ])
}

/// `ids` sorted, for comparing sets of rows.
pub fn set(ids: &[&str]) -> Vec<String> {
    let mut ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    ids.sort();
    ids
}

/// The sorted ids of a list answer.
pub async fn ids_of(lists: &Lists, path: &str, params: &[(&str, &str)]) -> Vec<String> {
    let mut ids = lists.ids(path, params).await;
    ids.sort();
    ids
}

/// Asserts a 400 whose message names `parameter`.
pub async fn refused_naming(lists: &Lists, path: &str, params: &[(&str, &str)], parameter: &str) {
    let message = lists.refused(path, params).await;
    assert!(
        message.contains(parameter),
        "{params:?}: the message names {parameter}: {message}"
    );
}
