//! Whole-run checks of the demo data set at scale `s`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use indicatif::ProgressBar;
use serde_json::Value;

use super::funding::ROUND_TYPES;
use super::{DemoOptions, FILE_NAMES, Scale, generate};

const ANCHOR: (i32, u32, u32) = (2026, 5, 29);

const CURRENCIES: &[&str] = &[
    "USD", "EUR", "GBP", "CHF", "JPY", "INR", "CAD", "AUD", "SEK", "CNY", "NZD", "KRW", "SGD",
    "DKK", "BRL",
];

fn anchor() -> NaiveDate {
    NaiveDate::from_ymd_opt(ANCHOR.0, ANCHOR.1, ANCHOR.2).expect("valid date")
}

/// Writes a set anchored on [`ANCHOR`], generated at `now`.
fn write_set_at(dir: &Path, seed: u64, now: DateTime<Utc>) {
    let options = DemoOptions {
        scale: Scale::S,
        seed,
        anchor: anchor(),
        now,
        out: dir.to_path_buf(),
    };
    generate(&options, &ProgressBar::hidden()).expect("demo data is written");
}

/// Writes a set generated long after its anchor day.
fn write_set(dir: &Path, seed: u64) {
    let later =
        anchor().and_hms_opt(0, 0, 0).expect("midnight").and_utc() + chrono::Duration::days(400);
    write_set_at(dir, seed, later);
}

fn rows(dir: &Path, file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join(file)).expect("file exists");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}: {e}: {line}")))
        .collect()
}

fn str_field<'a>(row: &'a Value, key: &str) -> &'a str {
    row[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {row}"))
}

#[test]
fn the_same_seed_gives_identical_bytes_and_another_seed_does_not() {
    let (a, b, c) = (tempdir(), tempdir(), tempdir());
    write_set(a.path(), 7);
    write_set(b.path(), 7);
    write_set(c.path(), 8);
    for file in FILE_NAMES {
        let first = std::fs::read(a.path().join(file)).expect("read");
        assert_eq!(
            first,
            std::fs::read(b.path().join(file)).expect("read"),
            "{file}"
        );
        assert_ne!(
            first,
            std::fs::read(c.path().join(file)).expect("read"),
            "{file}"
        );
    }
}

/// Each file's rows at scale `s` and the keys every row carries.
#[rustfmt::skip]
const EXPECTED: [(&str, usize, &[&str]); 6] = [
    ("companies.ndjson", 2_000, &["id", "name", "slug", "description", "website", "linkedinUrl", "twitterUrl", "logoUrl", "industry", "subcategory", "foundedYear", "headquartersCountry", "employeeCount", "categories", "keywords", "specialties", "growthInfo", "createdAt", "updatedAt"]),
    ("people.ndjson", 1_000, &["linkedinUrl", "name", "title", "location", "city", "country", "companyId"]),
    ("funding.ndjson", 2_000, &["signalId", "occurredAt", "discoveredAt", "companyId", "roundType", "roundFlavor", "amount", "currency", "announcedDate", "confidenceScore", "verificationStatus", "isFreeAccess", "investors", "sources"]),
    ("hiring.ndjson", 10_000, &["id", "jobId", "jobUrl", "title", "location", "city", "region", "jobCountry", "datePosted", "validThrough", "employmentType", "seniorityLevel", "jobFunction", "industries", "numApplicants", "descriptionText", "createdAt", "companyId"]),
    ("acquisitions.ndjson", 500, &["signalId", "occurredAt", "discoveredAt", "companyId", "acquiringCompanyId", "amount", "currency", "percentage", "announcedDate", "verificationStatus", "isFreeAccess", "sources"]),
    ("job-changes.ndjson", 5_000, &["signalId", "occurredAt", "discoveredAt", "companyId", "personName", "personLinkedinUrl", "newRole", "postContent", "takenFrom", "source", "personCurrentTitle", "personHeadline", "personLocation", "personCity", "personCountry", "personFollowers", "personConnections", "keywords"]),
];

#[test]
fn every_file_has_its_row_count_and_required_keys() {
    let dir = tempdir();
    write_set(dir.path(), 1);
    for (file, count, keys) in EXPECTED {
        let rows = rows(dir.path(), file);
        assert_eq!(rows.len(), count, "{file}");
        for row in &rows {
            for key in keys {
                assert!(row.get(key).is_some(), "{file}: {key} missing in {row}");
            }
        }
    }
}

#[test]
fn companies_have_unique_domains_and_plausible_fields() {
    let dir = tempdir();
    write_set(dir.path(), 3);
    let companies = rows(dir.path(), "companies.ndjson");
    let mut websites = HashSet::new();
    let mut linkedins = HashSet::new();
    let mut without_country = 0;
    for row in &companies {
        let website = str_field(row, "website");
        assert!(website.starts_with("https://"), "{website}");
        assert!(
            websites.insert(website.to_string()),
            "duplicate website {website}"
        );
        assert!(linkedins.insert(str_field(row, "linkedinUrl").to_string()));
        let categories = row["categories"].as_array().expect("categories");
        assert!((1..=3).contains(&categories.len()));
        let employees = row["employeeCount"].as_u64().expect("employees");
        assert!((1..=100_000).contains(&employees));
        let founded = row["foundedYear"].as_i64().expect("founded");
        assert!((1950..=2025).contains(&founded));
        without_country += usize::from(row["headquartersCountry"].is_null());
    }
    assert!(
        (20..=120).contains(&without_country),
        "{without_country} without country"
    );
    let people = rows(dir.path(), "people.ndjson");
    let profiles: HashSet<_> = people.iter().map(|p| str_field(p, "linkedinUrl")).collect();
    assert_eq!(profiles.len(), people.len());
}

#[test]
fn signals_use_the_accepted_vocabularies_and_known_companies() {
    let dir = tempdir();
    write_set(dir.path(), 4);
    let ids: HashSet<String> = rows(dir.path(), "companies.ndjson")
        .iter()
        .map(|c| str_field(c, "id").to_string())
        .collect();
    for row in rows(dir.path(), "funding.ndjson") {
        assert!(ROUND_TYPES.contains(&str_field(&row, "roundType")), "{row}");
        assert!(CURRENCIES.contains(&str_field(&row, "currency")), "{row}");
        assert!(ids.contains(str_field(&row, "companyId")));
        let investors = row["investors"].as_array().expect("investors");
        assert!((1..=4).contains(&investors.len()));
        let leads = investors
            .iter()
            .filter(|i| i["isLead"] == Value::Bool(true))
            .count();
        assert_eq!(leads, 1);
        assert!(row["amount"].is_u64());
    }
    let documented = ["press_release", "news_article", "blog_post"];
    let deals = [
        rows(dir.path(), "funding.ndjson"),
        rows(dir.path(), "acquisitions.ndjson"),
    ];
    for source in deals
        .iter()
        .flatten()
        .flat_map(|r| r["sources"].as_array().expect("sources"))
    {
        assert!(
            documented.contains(&str_field(source, "sourceType")),
            "{source}"
        );
    }
    for row in rows(dir.path(), "acquisitions.ndjson") {
        assert_ne!(row["companyId"], row["acquiringCompanyId"]);
        assert!(ids.contains(str_field(&row, "acquiringCompanyId")));
        assert!(["USD", "EUR"].contains(&str_field(&row, "currency")));
    }
    for row in rows(dir.path(), "hiring.ndjson") {
        let words = str_field(&row, "descriptionText")
            .split_whitespace()
            .count();
        assert!((40..=120).contains(&words), "{words} words: {row}");
        if row["jobCountry"] == "US" {
            let region = str_field(&row, "region");
            assert!(region.len() == 2 && region.chars().all(|c| c.is_ascii_uppercase()));
        }
    }
    let changes = rows(dir.path(), "job-changes.ndjson");
    let with_previous = changes
        .iter()
        .filter(|r| r.get("previousCompanyId").is_some())
        .count();
    let share = with_previous as f64 / changes.len() as f64;
    assert!(
        (0.6..0.8).contains(&share),
        "{share} with a previous company"
    );
}

#[test]
fn signals_cluster_in_recent_weeks_of_the_window() {
    let dir = tempdir();
    write_set(dir.path(), 5);
    let hiring = rows(dir.path(), "hiring.ndjson");
    let last_week = hiring
        .iter()
        .filter(|r| &str_field(r, "datePosted")[..10] >= "2026-05-23")
        .count();
    assert!(
        last_week > hiring.len() / 20,
        "{last_week} postings in the last 7 days"
    );
    assert!(
        hiring
            .iter()
            .all(|r| str_field(r, "datePosted") <= "2026-05-29T23:59:59.999Z")
    );
}

/// Every timestamp and date of a row that says when something happened (not `validThrough`, the
/// end of a job posting, which lies ahead by nature).
fn dates_of(row: &Value) -> Vec<&str> {
    const KEYS: [&str; 7] = [
        "occurredAt",
        "discoveredAt",
        "datePosted",
        "createdAt",
        "updatedAt",
        "announcedDate",
        "publishedAt",
    ];
    let mut out: Vec<&str> = KEYS.iter().filter_map(|k| row[*k].as_str()).collect();
    if let Some(sources) = row["sources"].as_array() {
        out.extend(sources.iter().filter_map(|s| s["publishedAt"].as_str()));
    }
    out
}

#[test]
fn generated_during_the_anchor_day_nothing_is_dated_after_that_moment() {
    let dir = tempdir();
    let now = anchor().and_hms_opt(9, 30, 0).expect("time").and_utc();
    write_set_at(dir.path(), 6, now);
    let now_text = "2026-05-29T09:30:00.000Z";
    let mut today = 0;
    for file in FILE_NAMES {
        for row in rows(dir.path(), file) {
            for date in dates_of(&row) {
                // A day (`2026-05-29`) sorts before every instant of that day.
                assert!(
                    date <= now_text,
                    "{file}: {date} is after {now_text}: {row}"
                );
            }
            let when = row["occurredAt"].as_str().or(row["datePosted"].as_str());
            today += usize::from(when.is_some_and(|d| d.starts_with("2026-05-29")));
        }
    }
    assert!(today > 100, "only {today} signals dated on the anchor day");
}

#[test]
fn people_work_where_their_latest_job_change_took_them() {
    let dir = tempdir();
    write_set(dir.path(), 2);
    let mut changes: HashMap<String, Vec<Value>> = HashMap::new();
    for row in rows(dir.path(), "job-changes.ndjson") {
        let url = str_field(&row, "personLinkedinUrl").to_string();
        changes.entry(url).or_default().push(row);
    }
    let mut movers = 0;
    let mut repeat_movers = 0;
    for person in rows(dir.path(), "people.ndjson") {
        let Some(moves) = changes.get_mut(str_field(&person, "linkedinUrl")) else {
            continue;
        };
        moves.sort_by(|a, b| str_field(a, "occurredAt").cmp(str_field(b, "occurredAt")));
        for pair in moves.windows(2) {
            assert!(str_field(&pair[0], "occurredAt") < str_field(&pair[1], "occurredAt"));
            assert_eq!(
                pair[1]["previousCompanyId"], pair[0]["companyId"],
                "{pair:?}"
            );
        }
        let latest = moves.last().expect("at least one move");
        assert_eq!(person["companyId"], latest["companyId"], "{person}");
        assert_eq!(person["title"], latest["newRole"], "{person}");
        assert_eq!(person["country"], latest["personCountry"], "{person}");
        movers += 1;
        repeat_movers += usize::from(moves.len() > 1);
    }
    assert!(
        movers > 500 && repeat_movers > 100,
        "{movers} movers, {repeat_movers} more than once"
    );
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}
