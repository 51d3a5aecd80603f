//! people.ndjson: members with unique profile URLs and their current company.

use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::index::{CompanyIndex, PeopleIndex, push_profile_slug};
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

/// Writes `count` people at existing companies and returns the index job changes draw on.
pub fn write(
    ctx: &Context,
    companies: &CompanyIndex,
    count: usize,
) -> io::Result<(PeopleIndex, FileSummary)> {
    let mut g = ctx.gen_for(Stream::People);
    let salt = ctx.profile_salt();
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let mut index = PeopleIndex::default();
    let (mut name, mut slug, mut url, mut title) =
        (String::new(), String::new(), String::new(), String::new());
    for n in 0..count {
        name.clear();
        vocab::person_name(&mut g, &mut name);
        slug.clear();
        push_profile_slug(&mut slug, &name, n as u64, salt);
        url.clear();
        url.push_str("https://www.linkedin.com/in/");
        url.push_str(&slug);
        let company = companies.larger(&mut g);
        title.clear();
        ctx.tables.move_role(&mut g, 0.25).push_title(&mut title);
        let (country, city) = home(&mut g, &ctx.tables, companies, company);
        file.write(&PersonRow {
            linkedin_url: &url,
            name: &name,
            title: &title,
            location: city.metro,
            city: city.name,
            country: country.code,
            company_id: companies.facts(company).id,
        })?;
        index.push(&name, &slug, company);
    }
    Ok((index, file.finish()?))
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
