//! Reading a company's home page: who the company says it is (JSON-LD `Organization`, Open
//! Graph and meta tags, the title) and where it publishes its open positions (links to job
//! boards). Pure: the page is fetched elsewhere.

use std::collections::BTreeSet;

use scraper::{ElementRef, Html, Selector};
use serde_json::Value;

use crate::domain::countries::country_code;
use crate::domain::job_board::JobBoard;
use crate::domain::target::normalize_linkedin_company;

/// What a home page tells about its company.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebsiteFacts {
    pub name: Option<String>,
    pub description: Option<String>,
    pub logo: Option<String>,
    /// `https://www.linkedin.com/company/<slug>` as the page links it.
    pub linkedin_url: Option<String>,
    /// ISO alpha-2 code.
    pub country: Option<String>,
    pub founded_year: Option<i64>,
    pub employee_count: Option<i64>,
    pub job_boards: Vec<JobBoard>,
}

/// Longest name taken from a page: anything longer is not a company name.
const MAX_NAME_CHARS: usize = 120;

/// Reads the facts of a home page found at `page_url` (relative links resolve against it).
pub fn read_website(html: &str, page_url: &str) -> WebsiteFacts {
    let document = Html::parse_document(html);
    let organization = json_ld_organization(&document);
    let org = |key: &str| organization.as_ref().and_then(|o| o.get(key));
    let meta_property = |name: &str| meta_content(&document, "property", name);
    let meta_name = |name: &str| meta_content(&document, "name", name);

    let name = org("name")
        .and_then(Value::as_str)
        .and_then(clean_name)
        .or_else(|| meta_property("og:site_name").and_then(|n| clean_name(&n)))
        .or_else(|| title(&document).and_then(|t| clean_name(trim_tagline(&t))));
    let description = meta_property("og:description").or_else(|| meta_name("description"));
    let logo = org("logo")
        .and_then(|logo| match logo {
            Value::String(url) => Some(url.clone()),
            other => other.get("url").and_then(Value::as_str).map(str::to_string),
        })
        .or_else(|| meta_property("og:image"))
        .and_then(|url| absolute(page_url, &url));
    let links = links(&document, page_url);
    let same_as = org("sameAs").map(strings).unwrap_or_default();
    let linkedin_url = same_as
        .iter()
        .chain(&links)
        .find_map(|link| linkedin_company(link));
    let country = org("address")
        .and_then(|address| match address {
            Value::String(text) => Some(text.clone()),
            other => other
                .get("addressCountry")
                .and_then(|c| c.as_str().or_else(|| c.get("name").and_then(Value::as_str)))
                .map(str::to_string),
        })
        .and_then(|c| country_code(c.trim()).map(str::to_string));
    let founded_year = org("foundingDate").and_then(year);
    let employee_count = org("numberOfEmployees").and_then(employees);
    let job_boards: BTreeSet<JobBoard> = links
        .iter()
        .chain(&same_as)
        .filter_map(|link| JobBoard::from_link(link))
        .collect();
    WebsiteFacts {
        name,
        description: description.filter(|d| !d.is_empty()),
        logo,
        linkedin_url,
        country,
        founded_year,
        employee_count,
        job_boards: job_boards.into_iter().collect(),
    }
}

fn selector(css: &str) -> Selector {
    // The selectors below are constants; one that does not parse is a bug caught by the tests.
    Selector::parse(css).unwrap_or_else(|_| panic!("selector {css:?} parses"))
}

/// The first JSON-LD object of type `Organization` (or a subtype named like one), also inside
/// arrays and `@graph`.
fn json_ld_organization(document: &Html) -> Option<serde_json::Map<String, Value>> {
    let scripts = selector(r#"script[type="application/ld+json"]"#);
    document
        .select(&scripts)
        .filter_map(|script| serde_json::from_str::<Value>(&text_of(script)).ok())
        .find_map(|value| find_organization(&value))
}

fn find_organization(value: &Value) -> Option<serde_json::Map<String, Value>> {
    match value {
        Value::Array(items) => items.iter().find_map(find_organization),
        Value::Object(object) => {
            if is_organization(object.get("@type")) {
                return Some(object.clone());
            }
            object.get("@graph").and_then(find_organization)
        }
        _ => None,
    }
}

fn is_organization(kind: Option<&Value>) -> bool {
    const KINDS: [&str; 4] = [
        "Organization",
        "Corporation",
        "LocalBusiness",
        "OnlineBusiness",
    ];
    match kind {
        Some(Value::String(kind)) => KINDS.contains(&kind.as_str()),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .any(|k| KINDS.contains(&k)),
        _ => false,
    }
}

fn text_of(element: ElementRef<'_>) -> String {
    element.text().collect()
}

fn meta_content(document: &Html, attribute: &str, name: &str) -> Option<String> {
    let metas = selector("meta[content]");
    document
        .select(&metas)
        .find(|meta| {
            meta.value()
                .attr(attribute)
                .is_some_and(|value| value.trim().eq_ignore_ascii_case(name))
        })
        .and_then(|meta| meta.value().attr("content"))
        .map(collapse_spaces)
        .filter(|content| !content.is_empty())
}

fn title(document: &Html) -> Option<String> {
    document
        .select(&selector("title"))
        .next()
        .map(|t| collapse_spaces(&text_of(t)))
}

/// A title without its tagline: the part before ` | `, ` - `, ` – `, ` — ` or `: `.
fn trim_tagline(title: &str) -> &str {
    let cut = [" | ", " - ", " – ", " — ", " · ", ": "]
        .iter()
        .filter_map(|separator| title.find(separator))
        .min()
        .unwrap_or(title.len());
    title[..cut].trim()
}

fn clean_name(name: &str) -> Option<String> {
    let name = collapse_spaces(name);
    let named = name.chars().any(char::is_alphanumeric);
    (named && name.chars().count() <= MAX_NAME_CHARS).then_some(name)
}

fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every `<a href>` of the page as an absolute URL.
fn links(document: &Html, page_url: &str) -> Vec<String> {
    document
        .select(&selector("a[href]"))
        .filter_map(|a| a.value().attr("href"))
        .filter_map(|href| absolute(page_url, href))
        .collect()
}

fn absolute(base: &str, link: &str) -> Option<String> {
    let link = link.trim();
    if link.is_empty() {
        return None;
    }
    match url::Url::parse(base) {
        Ok(base) => base.join(link).ok().map(String::from),
        Err(_) => url::Url::parse(link).ok().map(String::from),
    }
}

fn strings(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// The LinkedIn company page a link points at, as `https://www.linkedin.com/company/<slug>`.
fn linkedin_company(link: &str) -> Option<String> {
    normalize_linkedin_company(link).map(|key| format!("https://www.{key}"))
}

/// A founding year from `"2019"`, `"2019-03-01"` or a number.
fn year(value: &Value) -> Option<i64> {
    let year = match value {
        Value::Number(n) => n.as_i64()?,
        Value::String(s) => s.trim().get(..4)?.parse().ok()?,
        _ => return None,
    };
    (1000..=9999).contains(&year).then_some(year)
}

/// An employee count from a number, a `QuantitativeValue` (`value`, else the middle of
/// `minValue`..`maxValue`) or text holding a number.
fn employees(value: &Value) -> Option<i64> {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().replace(',', "").parse().ok(),
        _ => None,
    };
    let count = number(value)
        .or_else(|| value.get("value").and_then(number))
        .or_else(|| {
            let min = value.get("minValue").and_then(number);
            let max = value.get("maxValue").and_then(number);
            match (min, max) {
                (Some(min), Some(max)) => Some((min + max) / 2),
                (one, other) => one.or(other),
            }
        })?;
    (count > 0).then_some(count)
}

#[cfg(test)]
mod tests;
