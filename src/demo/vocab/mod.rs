//! The fixed vocabularies the generator draws from, with the weighted choices built over them.

pub mod geo;
pub mod names;
pub mod roles;
pub mod sectors;

use geo::{COUNTRIES, Country, NO_COUNTRY_WEIGHT};
use roles::{FUNCTIONS, Function, Ladder, Level, Rung};
use sectors::{SECTORS, Sector};

use super::rng::{Gen, Weighted};

/// Weighted choices over the vocabularies, built once per run.
pub struct Tables {
    /// Index into `COUNTRIES`, or `COUNTRIES.len()` for "no country".
    hq_countries: Weighted,
    /// Index into `COUNTRIES` (never "no country").
    countries: Weighted,
    sectors: Weighted,
    hiring_functions: Weighted,
    move_functions: Weighted,
    tech_ladder: Weighted,
    business_ladder: Weighted,
}

/// Titles that take no "Senior " or "Lead " in front.
const UNLADDERED: &[&str] = &[
    "Chief of Staff",
    "Controller",
    "General Manager",
    "Country Manager",
    "Product Owner",
];

/// A position: its title and what it says about function and seniority.
#[derive(Clone, Copy)]
pub struct Role {
    pub function: &'static Function,
    /// Ladder prefix ("Senior "), empty for leaders.
    pub prefix: &'static str,
    pub base: &'static str,
    pub level: Level,
}

impl Role {
    /// Appends the full title ("Senior Software Engineer").
    pub fn push_title(&self, out: &mut String) {
        out.push_str(self.prefix);
        out.push_str(self.base);
    }
}

impl Tables {
    pub fn new() -> Self {
        let ladder = |rungs: &[Rung]| Weighted::new(rungs.iter().map(|r| r.2));
        Self {
            hq_countries: Weighted::new(
                COUNTRIES
                    .iter()
                    .map(|c| c.weight)
                    .chain([NO_COUNTRY_WEIGHT]),
            ),
            countries: Weighted::new(COUNTRIES.iter().map(|c| c.weight)),
            sectors: Weighted::new(SECTORS.iter().map(|s| s.weight)),
            hiring_functions: Weighted::new(FUNCTIONS.iter().map(|f| f.hiring_weight)),
            move_functions: Weighted::new(FUNCTIONS.iter().map(|f| f.move_weight)),
            tech_ladder: ladder(Ladder::Tech.rungs()),
            business_ladder: ladder(Ladder::Business.rungs()),
        }
    }

    /// A headquarters country index, `None` for the few companies without one.
    pub fn hq_country(&self, g: &mut Gen) -> Option<u8> {
        let i = self.hq_countries.sample(g);
        (i < COUNTRIES.len()).then_some(i as u8)
    }

    /// A country, weighted like headquarters.
    pub fn country(&self, g: &mut Gen) -> &'static Country {
        &COUNTRIES[self.countries.sample(g)]
    }

    /// A sector index.
    pub fn sector(&self, g: &mut Gen) -> u8 {
        self.sectors.sample(g) as u8
    }

    /// A position as job postings spread them: mostly individual contributors, a few leaders
    /// (`leader_share`), interns now and then.
    pub fn posting_role(&self, g: &mut Gen, leader_share: f64) -> Role {
        let function = &FUNCTIONS[self.hiring_functions.sample(g)];
        self.role_in(function, g, leader_share, 0.03)
    }

    /// A position someone moves into: more senior than postings.
    pub fn move_role(&self, g: &mut Gen, leader_share: f64) -> Role {
        let function = &FUNCTIONS[self.move_functions.sample(g)];
        self.role_in(function, g, leader_share, 0.0)
    }

    fn role_in(
        &self,
        function: &'static Function,
        g: &mut Gen,
        leaders: f64,
        interns: f64,
    ) -> Role {
        let u = g.unit();
        if u < leaders {
            let (base, level) = *g.pick(function.leaders);
            return Role {
                function,
                prefix: "",
                base,
                level,
            };
        }
        if u < leaders + interns {
            let level = Level::Internship;
            return Role {
                function,
                prefix: "",
                base: function.intern,
                level,
            };
        }
        let table = match function.ladder {
            Ladder::Tech => &self.tech_ladder,
            Ladder::Business => &self.business_ladder,
        };
        let (prefix, level, _) = function.ladder.rungs()[table.sample(g)];
        let base = g.word(function.contributors);
        let prefix = if UNLADDERED.contains(&base) {
            ""
        } else {
            prefix
        };
        Role {
            function,
            prefix,
            base,
            level,
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// The sector at `index`.
pub fn sector(index: u8) -> &'static Sector {
    &SECTORS[index as usize]
}

/// The country at `index`, if any.
pub fn country(index: Option<u8>) -> Option<&'static Country> {
    index.map(|i| &COUNTRIES[i as usize])
}

/// A full person name.
pub fn person_name(g: &mut Gen, out: &mut String) {
    out.push_str(g.word(names::FIRST_NAMES));
    out.push(' ');
    out.push_str(g.word(names::LAST_NAMES));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subcategories_are_the_48_the_service_accepts() {
        assert_eq!(SECTORS.len(), 48);
        let mut ids: Vec<_> = SECTORS.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 48);
    }

    #[test]
    fn every_country_has_cities_and_us_regions_are_state_codes() {
        assert_eq!(COUNTRIES[0].code, "US");
        for country in COUNTRIES {
            assert!(!country.cities.is_empty(), "{}", country.code);
        }
        for city in COUNTRIES[0].cities {
            assert!(city.region.len() == 2 && city.region.chars().all(|c| c.is_ascii_uppercase()));
        }
    }
}
