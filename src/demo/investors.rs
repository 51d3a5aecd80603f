//! The investors behind funding rounds: a fixed pool per run, so the same firm (and id) shows up
//! across many rounds, the busiest firms most often.

use std::collections::HashSet;

use serde::Serialize;
use uuid::Uuid;

use super::index::CompanyIndex;
use super::rng::Gen;
use super::text;
use super::vocab::names::{FIRM_ENDS, FIRST_NAMES, LAST_NAMES, NAME_HEADS, NAME_NOUNS};
use super::{Context, Stream};

/// Investors in the pool.
const POOL: usize = 1500;

/// One investor of the pool.
pub struct Investor {
    id: Uuid,
    name: String,
    kind: &'static str,
    website: Option<String>,
    linkedin: String,
}

/// An investor as a funding record lists it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvestorRow<'a> {
    id: Uuid,
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    website: Option<&'a str>,
    linkedin: &'a str,
    is_lead: bool,
}

impl InvestorRow<'_> {
    /// The investor's name.
    pub fn name(&self) -> &str {
        self.name
    }
}

/// The pool of one run.
pub struct Investors {
    all: Vec<Investor>,
}

impl Investors {
    /// Builds the pool; corporate venture arms are named after large companies of the run.
    pub fn new(ctx: &Context, companies: &CompanyIndex) -> Self {
        let mut g = ctx.gen_for(Stream::Investors);
        let mut seen = HashSet::new();
        let mut all = Vec::with_capacity(POOL);
        while all.len() < POOL {
            let investor = draw(&mut g, companies);
            if seen.insert(investor.name.clone()) {
                all.push(investor);
            }
        }
        Self { all }
    }

    /// The investors of one round, lead first: `count` distinct firms, the lead never an angel
    /// unless `angel_lead` (angel and pre-seed rounds).
    pub fn round<'a>(
        &'a self,
        g: &mut Gen,
        count: usize,
        angel_lead: bool,
        out: &mut Vec<InvestorRow<'a>>,
    ) {
        out.clear();
        let mut chosen: Vec<usize> = Vec::with_capacity(count);
        while chosen.len() < count {
            // Squaring a uniform draw makes the first firms of the pool the busiest.
            let u = g.unit();
            let i = ((u * u) * self.all.len() as f64) as usize;
            let lead_ok = !chosen.is_empty() || angel_lead || self.all[i].kind != "angel";
            if lead_ok && !chosen.contains(&i) {
                chosen.push(i);
            }
        }
        out.extend(chosen.iter().enumerate().map(|(n, &i)| {
            let investor = &self.all[i];
            InvestorRow {
                id: investor.id,
                name: &investor.name,
                kind: investor.kind,
                website: investor.website.as_deref(),
                linkedin: &investor.linkedin,
                is_lead: n == 0,
            }
        }));
    }
}

fn draw(g: &mut Gen, companies: &CompanyIndex) -> Investor {
    let u = g.unit();
    let (kind, name) = if u < 0.68 {
        let first = if g.chance(0.5) {
            g.word(NAME_HEADS)
        } else {
            g.word(NAME_NOUNS)
        };
        ("vc", format!("{first} {}", g.word(FIRM_ENDS)))
    } else if u < 0.8 {
        let parent = companies.larger(g);
        ("corporate", format!("{} Ventures", companies.name(parent)))
    } else if u < 0.88 {
        let (a, b) = (g.word(LAST_NAMES), g.word(LAST_NAMES));
        ("pe", format!("{a} & {b} Capital"))
    } else {
        (
            "angel",
            format!("{} {}", g.word(FIRST_NAMES), g.word(LAST_NAMES)),
        )
    };
    let slug = text::slug(&name);
    let (website, linkedin) = if kind == "angel" {
        (None, format!("https://www.linkedin.com/in/{slug}"))
    } else {
        let domain: String = slug.chars().filter(|c| *c != '-').collect();
        let tld = if kind == "vc" && g.chance(0.3) {
            "vc"
        } else {
            "com"
        };
        (
            Some(format!("https://www.{domain}.{tld}")),
            format!("https://www.linkedin.com/company/{slug}"),
        )
    };
    Investor {
        id: g.uuid(),
        name,
        kind,
        website,
        linkedin,
    }
}
