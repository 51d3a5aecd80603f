//! The `states` filter of the hiring list: comma-separated US state codes (the 50 states, the
//! District of Columbia and the inhabited territories), any letter case.

/// Two-letter USPS codes accepted by `states`.
const CODES: [&str; 56] = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP",
];

/// The upper-case codes of a comma-separated list; an unknown entry is an error naming it.
pub fn parse_us_states(raw: &str) -> Result<Vec<String>, String> {
    let mut codes = Vec::new();
    for entry in raw.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let code = entry.to_ascii_uppercase();
        if !CODES.contains(&code.as_str()) {
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
}
