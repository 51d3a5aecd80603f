//! The synthetic demo data set: companies, people and the four kinds of signals as NDJSON files
//! in the import format (one JSON record per line, as `import` reads them).
//!
//! The output is a pure function of scale, seed, anchor date and the moment of generation (which
//! only matters while the anchor day is not over: nothing is dated after it). Each file draws from
//! its own seeded ChaCha stream and nothing depends on hash-map order, so the same scale, seed and
//! a past anchor date give byte-identical files. Rows are streamed to disk; only the compact company and people
//! indexes that later files refer to stay in memory.

mod acquisitions;
mod clock;
mod companies;
mod funding;
mod hiring;
mod index;
mod investors;
mod job_changes;
mod job_text;
mod people;
mod rng;
mod sources;
mod text;
mod vocab;
mod writer;

#[cfg(test)]
mod tests;

use std::io;
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use indicatif::ProgressBar;

pub use writer::FileSummary;

use clock::{Ts, Window};
use vocab::Tables;

/// How large a data set to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scale {
    /// 2,000 companies and 17,500 signals: seconds to import, for tests and a first look.
    S,
    /// One tenth of `l`.
    M,
    /// 200,000 companies, 100,000 people and 1,750,000 signals.
    L,
}

/// Rows per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    pub companies: usize,
    pub people: usize,
    pub funding: usize,
    pub hiring: usize,
    pub acquisitions: usize,
    pub job_changes: usize,
}

impl Scale {
    /// Rows per file at this scale.
    pub fn sizes(self) -> Sizes {
        let divisor = match self {
            Scale::S => 100,
            Scale::M => 10,
            Scale::L => 1,
        };
        Sizes {
            companies: 200_000 / divisor,
            people: 100_000 / divisor,
            funding: 200_000 / divisor,
            hiring: 1_000_000 / divisor,
            acquisitions: 50_000 / divisor,
            job_changes: 500_000 / divisor,
        }
    }
}

impl Sizes {
    /// Rows over all files.
    pub fn total(&self) -> u64 {
        [
            self.companies,
            self.people,
            self.funding,
            self.hiring,
            self.acquisitions,
            self.job_changes,
        ]
        .iter()
        .map(|&n| n as u64)
        .sum()
    }
}

/// What to generate and where.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub scale: Scale,
    pub seed: u64,
    /// Last day of the two-year window the signals fall in.
    pub anchor: NaiveDate,
    /// The moment of generation: no record is dated after it, even on the anchor day.
    pub now: DateTime<Utc>,
    pub out: PathBuf,
}

/// Names of the files written, in the order the importer loads them.
pub const FILE_NAMES: [&str; 6] = [
    companies::FILE,
    people::FILE,
    funding::FILE,
    hiring::FILE,
    acquisitions::FILE,
    job_changes::FILE,
];

/// Settings shared by every file's generator.
pub(crate) struct Context<'a> {
    pub seed: u64,
    pub window: Window,
    pub tables: Tables,
    pub dir: &'a Path,
    pub progress: &'a ProgressBar,
}

impl Context<'_> {
    /// The random stream of one file (or other independent part) of the data set.
    pub fn gen_for(&self, stream: Stream) -> rng::Gen {
        rng::Gen::stream(self.seed, stream as u64)
    }

    /// Offset of this run's member-profile slugs, so different seeds name people differently.
    pub fn profile_salt(&self) -> u64 {
        self.gen_for(Stream::Profiles).bits()
    }
}

/// Independent random streams of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stream {
    Companies = 1,
    People = 2,
    Funding = 3,
    Hiring = 4,
    Acquisitions = 5,
    JobChanges = 6,
    Investors = 7,
    Profiles = 8,
}

/// Writes the six files into `options.out` (created if missing), advancing `progress` by one per
/// row (its length is set here), and reports each file's rows and bytes.
pub fn generate(options: &DemoOptions, progress: &ProgressBar) -> io::Result<Vec<FileSummary>> {
    std::fs::create_dir_all(&options.out)?;
    let sizes = options.scale.sizes();
    progress.set_length(sizes.total());
    let ctx = Context {
        seed: options.seed,
        window: Window::new(options.anchor, Ts(options.now.timestamp_millis())),
        tables: Tables::new(),
        dir: &options.out,
        progress,
    };
    let (companies, companies_file) = companies::write(&ctx, sizes.companies)?;
    let mut people = people::draw(&ctx, &companies, sizes.people);
    let funding_file = funding::write(&ctx, &companies, sizes.funding)?;
    let hiring_file = hiring::write(&ctx, &companies, sizes.hiring)?;
    let acquisitions_file = acquisitions::write(&ctx, &companies, sizes.acquisitions)?;
    let job_changes_file = job_changes::write(&ctx, &companies, &mut people, sizes.job_changes)?;
    // Written last: each person at the job their latest job change gave them.
    let people_file = people::write(&ctx, &companies, &people)?;
    Ok(vec![
        companies_file,
        people_file,
        funding_file,
        hiring_file,
        acquisitions_file,
        job_changes_file,
    ])
}
