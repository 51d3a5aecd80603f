//! acquisitions.ndjson: a company bought by another (usually larger) one, with a price for most
//! deals that grows with the target's size.

use std::io;

use serde::Serialize;
use uuid::Uuid;

use super::clock::{Day, Ts};
use super::funding::verification;
use super::index::CompanyIndex;
use super::rng::Gen;
use super::sources::{self, SourceRow, Story};
use super::text;
use super::vocab::geo::per_usd;
use super::writer::{FileSummary, NdjsonFile};
use super::{Context, Stream};

pub const FILE: &str = "acquisitions.ndjson";

/// Stakes of partial acquisitions, in percent.
const PARTIAL_STAKES: &[&str] = &["20", "25", "30", "49", "51", "60", "75", "80", "90"];

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AcquisitionRow<'a> {
    signal_id: Uuid,
    occurred_at: Ts,
    discovered_at: Ts,
    company_id: Uuid,
    acquiring_company_id: Uuid,
    amount: Option<u64>,
    currency: &'static str,
    percentage: &'static str,
    announced_date: Day,
    verification_status: &'static str,
    is_free_access: bool,
    sources: &'a [SourceRow],
}

/// Writes `count` acquisitions between existing companies (needs at least two).
pub fn write(ctx: &Context, companies: &CompanyIndex, count: usize) -> io::Result<FileSummary> {
    let mut g = ctx.gen_for(Stream::Acquisitions);
    let mut file = NdjsonFile::create(ctx.dir, FILE, ctx.progress)?;
    let (mut headline, mut domain, mut sources) = (String::new(), String::new(), Vec::new());
    for _ in 0..count {
        let acquired = companies.any(&mut g);
        let acquirer = companies.larger_other_than(acquired, &mut g);
        let european = [acquired, acquirer]
            .iter()
            .any(|&c| companies.country(c).and_then(|k| k.currency) == Some("EUR"));
        let currency = if european && g.chance(0.5) {
            "EUR"
        } else {
            "USD"
        };
        let amount = g.chance(0.6).then(|| {
            let employees = f64::from(companies.facts(acquired).employees);
            let usd = (employees * g.log_uniform(1e5, 1.5e6)).clamp(1e6, 5e10);
            text::round_two_digits(usd * per_usd(currency))
        });
        let percentage = if g.chance(0.85) {
            "100"
        } else {
            g.word(PARTIAL_STAKES)
        };
        let (occurred_at, discovered_at) = ctx.window.occurrence(&mut g);
        headline.clear();
        let deal = Deal {
            acquirer: companies.name(acquirer),
            acquired: companies.name(acquired),
            amount,
            currency,
            percentage,
        };
        write_headline(&mut g, &mut headline, &deal);
        domain.clear();
        companies.push_domain(acquired, &mut domain);
        let story = Story {
            headline: &headline,
            at: occurred_at,
            domain: &domain,
        };
        sources::report(&mut g, &ctx.window, &story, &mut sources);
        let (status, _) = verification(&mut g);
        file.write(&AcquisitionRow {
            signal_id: g.uuid(),
            occurred_at,
            discovered_at,
            company_id: companies.facts(acquired).id,
            acquiring_company_id: companies.facts(acquirer).id,
            amount,
            currency,
            percentage,
            announced_date: occurred_at.day(),
            verification_status: status,
            is_free_access: g.chance(0.1),
            sources: &sources,
        })?;
    }
    file.finish()
}

/// What an acquisition headline reports.
struct Deal<'a> {
    acquirer: &'a str,
    acquired: &'a str,
    amount: Option<u64>,
    currency: &'a str,
    percentage: &'a str,
}

fn write_headline(g: &mut Gen, out: &mut String, deal: &Deal) {
    let mut money = String::new();
    if let Some(amount) = deal.amount {
        text::push_money(&mut money, amount, deal.currency);
    }
    let template = match (deal.percentage, deal.amount) {
        ("100", Some(_)) => g.word(&[
            "{acquirer} to acquire {acquired} for {money}",
            "{acquirer} acquires {acquired} in {money} deal",
        ]),
        ("100", None) => g.word(&[
            "{acquirer} acquires {acquired}",
            "{acquired} acquired by {acquirer}",
        ]),
        _ => "{acquirer} acquires {percentage}% stake in {acquired}",
    };
    let slots = [
        ("acquirer", deal.acquirer),
        ("acquired", deal.acquired),
        ("money", money.as_str()),
        ("percentage", deal.percentage),
    ];
    text::render(out, template, &slots);
}
