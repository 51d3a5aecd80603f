//! The EDGAR latest-filings Atom feed for form type D: which filings are new, where their
//! structured documents are.

use chrono::NaiveDate;
use serde::Deserialize;

use super::text::decode;

/// One filing announced by the feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedEntry {
    /// The accession number, `0001999001-26-000001`.
    pub accession: String,
    /// `D` or `D/A`.
    pub form_type: String,
    /// The filer's name as the feed's title gives it.
    pub filer_name: String,
    /// The filing index page.
    pub index_url: String,
    /// The day the feed says it was filed (its `updated` date).
    pub filed: Option<NaiveDate>,
}

impl FeedEntry {
    /// True for an amendment (`D/A`).
    pub fn is_amendment(&self) -> bool {
        self.form_type.eq_ignore_ascii_case("D/A")
    }

    /// The filing's structured document: `primary_doc.xml` in the index page's folder.
    pub fn primary_doc_url(&self) -> String {
        match self.index_url.rsplit_once('/') {
            Some((folder, _)) => format!("{folder}/primary_doc.xml"),
            None => format!("{}/primary_doc.xml", self.index_url),
        }
    }
}

#[derive(Deserialize)]
struct Feed {
    #[serde(rename = "entry", default)]
    entries: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    title: Option<String>,
    #[serde(default)]
    link: Vec<Link>,
    category: Option<Category>,
    id: Option<String>,
    updated: Option<String>,
}

#[derive(Deserialize)]
struct Link {
    #[serde(rename = "@href")]
    href: Option<String>,
}

#[derive(Deserialize)]
struct Category {
    #[serde(rename = "@term")]
    term: Option<String>,
}

/// The form D and D/A filings of a feed, in feed order. Entries of other forms, and entries
/// without an accession number or a link, are left out.
pub fn parse_feed(body: &[u8]) -> Result<Vec<FeedEntry>, String> {
    let text = decode(body)?;
    let feed: Feed =
        quick_xml::de::from_str(&text).map_err(|e| format!("the filings feed is not Atom: {e}"))?;
    Ok(feed.entries.into_iter().filter_map(entry).collect())
}

fn entry(entry: Entry) -> Option<FeedEntry> {
    let title = entry.title.unwrap_or_default();
    let form_type = entry
        .category
        .and_then(|c| c.term)
        .or_else(|| title.split(" - ").next().map(str::to_string))?
        .trim()
        .to_ascii_uppercase();
    if form_type != "D" && form_type != "D/A" {
        return None;
    }
    let index_url = entry.link.into_iter().find_map(|l| l.href)?;
    let accession = entry
        .id
        .as_deref()
        .and_then(|id| id.split("accession-number=").nth(1))
        .map(|a| a.trim().to_string())
        .or_else(|| accession_from_url(&index_url))?;
    Some(FeedEntry {
        accession,
        form_type,
        filer_name: filer_name(&title),
        index_url,
        filed: entry
            .updated
            .as_deref()
            .and_then(|u| u.get(..10))
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
    })
}

/// `D - Acme Robotics, Inc. (0001234567) (Filer)` → `Acme Robotics, Inc.`.
fn filer_name(title: &str) -> String {
    let name = title.split_once(" - ").map_or(title, |(_, rest)| rest);
    let name = name.strip_suffix("(Filer)").unwrap_or(name).trim_end();
    let name = match name.rfind(" (") {
        Some(at) if name.ends_with(')') => &name[..at],
        _ => name,
    };
    name.trim().to_string()
}

/// `…/0001999001-26-000001-index.htm` → `0001999001-26-000001`.
fn accession_from_url(url: &str) -> Option<String> {
    let file = url.rsplit('/').next()?;
    let accession = file.strip_suffix("-index.htm")?;
    (accession.len() == 20).then(|| accession.to_string())
}

#[cfg(test)]
mod tests;
