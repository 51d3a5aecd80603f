//! What later files need to know about the companies and people already written, kept compact:
//! strings live in one arena each, facts in small fixed-size structs.

use uuid::Uuid;

use super::clock::Ts;
use super::rng::Gen;
use super::vocab::geo::{City, Country};
use super::vocab::{self, sectors::Sector};

/// Many short strings in one buffer.
#[derive(Default)]
pub struct Strings {
    text: String,
    ends: Vec<u32>,
}

impl Strings {
    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
    }

    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }
}

/// The few facts about a company that signals refer to.
#[derive(Clone, Copy)]
pub struct CompanyFacts {
    pub id: Uuid,
    pub country: Option<u8>,
    /// Headquarters city, an index into the country's cities.
    pub city: u8,
    pub sector: u8,
    pub tld: &'static str,
    pub employees: u32,
}

/// Every company written, by position.
#[derive(Default)]
pub struct CompanyIndex {
    facts: Vec<CompanyFacts>,
    names: Strings,
    slugs: Strings,
}

impl CompanyIndex {
    pub fn push(&mut self, facts: CompanyFacts, name: &str, slug: &str) {
        self.facts.push(facts);
        self.names.push(name);
        self.slugs.push(slug);
    }

    pub fn len(&self) -> usize {
        self.facts.len()
    }

    pub fn facts(&self, i: usize) -> &CompanyFacts {
        &self.facts[i]
    }

    pub fn name(&self, i: usize) -> &str {
        self.names.get(i)
    }

    pub fn slug(&self, i: usize) -> &str {
        self.slugs.get(i)
    }

    pub fn sector(&self, i: usize) -> &'static Sector {
        vocab::sector(self.facts[i].sector)
    }

    pub fn country(&self, i: usize) -> Option<&'static Country> {
        vocab::country(self.facts[i].country)
    }

    /// Headquarters city, when the country is known.
    pub fn city(&self, i: usize) -> Option<&'static City> {
        self.country(i)
            .map(|c| &c.cities[self.facts[i].city as usize])
    }

    /// Appends the bare domain (`novastack.io`).
    pub fn push_domain(&self, i: usize, out: &mut String) {
        out.push_str(self.slug(i));
        out.push('.');
        out.push_str(self.facts[i].tld);
    }

    /// Any company, uniformly.
    pub fn any(&self, g: &mut Gen) -> usize {
        g.below(self.len())
    }

    /// A company drawn with a lean towards larger ones (the larger of two draws): bigger
    /// companies post more jobs, employ more people and buy the others.
    pub fn larger(&self, g: &mut Gen) -> usize {
        let (a, b) = (self.any(g), self.any(g));
        if self.facts[a].employees >= self.facts[b].employees {
            a
        } else {
            b
        }
    }

    /// A company other than `not`, leaning larger (needs at least two companies).
    pub fn larger_other_than(&self, not: usize, g: &mut Gen) -> usize {
        loop {
            let i = self.larger(g);
            if i != not {
                return i;
            }
        }
    }
}

/// Where a person works: the company, their title there and where they live.
pub struct Job {
    /// Position of the company in the index.
    pub company: u32,
    pub title: String,
    pub country: &'static Country,
    pub city: &'static City,
    /// When they started it by a job change; `None` for the job they were drawn with.
    pub since: Option<Ts>,
}

/// Every person drawn, by position, at their current job.
#[derive(Default)]
pub struct PeopleIndex {
    names: Strings,
    profile_slugs: Strings,
    jobs: Vec<Job>,
}

impl PeopleIndex {
    pub fn push(&mut self, name: &str, profile_slug: &str, job: Job) {
        self.names.push(name);
        self.profile_slugs.push(profile_slug);
        self.jobs.push(job);
    }

    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    pub fn name(&self, i: usize) -> &str {
        self.names.get(i)
    }

    pub fn profile_slug(&self, i: usize) -> &str {
        self.profile_slugs.get(i)
    }

    /// The person's current job.
    pub fn job(&self, i: usize) -> &Job {
        &self.jobs[i]
    }

    /// Index of the company the person works at now.
    pub fn company(&self, i: usize) -> usize {
        self.jobs[i].company as usize
    }

    /// Records a job change of the person; the latest by date is their current job.
    pub fn change_job(&mut self, i: usize, job: Job) {
        let current = &mut self.jobs[i];
        if job.since >= current.since {
            *current = job;
        }
    }
}

/// Appends a unique profile slug for person number `n` (`jane-doe-4k2x9qa`). The suffix is `n`
/// through a bijection on 36^7, so slugs never collide and need no set to check.
pub fn push_profile_slug(out: &mut String, name: &str, n: u64, salt: u64) {
    const SPACE: u64 = 36u64.pow(7);
    // Odd and not a multiple of 3, hence coprime with 36^7: multiplication permutes the space.
    const STEP: u64 = 48_271 * 1_000_003;
    super::text::push_slug(out, name);
    out.push('-');
    let mut x = ((u128::from(n) * u128::from(STEP) + u128::from(salt)) % u128::from(SPACE)) as u64;
    let mut digits = [b'0'; 7];
    for d in digits.iter_mut().rev() {
        *d = b"0123456789abcdefghijklmnopqrstuvwxyz"[(x % 36) as usize];
        x /= 36;
    }
    out.push_str(std::str::from_utf8(&digits).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_returns_what_was_pushed() {
        let mut s = Strings::default();
        for word in ["", "a", "bc", "déf"] {
            s.push(word);
        }
        assert_eq!(
            [s.get(0), s.get(1), s.get(2), s.get(3)],
            ["", "a", "bc", "déf"]
        );
    }

    #[test]
    fn profile_slugs_of_different_people_differ() {
        let mut seen = std::collections::BTreeSet::new();
        for n in 0..20_000 {
            let mut out = String::new();
            push_profile_slug(&mut out, "Ann Lee", n, 12345);
            assert!(seen.insert(out));
        }
    }
}
