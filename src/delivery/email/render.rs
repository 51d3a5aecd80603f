//! The words of a digest: one line per signal (type, company, headline facts, date), laid out
//! as plain text and as HTML. Pure functions of the stored event data.

use serde_json::Value;

use crate::domain::time::format_ms;

/// Job postings named in one hiring line; the rest are counted.
const MAX_POSTINGS: usize = 5;

/// One signal as a digest lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestLine {
    /// Human name of the signal type, e.g. `Funding round`.
    pub kind: String,
    pub company: String,
    /// The headline facts, e.g. `seed round, 1,000,000 USD`; empty when there are none.
    pub facts: String,
    /// `YYYY-MM-DD` of when the signal happened.
    pub date: String,
}

/// A digest ready to be addressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedDigest {
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl DigestLine {
    /// Summarizes a webhook event's `data`. `event_type` and
    /// `created_at` stand in for a missing signal type and date, so that a surprising event
    /// still gets a line rather than failing the whole digest.
    pub fn from_event(event_type: &str, data: &Value, created_at: i64) -> DigestLine {
        let signal_type =
            text(&data["signal"]["type"]).unwrap_or_else(|| type_of_event(event_type).to_string());
        let company = text(&data["company"]["name"])
            .or_else(|| text(&data["jobChange"]["companyName"]))
            .unwrap_or_else(|| "Unknown company".to_string());
        let date = text(&data["signal"]["occurredAt"])
            .filter(|d| d.len() >= 10 && d.is_char_boundary(10))
            .unwrap_or_else(|| format_ms(created_at))[..10]
            .to_string();
        DigestLine {
            kind: kind_label(&signal_type),
            company,
            facts: facts(&signal_type, data),
            date,
        }
    }
}

/// Renders a monitor's digest, under the subject the alert e-mails always carry.
pub fn render_digest(monitor_name: &str, lines: &[DigestLine]) -> RenderedDigest {
    let count = lines.len();
    // A header cannot hold line breaks; a monitor name with one must not end the subject.
    let name: String = monitor_name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let subject = format!("[signalwatch] {name}: {count} new signal(s)");
    let noun = if count == 1 { "signal" } else { "signals" };
    let intro = format!("Your monitor \"{name}\" has {count} new {noun}.");
    let footer = "You receive these alerts because you created this monitor on signalwatch.";

    let mut text = format!("{intro}\n\n");
    for line in lines {
        text.push_str(&format!(
            "* {}: {} ({})\n",
            line.kind, line.company, line.date
        ));
        if !line.facts.is_empty() {
            text.push_str(&format!("  {}\n", line.facts));
        }
        text.push('\n');
    }
    text.push_str(&format!("-- \n{footer}\n"));

    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body>\n<p>{}</p>\n<ul>\n",
        escape(&subject),
        escape(&intro)
    );
    for line in lines {
        html.push_str(&format!(
            "<li><strong>{}</strong>: {} <small>({})</small>",
            escape(&line.kind),
            escape(&line.company),
            escape(&line.date)
        ));
        if !line.facts.is_empty() {
            html.push_str(&format!("<br>{}", escape(&line.facts)));
        }
        html.push_str("</li>\n");
    }
    html.push_str(&format!(
        "</ul>\n<p><small>{}</small></p>\n</body></html>\n",
        escape(footer)
    ));
    RenderedDigest {
        subject,
        text,
        html,
    }
}

/// Escapes text for HTML element content and attribute values alike.
pub fn escape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn type_of_event(event_type: &str) -> &str {
    match event_type {
        "funding.created" => "funding_round",
        "acquisition.created" => "acquisition",
        "job_change.created" => "job_change",
        "hiring.created" => "hiring",
        other => other,
    }
}

fn kind_label(signal_type: &str) -> String {
    match signal_type {
        "funding_round" => "Funding round".into(),
        "acquisition" => "Acquisition".into(),
        "job_change" => "Job change".into(),
        "hiring" => "Hiring".into(),
        other => other.replace('_', " "),
    }
}

fn facts(signal_type: &str, data: &Value) -> String {
    match signal_type {
        "funding_round" => {
            let round = &data["fundingRound"];
            let parts = [
                text(&round["roundType"]).map(|r| format!("{r} round")),
                money(&round["amount"], &round["currency"]),
            ];
            parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
        }
        "acquisition" => {
            let deal = &data["acquisition"];
            let parts = [
                text(&deal["acquiringCompany"]["name"]).map(|a| format!("acquired by {a}")),
                money(&deal["amount"], &deal["currency"]),
            ];
            parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
        }
        "job_change" => {
            let change = &data["jobChange"];
            let person = text(&change["personName"]).unwrap_or_else(|| "Someone".into());
            match text(&change["newRole"]) {
                Some(role) => format!("{person} is now {role}"),
                None => format!("{person} changed jobs"),
            }
        }
        "hiring" => postings(&data["hiringDetails"]),
        _ => String::new(),
    }
}

fn postings(details: &Value) -> String {
    let all = details.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut named: Vec<String> = all
        .iter()
        .take(MAX_POSTINGS)
        .filter_map(|posting| {
            let title = text(&posting["title"])?;
            let place = text(&posting["location"]).or_else(|| {
                let parts = [text(&posting["city"]), text(&posting["country"])];
                let joined = parts.into_iter().flatten().collect::<Vec<_>>().join(", ");
                (!joined.is_empty()).then_some(joined)
            });
            Some(match place {
                Some(place) => format!("{title} ({place})"),
                None => title,
            })
        })
        .collect();
    if all.len() > MAX_POSTINGS {
        named.push(format!("and {} more", all.len() - MAX_POSTINGS));
    }
    if named.is_empty() {
        return String::new();
    }
    format!("hiring {}", named.join("; "))
}

/// `1,000,000 USD`, or `None` without an amount.
fn money(amount: &Value, currency: &Value) -> Option<String> {
    let digits = match amount {
        Value::Number(n) => match n.as_i64() {
            Some(whole) => group_thousands(whole),
            None => n.to_string(),
        },
        Value::String(s) if !s.trim().is_empty() => s.trim().to_string(),
        _ => return None,
    };
    Some(match text(currency) {
        Some(currency) => format!("{digits} {currency}"),
        None => digits,
    })
}

fn group_thousands(value: i64) -> String {
    let digits = value.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    if value < 0 { format!("-{out}") } else { out }
}

/// A non-empty string value, trimmed.
fn text(value: &Value) -> Option<String> {
    value
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests;
