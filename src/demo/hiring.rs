//! hiring.ndjson: job postings, mostly near the company's headquarters, from larger companies
//! more often, with searchable descriptions.

use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::clock::{DAY_MS, HOUR_MS, Ts};
use super::index::CompanyIndex;
use super::job_text::{JobText, Posting};
use super::people::home;
use super::rng::Gen;
use super::vocab::roles::Level;
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream};

pub const FILE: &str = "hiring.ndjson";

/// Job ids are 10-digit numbers: 10^9 plus a permutation of 0..9·10^9.
const JOB_ID_SPACE: u64 = 9_000_000_000;
/// Coprime with `JOB_ID_SPACE` (a product of primes other than 2, 3 and 5).
const JOB_ID_STEP: u64 = 7_919 * 104_729;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HiringRow<'a> {
    id: Uuid,
    job_id: &'a str,
    job_url: &'a str,
    title: &'a str,
    location: &'a str,
    city: &'static str,
    region: &'static str,
    job_country: &'static str,
    date_posted: Ts,
    valid_through: Ts,
    employment_type: &'static str,
    seniority_level: &'static str,
    job_function: &'static str,
    industries: &'static str,
    num_applicants: &'a str,
    description_text: &'a str,
    created_at: Ts,
    company_id: Uuid,
}

/// Reused buffers of one row.
#[derive(Default)]
struct Buffers {
    job_id: String,
    job_url: String,
    title: String,
    location: String,
    applicants: String,
    description: String,
}

/// Writes `count` job postings of existing companies.
pub fn write(ctx: &Context, companies: &CompanyIndex, count: usize) -> io::Result<FileSummary> {
    let mut g = ctx.gen_for(Stream::Hiring);
    let id_offset = g.bits() % JOB_ID_SPACE;
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let mut b = Buffers::default();
    let mut job_text = JobText::default();
    for n in 0..count as u64 {
        let company = companies.larger(&mut g);
        let facts = *companies.facts(company);
        let sector = companies.sector(company);
        let role = ctx.tables.posting_role(&mut g, 0.1);
        b.title.clear();
        role.push_title(&mut b.title);
        let (country, city) = home(&mut g, &ctx.tables, companies, company);
        b.location.clear();
        let place = if country.code == "US" {
            city.region
        } else {
            country.name
        };
        let _ = write!(b.location, "{}, {place}", city.name);
        b.job_id.clear();
        let job_number = 1_000_000_000 + (n * JOB_ID_STEP + id_offset) % JOB_ID_SPACE;
        let _ = write!(b.job_id, "{job_number}");
        b.job_url.clear();
        let _ = write!(b.job_url, "https://www.linkedin.com/jobs/view/{job_number}");
        let posting = Posting {
            company: companies.name(company),
            sector,
            role: &role,
            title: &b.title,
            city: city.name,
            hq_city: companies.city(company).map_or(city.name, |c| c.name),
        };
        job_text.describe(&mut g, &posting, &mut b.description);
        applicants(&mut g, &mut b.applicants);
        let date_posted = ctx.window.recent(&mut g);
        let open_days = *g.pick(&[30, 45, 60, 90]);
        let created_at = ctx
            .window
            .clamp(date_posted.plus(g.between(HOUR_MS / 4, 36 * HOUR_MS)));
        file.write(&HiringRow {
            id: g.uuid(),
            job_id: &b.job_id,
            job_url: &b.job_url,
            title: &b.title,
            location: &b.location,
            city: city.name,
            region: city.region,
            job_country: country.code,
            date_posted,
            valid_through: date_posted.plus(open_days * DAY_MS),
            employment_type: employment_type(&mut g, role.level),
            seniority_level: role.level.label(),
            job_function: role.function.name,
            industries: sector.industry,
            num_applicants: &b.applicants,
            description_text: &b.description,
            created_at,
            company_id: facts.id,
        })?;
    }
    file.finish()
}

fn employment_type(g: &mut Gen, level: Level) -> &'static str {
    if level == Level::Internship {
        return "internship";
    }
    let u = g.unit();
    if u < 0.88 {
        "full_time"
    } else if u < 0.95 {
        "contract"
    } else {
        "part_time"
    }
}

/// Applicant counts as job boards show them: log-normal around 25, anything past 200 (about
/// one posting in sixteen) shown as "200+".
fn applicants(g: &mut Gen, out: &mut String) {
    out.clear();
    let n = (3.3 + 1.3 * g.normal()).exp() as u64;
    if n > 200 {
        out.push_str("200+");
    } else {
        let _ = write!(out, "{n}");
    }
}
