//! Small text helpers: filling sentence templates, slugs, and money as headlines write it.

/// Appends `template` to `out` with every `{key}` replaced by its value in `slots`; an unknown
/// key is kept as written so a typo shows in the output instead of vanishing.
pub fn render(out: &mut String, template: &str, slots: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return;
        };
        let key = &after[..close];
        match slots.iter().find(|(k, _)| *k == key) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
}

/// Appends the lower-case, hyphen-separated ASCII form of `text` (`"Zoë & Co."` → `zoe-co`).
pub fn push_slug(out: &mut String, text: &str) {
    let mut pending_dash = false;
    let start = out.len();
    for c in text.chars() {
        let folded = fold(c);
        if folded.is_ascii_alphanumeric() {
            if pending_dash && out.len() > start {
                out.push('-');
            }
            pending_dash = false;
            out.push(folded.to_ascii_lowercase());
        } else {
            pending_dash = true;
        }
    }
}

/// The slug of `text` as a new string.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_slug(&mut out, text);
    out
}

/// Appends `text` in lower case.
pub fn push_lower(out: &mut String, text: &str) {
    out.extend(text.chars().flat_map(char::to_lowercase));
}

fn fold(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'Á' | 'Å' | 'Ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' | 'É' => 'e',
        'í' | 'ì' | 'î' | 'ï' | 'Í' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'Ö' | 'Ø' => 'o',
        'ú' | 'ù' | 'û' | 'ü' | 'Ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        'ß' => 's',
        'ł' => 'l',
        _ => c,
    }
}

/// Number of words of a generated sentence. Generated text separates words with single ASCII
/// spaces, so counting spaces gives the same answer as `split_whitespace` at a fraction of the
/// cost (this runs for every sentence of a million job descriptions).
pub fn word_count(text: &str) -> usize {
    let text = text.trim_matches(' ');
    if text.is_empty() {
        0
    } else {
        1 + text.bytes().filter(|&b| b == b' ').count()
    }
}

/// Appends an amount the way a headline writes it: `$10M`, `€2.5M`, `£750K`, `CHF 3M`.
pub fn push_money(out: &mut String, amount: u64, currency: &str) {
    match currency {
        "USD" => out.push('$'),
        "EUR" => out.push('€'),
        "GBP" => out.push('£'),
        "JPY" | "CNY" => out.push('¥'),
        "INR" => out.push('₹'),
        other => {
            out.push_str(other);
            out.push(' ');
        }
    }
    let (scaled, unit) = match amount {
        a if a >= 1_000_000_000 => (a as f64 / 1e9, 'B'),
        a if a >= 1_000_000 => (a as f64 / 1e6, 'M'),
        a => (a as f64 / 1e3, 'K'),
    };
    let rounded = (scaled * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        out.push_str(&format!("{rounded:.0}{unit}"));
    } else {
        out.push_str(&format!("{rounded:.1}{unit}"));
    }
}

/// `amount` rounded to two significant digits, as announced deal sizes are.
pub fn round_two_digits(amount: f64) -> u64 {
    if amount < 100.0 {
        return amount.round().max(1.0) as u64;
    }
    let magnitude = 10f64.powi(amount.log10().floor() as i32 - 1);
    ((amount / magnitude).round() * magnitude) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_known_slots_and_keep_unknown_ones() {
        let mut out = String::new();
        render(
            &mut out,
            "{a} joins {b} as {c}",
            &[("a", "Ann"), ("b", "Acme")],
        );
        assert_eq!(out, "Ann joins Acme as {c}");
    }

    #[test]
    fn slugs_are_lower_case_ascii_with_single_dashes() {
        assert_eq!(slug("Zoë & Co."), "zoe-co");
        assert_eq!(slug("  Blue  Harbor AI "), "blue-harbor-ai");
        assert_eq!(slug("São Paulo"), "sao-paulo");
    }

    #[test]
    fn words_are_counted_like_split_whitespace_for_generated_text() {
        for sentence in [
            "",
            "One.",
            "We are looking for a Data Scientist.",
            " padded words ",
        ] {
            assert_eq!(word_count(sentence), sentence.split_whitespace().count());
        }
    }

    #[test]
    fn money_reads_like_a_headline() {
        let show = |amount, currency| {
            let mut out = String::new();
            push_money(&mut out, amount, currency);
            out
        };
        assert_eq!(show(10_000_000, "USD"), "$10M");
        assert_eq!(show(2_500_000, "EUR"), "€2.5M");
        assert_eq!(show(750_000, "GBP"), "£750K");
        assert_eq!(show(1_200_000_000, "USD"), "$1.2B");
        assert_eq!(show(3_000_000, "CHF"), "CHF 3M");
    }

    #[test]
    fn amounts_round_to_two_significant_digits() {
        assert_eq!(round_two_digits(12_345_678.0), 12_000_000);
        assert_eq!(round_two_digits(987_654.0), 990_000);
        assert_eq!(round_two_digits(42.0), 42);
    }
}
