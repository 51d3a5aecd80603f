//! people.ndjson: members with unique profile URLs and their current job. People are drawn first
//! and written after the job changes, so each record shows where its person works now: the new
//! company and role of their latest job change, or the job they were drawn with when they did not
//! move.

use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::index::{CompanyIndex, Job, PeopleIndex, push_profile_slug};
use super::rng::Gen;
use super::vocab::geo::{City, Country};
use super::vocab::{self, Tables};
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream};

pub const FILE: &str = "people.ndjson";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PersonRow<'a> {
    linkedin_url: &'a str,
    name: &'a str,
    title: &'a str,
    location: &'static str,
    city: &'static str,
    country: &'static str,
    company_id: Uuid,
}

/// Draws `count` people at existing companies: the index job changes draw on and move.
pub fn draw(ctx: &Context, companies: &CompanyIndex, count: usize) -> PeopleIndex {
    let mut g = ctx.gen_for(Stream::People);
    let salt = ctx.profile_salt();
    let mut index = PeopleIndex::default();
    let (mut name, mut slug) = (String::new(), String::new());
    for n in 0..count {
        name.clear();
        vocab::person_name(&mut g, &mut name);
        slug.clear();
        push_profile_slug(&mut slug, &name, n as u64, salt);
        let company = companies.larger(&mut g);
        let mut title = String::new();
        ctx.tables.move_role(&mut g, 0.25).push_title(&mut title);
        let (country, city) = home(&mut g, &ctx.tables, companies, company);
        let job = Job {
            company: company as u32,
            title,
            country,
            city,
            since: None,
        };
        index.push(&name, &slug, job);
    }
    index
}

/// Writes every person at their current job.
pub fn write(
    ctx: &Context,
    companies: &CompanyIndex,
    people: &PeopleIndex,
) -> io::Result<FileSummary> {
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let mut url = String::new();
    for person in 0..people.len() {
        url.clear();
        url.push_str("https://www.linkedin.com/in/");
        url.push_str(people.profile_slug(person));
        let job = people.job(person);
        file.write(&PersonRow {
            linkedin_url: &url,
            name: people.name(person),
            title: &job.title,
            location: job.city.metro,
            city: job.city.name,
            country: job.country.code,
            company_id: companies.facts(job.company as usize).id,
        })?;
    }
    file.finish()
}

/// Where someone working at `company` lives: mostly near its headquarters.
pub fn home(
    g: &mut Gen,
    tables: &Tables,
    companies: &CompanyIndex,
    company: usize,
) -> (&'static Country, &'static City) {
    match (companies.country(company), companies.city(company)) {
        (Some(country), Some(city)) if g.chance(0.6) => (country, city),
        (Some(country), _) if g.chance(0.5) => (country, g.pick(country.cities)),
        _ => {
            let country = tables.country(g);
            (country, g.pick(country.cities))
        }
    }
}
