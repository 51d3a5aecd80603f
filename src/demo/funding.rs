//! funding.ndjson: rounds whose stage follows the company's size and whose amount follows the
//! stage, in the company's local currency about half the time.

use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::clock::{Day, Ts};
use super::index::CompanyIndex;
use super::investors::{InvestorRow, Investors};
use super::rng::{Gen, Weighted};
use super::sources::{self, SourceRow, Story};
use super::text;
use super::vocab::geo::per_usd;
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream};

pub const FILE: &str = "funding.ndjson";

/// Every round type the service accepts, lower-case.
pub const ROUND_TYPES: &[&str] = &[
    "pre-seed",
    "seed",
    "series a",
    "series b",
    "series c",
    "series d",
    "series e",
    "series f",
    "series g",
    "series h",
    "angel",
    "grant",
    "crowdfunding",
    "growth",
    "debt",
    "debt financing",
    "equity",
    "fund",
    "ipo",
];

/// Round mixes by company head count: (head count below, weights in `ROUND_TYPES` order).
#[rustfmt::skip]
const MIXES: &[(u32, [u32; 19])] = &[
    //  pre seed  A   B   C   D   E   F   G  H ang gra crw gro deb dfi equ fnd ipo
    (10,        [30, 35, 2,  0,  0,  0,  0,  0, 0, 0, 14, 8,  6,  0,  0,  0,  5,  0,  0]),
    (50,        [5,  35, 35, 2,  0,  0,  0,  0, 0, 0, 5,  4,  4,  0,  4,  2,  4,  0,  0]),
    (200,       [0,  10, 30, 30, 8,  1,  0,  0, 0, 0, 0,  3,  1,  2,  7,  5,  3,  0,  0]),
    (1000,      [0,  1,  5,  25, 25, 15, 5,  1, 0, 0, 0,  1,  0,  10, 5,  4,  3,  0,  0]),
    (u32::MAX,  [0,  0,  0,  3,  8,  12, 12, 8, 5, 3, 0,  0,  0,  20, 10, 6,  3,  0,  10]),
];

/// Typical size of each round type in US dollars (low, high).
fn usd_range(round: &str) -> (f64, f64) {
    match round {
        "pre-seed" => (250e3, 1.5e6),
        "seed" => (1e6, 5e6),
        "angel" => (100e3, 1e6),
        "grant" => (50e3, 2e6),
        "crowdfunding" => (200e3, 3e6),
        "series a" => (5e6, 20e6),
        "series b" => (15e6, 60e6),
        "series c" => (40e6, 150e6),
        "series d" => (80e6, 300e6),
        "series e" => (100e6, 400e6),
        "series f" => (150e6, 600e6),
        "series g" => (200e6, 800e6),
        "series h" => (250e6, 1e9),
        "growth" => (50e6, 500e6),
        "debt" => (5e6, 200e6),
        "debt financing" => (2e6, 150e6),
        "equity" => (1e6, 100e6),
        "fund" => (20e6, 1e9),
        _ => (100e6, 2e9),
    }
}

/// How headlines name a round type.
fn label(round: &str) -> &'static str {
    match round {
        "pre-seed" => "Pre-Seed",
        "seed" => "Seed",
        "series a" => "Series A",
        "series b" => "Series B",
        "series c" => "Series C",
        "series d" => "Series D",
        "series e" => "Series E",
        "series f" => "Series F",
        "series g" => "Series G",
        "series h" => "Series H",
        "angel" => "Angel",
        "crowdfunding" => "Crowdfunding",
        "growth" => "Growth",
        _ => "Equity",
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FundingRow<'a> {
    signal_id: Uuid,
    occurred_at: Ts,
    discovered_at: Ts,
    company_id: Uuid,
    round_type: &'static str,
    round_flavor: Option<&'static str>,
    amount: u64,
    currency: &'static str,
    announced_date: Day,
    confidence_score: f64,
    verification_status: &'static str,
    is_free_access: bool,
    investors: &'a [InvestorRow<'a>],
    sources: &'a [SourceRow],
}

/// Writes `count` funding rounds of existing companies.
pub fn write(ctx: &Context, companies: &CompanyIndex, count: usize) -> io::Result<FileSummary> {
    let mut g = ctx.gen_for(Stream::Funding);
    let pool = Investors::new(ctx, companies);
    let mixes: Vec<Weighted> = MIXES.iter().map(|(_, w)| Weighted::new(*w)).collect();
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let (mut investors, mut sources) = (Vec::new(), Vec::new());
    let (mut headline, mut domain) = (String::new(), String::new());
    for _ in 0..count {
        let company = companies.any(&mut g);
        let facts = *companies.facts(company);
        let round = if companies.sector(company).id == "vc & investment" && g.chance(0.5) {
            "fund"
        } else {
            let mix = MIXES.iter().position(|(below, _)| facts.employees < *below);
            ROUND_TYPES[mixes[mix.unwrap_or(MIXES.len() - 1)].sample(&mut g)]
        };
        let currency = companies
            .country(company)
            .and_then(|c| c.currency)
            .filter(|_| g.chance(0.5))
            .unwrap_or("USD");
        let (lo, hi) = usd_range(round);
        let amount = text::round_two_digits(g.log_uniform(lo, hi) * per_usd(currency));
        let (occurred_at, discovered_at) = ctx.window.occurrence(&mut g);
        let investor_count = match round {
            "grant" | "ipo" | "fund" => 1,
            _ => 1 + g.below(4),
        };
        pool.round(
            &mut g,
            investor_count,
            matches!(round, "angel" | "pre-seed"),
            &mut investors,
        );
        headline.clear();
        let deal = Deal {
            company: companies.name(company),
            round,
            amount,
            currency,
            lead: investors[0].name(),
        };
        write_headline(&mut g, &mut headline, &deal);
        domain.clear();
        companies.push_domain(company, &mut domain);
        let story = Story {
            headline: &headline,
            at: occurred_at,
            domain: &domain,
        };
        sources::report(&mut g, &ctx.window, &story, &mut sources);
        let (status, confidence) = verification(&mut g);
        file.write(&FundingRow {
            signal_id: g.uuid(),
            occurred_at,
            discovered_at,
            company_id: facts.id,
            round_type: round,
            round_flavor: flavor(&mut g),
            amount,
            currency,
            announced_date: occurred_at.day(),
            confidence_score: confidence,
            verification_status: status,
            is_free_access: g.chance(0.1),
            investors: &investors,
            sources: &sources,
        })?;
    }
    file.finish()
}

fn flavor(g: &mut Gen) -> Option<&'static str> {
    let u = g.unit();
    if u < 0.85 {
        None
    } else if u < 0.92 {
        Some("bridge")
    } else if u < 0.97 {
        Some("extension")
    } else {
        Some("secondary")
    }
}

/// A verification status and a confidence score that agrees with it.
pub fn verification(g: &mut Gen) -> (&'static str, f64) {
    let u = g.unit();
    let (status, lo, hi) = if u < 0.6 {
        ("verified", 0.85, 0.99)
    } else if u < 0.85 {
        ("unverified", 0.5, 0.85)
    } else {
        ("pending", 0.6, 0.9)
    };
    let score = lo + g.unit() * (hi - lo);
    (status, (score * 100.0).round() / 100.0)
}

/// What a funding headline reports.
struct Deal<'a> {
    company: &'a str,
    round: &'a str,
    amount: u64,
    currency: &'a str,
    lead: &'a str,
}

fn write_headline(g: &mut Gen, out: &mut String, deal: &Deal) {
    let mut money = String::new();
    text::push_money(&mut money, deal.amount, deal.currency);
    let template = match deal.round {
        "ipo" => "{company} raises {money} in IPO",
        "grant" => "{company} receives {money} grant",
        "fund" => "{company} closes {money} fund",
        "debt" | "debt financing" => "{company} secures {money} in debt financing",
        _ => g.word(&[
            "{company} raises {money} {label} round led by {lead}",
            "{company} secures {money} in {label} funding",
            "{company} closes {money} {label} round to accelerate growth",
        ]),
    };
    let slots = [
        ("company", deal.company),
        ("money", &money),
        ("label", label(deal.round)),
        ("lead", deal.lead),
    ];
    text::render(out, template, &slots);
}
