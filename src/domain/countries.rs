//! Country filters of the signal and company lists.
//!
//! A filter such as `countries=US,germany,DACH` is a comma-separated list whose entries are
//! ISO 3166-1 alpha-2 codes (any letter case), English country names or common aliases
//! (case-insensitive, accents, dots, apostrophes and a leading "the" optional), or one of the
//! region shortcuts below. Every entry is reduced to upper-case alpha-2 codes, which is how
//! countries are stored.
//!
//! Region shortcuts (case-insensitive):
//!
//! | shortcut | countries |
//! |---|---|
//! | `EU` | the 27 member states of the European Union |
//! | `EUROPE` | the EU, plus GB, CH, NO, IS, LI, the micro-states (AD, MC, SM, VA), the Western Balkans (AL, BA, ME, MK, RS), BY, MD, UA and the dependencies AX, FO, GG, GI, IM, JE, SJ; the transcontinental RU and TR and the Caucasus are left out (name them to include them) |
//! | `DACH` | DE, AT, CH |
//! | `BENELUX` | BE, NL, LU |
//! | `NORDICS` | DK, FI, IS, NO, SE |
//! | `CEE` | central and eastern Europe: PL, CZ, SK, HU, RO, BG, HR, SI, EE, LV, LT, RS, BA, ME, MK, AL, MD, UA, BY |
//! | `WE` | western Europe: GB, IE, FR, BE, NL, LU, DE, AT, CH, LI, MC, ES, PT, AD, IT, SM, VA, MT (the Nordics have their own shortcut; GR and CY are not included) |
//! | `NA`, `NORTH_AMERICA` | North America: US, CA, MX |
//! | `LATAM` | Spanish- and Portuguese-speaking America: MX; GT, HN, SV, NI, CR, PA; AR, BO, BR, CL, CO, EC, PY, PE, UY, VE; CU, DO, PR |
//!
//! `NA` in a filter means North America, not Namibia: filter on Namibia by its name. Outside
//! filters, [`country_code`] reads `NA` as Namibia, because stored data names single countries.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The region shortcuts a country filter accepts, in the order error messages list them.
pub const REGION_SHORTCUTS: [&str; 10] = [
    "EU",
    "EUROPE",
    "DACH",
    "BENELUX",
    "NORDICS",
    "CEE",
    "WE",
    "NA",
    "NORTH_AMERICA",
    "LATAM",
];

/// What a country filter accepts, appended to its error messages.
const FILTER_HINT: &str = "Use ISO alpha-2 codes, English country names or one of EU, EUROPE, DACH, BENELUX, NORDICS, CEE, WE, NA, NORTH_AMERICA, LATAM";

/// Parses a comma-separated country filter into de-duplicated upper-case alpha-2 codes, in the
/// order they were first named. Empty entries are ignored.
///
/// Fails with a message listing every unrecognised entry, or when the filter names nothing at
/// all. The caller prefixes the parameter name.
pub fn parse_country_filter(input: &str) -> Result<Vec<String>, String> {
    let mut codes: Vec<String> = Vec::new();
    let mut unknown: Vec<&str> = Vec::new();
    let mut any_entry = false;
    for entry in input.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        any_entry = true;
        match filter_entry_codes(entry) {
            Some(found) => {
                for code in found {
                    if !codes.iter().any(|c| c == code) {
                        codes.push((*code).to_string());
                    }
                }
            }
            None if !unknown.contains(&entry) => unknown.push(entry),
            None => {}
        }
    }
    if !unknown.is_empty() {
        return Err(format!(
            "Unknown country value(s): {}. {FILTER_HINT}",
            unknown.join(", ")
        ));
    }
    if !any_entry {
        return Err(format!("No country value given. {FILTER_HINT}"));
    }
    Ok(codes)
}

/// The alpha-2 code of one country given by code, English name or alias, e.g. `"Germany"`,
/// `"uk"` or `"de"`; `None` when it names no country. Region shortcuts are not countries here.
pub fn country_code(name_or_code: &str) -> Option<&'static str> {
    country_index(name_or_code.trim()).map(|i| COUNTRIES[i].0)
}

/// Every alpha-2 code a country filter takes.
pub fn country_codes() -> impl Iterator<Item = &'static str> {
    COUNTRIES.iter().map(|(code, _)| *code)
}

/// The English short name of an alpha-2 code (any letter case), e.g. `"DE"` → `"Germany"`.
pub fn country_name(code: &str) -> Option<&'static str> {
    code_index(code.trim()).map(|i| COUNTRIES[i].1)
}

/// The countries of a region shortcut (any letter case), e.g. `"dach"` → `["DE", "AT", "CH"]`.
pub fn region_codes(shortcut: &str) -> Option<&'static [&'static str]> {
    REGIONS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(shortcut.trim()))
        .map(|(_, codes)| *codes)
}

/// The codes one filter entry stands for: a region's countries, or a single country.
fn filter_entry_codes(entry: &str) -> Option<&'static [&'static str]> {
    region_codes(entry)
        .or_else(|| country_index(entry).map(|i| std::slice::from_ref(&COUNTRIES[i].0)))
}

/// Position in [`COUNTRIES`] of a country given by code, name or alias.
fn country_index(name_or_code: &str) -> Option<usize> {
    code_index(name_or_code).or_else(|| name_index().get(&name_key(name_or_code)).copied())
}

/// Position in [`COUNTRIES`] of an alpha-2 code, in any letter case.
fn code_index(code: &str) -> Option<usize> {
    if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let upper = code.to_ascii_uppercase();
    COUNTRIES
        .binary_search_by(|(c, _)| (*c).cmp(upper.as_str()))
        .ok()
}

/// Names and aliases by their comparison key, built once.
fn name_index() -> &'static HashMap<String, usize> {
    static INDEX: OnceLock<HashMap<String, usize>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = HashMap::new();
        for (i, (_, name)) in COUNTRIES.iter().enumerate() {
            index.insert(name_key(name), i);
        }
        for (alias, code) in ALIASES {
            if let Some(i) = code_index(code) {
                index.insert(name_key(alias), i);
            }
        }
        index
    })
}

/// The form in which names are compared: lower case, common Latin accents removed, dots and
/// apostrophes dropped, `&` read as "and", other punctuation as a space, spaces collapsed and a
/// leading "the" removed. So "The Netherlands", "U.S.A." and "Cote d'Ivoire" find their country.
fn name_key(name: &str) -> String {
    let mut spaced = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase).map(fold_accent) {
        match c {
            '.' | '\'' | '\u{2019}' => {}
            '&' => spaced.push_str(" and "),
            c if c.is_alphanumeric() => spaced.push(c),
            _ => spaced.push(' '),
        }
    }
    let words: Vec<&str> = spaced.split_whitespace().collect();
    match words.split_first() {
        Some((&"the", rest)) if !rest.is_empty() => rest.join(" "),
        _ => words.join(" "),
    }
}

/// Removes the accents that occur in English country names and their common spellings.
fn fold_accent(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ç' => 'c',
        'ñ' => 'n',
        other => other,
    }
}

/// Region shortcuts and their countries.
static REGIONS: [(&str, &[&str]); 10] = [
    ("EU", EU),
    ("EUROPE", EUROPE),
    ("DACH", &["DE", "AT", "CH"]),
    ("BENELUX", &["BE", "NL", "LU"]),
    ("NORDICS", &["DK", "FI", "IS", "NO", "SE"]),
    ("CEE", CEE),
    ("WE", WESTERN_EUROPE),
    ("NA", NORTH_AMERICA),
    ("NORTH_AMERICA", NORTH_AMERICA),
    ("LATAM", LATAM),
];

/// North America (`NA`, `NORTH_AMERICA`).
const NORTH_AMERICA: &[&str] = &["US", "CA", "MX"];

/// The 27 member states of the European Union.
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// Europe as the `EUROPE` shortcut reads it (see the module documentation).
const EUROPE: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "GB", "CH", "NO", "IS", "LI",
    "AD", "MC", "SM", "VA", "AL", "BA", "ME", "MK", "RS", "BY", "MD", "UA", "AX", "FO", "GG", "GI",
    "IM", "JE", "SJ",
];

/// Central and eastern Europe.
const CEE: &[&str] = &[
    "PL", "CZ", "SK", "HU", "RO", "BG", "HR", "SI", "EE", "LV", "LT", "RS", "BA", "ME", "MK", "AL",
    "MD", "UA", "BY",
];

/// Western Europe as the `WE` shortcut reads it (see the module documentation).
const WESTERN_EUROPE: &[&str] = &[
    "GB", "IE", "FR", "BE", "NL", "LU", "DE", "AT", "CH", "LI", "MC", "ES", "PT", "AD", "IT", "SM",
    "VA", "MT",
];

/// Spanish- and Portuguese-speaking America.
const LATAM: &[&str] = &[
    "MX", "GT", "HN", "SV", "NI", "CR", "PA", "AR", "BO", "BR", "CL", "CO", "EC", "PY", "PE", "UY",
    "VE", "CU", "DO", "PR",
];

/// Other spellings people and data sources use, with the country each one means.
static ALIASES: &[(&str, &str)] = &[
    ("United States of America", "US"),
    ("USA", "US"),
    ("U.S.", "US"),
    ("UK", "GB"),
    ("U.K.", "GB"),
    ("Great Britain", "GB"),
    ("Britain", "GB"),
    ("England", "GB"),
    ("Scotland", "GB"),
    ("Wales", "GB"),
    ("Northern Ireland", "GB"),
    ("United Kingdom of Great Britain and Northern Ireland", "GB"),
    ("Korea", "KR"),
    ("Republic of Korea", "KR"),
    ("Korea, Republic of", "KR"),
    ("Korea, Democratic People's Republic of", "KP"),
    ("DPRK", "KP"),
    ("Czech Republic", "CZ"),
    ("Russian Federation", "RU"),
    ("Viet Nam", "VN"),
    ("UAE", "AE"),
    ("Emirates", "AE"),
    ("Holland", "NL"),
    ("Turkey", "TR"),
    ("People's Republic of China", "CN"),
    ("PRC", "CN"),
    ("Mainland China", "CN"),
    ("Republic of China", "TW"),
    ("Taiwan, Province of China", "TW"),
    ("Hong Kong SAR", "HK"),
    ("Macau", "MO"),
    ("Republic of Ireland", "IE"),
    ("Iran, Islamic Republic of", "IR"),
    ("Syrian Arab Republic", "SY"),
    ("Lao People's Democratic Republic", "LA"),
    ("Bolivia, Plurinational State of", "BO"),
    ("Venezuela, Bolivarian Republic of", "VE"),
    ("Tanzania, United Republic of", "TZ"),
    ("Moldova, Republic of", "MD"),
    ("Micronesia, Federated States of", "FM"),
    ("Palestine, State of", "PS"),
    ("Brunei Darussalam", "BN"),
    ("Cape Verde", "CV"),
    ("Ivory Coast", "CI"),
    ("Swaziland", "SZ"),
    ("Macedonia", "MK"),
    ("Burma", "MM"),
    ("East Timor", "TL"),
    ("DR Congo", "CD"),
    ("DRC", "CD"),
    ("Congo, Democratic Republic of the", "CD"),
    ("Congo-Kinshasa", "CD"),
    ("Congo", "CG"),
    ("Congo-Brazzaville", "CG"),
    ("Vatican", "VA"),
    ("Vatican City", "VA"),
    ("Falkland Islands (Malvinas)", "FK"),
    ("Slovak Republic", "SK"),
    ("Kyrgyz Republic", "KG"),
    ("Bosnia", "BA"),
    ("Virgin Islands, British", "VG"),
    ("Virgin Islands, U.S.", "VI"),
    ("US Virgin Islands", "VI"),
    ("Saint Martin (French part)", "MF"),
    ("Sint Maarten (Dutch part)", "SX"),
    ("Saint Helena", "SH"),
    ("Pitcairn Islands", "PN"),
    ("Caribbean Netherlands", "BQ"),
    ("Cocos Islands", "CC"),
    ("Keeling Islands", "CC"),
    ("St. Kitts and Nevis", "KN"),
    ("St. Lucia", "LC"),
    ("St. Vincent and the Grenadines", "VC"),
    ("Timor Leste", "TL"),
    ("Guinea Bissau", "GW"),
    ("Faeroe Islands", "FO"),
];

/// ISO 3166-1 alpha-2 codes with English short names, sorted by code.
static COUNTRIES: [(&str, &str); 249] = [
    ("AD", "Andorra"),
    ("AE", "United Arab Emirates"),
    ("AF", "Afghanistan"),
    ("AG", "Antigua and Barbuda"),
    ("AI", "Anguilla"),
    ("AL", "Albania"),
    ("AM", "Armenia"),
    ("AO", "Angola"),
    ("AQ", "Antarctica"),
    ("AR", "Argentina"),
    ("AS", "American Samoa"),
    ("AT", "Austria"),
    ("AU", "Australia"),
    ("AW", "Aruba"),
    ("AX", "Åland Islands"),
    ("AZ", "Azerbaijan"),
    ("BA", "Bosnia and Herzegovina"),
    ("BB", "Barbados"),
    ("BD", "Bangladesh"),
    ("BE", "Belgium"),
    ("BF", "Burkina Faso"),
    ("BG", "Bulgaria"),
    ("BH", "Bahrain"),
    ("BI", "Burundi"),
    ("BJ", "Benin"),
    ("BL", "Saint Barthélemy"),
    ("BM", "Bermuda"),
    ("BN", "Brunei"),
    ("BO", "Bolivia"),
    ("BQ", "Bonaire, Sint Eustatius and Saba"),
    ("BR", "Brazil"),
    ("BS", "Bahamas"),
    ("BT", "Bhutan"),
    ("BV", "Bouvet Island"),
    ("BW", "Botswana"),
    ("BY", "Belarus"),
    ("BZ", "Belize"),
    ("CA", "Canada"),
    ("CC", "Cocos (Keeling) Islands"),
    ("CD", "Democratic Republic of the Congo"),
    ("CF", "Central African Republic"),
    ("CG", "Republic of the Congo"),
    ("CH", "Switzerland"),
    ("CI", "Côte d'Ivoire"),
    ("CK", "Cook Islands"),
    ("CL", "Chile"),
    ("CM", "Cameroon"),
    ("CN", "China"),
    ("CO", "Colombia"),
    ("CR", "Costa Rica"),
    ("CU", "Cuba"),
    ("CV", "Cabo Verde"),
    ("CW", "Curaçao"),
    ("CX", "Christmas Island"),
    ("CY", "Cyprus"),
    ("CZ", "Czechia"),
    ("DE", "Germany"),
    ("DJ", "Djibouti"),
    ("DK", "Denmark"),
    ("DM", "Dominica"),
    ("DO", "Dominican Republic"),
    ("DZ", "Algeria"),
    ("EC", "Ecuador"),
    ("EE", "Estonia"),
    ("EG", "Egypt"),
    ("EH", "Western Sahara"),
    ("ER", "Eritrea"),
    ("ES", "Spain"),
    ("ET", "Ethiopia"),
    ("FI", "Finland"),
    ("FJ", "Fiji"),
    ("FK", "Falkland Islands"),
    ("FM", "Micronesia"),
    ("FO", "Faroe Islands"),
    ("FR", "France"),
    ("GA", "Gabon"),
    ("GB", "United Kingdom"),
    ("GD", "Grenada"),
    ("GE", "Georgia"),
    ("GF", "French Guiana"),
    ("GG", "Guernsey"),
    ("GH", "Ghana"),
    ("GI", "Gibraltar"),
    ("GL", "Greenland"),
    ("GM", "Gambia"),
    ("GN", "Guinea"),
    ("GP", "Guadeloupe"),
    ("GQ", "Equatorial Guinea"),
    ("GR", "Greece"),
    ("GS", "South Georgia and the South Sandwich Islands"),
    ("GT", "Guatemala"),
    ("GU", "Guam"),
    ("GW", "Guinea-Bissau"),
    ("GY", "Guyana"),
    ("HK", "Hong Kong"),
    ("HM", "Heard Island and McDonald Islands"),
    ("HN", "Honduras"),
    ("HR", "Croatia"),
    ("HT", "Haiti"),
    ("HU", "Hungary"),
    ("ID", "Indonesia"),
    ("IE", "Ireland"),
    ("IL", "Israel"),
    ("IM", "Isle of Man"),
    ("IN", "India"),
    ("IO", "British Indian Ocean Territory"),
    ("IQ", "Iraq"),
    ("IR", "Iran"),
    ("IS", "Iceland"),
    ("IT", "Italy"),
    ("JE", "Jersey"),
    ("JM", "Jamaica"),
    ("JO", "Jordan"),
    ("JP", "Japan"),
    ("KE", "Kenya"),
    ("KG", "Kyrgyzstan"),
    ("KH", "Cambodia"),
    ("KI", "Kiribati"),
    ("KM", "Comoros"),
    ("KN", "Saint Kitts and Nevis"),
    ("KP", "North Korea"),
    ("KR", "South Korea"),
    ("KW", "Kuwait"),
    ("KY", "Cayman Islands"),
    ("KZ", "Kazakhstan"),
    ("LA", "Laos"),
    ("LB", "Lebanon"),
    ("LC", "Saint Lucia"),
    ("LI", "Liechtenstein"),
    ("LK", "Sri Lanka"),
    ("LR", "Liberia"),
    ("LS", "Lesotho"),
    ("LT", "Lithuania"),
    ("LU", "Luxembourg"),
    ("LV", "Latvia"),
    ("LY", "Libya"),
    ("MA", "Morocco"),
    ("MC", "Monaco"),
    ("MD", "Moldova"),
    ("ME", "Montenegro"),
    ("MF", "Saint Martin"),
    ("MG", "Madagascar"),
    ("MH", "Marshall Islands"),
    ("MK", "North Macedonia"),
    ("ML", "Mali"),
    ("MM", "Myanmar"),
    ("MN", "Mongolia"),
    ("MO", "Macao"),
    ("MP", "Northern Mariana Islands"),
    ("MQ", "Martinique"),
    ("MR", "Mauritania"),
    ("MS", "Montserrat"),
    ("MT", "Malta"),
    ("MU", "Mauritius"),
    ("MV", "Maldives"),
    ("MW", "Malawi"),
    ("MX", "Mexico"),
    ("MY", "Malaysia"),
    ("MZ", "Mozambique"),
    ("NA", "Namibia"),
    ("NC", "New Caledonia"),
    ("NE", "Niger"),
    ("NF", "Norfolk Island"),
    ("NG", "Nigeria"),
    ("NI", "Nicaragua"),
    ("NL", "Netherlands"),
    ("NO", "Norway"),
    ("NP", "Nepal"),
    ("NR", "Nauru"),
    ("NU", "Niue"),
    ("NZ", "New Zealand"),
    ("OM", "Oman"),
    ("PA", "Panama"),
    ("PE", "Peru"),
    ("PF", "French Polynesia"),
    ("PG", "Papua New Guinea"),
    ("PH", "Philippines"),
    ("PK", "Pakistan"),
    ("PL", "Poland"),
    ("PM", "Saint Pierre and Miquelon"),
    ("PN", "Pitcairn"),
    ("PR", "Puerto Rico"),
    ("PS", "Palestine"),
    ("PT", "Portugal"),
    ("PW", "Palau"),
    ("PY", "Paraguay"),
    ("QA", "Qatar"),
    ("RE", "Réunion"),
    ("RO", "Romania"),
    ("RS", "Serbia"),
    ("RU", "Russia"),
    ("RW", "Rwanda"),
    ("SA", "Saudi Arabia"),
    ("SB", "Solomon Islands"),
    ("SC", "Seychelles"),
    ("SD", "Sudan"),
    ("SE", "Sweden"),
    ("SG", "Singapore"),
    ("SH", "Saint Helena, Ascension and Tristan da Cunha"),
    ("SI", "Slovenia"),
    ("SJ", "Svalbard and Jan Mayen"),
    ("SK", "Slovakia"),
    ("SL", "Sierra Leone"),
    ("SM", "San Marino"),
    ("SN", "Senegal"),
    ("SO", "Somalia"),
    ("SR", "Suriname"),
    ("SS", "South Sudan"),
    ("ST", "Sao Tome and Principe"),
    ("SV", "El Salvador"),
    ("SX", "Sint Maarten"),
    ("SY", "Syria"),
    ("SZ", "Eswatini"),
    ("TC", "Turks and Caicos Islands"),
    ("TD", "Chad"),
    ("TF", "French Southern Territories"),
    ("TG", "Togo"),
    ("TH", "Thailand"),
    ("TJ", "Tajikistan"),
    ("TK", "Tokelau"),
    ("TL", "Timor-Leste"),
    ("TM", "Turkmenistan"),
    ("TN", "Tunisia"),
    ("TO", "Tonga"),
    ("TR", "Türkiye"),
    ("TT", "Trinidad and Tobago"),
    ("TV", "Tuvalu"),
    ("TW", "Taiwan"),
    ("TZ", "Tanzania"),
    ("UA", "Ukraine"),
    ("UG", "Uganda"),
    ("UM", "United States Minor Outlying Islands"),
    ("US", "United States"),
    ("UY", "Uruguay"),
    ("UZ", "Uzbekistan"),
    ("VA", "Holy See"),
    ("VC", "Saint Vincent and the Grenadines"),
    ("VE", "Venezuela"),
    ("VG", "British Virgin Islands"),
    ("VI", "U.S. Virgin Islands"),
    ("VN", "Vietnam"),
    ("VU", "Vanuatu"),
    ("WF", "Wallis and Futuna"),
    ("WS", "Samoa"),
    ("YE", "Yemen"),
    ("YT", "Mayotte"),
    ("ZA", "South Africa"),
    ("ZM", "Zambia"),
    ("ZW", "Zimbabwe"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(input: &str) -> Vec<String> {
        parse_country_filter(input).expect("a valid country filter")
    }

    #[test]
    fn codes_in_any_case_become_upper_case_codes() {
        assert_eq!(parsed("us,Gb, de "), ["US", "GB", "DE"]);
    }

    #[test]
    fn english_names_and_aliases_are_accepted_in_any_case() {
        let cases = [
            ("United States", "US"),
            ("usa", "US"),
            ("U.S.", "US"),
            ("United Kingdom", "GB"),
            ("UK", "GB"),
            ("great britain", "GB"),
            ("GERMANY", "DE"),
            ("South Korea", "KR"),
            ("Korea", "KR"),
            ("Czech Republic", "CZ"),
            ("Czechia", "CZ"),
            ("Russia", "RU"),
            ("Vietnam", "VN"),
            ("Viet Nam", "VN"),
            ("UAE", "AE"),
            ("The Netherlands", "NL"),
            ("netherlands", "NL"),
            ("Cote d'Ivoire", "CI"),
            ("Côte d’Ivoire", "CI"),
            ("Turkey", "TR"),
            ("Turkiye", "TR"),
            ("Bosnia & Herzegovina", "BA"),
            ("Guinea-Bissau", "GW"),
            ("  new   zealand ", "NZ"),
        ];
        for (input, code) in cases {
            assert_eq!(parsed(input), [code], "{input}");
        }
    }

    #[test]
    fn region_shortcuts_expand_to_their_countries() {
        assert_eq!(parsed("dach"), ["DE", "AT", "CH"]);
        assert_eq!(parsed("BENELUX"), ["BE", "NL", "LU"]);
        assert_eq!(parsed("Nordics"), ["DK", "FI", "IS", "NO", "SE"]);
        assert_eq!(parsed("NA"), ["US", "CA", "MX"]);
        assert_eq!(parsed("EU").len(), 27);
        assert!(parsed("LATAM").contains(&"BR".to_string()));
    }

    #[test]
    fn duplicates_are_removed_keeping_the_first_position() {
        assert_eq!(parsed("AT,DACH,germany,de,FR"), ["AT", "DE", "CH", "FR"]);
    }

    #[test]
    fn empty_entries_are_ignored() {
        assert_eq!(parsed(",US,, ,GB,"), ["US", "GB"]);
    }

    #[test]
    fn a_filter_without_entries_is_refused() {
        for input in ["", " ", ",,", " , "] {
            let error = parse_country_filter(input).expect_err("no entries");
            assert!(error.starts_with("No country value given."), "{error}");
        }
    }

    #[test]
    fn every_unknown_entry_is_named_in_the_error() {
        let error = parse_country_filter("US,Atlantis,xx,Atlantis").expect_err("unknown values");
        assert_eq!(
            error,
            "Unknown country value(s): Atlantis, xx. Use ISO alpha-2 codes, English country \
             names or one of EU, EUROPE, DACH, BENELUX, NORDICS, CEE, WE, NA, NORTH_AMERICA, LATAM"
        );
    }

    #[test]
    fn na_in_a_filter_is_north_america_but_namibia_by_name() {
        assert_eq!(parsed("namibia"), ["NA"]);
        assert_eq!(country_code("NA"), Some("NA"));
        assert_eq!(country_name("NA"), Some("Namibia"));
    }

    #[test]
    fn country_code_normalizes_names_and_codes_but_not_regions() {
        assert_eq!(country_code("Germany"), Some("DE"));
        assert_eq!(country_code(" fr "), Some("FR"));
        assert_eq!(country_code("England"), Some("GB"));
        assert_eq!(country_code("EU"), None);
        assert_eq!(country_code("DACH"), None);
        assert_eq!(country_code("N/A"), None);
        assert_eq!(country_code(""), None);
    }

    #[test]
    fn country_name_gives_the_english_short_name() {
        assert_eq!(country_name("de"), Some("Germany"));
        assert_eq!(country_name("GB"), Some("United Kingdom"));
        assert_eq!(country_name("XX"), None);
        assert_eq!(country_name("DEU"), None);
    }

    #[test]
    fn the_code_table_holds_all_249_codes_sorted_and_unique() {
        assert_eq!(COUNTRIES.len(), 249);
        assert!(COUNTRIES.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(
            COUNTRIES
                .iter()
                .all(|(code, _)| code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase()))
        );
    }

    #[test]
    fn every_name_and_alias_finds_its_own_country() {
        for (code, name) in &COUNTRIES {
            assert_eq!(country_code(name), Some(*code), "{name}");
        }
        for (alias, code) in ALIASES {
            assert_eq!(country_code(alias), Some(*code), "{alias}");
        }
    }

    #[test]
    fn every_region_lists_known_unique_codes() {
        for (region, codes) in &REGIONS {
            for (i, code) in codes.iter().enumerate() {
                assert!(country_name(code).is_some(), "{region}: {code}");
                assert!(!codes[..i].contains(code), "{region}: {code} twice");
            }
        }
    }

    #[test]
    fn european_sub_regions_lie_within_europe() {
        for sub in ["EU", "DACH", "BENELUX", "NORDICS", "CEE", "WE"] {
            let codes = region_codes(sub).expect("a region");
            for code in codes {
                assert!(EUROPE.contains(code), "{sub}: {code}");
            }
        }
        assert_eq!(EU.len(), 27);
    }
}
