//! job-changes.ndjson: people joining companies. Some are people of people.ndjson leaving their
//! current company (so profile targets follow them), each move of one person dated after their
//! previous one and recorded as their current job; the rest are new faces, half of them with a
//! known previous employer.

use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::clock::Ts;
use super::index::{CompanyIndex, Job, PeopleIndex, push_profile_slug};
use super::people::home;
use super::rng::Gen;
use super::text;
use super::vocab::names::{HEADLINE_TAILS, WIRES};
use super::vocab::roles::Level;
use super::vocab::{self, Role};
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream};

pub const FILE: &str = "job-changes.ndjson";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JobChangeRow<'a> {
    signal_id: Uuid,
    occurred_at: Ts,
    discovered_at: Ts,
    company_id: Uuid,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_company_id: Option<Uuid>,
    person_name: &'a str,
    person_linkedin_url: &'a str,
    new_role: &'a str,
    post_content: &'a str,
    taken_from: &'a str,
    source: &'static str,
    person_current_title: &'a str,
    person_headline: &'a str,
    person_location: &'static str,
    person_city: &'static str,
    person_country: &'static str,
    person_followers: u32,
    person_connections: u32,
    keywords: &'a [&'a str],
}

/// Reused buffers of one row.
#[derive(Default)]
struct Buffers {
    name: String,
    slug: String,
    url: String,
    role: String,
    post: String,
    taken_from: String,
    current_title: String,
    headline: String,
    function_tag: String,
}

/// Who moved where, when, and where it was reported.
struct Move<'a> {
    person: &'a str,
    role: &'a str,
    company: &'a str,
    /// Position of the new company in the index.
    company_index: usize,
    previous: Option<&'a str>,
    source: &'static str,
    at: Ts,
}

/// Writes `count` job changes between existing companies, moving the people of `people` who
/// change jobs.
pub fn write(
    ctx: &Context,
    companies: &CompanyIndex,
    people: &mut PeopleIndex,
    count: usize,
) -> io::Result<FileSummary> {
    let mut g = ctx.gen_for(Stream::JobChanges);
    let salt = ctx.profile_salt();
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let mut b = Buffers::default();
    for n in 0..count {
        b.name.clear();
        b.slug.clear();
        let mover = (!people.is_empty() && g.chance(0.4)).then(|| g.below(people.len()));
        let (company, previous) = if let Some(person) = mover {
            b.name.push_str(people.name(person));
            b.slug.push_str(people.profile_slug(person));
            let previous = people.company(person);
            (
                companies.larger_other_than(previous, &mut g),
                Some(previous),
            )
        } else {
            vocab::person_name(&mut g, &mut b.name);
            push_profile_slug(&mut b.slug, &b.name, (people.len() + n) as u64, salt);
            let company = companies.larger(&mut g);
            let previous = g
                .chance(0.5)
                .then(|| companies.larger_other_than(company, &mut g));
            (company, previous)
        };
        b.url.clear();
        let _ = write!(b.url, "https://www.linkedin.com/in/{}", b.slug);
        let role = ctx.tables.move_role(&mut g, 0.45);
        b.role.clear();
        role.push_title(&mut b.role);
        let source = g.word(&[
            "linkedin",
            "linkedin",
            "linkedin",
            "linkedin",
            "linkedin",
            "press_release",
            "press_release",
            "other",
        ]);
        let (occurred_at, discovered_at) = match mover.and_then(|p| people.job(p).since) {
            Some(last_move) => ctx.window.occurrence_after(last_move, &mut g),
            None => ctx.window.occurrence(&mut g),
        };
        let mv = Move {
            person: &b.name,
            role: &b.role,
            company: companies.name(company),
            company_index: company,
            previous: previous.map(|p| companies.name(p)),
            source,
            at: occurred_at,
        };
        write_post(&mut g, &mut b.post, &mv);
        write_taken_from(&mut g, &mut b.taken_from, companies, &mv);
        b.current_title.clear();
        let _ = write!(b.current_title, "{} at {}", mv.role, mv.company);
        write_headline(&mut g, &mut b.headline, &mv);
        b.function_tag.clear();
        text::push_lower(&mut b.function_tag, role.function.name);
        let keywords = keywords(&mut g, &role, &b.function_tag, source, previous.is_some());
        let (country, city) = home(&mut g, &ctx.tables, companies, company);
        if let Some(person) = mover {
            let job = Job {
                company: company as u32,
                title: b.role.clone(),
                country,
                city,
                since: Some(occurred_at),
            };
            people.change_job(person, job);
        }
        let followers = (6.0 + 1.3 * g.normal()).exp().clamp(10.0, 500_000.0) as u32;
        let connections = (6.2 + 0.8 * g.normal()).exp().clamp(50.0, 30_000.0) as u32;
        file.write(&JobChangeRow {
            signal_id: g.uuid(),
            occurred_at,
            discovered_at,
            company_id: companies.facts(company).id,
            previous_company_id: previous.map(|p| companies.facts(p).id),
            person_name: &b.name,
            person_linkedin_url: &b.url,
            new_role: &b.role,
            post_content: &b.post,
            taken_from: &b.taken_from,
            source,
            person_current_title: &b.current_title,
            person_headline: &b.headline,
            person_location: city.metro,
            person_city: city.name,
            person_country: country.code,
            person_followers: followers,
            person_connections: connections,
            keywords: &keywords,
        })?;
    }
    file.finish()
}

fn write_post(g: &mut Gen, out: &mut String, mv: &Move) {
    out.clear();
    let template = match (mv.source, mv.previous.is_some()) {
        ("linkedin", true) => g.word(&[
            "After {years} wonderful years at {previous}, I'm excited to share that I've joined {company} as {role}!",
            "I'm happy to share that I'm starting a new position as {role} at {company}! Grateful to my colleagues at {previous}.",
        ]),
        ("linkedin", false) => g.word(&[
            "I'm happy to share that I'm starting a new position as {role} at {company}!",
            "New chapter: I've joined {company} as {role}. We're hiring, reach out!",
        ]),
        ("press_release", true) => "{company} appoints {person} as {role}, joining from {previous}.",
        ("press_release", false) => "{company} announces the appointment of {person} as {role}.",
        _ => "{person} joins {company} as {role}.",
    };
    let years = (2 + g.below(9)).to_string();
    let slots = [
        ("person", mv.person),
        ("role", mv.role),
        ("company", mv.company),
        ("previous", mv.previous.unwrap_or_default()),
        ("years", years.as_str()),
    ];
    text::render(out, template, &slots);
}

fn write_taken_from(g: &mut Gen, out: &mut String, companies: &CompanyIndex, mv: &Move) {
    out.clear();
    match mv.source {
        "linkedin" => {
            let activity = 7_000_000_000_000_000_000 + g.bits() % 1_000_000_000_000_000_000;
            let _ = write!(
                out,
                "https://www.linkedin.com/feed/update/urn:li:activity:{activity}"
            );
        }
        "press_release" => {
            let (y, m, d) = mv.at.day().ymd();
            let wire = g.word(WIRES);
            let _ = write!(
                out,
                "https://{wire}/news/home/{y}{m:02}{d:02}{:05}/en/",
                g.below(100_000)
            );
        }
        _ => {
            out.push_str("https://");
            companies.push_domain(mv.company_index, out);
            out.push_str("/blog/welcome-our-new-team-member");
        }
    }
}

fn write_headline(g: &mut Gen, out: &mut String, mv: &Move) {
    out.clear();
    let tail = g.word(HEADLINE_TAILS);
    match mv.previous {
        Some(previous) if g.chance(0.3) => {
            let _ = write!(
                out,
                "{} at {} | ex-{previous} | {tail}",
                mv.role, mv.company
            );
        }
        _ if g.chance(0.5) => {
            let _ = write!(out, "{} at {} | {tail}", mv.role, mv.company);
        }
        _ => {
            let _ = write!(out, "{} | {tail}", mv.role);
        }
    }
}

fn keywords<'a>(
    g: &mut Gen,
    role: &Role,
    function_tag: &'a str,
    source: &str,
    has_previous: bool,
) -> Vec<&'a str> {
    let mut out = vec!["new role", function_tag];
    if matches!(role.level, Level::Director | Level::Executive) {
        out.push("leadership");
    }
    if !has_previous && g.chance(0.5) {
        out.push("promotion");
    }
    if source == "press_release" {
        out.push("appointment");
    }
    out
}
