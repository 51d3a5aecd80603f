//! US states: the `states` filter of the hiring list (comma-separated USPS codes of the 50 states,
//! the District of Columbia and the inhabited territories, any letter case), and the state a
//! posting is filed under, whether its import gave a code, a full name or only a location.

/// USPS codes accepted by `states`, with the names they stand for.
const STATES: [(&str, &str); 56] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
    ("DC", "District of Columbia"),
    ("PR", "Puerto Rico"),
    ("GU", "Guam"),
    ("VI", "U.S. Virgin Islands"),
    ("AS", "American Samoa"),
    ("MP", "Northern Mariana Islands"),
];

/// Other spellings of a few names, as imports write them.
const ALIASES: [(&str, &str); 4] = [
    ("DC", "Washington DC"),
    ("DC", "Washington D.C."),
    ("VI", "US Virgin Islands"),
    ("VI", "Virgin Islands"),
];

/// Every state code a `states` filter takes (names are accepted too).
pub fn state_codes() -> Vec<&'static str> {
    STATES.iter().map(|(code, _)| *code).collect()
}

/// The upper-case codes of a comma-separated list; an unknown entry is an error naming it.
pub fn parse_us_states(raw: &str) -> Result<Vec<String>, String> {
    let mut codes = Vec::new();
    for entry in raw.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let code = entry.to_ascii_uppercase();
        if !STATES.iter().any(|(c, _)| *c == code) {
            return Err(format!(
                "Invalid states value: {entry}. Accepted values: two-letter US state codes such \
                 as CA, NY, TX (also DC, PR, GU, VI, AS, MP)."
            ));
        }
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    Ok(codes)
}

/// The USPS code of a state given by its code or its name, in any letter case and spacing:
/// `"ca"` and `"California"` → `"CA"`.
pub fn state_code(code_or_name: &str) -> Option<&'static str> {
    let wanted: Vec<&str> = code_or_name.split_whitespace().collect();
    let wanted = wanted.join(" ");
    STATES
        .iter()
        .find(|(code, name)| {
            code.eq_ignore_ascii_case(&wanted) || name.eq_ignore_ascii_case(&wanted)
        })
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(_, name)| name.eq_ignore_ascii_case(&wanted))
        })
        .map(|(code, _)| *code)
}

/// The state of a location written `City, ST` (or `City, State name`): its last
/// comma-separated part, when that is a state.
pub fn trailing_state(location: &str) -> Option<&'static str> {
    let (_, last) = location.rsplit_once(',')?;
    state_code(last)
}

/// The region a posting is filed under (what `states` matches): the USPS code when the region is
/// a state code or name; else, for a job in the US (`country` is its alpha-2 code), the state
/// its location ends with; else the region as given, in capitals.
pub fn posting_region(
    region: Option<&str>,
    location: Option<&str>,
    country: Option<&str>,
) -> Option<String> {
    if let Some(code) = region.and_then(state_code) {
        return Some(code.to_string());
    }
    let in_us = country.is_some_and(|c| c.eq_ignore_ascii_case("US"));
    let from_location = location.filter(|_| in_us).and_then(trailing_state);
    from_location
        .map(str::to_string)
        .or_else(|| region.map(str::to_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_codes_match_in_any_case_and_others_are_refused_naming_the_parameter() {
        assert_eq!(parse_us_states("ny, tx,NY").unwrap(), ["NY", "TX"]);
        assert_eq!(parse_us_states("").unwrap(), Vec::<String>::new());
        let refused = parse_us_states("CA,ZZ").unwrap_err();
        assert!(
            refused.starts_with("Invalid states value: ZZ."),
            "{refused}"
        );
    }

    #[test]
    fn a_state_is_known_by_its_code_or_its_name_in_any_case_and_spacing() {
        assert_eq!(state_code("California"), Some("CA"));
        assert_eq!(state_code("  new   york "), Some("NY"));
        assert_eq!(state_code("tx"), Some("TX"));
        assert_eq!(state_code("District of Columbia"), Some("DC"));
        assert_eq!(state_code("Washington D.C."), Some("DC"));
        assert_eq!(state_code("Washington"), Some("WA"));
        assert_eq!(state_code("Bavaria"), None);
        assert_eq!(state_code("ZZ"), None);
        assert_eq!(state_code(""), None);
    }

    #[test]
    fn every_state_has_a_distinct_two_letter_code_and_name() {
        for (i, (code, name)) in STATES.iter().enumerate() {
            assert_eq!(code.len(), 2, "{code}");
            assert_eq!(state_code(code), Some(*code));
            assert_eq!(state_code(name), Some(*code), "{name}");
            assert!(STATES[..i].iter().all(|(c, n)| c != code && n != name));
        }
    }

    #[test]
    fn a_location_gives_the_state_it_ends_with() {
        assert_eq!(trailing_state("Austin, TX"), Some("TX"));
        assert_eq!(trailing_state("San Francisco, California"), Some("CA"));
        assert_eq!(trailing_state("Washington, DC"), Some("DC"));
        assert_eq!(trailing_state("Berlin, Germany"), None);
        assert_eq!(trailing_state("Remote"), None);
        assert_eq!(
            trailing_state("TX"),
            None,
            "a state needs a place before it"
        );
    }

    #[test]
    fn a_posting_is_filed_under_the_state_of_its_region_else_of_its_us_location() {
        let region = |r, l, c| posting_region(r, l, c);
        assert_eq!(
            region(Some("California"), None, Some("US")),
            Some("CA".into())
        );
        assert_eq!(
            region(Some("ny"), Some("Elsewhere"), None),
            Some("NY".into())
        );
        assert_eq!(
            region(None, Some("Austin, TX"), Some("US")),
            Some("TX".into())
        );
        assert_eq!(
            region(Some("Greater Boston"), Some("Boston, MA"), Some("US")),
            Some("MA".into())
        );
        assert_eq!(
            region(None, Some("Austin, TX"), Some("DE")),
            None,
            "not a US job"
        );
        assert_eq!(
            region(None, Some("Austin, TX"), None),
            None,
            "country unknown"
        );
        assert_eq!(
            region(Some("by"), Some("Munich, Germany"), Some("DE")),
            Some("BY".into())
        );
        assert_eq!(region(None, None, Some("US")), None);
    }
}
