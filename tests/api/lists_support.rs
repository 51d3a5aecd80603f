//! A small known data set for the list tests, and the helpers they read with.
//!
//! Seven companies (one without a headquarters country) and signals of every kind at fixed
//! instants in 2025, loaded through the admin import API exactly as an operator would. The date
//! presets need signals placed relative to today; [`preset_days`] and [`preset_ranges`] give
//! those days and what each preset must cover, from the rules of the date presets.
//!
//! Every id is a UUID whose first group tells its kind (`c…` companies, `f…` funding, `b…`
//! hiring, `a…` acquisitions, `e…` job changes), so ties broken by id have a known order.

#![allow(dead_code)]

use chrono::{Datelike, Days, Months, NaiveDate, Utc};
use serde_json::{Value, json};

use crate::support::{Team, TestApp, TestResponse};

pub const FUNDING: &str = "/api/v2/signals/funding";
pub const HIRING: &str = "/api/v2/signals/hiring";
pub const ACQUISITIONS: &str = "/api/v2/signals/acquisitions";
pub const JOB_CHANGES: &str = "/api/v2/signals/job-changes";
pub const COMPANIES: &str = "/api/v2/companies";

/// Company ids.
pub mod company {
    pub const ACME: &str = "c0000000-0000-4000-8000-000000000001";
    pub const GLOBEX: &str = "c0000000-0000-4000-8000-000000000002";
    pub const INITECH: &str = "c0000000-0000-4000-8000-000000000003";
    pub const UMBRELLA: &str = "c0000000-0000-4000-8000-000000000004";
    pub const HOOLI: &str = "c0000000-0000-4000-8000-000000000005";
    pub const NOWHERE: &str = "c0000000-0000-4000-8000-000000000006";
    pub const VANDELAY: &str = "c0000000-0000-4000-8000-000000000007";
    /// Created by the acquisitions import from the `acquiringCompany` object.
    pub const MASSIVE: &str = "c0000000-0000-4000-8000-000000000008";
}

/// Funding round ids, named after the funded company and the round.
pub mod funding {
    pub const HOOLI_SERIES_A: &str = "f0000000-0000-4000-8000-000000000001";
    pub const UMBRELLA_PRE_SEED: &str = "f0000000-0000-4000-8000-000000000002";
    pub const ACME_SERIES_A: &str = "f0000000-0000-4000-8000-000000000003";
    pub const GLOBEX_SEED: &str = "f0000000-0000-4000-8000-000000000004";
    pub const NOWHERE_SEED: &str = "f0000000-0000-4000-8000-000000000005";
    pub const VANDELAY_DEBT: &str = "f0000000-0000-4000-8000-000000000006";
    pub const INITECH_SERIES_B: &str = "f0000000-0000-4000-8000-000000000007";
}

/// Job posting ids, named after the company and the job.
pub mod hiring {
    pub const ACME_VP_ENGINEERING: &str = "b0000000-0000-4000-8000-000000000001";
    pub const GLOBEX_JAVA: &str = "b0000000-0000-4000-8000-000000000002";
    pub const GLOBEX_FRONTEND: &str = "b0000000-0000-4000-8000-000000000003";
    pub const INITECH_HEAD_OF_PRODUCT: &str = "b0000000-0000-4000-8000-000000000004";
    pub const NOWHERE_MARKETING: &str = "b0000000-0000-4000-8000-000000000005";
    pub const VANDELAY_DATA: &str = "b0000000-0000-4000-8000-000000000006";
    pub const HOOLI_COFOUNDER: &str = "b0000000-0000-4000-8000-000000000007";
    pub const NOWHERE_BACKEND: &str = "b0000000-0000-4000-8000-000000000008";
}

/// Acquisition ids, named "acquirer buys acquired".
pub mod deal {
    pub const HOOLI_BUYS_NOWHERE: &str = "a0000000-0000-4000-8000-000000000001";
    pub const GLOBEX_BUYS_UMBRELLA: &str = "a0000000-0000-4000-8000-000000000002";
    pub const VANDELAY_BUYS_INITECH: &str = "a0000000-0000-4000-8000-000000000003";
    pub const MASSIVE_BUYS_ACME: &str = "a0000000-0000-4000-8000-000000000004";
}

/// Job change ids, named after the person and the move.
pub mod job_change {
    pub const JANE_CTO_AT_ACME: &str = "e0000000-0000-4000-8000-000000000001";
    pub const JOHN_VP_SALES_AT_GLOBEX: &str = "e0000000-0000-4000-8000-000000000002";
    pub const ANA_HEAD_OF_MARKETING_AT_NOWHERE: &str = "e0000000-0000-4000-8000-000000000003";
    pub const LI_ENGINEERING_MANAGER_AT_VANDELAY: &str = "e0000000-0000-4000-8000-000000000004";
    pub const MAX_COFOUNDER_AT_HOOLI: &str = "e0000000-0000-4000-8000-000000000005";
}

// ---------------------------------------------------------------------------------------------
// The fixture: a running service, a team with plenty of credits, and the data loaded
// ---------------------------------------------------------------------------------------------

/// One filter case: the query parameters and the ids expected back, in order.
pub type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);

/// A running service with a team to read the lists as.
pub struct Lists {
    pub app: TestApp,
    pub team: Team,
}

impl Lists {
    /// A service with an empty database and a team holding 100,000 credits.
    pub async fn empty(backend: crate::support::Backend) -> Lists {
        let app = TestApp::start(backend).await;
        let team = app.create_team_with(json!({ "credits": 100_000 })).await;
        Lists { app, team }
    }

    /// The seven known companies, no signals.
    pub async fn with_companies(backend: crate::support::Backend) -> Lists {
        let lists = Lists::empty(backend).await;
        lists.app.import_companies(companies()).await;
        lists
    }

    /// The known companies and every known signal.
    pub async fn with_known_data(backend: crate::support::Backend) -> Lists {
        let lists = Lists::with_companies(backend).await;
        import_signals(&lists.app, "funding", funding_rounds()).await;
        import_signals(&lists.app, "hiring", job_postings()).await;
        import_signals(&lists.app, "acquisitions", acquisitions()).await;
        import_signals(&lists.app, "job-changes", job_changes()).await;
        lists
    }

    /// GET `path` with the query `params`, as the team.
    pub async fn get(&self, path: &str, params: &[(&str, &str)]) -> TestResponse {
        self.app.get(&url(path, params), &self.team.key).await
    }

    /// The `name` of each row of a page, in the order listed.
    pub async fn names(&self, path: &str, params: &[(&str, &str)]) -> Vec<String> {
        self.rows(path, params)
            .await
            .iter()
            .map(|r| r["name"].as_str().expect("name").to_string())
            .collect()
    }

    /// The `name` of each row of a page, sorted.
    pub async fn sorted_names(&self, path: &str, params: &[(&str, &str)]) -> Vec<String> {
        let mut names = self.names(path, params).await;
        names.sort();
        names
    }

    /// The records of a successful list answer.
    pub async fn rows(&self, path: &str, params: &[(&str, &str)]) -> Vec<Value> {
        let response = self.get(path, params).await;
        assert_eq!(
            response.status,
            200,
            "GET {}: {:?}",
            url(path, params),
            response.body
        );
        let rows = response
            .data()
            .as_array()
            .unwrap_or_else(|| panic!("data is an array: {:?}", response.body))
            .clone();
        // A first page that is not full holds every match: the count must say as many (counts
        // and pages are computed apart, each by its own plan). `count_companies` counts
        // companies, not rows.
        let paged = params
            .iter()
            .any(|(name, _)| matches!(*name, "page" | "limit" | "count_companies"));
        let total = response.body["pagination"].get("totalCount");
        if let Some(total) = total.filter(|t| t.is_number() && !paged && rows.len() < 25) {
            assert_eq!(
                *total,
                rows.len(),
                "GET {}: totalCount against the rows of a first page",
                url(path, params)
            );
        }
        rows
    }

    /// The ids of the records of a successful list answer, in order.
    pub async fn ids(&self, path: &str, params: &[(&str, &str)]) -> Vec<String> {
        self.rows(path, params)
            .await
            .iter()
            .map(record_id)
            .collect()
    }

    /// Asserts a 400 in the error envelope and returns its message.
    pub async fn refused(&self, path: &str, params: &[(&str, &str)]) -> String {
        let response = self.get(path, params).await;
        assert_bad_request(&response);
        response.error().to_string()
    }

    /// The team's credit balance, read through the admin API.
    pub async fn balance(&self) -> i64 {
        balance_of(&self.app, &self.team).await
    }
}

/// A team's credit balance, read through the admin API.
pub async fn balance_of(app: &TestApp, team: &Team) -> i64 {
    let response = app
        .admin(reqwest::Method::GET, &format!("/teams/{}", team.id), None)
        .await;
    assert_eq!(response.status, 200, "{:?}", response.body);
    response.data()["credits"].as_i64().expect("credits")
}

/// `path?params`, every value form-encoded.
pub fn url(path: &str, params: &[(&str, &str)]) -> String {
    if params.is_empty() {
        return path.to_string();
    }
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    format!("{path}?{query}")
}

/// A record's id: `signalId` on most lists, `id` on hiring and companies.
pub fn record_id(record: &Value) -> String {
    record
        .get("signalId")
        .or_else(|| record.get("id"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("record without an id: {record}"))
        .to_string()
}

/// Asserts a 400 in the list error envelope: `success: false`, code `bad_request`, a message.
pub fn assert_bad_request(response: &TestResponse) {
    assert_eq!(response.status, 400, "{:?}", response.body);
    assert_eq!(response.body["success"], false, "{:?}", response.body);
    assert_eq!(response.body["code"], "bad_request", "{:?}", response.body);
    assert!(!response.error().is_empty(), "{:?}", response.body);
}

/// The sorted keys of a JSON object.
pub fn keys_of(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .cloned()
        .collect();
    keys.sort();
    keys
}

/// The given key names, sorted, for comparing with [`keys_of`].
pub fn sorted(keys: &[&str]) -> Vec<String> {
    let mut keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    keys.sort();
    keys
}

/// Imports signal records of one kind (`funding`, `hiring`, `acquisitions`, `job-changes`)
/// through the admin API, asserting that every record was stored; returns `data`.
pub async fn import_signals(app: &TestApp, kind: &str, records: Value) -> Value {
    let response = app
        .admin(
            reqwest::Method::POST,
            &format!("/signals/{kind}"),
            Some(records),
        )
        .await;
    assert_eq!(response.status, 200, "{kind} import: {:?}", response.body);
    assert_eq!(
        response.data()["invalid"],
        json!([]),
        "{kind} import: {:?}",
        response.body
    );
    response.data().clone()
}

// ---------------------------------------------------------------------------------------------
// The known companies
// ---------------------------------------------------------------------------------------------

/// The seven known companies. Initech's country is given by name; Nowhere Labs has none.
pub fn companies() -> Value {
    json!([
        {
            "id": company::ACME, "name": "Acme Corporation", "slug": "acme-corporation",
            "description": "Acme makes tooling for large engineering teams",
            "website": "https://www.acme.com", "linkedinUrl": "https://www.linkedin.com/company/acme-corp",
            "twitterUrl": "https://twitter.com/acme", "logoUrl": "https://logos.example/acme.png",
            "industry": "Software", "subcategory": "saas", "foundedYear": 2010,
            "headquartersCountry": "DE", "employeeCount": 250,
            "categories": ["Software", "SaaS"], "keywords": ["build automation"],
            "specialties": ["Continuous integration"],
            "growthInfo": { "growth_1m": 0.01, "growth_3m": 0.04, "growth_6m": 0.08, "growth_9m": 0.1, "growth_12m": 0.15 }
        },
        {
            "id": company::GLOBEX, "name": "Globex", "slug": "globex",
            "description": "Payment rails for marketplaces",
            "website": "https://globex.io", "linkedinUrl": "https://www.linkedin.com/company/globex",
            "logoUrl": "https://logos.example/globex.png",
            "industry": "Financial Services", "subcategory": "fintech", "foundedYear": 2018,
            "headquartersCountry": "US", "employeeCount": 40,
            "categories": ["Fintech", "Payments"], "keywords": ["payouts"], "specialties": ["Escrow"]
        },
        {
            "id": company::INITECH, "name": "Initech", "slug": "initech",
            "description": "Enterprise security suite",
            "website": "https://initech.ch", "linkedinUrl": "https://www.linkedin.com/company/initech",
            "logoUrl": "https://logos.example/initech.png",
            "industry": "Information Technology", "subcategory": "cybersecurity", "foundedYear": 1999,
            "headquartersCountry": "Switzerland", "employeeCount": 1500,
            "categories": ["Security"], "keywords": ["firewalls"], "specialties": ["Audits"]
        },
        {
            "id": company::UMBRELLA, "name": "Umbrella Health", "slug": "umbrella-health",
            "description": "Clinical trial platform",
            "website": "https://umbrella.fr", "linkedinUrl": "https://www.linkedin.com/company/umbrella-health",
            "logoUrl": "https://logos.example/umbrella.png",
            "industry": "Healthcare", "subcategory": "healthcare", "foundedYear": 2021,
            "headquartersCountry": "FR", "employeeCount": 8,
            "categories": ["Health", "Biotech"], "keywords": ["trials"], "specialties": ["Oncology"]
        },
        {
            "id": company::HOOLI, "name": "Hooli", "slug": "hooli",
            "description": "Middle-out search engine",
            "website": "https://hooli.at", "linkedinUrl": "https://www.linkedin.com/company/hooli",
            "logoUrl": "https://logos.example/hooli.png",
            "industry": "Software", "subcategory": "ai", "foundedYear": 2015,
            "headquartersCountry": "AT", "employeeCount": 600,
            "categories": ["AI", "Software"], "keywords": ["search"], "specialties": ["Compression"]
        },
        {
            "id": company::NOWHERE, "name": "Nowhere Labs", "slug": "nowhere-labs",
            "description": "Remote-first developer platform",
            "website": "https://nowhere.dev", "linkedinUrl": "https://www.linkedin.com/company/nowhere-labs",
            "logoUrl": "https://logos.example/nowhere.png",
            "industry": "Software", "subcategory": "devtools", "foundedYear": 2022,
            "employeeCount": 12,
            "categories": ["Developer Tools"], "keywords": ["sandboxes"], "specialties": ["Preview environments"]
        },
        {
            "id": company::VANDELAY, "name": "Vandelay Industries", "slug": "vandelay-industries",
            "description": "Latex goods, import and export",
            "website": "https://vandelay.cn", "linkedinUrl": "https://www.linkedin.com/company/vandelay",
            "logoUrl": "https://logos.example/vandelay.png",
            "industry": "Manufacturing", "subcategory": "manufacturing", "foundedYear": 1985,
            "headquartersCountry": "CN", "employeeCount": 5000,
            "categories": ["Hardware"], "keywords": ["latex"], "specialties": ["Logistics"]
        }
    ])
}

// ---------------------------------------------------------------------------------------------
// The known signals
// ---------------------------------------------------------------------------------------------

fn investor(name: &str, kind: &str, lead: bool) -> Value {
    let slug = name.to_lowercase().replace(' ', "-");
    json!({
        "id": format!("inv-{slug}"), "name": name, "type": kind,
        "website": format!("https://{slug}.example"),
        "linkedin": format!("https://www.linkedin.com/company/{slug}"), "isLead": lead
    })
}

fn source(url: &str, title: &str, published: &str) -> Value {
    json!({ "url": url, "sourceType": "news", "title": title, "publishedAt": published, "isPrimary": true })
}

/// Seven funding rounds, by occurredAt: Hooli (Jan), Umbrella (Feb), Acme, Globex (Mar),
/// Nowhere at 23:59:59 on 31 March, Vandelay at 00:00:00 on 1 April, Initech (1 April noon).
pub fn funding_rounds() -> Value {
    json!([
        {
            "signalId": funding::HOOLI_SERIES_A, "companyId": company::HOOLI,
            "occurredAt": "2025-01-15T12:00:00Z", "discoveredAt": "2025-01-20T12:00:00Z",
            "roundType": "series a", "amount": 8_000_000, "currency": "EUR",
            "announcedDate": "2025-01-15", "confidenceScore": 0.9, "verificationStatus": "verified",
            "investors": [investor("Sequoia Capital", "vc", true)],
            "sources": [source("https://news.example/hooli", "Hooli raises", "2025-01-15T12:00:00Z")]
        },
        {
            "signalId": funding::UMBRELLA_PRE_SEED, "companyId": company::UMBRELLA,
            "occurredAt": "2025-02-20T12:00:00Z", "discoveredAt": "2025-02-21T12:00:00Z",
            "roundType": "pre-seed", "roundFlavor": "bridge", "amount": 500_000, "currency": "EUR",
            "announcedDate": "2025-02-20", "confidenceScore": 0.5, "verificationStatus": "pending",
            "investors": [investor("Seedcamp", "accelerator", true)],
            "sources": [source("https://news.example/umbrella", "Umbrella bridge", "2025-02-20T12:00:00Z")]
        },
        {
            "signalId": funding::ACME_SERIES_A, "companyId": company::ACME,
            "occurredAt": "2025-03-10T09:00:00Z", "discoveredAt": "2025-03-11T08:00:00Z",
            "roundType": "Series A", "amount": 15_000_000, "currency": "USD",
            "announcedDate": "2025-03-10", "confidenceScore": 0.92, "verificationStatus": "verified",
            "isFreeAccess": true,
            "investors": [investor("Sequoia Capital", "vc", true), investor("Jane Angel", "angel", false)],
            "sources": [source("https://news.example/acme", "Acme raises $15M", "2025-03-10T10:00:00Z")]
        },
        {
            "signalId": funding::GLOBEX_SEED, "companyId": company::GLOBEX,
            "occurredAt": "2025-03-12T12:00:00Z", "discoveredAt": "2025-03-30T12:00:00Z",
            "roundType": "seed", "amount": 2_000_000, "currency": "USD",
            "announcedDate": "2025-03-12", "confidenceScore": 0.7, "verificationStatus": "unverified",
            "investors": [investor("Index Ventures", "vc", true)],
            "sources": []
        },
        {
            "signalId": funding::NOWHERE_SEED, "companyId": company::NOWHERE,
            "occurredAt": "2025-03-31T23:59:59Z", "discoveredAt": "2025-04-02T12:00:00Z",
            "roundType": "seed", "amount": 1_000_000, "currency": "USD",
            "announcedDate": "2025-03-31", "confidenceScore": 0.6, "verificationStatus": "unverified",
            "investors": [], "sources": []
        },
        {
            "signalId": funding::VANDELAY_DEBT, "companyId": company::VANDELAY,
            "occurredAt": "2025-04-01T00:00:00Z", "discoveredAt": "2025-04-01T06:00:00Z",
            "roundType": "debt", "amount": 100_000_000, "currency": "USD",
            "announcedDate": "2025-04-01", "confidenceScore": 0.8, "verificationStatus": "verified",
            "investors": [investor("Big Bank", "bank", true)], "sources": []
        },
        {
            "signalId": funding::INITECH_SERIES_B, "companyId": company::INITECH,
            "occurredAt": "2025-04-01T12:00:00Z", "discoveredAt": "2025-04-03T12:00:00Z",
            "roundType": "series b", "roundFlavor": "extension", "amount": 40_000_000, "currency": "CHF",
            "announcedDate": "2025-04-01", "confidenceScore": 0.95, "verificationStatus": "verified",
            "investors": [investor("Balderton Capital", "vc", true)], "sources": []
        }
    ])
}

#[allow(clippy::too_many_arguments)]
fn posting(
    id: &str,
    company_id: &str,
    title: &str,
    (location, city, region, country): (&str, Option<&str>, Option<&str>, Option<&str>),
    date_posted: &str,
    created_at: &str,
    applicants: Value,
    description: &str,
) -> Value {
    json!({
        "id": id, "companyId": company_id, "jobId": format!("job-{}", &id[id.len() - 2..]),
        "jobUrl": format!("https://jobs.example/{id}"), "title": title,
        "location": location, "city": city, "region": region, "jobCountry": country,
        "datePosted": date_posted, "createdAt": created_at,
        "employmentType": "Full-time", "seniorityLevel": "Mid-Senior level",
        "jobFunction": "Engineering", "industries": "Technology",
        "numApplicants": applicants, "descriptionText": description
    })
}

/// Eight job postings. By createdAt (the default sort, newest first): Hooli co-founder,
/// Nowhere backend, Vandelay data, Nowhere marketing, Globex Java, Globex frontend,
/// Acme VP of Engineering, Initech head of product.
pub fn job_postings() -> Value {
    let mut acme = posting(
        hiring::ACME_VP_ENGINEERING,
        company::ACME,
        "VP of Engineering",
        ("Berlin, Germany", Some("Berlin"), Some("BE"), Some("DE")),
        "2025-03-10T12:00:00Z",
        "2025-03-11T08:00:00Z",
        json!(42),
        "We build with Rust and TypeScript. You will grow a team of distributed systems engineers.",
    );
    acme["validThrough"] = json!("2025-04-10T00:00:00Z");
    acme["seniorityLevel"] = json!("Executive");
    acme["isFreeAccess"] = json!(true);
    json!([
        acme,
        posting(
            hiring::GLOBEX_JAVA,
            company::GLOBEX,
            "Senior Java Developer",
            ("New York, NY", Some("New York"), Some("NY"), Some("US")),
            "2025-03-05T12:00:00Z",
            "2025-03-20T12:00:00Z",
            json!("120"),
            "Java and Spring Boot services. Kubernetes is a plus.",
        ),
        posting(
            hiring::GLOBEX_FRONTEND,
            company::GLOBEX,
            "Frontend Engineer (JavaScript)",
            ("Munich, Germany", Some("Munich"), Some("BY"), Some("DE")),
            "2025-03-12T12:00:00Z",
            "2025-03-12T13:00:00Z",
            json!("Over 200 applicants"),
            "JavaScript, React and Node.js in a modern frontend stack.",
        ),
        posting(
            hiring::INITECH_HEAD_OF_PRODUCT,
            company::INITECH,
            "Head of Product",
            (
                "Zurich, Switzerland",
                Some("Zurich"),
                Some("ZH"),
                Some("CH")
            ),
            "2025-02-01T12:00:00Z",
            "2025-02-02T12:00:00Z",
            json!("10"),
            "Own the product roadmap; Kubernetes knowledge helps.",
        ),
        posting(
            hiring::NOWHERE_MARKETING,
            company::NOWHERE,
            "Marketing Manager",
            ("Austin, TX", Some("Austin"), Some("TX"), Some("US")),
            "2025-03-20T12:00:00Z",
            "2025-03-21T12:00:00Z",
            json!("30"),
            "Lead generation and brand campaigns for remote teams.",
        ),
        posting(
            hiring::VANDELAY_DATA,
            company::VANDELAY,
            "Data Analyst",
            ("Shanghai, China", Some("Shanghai"), None, Some("CN")),
            "2025-01-20T12:00:00Z",
            "2025-03-25T12:00:00Z",
            json!("75"),
            "SQL and Python dashboards; some java is a plus.",
        ),
        posting(
            hiring::HOOLI_COFOUNDER,
            company::HOOLI,
            "Co-Founder & CTO",
            ("Vienna, Austria", Some("Vienna"), None, Some("AT")),
            "2025-04-01T12:00:00Z",
            "2025-04-01T13:00:00Z",
            Value::Null,
            "Build the machine learning platform from scratch.",
        ),
        posting(
            hiring::NOWHERE_BACKEND,
            company::NOWHERE,
            "Backend Engineer",
            ("Remote", None, None, None),
            "2025-03-28T12:00:00Z",
            "2025-03-28T13:00:00Z",
            json!("5"),
            "Go and Postgres. Fully remote.",
        ),
    ])
}

/// Four acquisitions, by occurredAt: Hooli buys Nowhere (Feb), Globex buys Umbrella (5 Mar),
/// Vandelay buys Initech (20 Mar), Massive Dynamic (a new company, no HQ) buys Acme (Apr).
pub fn acquisitions() -> Value {
    json!([
        {
            "signalId": deal::HOOLI_BUYS_NOWHERE, "companyId": company::NOWHERE,
            "acquiringCompanyId": company::HOOLI,
            "occurredAt": "2025-02-10T12:00:00Z", "discoveredAt": "2025-02-11T12:00:00Z",
            "amount": 50_000_000, "currency": "USD", "percentage": "100",
            "announcedDate": "2025-02-10", "verificationStatus": "verified", "sources": []
        },
        {
            "signalId": deal::GLOBEX_BUYS_UMBRELLA, "companyId": company::UMBRELLA,
            "acquiringCompanyId": company::GLOBEX,
            "occurredAt": "2025-03-05T12:00:00Z", "discoveredAt": "2025-03-25T12:00:00Z",
            "amount": 20_000_000, "currency": "EUR", "percentage": "60",
            "announcedDate": "2025-03-05", "verificationStatus": "unverified", "sources": []
        },
        {
            "signalId": deal::VANDELAY_BUYS_INITECH, "companyId": company::INITECH,
            "acquiringCompanyId": company::VANDELAY,
            "occurredAt": "2025-03-20T12:00:00Z", "discoveredAt": "2025-03-21T12:00:00Z",
            "amount": 900_000_000, "currency": "USD", "percentage": "100",
            "announcedDate": "2025-03-20", "verificationStatus": "pending", "sources": []
        },
        {
            "signalId": deal::MASSIVE_BUYS_ACME, "companyId": company::ACME,
            "acquiringCompany": {
                "id": company::MASSIVE, "name": "Massive Dynamic", "slug": "massive-dynamic",
                "logo": "https://logos.example/massive.png", "website": "https://massivedynamic.com",
                "linkedin": "https://www.linkedin.com/company/massive-dynamic",
                "industry": "Conglomerate", "foundedYear": 1990, "employeeCount": 20000
            },
            "occurredAt": "2025-04-15T12:00:00Z", "discoveredAt": "2025-04-16T12:00:00Z",
            "amount": 300_000_000, "currency": "USD", "percentage": "100",
            "announcedDate": "2025-04-15", "verificationStatus": "verified",
            "sources": [source("https://news.example/massive-acme", "Massive Dynamic buys Acme", "2025-04-15T12:00:00Z")]
        }
    ])
}

#[allow(clippy::too_many_arguments)]
fn move_to(
    id: &str,
    company_id: &str,
    (name, profile): (&str, &str),
    role: &str,
    source: &str,
    (location, city, country): (&str, Option<&str>, Option<&str>),
    (occurred, discovered): (&str, &str),
    keywords: &[&str],
) -> Value {
    json!({
        "signalId": id, "companyId": company_id,
        "personName": name, "personLinkedinUrl": format!("https://www.linkedin.com/in/{profile}"),
        "newRole": role, "postContent": format!("Excited to start as {role}!"),
        "takenFrom": format!("https://www.linkedin.com/posts/{profile}-1"), "source": source,
        "personCurrentTitle": role, "personHeadline": format!("{role} | ex-something"),
        "personLocation": location, "personCity": city, "personCountry": country,
        "personFollowers": 1200, "personConnections": 500, "personPosts": null,
        "occurredAt": occurred, "discoveredAt": discovered, "keywords": keywords,
        "sources": [{ "url": format!("https://www.linkedin.com/posts/{profile}-1"), "sourceType": source }]
    })
}

/// Five job changes, by occurredAt: Max (Jan), Li (Feb), Jane (1 Mar), John (15 Mar), Ana (Apr).
pub fn job_changes() -> Value {
    let mut jane = move_to(
        job_change::JANE_CTO_AT_ACME,
        company::ACME,
        ("Jane Mary Doe", "jane-doe"),
        "Chief Technology Officer",
        "linkedin",
        ("Berlin, Germany", Some("Berlin"), Some("DE")),
        ("2025-03-01T12:00:00Z", "2025-03-02T12:00:00Z"),
        &["kubernetes", "leadership"],
    );
    jane["previousCompanyId"] = json!(company::GLOBEX);
    json!([
        jane,
        move_to(
            job_change::JOHN_VP_SALES_AT_GLOBEX,
            company::GLOBEX,
            ("John Smith", "john-smith"),
            "VP of Sales",
            "press_release",
            ("London, United Kingdom", Some("London"), Some("GB")),
            ("2025-03-15T12:00:00Z", "2025-03-16T12:00:00Z"),
            &["saas"],
        ),
        move_to(
            job_change::ANA_HEAD_OF_MARKETING_AT_NOWHERE,
            company::NOWHERE,
            ("Ana Lopez", "ana-lopez"),
            "Head of Marketing",
            "other",
            ("Remote", None, None),
            ("2025-04-05T12:00:00Z", "2025-04-05T13:00:00Z"),
            &[],
        ),
        move_to(
            job_change::LI_ENGINEERING_MANAGER_AT_VANDELAY,
            company::VANDELAY,
            ("Li Wei", "li-wei"),
            "Engineering Manager",
            "linkedin",
            ("Shenzhen, China", Some("Shenzhen"), Some("CN")),
            ("2025-02-01T12:00:00Z", "2025-03-10T12:00:00Z"),
            &["manufacturing"],
        ),
        move_to(
            job_change::MAX_COFOUNDER_AT_HOOLI,
            company::HOOLI,
            ("Max Mustermann", "max-mustermann"),
            "Co-Founder & CEO",
            "linkedin",
            ("Munich, Bavaria", Some("Munich"), Some("DE")),
            ("2025-01-10T12:00:00Z", "2025-01-11T12:00:00Z"),
            &[],
        ),
    ])
}

// ---------------------------------------------------------------------------------------------
// Generic signals, for dates, presets and paging
// ---------------------------------------------------------------------------------------------

/// A minimal signal of `kind` at `at` for `company_id`, with the given id. Every record of one
/// kind built here has the same sortable values apart from its dates.
pub fn plain_signal(kind: &str, id: &str, company_id: &str, at: &str) -> Value {
    match kind {
        "funding" => json!({
            "signalId": id, "companyId": company_id, "occurredAt": at, "discoveredAt": at,
            "roundType": "seed", "amount": 1_000_000, "currency": "USD",
            "verificationStatus": "verified"
        }),
        "hiring" => json!({
            "id": id, "companyId": company_id, "title": "Software Engineer",
            "location": "Berlin, Germany", "city": "Berlin", "jobCountry": "DE",
            "datePosted": at, "createdAt": at
        }),
        "acquisitions" => json!({
            "signalId": id, "companyId": company_id, "acquiringCompanyId": company::GLOBEX,
            "occurredAt": at, "discoveredAt": at, "amount": 1_000_000, "currency": "USD"
        }),
        "job-changes" => json!({
            "signalId": id, "companyId": company_id, "personName": "Pat Example",
            "personLinkedinUrl": "https://www.linkedin.com/in/pat-example",
            "newRole": "Engineer", "source": "linkedin", "occurredAt": at, "discoveredAt": at
        }),
        other => panic!("unknown signal kind {other}"),
    }
}

/// The list path of an import kind.
pub fn list_path(kind: &str) -> &'static str {
    match kind {
        "funding" => FUNDING,
        "hiring" => HIRING,
        "acquisitions" => ACQUISITIONS,
        "job-changes" => JOB_CHANGES,
        other => panic!("unknown signal kind {other}"),
    }
}

/// A signal id for generic signals: `d…` ids numbered from `n`.
pub fn numbered_id(n: u64) -> String {
    format!("d0000000-0000-4000-8000-{n:012}")
}

/// The sort fields of each list, as the reference names them.
pub fn sort_fields(kind: &str) -> &'static [&'static str] {
    match kind {
        "funding" => &[
            "occurred_at",
            "discovered_at",
            "amount",
            "employee_count",
            "founded_year",
        ],
        "hiring" => &[
            "date_posted",
            "created_at",
            "title",
            "company_name",
            "location",
        ],
        "acquisitions" => &["occurred_at", "discovered_at", "amount", "employee_count"],
        "job-changes" => &[
            "occurred_at",
            "discovered_at",
            "person_name",
            "company_name",
        ],
        other => panic!("unknown signal kind {other}"),
    }
}

/// Asserts that for every sort field and direction, 25 signals whose sort values all tie come
/// back ordered by id (in the sort direction) and that three pages of 10 give each exactly once.
pub async fn assert_ties_are_broken_by_id_across_pages(lists: &Lists, kind: &str) {
    let at = "2025-06-01T12:00:00Z";
    let records: Vec<Value> = (1..=25)
        .map(|n| plain_signal(kind, &numbered_id(n), company::ACME, at))
        .collect();
    import_signals(&lists.app, kind, json!(records)).await;
    let ascending: Vec<String> = (1..=25).map(numbered_id).collect();
    let descending: Vec<String> = ascending.iter().rev().cloned().collect();
    let path = list_path(kind);
    for sort_by in sort_fields(kind) {
        for (order, expected) in [("asc", &ascending), ("desc", &descending)] {
            let mut paged = Vec::new();
            for page in ["1", "2", "3"] {
                let response = lists
                    .get(
                        path,
                        &[
                            ("sort_by", sort_by),
                            ("sort_order", order),
                            ("limit", "10"),
                            ("page", page),
                        ],
                    )
                    .await;
                assert_eq!(response.status, 200, "{:?}", response.body);
                paged.extend(
                    response
                        .data()
                        .as_array()
                        .expect("data")
                        .iter()
                        .map(record_id),
                );
            }
            assert_eq!(&paged, expected, "{kind} sorted by {sort_by} {order}");
        }
    }
}

/// Asserts the whole-day bounds of `dateFrom`/`dateTo` on the list of `kind`: a signal at
/// 23:59:59 on `dateTo` is in, one at 00:00:00 the next day is not, and the other way round
/// for `dateFrom`.
pub async fn assert_date_bounds_are_whole_inclusive_days(lists: &Lists, kind: &str) {
    let late = numbered_id(901);
    let early = numbered_id(902);
    import_signals(
        &lists.app,
        kind,
        json!([
            plain_signal(kind, &late, company::ACME, "2025-06-30T23:59:59Z"),
            plain_signal(kind, &early, company::ACME, "2025-07-01T00:00:00Z"),
        ]),
    )
    .await;
    let path = list_path(kind);
    assert_eq!(
        lists.ids(path, &[("dateTo", "2025-06-30")]).await,
        [late.as_str()]
    );
    assert_eq!(
        lists.ids(path, &[("dateFrom", "2025-07-01")]).await,
        [early.as_str()]
    );
    assert_eq!(
        lists
            .ids(
                path,
                &[("dateFrom", "2025-06-30"), ("dateTo", "2025-06-30")]
            )
            .await,
        [late.as_str()]
    );
    assert_eq!(
        lists
            .ids(
                path,
                &[("dateFrom", "2025-06-30"), ("dateTo", "2025-07-01")]
            )
            .await,
        [early.as_str(), late.as_str()]
    );
    assert_eq!(
        lists
            .ids(
                path,
                &[("dateFrom", "2025-07-02"), ("dateTo", "2025-07-02")]
            )
            .await,
        Vec::<String>::new()
    );
}

/// Asserts the refusals every list shares: bad dates, reversed dates, unknown presets, bad
/// paging, unknown sort fields and directions, and unknown parameters, each a 400 naming the
/// parameter.
pub async fn assert_common_refusals(lists: &Lists, path: &str) {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("dateFrom", "2025-3-01")], "dateFrom"),
        (&[("dateTo", "2025-02-30")], "dateTo"),
        (&[("dateFrom", "yesterday")], "dateFrom"),
        (
            &[("dateFrom", "2025-03-02"), ("dateTo", "2025-03-01")],
            "dateFrom",
        ),
        (&[("date_preset", "last_8d")], "date_preset"),
        (&[("date_preset", "Today")], "date_preset"),
        (&[("limit", "0")], "limit"),
        (&[("limit", "101")], "limit"),
        (&[("limit", "ten")], "limit"),
        (&[("page", "0")], "page"),
        (&[("page", "-1")], "page"),
        (&[("page", "99999999999999999999")], "page"),
        (&[("sort_by", "popularity")], "sort_by"),
        (&[("sort_order", "up")], "sort_order"),
        (&[("count", "yes")], "count"),
        (&[("colour", "blue")], "colour"),
        (&[("company_domain", "not a domain")], "company_domain"),
    ];
    for (params, named) in cases {
        let message = lists.refused(path, params).await;
        assert!(
            message.contains(named),
            "GET {} names {named}: {message}",
            url(path, params)
        );
    }
}

/// Asserts the answer past the last page of `path` holding `total` rows (at most 20, the
/// default page size), and the answer of a query (`no_match`) that matches nothing.
pub async fn assert_paging_past_the_end(
    lists: &Lists,
    path: &str,
    total: i64,
    no_match: (&str, &str),
) {
    let past = lists.get(path, &[("page", "7")]).await;
    assert_eq!(past.status, 200, "{:?}", past.body);
    assert_eq!(past.body["data"], json!([]));
    assert_eq!(
        past.body["pagination"],
        json!({ "currentPage": 7, "totalPages": 1, "totalCount": total,
                "hasNextPage": false, "hasPreviousPage": true })
    );
    let empty = lists.get(path, &[no_match]).await;
    assert_eq!(empty.status, 200, "{:?}", empty.body);
    assert_eq!(empty.body["data"], json!([]));
    assert_eq!(
        empty.body["pagination"],
        json!({ "currentPage": 1, "totalPages": 0, "totalCount": 0,
                "hasNextPage": false, "hasPreviousPage": false })
    );
}

// ---------------------------------------------------------------------------------------------
// Date presets, relative to today (UTC)
// ---------------------------------------------------------------------------------------------

/// Today in UTC.
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// Noon UTC of `day`, as RFC 3339.
pub fn noon(day: NaiveDate) -> String {
    format!("{day}T12:00:00Z")
}

fn back(day: NaiveDate, days: u64) -> NaiveDate {
    day - Days::new(days)
}

fn monday_of(day: NaiveDate) -> NaiveDate {
    back(day, u64::from(day.weekday().num_days_from_monday()))
}

fn first_of_month(day: NaiveDate) -> NaiveDate {
    NaiveDate::from_ymd_opt(day.year(), day.month(), 1).expect("a month start")
}

fn first_of_quarter(day: NaiveDate) -> NaiveDate {
    NaiveDate::from_ymd_opt(day.year(), day.month0() / 3 * 3 + 1, 1).expect("a quarter start")
}

fn first_of_year(day: NaiveDate) -> NaiveDate {
    NaiveDate::from_ymd_opt(day.year(), 1, 1).expect("a year start")
}

/// The day after the same day `months` months before `day` (the month's last day when shorter).
fn day_after_months_back(day: NaiveDate, months: u32) -> NaiveDate {
    (day - Months::new(months)) + Days::new(1)
}

/// Every preset with the inclusive range of days it covers when today is `today`, as
/// the date-preset rules define them.
pub fn preset_ranges(today: NaiveDate) -> Vec<(&'static str, NaiveDate, NaiveDate)> {
    let this_week = monday_of(today);
    let this_month = first_of_month(today);
    let this_quarter = first_of_quarter(today);
    let this_year = first_of_year(today);
    vec![
        ("today", today, today),
        ("yesterday", back(today, 1), back(today, 1)),
        ("last_7d", back(today, 6), today),
        ("last_14d", back(today, 13), today),
        ("last_30d", back(today, 29), today),
        ("last_60d", back(today, 59), today),
        ("last_90d", back(today, 89), today),
        ("last_6m", day_after_months_back(today, 6), today),
        ("last_1y", day_after_months_back(today, 12), today),
        ("last_2y", day_after_months_back(today, 24), today),
        ("this_week", this_week, today),
        ("this_month", this_month, today),
        ("this_quarter", this_quarter, today),
        ("this_year", this_year, today),
        ("last_week", back(this_week, 7), back(this_week, 1)),
        (
            "last_month",
            this_month - Months::new(1),
            back(this_month, 1),
        ),
        (
            "last_quarter",
            this_quarter - Months::new(3),
            back(this_quarter, 1),
        ),
        ("last_year", this_year - Months::new(12), back(this_year, 1)),
    ]
}

/// The days to place signals on: each preset's first and last day and the days just outside.
pub fn preset_days(today: NaiveDate) -> Vec<NaiveDate> {
    let mut days: Vec<NaiveDate> = preset_ranges(today)
        .into_iter()
        .flat_map(|(_, first, last)| [back(first, 1), first, last, last + Days::new(1)])
        .collect();
    days.sort();
    days.dedup();
    days
}

/// A signal id for a day, so that a day's signal is recognisable in answers.
pub fn day_id(day: NaiveDate) -> String {
    format!(
        "d1000000-0000-4000-8000-{:012}",
        day.num_days_from_ce().max(0)
    )
}

/// Asserts that each date preset on the list of `kind` returns exactly the signals placed on
/// its days (one signal at noon UTC on every day of [`preset_days`]), newest first, and that a
/// preset takes precedence over `dateFrom`/`dateTo`.
pub async fn assert_every_date_preset_selects_its_days(lists: &Lists, kind: &str) {
    let today = today();
    let days = preset_days(today);
    let records: Vec<Value> = days
        .iter()
        .map(|day| plain_signal(kind, &day_id(*day), company::ACME, &noon(*day)))
        .collect();
    import_signals(&lists.app, kind, json!(records)).await;
    let path = list_path(kind);
    let sort: &str = if kind == "hiring" {
        "date_posted"
    } else {
        "occurred_at"
    };
    for (preset, first, last) in preset_ranges(today) {
        let expected: Vec<String> = days
            .iter()
            .rev()
            .filter(|day| **day >= first && **day <= last)
            .map(|day| day_id(*day))
            .collect();
        let got = lists
            .ids(
                path,
                &[("date_preset", preset), ("sort_by", sort), ("limit", "100")],
            )
            .await;
        assert_eq!(
            got, expected,
            "{kind} date_preset={preset} ({first}..={last})"
        );
    }
    let yesterday = back(today, 1).to_string();
    let got = lists
        .ids(
            path,
            &[
                ("date_preset", "today"),
                ("dateFrom", &yesterday),
                ("dateTo", &yesterday),
            ],
        )
        .await;
    assert_eq!(
        got,
        [day_id(today)],
        "date_preset wins over dateFrom/dateTo"
    );
}

/// Each target a `POST …/targets` answer added, as (value, last signal type).
pub fn last_signal_types(added: &crate::support::TestResponse) -> Vec<(Value, Value)> {
    added.data()["added"]
        .as_array()
        .expect("targets")
        .iter()
        .map(|t| (t["value"].clone(), t["last_signal_type"].clone()))
        .collect()
}
