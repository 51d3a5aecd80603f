//! The live feed of `serve --demo`: a new signal every few seconds, first for the companies
//! monitors watch, so a monitor made on a demo company hears of one within a minute.
//!
//! Each round gives a signal to the newest watched company that has not had one from the feed
//! yet (a target just added is served at the next round); when every watched company has had
//! one, the watched companies take turns, with now and then a random company in between. The
//! signal is of a type the watching monitor asked for.

use std::collections::HashSet;
use std::time::Duration;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::domain::signal_type::SignalType;
use crate::domain::time::{format_ms, now_ms};
use crate::service::imports::{WatchedCompany, add_demo_signal, demo_company, watched_companies};
use crate::store::Db;

/// Time between two live demo signals.
pub const FEED_PERIOD: Duration = Duration::from_secs(10);

/// One round in this many goes to a random company once every watched company has had a signal.
const RANDOM_ROUND: u32 = 4;

/// Which watched company the next signal goes to.
#[derive(Debug, Default)]
pub struct Chooser {
    /// Targets the feed has given a signal to.
    served: HashSet<String>,
    /// Rounds of taking turns so far.
    turn: usize,
}

/// The chooser's answer for one round.
#[derive(Debug, PartialEq)]
pub enum Pick<'a> {
    /// A watched company that has not had a signal from the feed yet.
    Fresh(&'a WatchedCompany),
    /// A watched company whose turn it is.
    Turn(&'a WatchedCompany),
    /// Nothing is watched.
    Nothing,
}

impl Chooser {
    /// The watched company (of `watched`, the newest target first) the next signal goes to.
    pub fn next<'a>(&mut self, watched: &'a [WatchedCompany]) -> Pick<'a> {
        if let Some(fresh) = watched.iter().find(|w| !self.served.contains(&w.target_id)) {
            self.served.insert(fresh.target_id.clone());
            return Pick::Fresh(fresh);
        }
        if watched.is_empty() {
            return Pick::Nothing;
        }
        self.turn = self.turn.wrapping_add(1);
        Pick::Turn(&watched[self.turn % watched.len()])
    }
}

/// Adds a new signal every [`FEED_PERIOD`] until shutdown.
pub async fn live_feed(db: Db, shutdown: CancellationToken) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(now_ms() as u64);
    let mut chooser = Chooser::default();
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(FEED_PERIOD) => {}
        }
        let watched = watched_companies(&db).await.unwrap_or_default();
        let chosen = match chooser.next(&watched) {
            Pick::Fresh(w) => Some(w),
            Pick::Turn(w) if !rng.random_ratio(1, RANDOM_ROUND) => Some(w),
            _ => None,
        };
        let (company_id, kinds) = match chosen {
            Some(w) => (w.company_id.clone(), kinds_of(&w.signal_types)),
            None => match demo_company(&db, rng.random()).await {
                Ok(Some(id)) => (id, FEED_KINDS.to_vec()),
                _ => continue,
            },
        };
        let kind = kinds
            .choose(&mut rng)
            .copied()
            .unwrap_or(SignalType::Hiring);
        let other = match kind {
            SignalType::Acquisition => match demo_company(&db, rng.random()).await {
                Ok(Some(id)) if id != company_id => Some(id),
                _ => continue,
            },
            _ => None,
        };
        let record = new_signal(&mut rng, kind, &company_id, other.as_deref());
        let record = record.as_object().cloned().unwrap_or_default();
        if let Err(err) = add_demo_signal(&db, kind, record).await {
            tracing::warn!(error = %err, "demo signal not stored");
        }
    }
}

/// The kinds the feed makes when no monitor says otherwise.
const FEED_KINDS: [SignalType; 3] = [
    SignalType::FundingRound,
    SignalType::Hiring,
    SignalType::JobChange,
];

/// The signal types a monitor's stored list names (every kind when it cannot be read).
fn kinds_of(stored: &str) -> Vec<SignalType> {
    let names: Vec<String> = serde_json::from_str(stored).unwrap_or_default();
    let kinds: Vec<SignalType> = names.iter().filter_map(|n| SignalType::parse(n)).collect();
    if kinds.is_empty() {
        FEED_KINDS.to_vec()
    } else {
        kinds
    }
}

fn new_signal(
    rng: &mut impl Rng,
    kind: SignalType,
    company_id: &str,
    other: Option<&str>,
) -> Value {
    let now = format_ms(now_ms());
    match kind {
        SignalType::FundingRound => {
            let round = ["seed", "series a", "series b"]
                .choose(rng)
                .copied()
                .unwrap_or("seed");
            let amount = rng.random_range(1..40) * 1_000_000;
            json!({
                "companyId": company_id, "occurredAt": now, "announcedDate": &now[..10],
                "roundType": round,
                "amount": amount, "currency": "USD", "verificationStatus": "unverified",
                "investors": [], "sources": []
            })
        }
        SignalType::Hiring => {
            let title = [
                "Senior Software Engineer",
                "Head of Product",
                "Account Executive",
            ]
            .choose(rng)
            .copied()
            .unwrap_or("Engineer");
            let job_id = rng
                .random_range(4_000_000_000_u64..5_000_000_000)
                .to_string();
            json!({
                "companyId": company_id, "datePosted": now, "createdAt": now, "title": title,
                "jobId": job_id, "jobUrl": format!("https://www.linkedin.com/jobs/view/{job_id}"),
                "descriptionText": "A new role on a growing team.", "numApplicants": "0"
            })
        }
        SignalType::Acquisition => {
            let amount = rng.random_range(10..500) * 1_000_000;
            json!({
                "companyId": company_id, "acquiringCompanyId": other, "occurredAt": now,
                "announcedDate": &now[..10], "amount": amount, "currency": "USD", "sources": []
            })
        }
        SignalType::JobChange => {
            let role = [
                "VP of Sales",
                "Chief Technology Officer",
                "Head of Marketing",
            ]
            .choose(rng)
            .copied()
            .unwrap_or("Director");
            let person = rng.random_range(1000..10_000);
            json!({
                "companyId": company_id, "occurredAt": now, "personName": "Alex Demo",
                "personLinkedinUrl": format!("https://www.linkedin.com/in/alex-demo-{person}"),
                "newRole": role, "source": "linkedin"
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched(target: &str, company: &str) -> WatchedCompany {
        WatchedCompany {
            target_id: target.into(),
            company_id: company.into(),
            signal_types: r#"["hiring"]"#.into(),
        }
    }

    #[test]
    fn a_new_target_is_served_at_the_next_round_then_all_take_turns() {
        let mut chooser = Chooser::default();
        let mut list = vec![watched("t1", "a"), watched("t2", "b")];
        assert_eq!(chooser.next(&list), Pick::Fresh(&list[0]));
        assert_eq!(chooser.next(&list), Pick::Fresh(&list[1]));

        list.insert(0, watched("t3", "c"));
        assert_eq!(chooser.next(&list), Pick::Fresh(&list[0]));

        let turns: HashSet<String> = (0..3)
            .map(|_| match chooser.next(&list) {
                Pick::Turn(w) => w.company_id.clone(),
                other => panic!("a turn, not {other:?}"),
            })
            .collect();
        assert_eq!(turns.len(), 3, "every watched company gets a turn");
    }

    #[test]
    fn nothing_is_chosen_when_nothing_is_watched() {
        assert_eq!(Chooser::default().next(&[]), Pick::Nothing);
    }

    #[test]
    fn the_monitors_signal_types_decide_the_kind() {
        assert_eq!(kinds_of(r#"["acquisition"]"#), [SignalType::Acquisition]);
        assert_eq!(kinds_of("not json"), FEED_KINDS.to_vec());
    }
}
