//! Where a deal was reported: one primary source (a news article, a press release or a post on
//! the company's blog, typed with the documented `sourceType` values) and sometimes a second one.

use std::fmt::Write as _;

use serde::Serialize;

use super::clock::{HOUR_MS, Ts, Window};
use super::rng::Gen;
use super::text;
use super::vocab::names::{NEWS_OUTLETS, WIRES};

/// A source as funding and acquisition records list it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRow {
    url: String,
    source_type: &'static str,
    title: String,
    published_at: Ts,
    is_primary: bool,
}

/// The story to report: its headline, when it happened and the company's domain (for blogs).
pub struct Story<'a> {
    pub headline: &'a str,
    pub at: Ts,
    pub domain: &'a str,
}

/// Fills `out` with one or two sources of `story`, the first primary.
pub fn report(g: &mut Gen, window: &Window, story: &Story, out: &mut Vec<SourceRow>) {
    out.clear();
    let slug = text::slug(story.headline);
    let u = g.unit();
    let primary = if u < 0.7 {
        "news_article"
    } else if u < 0.95 {
        "press_release"
    } else {
        "blog_post"
    };
    let at = window.clamp(story.at.plus(g.below(6 * HOUR_MS as usize) as i64));
    out.push(source(g, primary, story, &slug, at, true));
    if g.chance(0.4) {
        let second = if primary == "news_article" {
            "press_release"
        } else {
            "news_article"
        };
        let later = window.clamp(at.plus(g.between(HOUR_MS, 48 * HOUR_MS)));
        out.push(source(g, second, story, &slug, later, false));
    }
}

fn source(
    g: &mut Gen,
    kind: &'static str,
    story: &Story,
    slug: &str,
    at: Ts,
    primary: bool,
) -> SourceRow {
    let (y, m, d) = at.day().ymd();
    let mut url = String::with_capacity(96);
    let _ = match kind {
        "news_article" => write!(
            url,
            "https://{}/{y}/{m:02}/{d:02}/{slug}",
            g.word(NEWS_OUTLETS)
        ),
        "press_release" => write!(
            url,
            "https://{}/news/home/{y}{m:02}{d:02}{:05}/en/{slug}",
            g.word(WIRES),
            g.below(100_000)
        ),
        _ => write!(url, "https://{}/blog/{slug}", story.domain),
    };
    SourceRow {
        url,
        source_type: kind,
        title: story.headline.to_string(),
        published_at: at,
        is_primary: primary,
    }
}
