//! Splitting a posting's free-text location ("Berlin, Germany", "Austin, TX", "Remote - US")
//! into city, region and country where that is clear, with the service's country and US-state
//! vocabularies. What is not clear stays unset; the text itself is kept as the location.

use crate::domain::countries::country_code;
use crate::domain::us_states::state_code;

/// A location split into its parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    pub city: Option<String>,
    pub region: Option<String>,
    /// ISO alpha-2 code.
    pub country: Option<String>,
    /// The location says the job is remote.
    pub remote: bool,
}

/// Splits `location`; `country_hint` (a code or name the source gives beside the text) fills
/// the country when the text names none.
pub fn split_location(location: &str, country_hint: Option<&str>) -> Place {
    let hint = country_hint.and_then(|c| country_code(c.trim()));
    let mut place = Place::default();
    let mut text = location.trim();
    if let Some(rest) = strip_remote(text) {
        place.remote = true;
        text = rest;
    }
    let mut parts: Vec<&str> = text
        .split([',', '/'])
        .map(|p| p.trim().trim_matches(|c| c == '(' || c == ')').trim())
        .filter(|p| !p.is_empty())
        .collect();
    if let Some(last) = parts.last().copied() {
        let is_state = parts.len() >= 2
            && hint.is_none_or(|c| c == "US")
            && last.len() == 2
            && last.chars().all(|c| c.is_ascii_uppercase())
            && state_code(last).is_some();
        if !is_state && let Some(code) = country_code(last) {
            place.country = Some(code.to_string());
            parts.pop();
        }
    }
    if place.country.is_none() {
        place.country = hint.map(str::to_string);
    }
    let in_us = place.country.as_deref().is_none_or(|c| c == "US");
    if parts.len() >= 2 {
        let last = parts[parts.len() - 1];
        match state_code(last).filter(|_| in_us) {
            Some(state) => {
                place.region = Some(state.to_string());
                place.country.get_or_insert_with(|| "US".to_string());
            }
            None => place.region = Some(last.to_string()),
        }
        parts.pop();
    }
    if !place.remote || parts.len() == 1 && place.region.is_some() {
        place.city = parts.first().map(|c| c.to_string());
    }
    place
}

/// The text after a leading "Remote" ("Remote - US", "Remote (Germany)", "Remote, UK"), or
/// `None` when the location does not start with it.
fn strip_remote(text: &str) -> Option<&str> {
    let head = text.get(..6)?;
    if !head.eq_ignore_ascii_case("remote") {
        return None;
    }
    Some(
        text[6..]
            .trim_start_matches([' ', '-', '–', '—', ':', ','])
            .trim(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(city: Option<&str>, region: Option<&str>, country: Option<&str>) -> Place {
        Place {
            city: city.map(str::to_string),
            region: region.map(str::to_string),
            country: country.map(str::to_string),
            remote: false,
        }
    }

    #[test]
    fn cities_regions_and_countries_are_split_where_clear() {
        for (text, hint, expected) in [
            (
                "Berlin, Germany",
                None,
                place(Some("Berlin"), None, Some("DE")),
            ),
            (
                "London",
                Some("GB"),
                place(Some("London"), None, Some("GB")),
            ),
            (
                "Austin, TX",
                None,
                place(Some("Austin"), Some("TX"), Some("US")),
            ),
            (
                "New York, New York, United States",
                None,
                place(Some("New York"), Some("NY"), Some("US")),
            ),
            (
                "Paris, Île-de-France, France",
                None,
                place(Some("Paris"), Some("Île-de-France"), Some("FR")),
            ),
            ("United States", None, place(None, None, Some("US"))),
            ("Springfield", None, place(Some("Springfield"), None, None)),
            (
                "Toronto, ON",
                Some("CA"),
                place(Some("Toronto"), Some("ON"), Some("CA")),
            ),
        ] {
            assert_eq!(split_location(text, hint), expected, "{text}");
        }
    }

    #[test]
    fn a_remote_location_names_no_city() {
        let us = split_location("Remote - US", None);
        assert_eq!(
            (us.city, us.country, us.remote),
            (None, Some("US".into()), true)
        );
        let de = split_location("Remote (Germany)", None);
        assert_eq!((de.city, de.country), (None, Some("DE".into())));
        let anywhere = split_location("Remote", None);
        assert_eq!(
            (anywhere.city, anywhere.country, anywhere.remote),
            (None, None, true)
        );
    }
}
