//! companies.ndjson: company profiles with unique names-derived slugs and domains.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::clock::Ts;
use super::index::{CompanyFacts, CompanyIndex};
use super::rng::Gen;
use super::vocab::names::{NAME_ADJECTIVES, NAME_ENDS, NAME_HEADS, NAME_NOUNS, NAME_TRAILERS};
use super::vocab::sectors::{GENERIC_SPECIALTIES, Sector};
use super::vocab::{self, geo::Country};
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream, text};

pub const FILE: &str = "companies.ndjson";

/// Name attempts before a numeric suffix makes the slug unique.
const NAME_ATTEMPTS: usize = 6;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CompanyRow<'a> {
    id: Uuid,
    name: &'a str,
    slug: &'a str,
    description: &'a str,
    website: &'a str,
    linkedin_url: &'a str,
    twitter_url: Option<&'a str>,
    logo_url: &'a str,
    industry: &'static str,
    subcategory: &'static str,
    founded_year: i32,
    headquarters_country: Option<&'static str>,
    employee_count: u32,
    categories: &'a [&'static str],
    keywords: &'a [&'static str],
    specialties: &'a [&'static str],
    growth_info: Option<Growth>,
    created_at: Ts,
    updated_at: Ts,
}

/// Head-count growth in percent over the named periods.
#[derive(Serialize)]
struct Growth {
    growth_1m: f64,
    growth_3m: f64,
    growth_6m: f64,
    growth_9m: f64,
    growth_12m: f64,
}

/// Reused string buffers of one row.
#[derive(Default)]
struct Buffers {
    name: String,
    slug: String,
    description: String,
    website: String,
    linkedin: String,
    twitter: String,
    logo: String,
}

/// Writes `count` companies and returns the index later files draw on.
pub fn write(ctx: &Context, count: usize) -> io::Result<(CompanyIndex, FileSummary)> {
    let mut g = ctx.gen_for(Stream::Companies);
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let mut index = CompanyIndex::default();
    let mut taken: HashSet<Box<str>> = HashSet::with_capacity(count);
    let mut b = Buffers::default();
    let (mut keywords, mut specialties, mut categories) = (Vec::new(), Vec::new(), Vec::new());
    let mut picks = Vec::new();
    let newest_year = ctx.window.anchor_year().min(2025);
    for _ in 0..count {
        let sector_index = ctx.tables.sector(&mut g);
        let sector = vocab::sector(sector_index);
        let country_index = ctx.tables.hq_country(&mut g);
        let country = vocab::country(country_index);
        let city = country.map_or(0, |c| g.below(c.cities.len()) as u8);
        let founded = founded_year(&mut g, newest_year);
        let employees = employee_count(&mut g, newest_year - founded);
        unique_name(&mut g, sector, &mut taken, &mut b);
        let tld = pick_tld(&mut g, sector, country);
        let facts = CompanyFacts {
            id: g.uuid(),
            country: country_index,
            city,
            sector: sector_index,
            tld,
            employees,
        };
        fill_links(&mut g, &mut b, tld);
        describe(
            &mut g,
            &mut b,
            sector,
            country.map(|c| c.cities[city as usize].name),
            founded,
        );
        choose_categories(&mut g, sector, &mut categories);
        let wanted = 3 + g.below(3);
        g.distinct(sector.keywords.len(), wanted, &mut picks);
        keywords.clear();
        keywords.extend(picks.iter().map(|&i| sector.keywords[i]));
        specialties.clear();
        specialties.push(sector.keywords[g.below(sector.keywords.len())]);
        let wanted = 1 + g.below(2);
        g.distinct(GENERIC_SPECIALTIES.len(), wanted, &mut picks);
        specialties.extend(picks.iter().map(|&i| GENERIC_SPECIALTIES[i]));
        let created_at = ctx.window.uniform(&mut g);
        let updated_at =
            created_at.plus((g.unit() * (ctx.window.end().0 - created_at.0) as f64) as i64);
        let growth_info = g.chance(0.7).then(|| growth(&mut g));
        file.write(&CompanyRow {
            id: facts.id,
            name: &b.name,
            slug: &b.slug,
            description: &b.description,
            website: &b.website,
            linkedin_url: &b.linkedin,
            twitter_url: (!b.twitter.is_empty()).then_some(b.twitter.as_str()),
            logo_url: &b.logo,
            industry: sector.industry,
            subcategory: sector.id,
            founded_year: founded,
            headquarters_country: country.map(|c| c.code),
            employee_count: employees,
            categories: &categories,
            keywords: &keywords,
            specialties: &specialties,
            growth_info,
            created_at,
            updated_at,
        })?;
        index.push(facts, &b.name, &b.slug);
    }
    Ok((index, file.finish()?))
}

/// Founded between 1950 and `newest`, most of them in the last decade or two.
fn founded_year(g: &mut Gen, newest: i32) -> i32 {
    let back = (75.0 * g.unit().powf(2.5)) as i32;
    (newest - back).max(1950)
}

/// Log-normal head count from 1 to 100,000, growing with the company's age.
fn employee_count(g: &mut Gen, age: i32) -> u32 {
    let mu = 1.8 + 0.9 * f64::from(age.max(0) + 1).ln();
    (mu + 1.25 * g.normal()).exp().round().clamp(1.0, 100_000.0) as u32
}

/// Draws names until one's slug is free (or numbers the last one), then claims it.
fn unique_name(g: &mut Gen, sector: &Sector, taken: &mut HashSet<Box<str>>, b: &mut Buffers) {
    for attempt in 0..NAME_ATTEMPTS {
        b.name.clear();
        company_name(g, sector, &mut b.name, attempt > 0);
        b.slug.clear();
        text::push_slug(&mut b.slug, &b.name);
        if !taken.contains(b.slug.as_str()) {
            taken.insert(b.slug.as_str().into());
            return;
        }
    }
    let base_len = b.slug.len();
    for n in 2.. {
        b.slug.truncate(base_len);
        let _ = write!(b.slug, "-{n}");
        if !taken.contains(b.slug.as_str()) {
            taken.insert(b.slug.as_str().into());
            return;
        }
    }
}

/// A company name: a fused word ("Novastack", "Foxly") or two words ("Blue Harbor", "Nova
/// Canyon"), sometimes with a tail ("Novastack Health", "Blue Harbor Labs"). After a collision
/// (`retry`) a tail is almost always added, which is what keeps names distinct at scale `l`.
fn company_name(g: &mut Gen, sector: &Sector, out: &mut String, retry: bool) {
    let u = g.unit();
    if u < 0.4 {
        out.push_str(g.word(NAME_HEADS));
        out.push_str(g.word(NAME_ENDS));
    } else if u < 0.6 {
        out.push_str(g.word(NAME_ADJECTIVES));
        out.push(' ');
        out.push_str(g.word(NAME_NOUNS));
    } else if u < 0.8 {
        out.push_str(g.word(NAME_HEADS));
        out.push(' ');
        out.push_str(g.word(NAME_NOUNS));
    } else {
        out.push_str(g.word(NAME_NOUNS));
        out.push_str(g.word(NAME_ENDS));
    }
    let tail_share = if retry { 0.9 } else { 0.35 };
    let u = g.unit();
    if u < tail_share * 0.6 {
        out.push(' ');
        out.push_str(sector.tail);
    } else if u < tail_share {
        out.push(' ');
        out.push_str(g.word(NAME_TRAILERS));
    }
}

fn pick_tld(g: &mut Gen, sector: &Sector, country: Option<&Country>) -> &'static str {
    if let Some(local) = country.and_then(|c| c.tld).filter(|_| g.chance(0.3)) {
        return local;
    }
    let u = g.unit();
    match sector.id {
        "ai" if u < 0.3 => "ai",
        _ if u < 0.7 => "com",
        _ if u < 0.82 => "io",
        _ if u < 0.88 => "co",
        _ if u < 0.92 => "ai",
        _ if u < 0.96 => "app",
        _ => "tech",
    }
}

fn fill_links(g: &mut Gen, b: &mut Buffers, tld: &str) {
    b.website.clear();
    let _ = write!(b.website, "https://{}.{tld}", b.slug);
    b.linkedin.clear();
    let _ = write!(b.linkedin, "https://www.linkedin.com/company/{}", b.slug);
    b.logo.clear();
    let _ = write!(b.logo, "https://logos.signalwatch.dev/{}.png", b.slug);
    b.twitter.clear();
    if g.chance(0.6) {
        b.twitter.push_str("https://twitter.com/");
        b.twitter
            .extend(b.slug.chars().filter(|c| *c != '-').take(15));
    }
}

fn describe(g: &mut Gen, b: &mut Buffers, sector: &Sector, city: Option<&str>, founded: i32) {
    b.description.clear();
    let _ = write!(b.description, "{} {}.", b.name, g.word(sector.offerings));
    match city {
        Some(city) if g.chance(0.5) => {
            let _ = write!(
                b.description,
                " Founded in {founded}, it is headquartered in {city}."
            );
        }
        Some(city) => {
            let _ = write!(b.description, " The team works from {city} and remotely.");
        }
        None => {
            let _ = write!(b.description, " Founded in {founded}.");
        }
    }
}

fn choose_categories(g: &mut Gen, sector: &Sector, out: &mut Vec<&'static str>) {
    out.clear();
    out.push(sector.categories[0]);
    for &category in &sector.categories[1..] {
        if out.len() < 3 && g.chance(0.6) {
            out.push(category);
        }
    }
}

fn growth(g: &mut Gen) -> Growth {
    let one_decimal = |x: f64| (x * 10.0).round() / 10.0;
    let year = 8.0 + 15.0 * g.normal();
    let mut part = |share: f64| one_decimal(year * share + 1.5 * share.sqrt() * g.normal());
    Growth {
        growth_1m: part(1.0 / 12.0),
        growth_3m: part(0.25),
        growth_6m: part(0.5),
        growth_9m: part(0.75),
        growth_12m: one_decimal(year),
    }
}
