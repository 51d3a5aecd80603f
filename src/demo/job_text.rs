//! Job descriptions of 40 to 120 words, assembled from sentences that name the role's skills and
//! tools, so description keyword searches ("kubernetes", "salesforce") find meaningful rows.

use std::fmt::Write as _;

use super::rng::Gen;
use super::text;
use super::vocab::Role;
use super::vocab::roles::{BENEFITS, INTROS, REQUIREMENTS};
use super::vocab::sectors::Sector;

/// Fewest and most words of a description.
pub const MIN_WORDS: usize = 40;
pub const MAX_WORDS: usize = 120;

/// What a description is about.
pub struct Posting<'a> {
    pub company: &'a str,
    pub sector: &'static Sector,
    pub role: &'a Role,
    pub title: &'a str,
    /// Where the job is.
    pub city: &'a str,
    /// Where the company is headquartered (the job's city when unknown).
    pub hq_city: &'a str,
}

/// Reusable buffers of the description writer.
#[derive(Default)]
pub struct JobText {
    sentence: String,
    industry: String,
    duties: Vec<usize>,
    skills: Vec<usize>,
}

impl JobText {
    /// Writes a description of `posting` into `out` (cleared first).
    pub fn describe(&mut self, g: &mut Gen, posting: &Posting, out: &mut String) {
        out.clear();
        let target = MIN_WORDS + g.below(MAX_WORDS - MIN_WORDS + 1);
        let mut words = 0;
        self.industry.clear();
        text::push_lower(&mut self.industry, posting.sector.industry);
        let offering = g.word(posting.sector.offerings);
        let intro = g.word(INTROS);
        self.sentence.clear();
        let slots = [
            ("company", posting.company),
            ("offering", offering),
            ("industry", self.industry.as_str()),
            ("city", posting.hq_city),
        ];
        text::render(&mut self.sentence, intro, &slots);
        words += append(out, &self.sentence);
        self.sentence.clear();
        let article = if posting.title.starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        let _ = write!(
            self.sentence,
            "We are looking for {article} {} to join our {} team in {}.",
            posting.title, posting.role.function.name, posting.city
        );
        words += append(out, &self.sentence);
        let duties = posting.role.function.duties;
        g.distinct(duties.len(), duties.len(), &mut self.duties);
        let mut next_duty = 0;
        for step in 0..12 {
            if words >= target {
                break;
            }
            self.sentence.clear();
            match step % 4 {
                0 | 2 => match self.duties.get(next_duty) {
                    Some(&d) => {
                        next_duty += 1;
                        let lead =
                            g.word(&["In this role you will", "You will", "Day to day, you will"]);
                        self.sentence.push_str(lead);
                        self.sentence.push(' ');
                        self.sentence.push_str(duties[d]);
                        self.sentence.push('.');
                    }
                    None => continue,
                },
                1 => self.requirement(g, posting),
                _ => {
                    let city = [("city", posting.city)];
                    text::render(&mut self.sentence, g.word(BENEFITS), &city);
                }
            }
            let n = text::word_count(&self.sentence);
            if words + n <= MAX_WORDS {
                words += append(out, &self.sentence);
            }
        }
        while words < MIN_WORDS {
            self.sentence.clear();
            self.requirement(g, posting);
            words += append(out, &self.sentence);
        }
    }

    fn requirement(&mut self, g: &mut Gen, posting: &Posting) {
        let skills = posting.role.function.skills;
        g.distinct(skills.len(), 3, &mut self.skills);
        let picks = &self.skills;
        let years = (2 + g.below(7)).to_string();
        let slots = [
            ("a", skills[picks[0]]),
            ("b", skills[picks[1]]),
            ("c", skills[picks[2]]),
            ("years", years.as_str()),
        ];
        text::render(&mut self.sentence, g.word(REQUIREMENTS), &slots);
    }
}

/// Appends a sentence (space-separated) and returns its word count.
fn append(out: &mut String, sentence: &str) -> usize {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(sentence);
    text::word_count(sentence)
}
