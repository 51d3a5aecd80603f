//! Target entries: classification and normalization.
//!
//! A monitor watches companies through its targets. Clients send each target as free text: a
//! company domain or website URL, a LinkedIn company page URL, or a LinkedIn member profile URL.
//! This module decides which of the three kinds an entry is and reduces it to the stored value:
//! a bare domain (`acme.com`), `linkedin.com/company/<slug>` or `linkedin.com/in/<slug>`. Two
//! entries naming the same thing normalize to the same value, which is what de-duplication and
//! bulk removal compare. It also provides the domain helpers used to index company websites and
//! to match a domain target by its registrable domain.
//!
//! Every stored value parses back to itself, so a client may send either form.

use percent_encoding::percent_decode_str;
use url::{Host, Url};

/// Longest entry accepted by [`parse_target`], counted in characters after trimming.
const MAX_ENTRY_CHARS: usize = 500;
/// Longest host name accepted, in ASCII characters.
const MAX_HOST_LEN: usize = 253;
/// Longest single host label, in ASCII characters.
const MAX_LABEL_LEN: usize = 63;
const LINKEDIN_HOST: &str = "linkedin.com";

/// How a target was identified when added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// A company domain or website URL.
    Domain,
    /// A LinkedIn company page URL.
    LinkedinCompany,
    /// A LinkedIn member profile URL.
    LinkedinProfile,
}

impl TargetKind {
    /// The wire and storage name: `domain`, `linkedin_company` or `linkedin_profile`.
    pub fn as_str(self) -> &'static str {
        match self {
            TargetKind::Domain => "domain",
            TargetKind::LinkedinCompany => "linkedin_company",
            TargetKind::LinkedinProfile => "linkedin_profile",
        }
    }

    /// The kind named exactly by `s` (as [`TargetKind::as_str`] spells it), if any.
    pub fn parse(s: &str) -> Option<TargetKind> {
        match s {
            "domain" => Some(TargetKind::Domain),
            "linkedin_company" => Some(TargetKind::LinkedinCompany),
            "linkedin_profile" => Some(TargetKind::LinkedinProfile),
            _ => None,
        }
    }
}

/// A classified, normalized target entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TargetRef {
    /// How the entry was identified.
    pub kind: TargetKind,
    /// The normalized identifier stored for the target.
    pub value: String,
}

/// Classifies and normalizes one entry as sent by a client. None = invalid.
///
/// Entries over 500 characters as sent are invalid; the rest is trimmed, and empty is invalid. LinkedIn
/// company and profile URLs become `linkedin.com/company/<slug>` and `linkedin.com/in/<slug>`;
/// any other LinkedIn URL is invalid. Everything else must be a public-looking domain name.
pub fn parse_target(input: &str) -> Option<TargetRef> {
    let entry = input.trim();
    if entry.is_empty() || input.chars().count() > MAX_ENTRY_CHARS {
        return None;
    }
    let located = locate(entry)?;
    if is_linkedin_host(&located.host) {
        return linkedin_target(&located);
    }
    Some(TargetRef {
        kind: TargetKind::Domain,
        value: strip_www(&located.host).to_owned(),
    })
}

/// Bare, lower-case, ASCII (punycode) host of a website URL or domain, with scheme, `www.`, port,
/// path, query, fragment and trailing dot dropped. None when it is not a valid public-looking
/// domain (same host rules as the `domain` kind). Used to index company websites.
pub fn normalize_domain(input: &str) -> Option<String> {
    let located = locate(input.trim())?;
    Some(strip_www(&located.host).to_owned())
}

/// "linkedin.com/company/<slug>" for a company page URL, else None.
pub fn normalize_linkedin_company(input: &str) -> Option<String> {
    linkedin_value(input, TargetKind::LinkedinCompany)
}

/// "linkedin.com/in/<slug>" for a member profile URL, else None.
pub fn normalize_linkedin_profile(input: &str) -> Option<String> {
    linkedin_value(input, TargetKind::LinkedinProfile)
}

/// Registrable domain (eTLD+1 by the public suffix list, via the `psl` crate) of a normalized
/// domain, e.g. "eu.shop.acme.co.uk" -> "acme.co.uk". None when the domain is itself a public
/// suffix or unknown.
pub fn registrable_domain(domain: &str) -> Option<String> {
    let name = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let registrable = psl::domain(name.as_bytes())?;
    if !registrable.suffix().is_known() {
        return None;
    }
    String::from_utf8(registrable.as_bytes().to_vec()).ok()
}

/// An entry parsed as a web address whose host passed the domain rules.
struct Located {
    url: Url,
    /// Lower-case ASCII host without trailing dots; `www.` is still present.
    host: String,
}

/// Parses an already trimmed entry as an HTTP(S) address and checks its host.
fn locate(entry: &str) -> Option<Located> {
    if entry.chars().any(char::is_control) {
        return None;
    }
    let rest = strip_scheme(entry)?;
    let url = Url::parse(&format!("http://{rest}")).ok()?;
    let host = match url.host()? {
        Host::Domain(name) => name.trim_end_matches('.').to_owned(),
        Host::Ipv4(_) | Host::Ipv6(_) => return None,
    };
    is_public_host(&host).then_some(Located { url, host })
}

/// The entry without an `http://` or `https://` prefix; None when it names any other scheme.
fn strip_scheme(entry: &str) -> Option<&str> {
    for prefix in ["http://", "https://"] {
        let head = entry.get(..prefix.len());
        if head.is_some_and(|head| head.eq_ignore_ascii_case(prefix)) {
            return entry.get(prefix.len()..);
        }
    }
    (!has_other_scheme(entry)).then_some(entry)
}

/// True when the entry starts with `<scheme>:` where what follows the colon is not a port number
/// (so `acme.com:8080/x` is a host with a port, but `mailto:x` or `ftp://x` are other schemes).
fn has_other_scheme(entry: &str) -> bool {
    let Some((head, tail)) = entry.split_once(':') else {
        return false;
    };
    let scheme_like = head.starts_with(|c: char| c.is_ascii_alphabetic())
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let port_end = tail.find(['/', '?', '#']).unwrap_or(tail.len());
    let is_port = tail[..port_end].chars().all(|c| c.is_ascii_digit());
    scheme_like && !is_port
}

/// Host rules shared by every kind: at least two valid labels, an alphabetic top-level label,
/// and not `localhost`.
fn is_public_host(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let Some(&tld) = labels.last() else {
        return false;
    };
    host.len() <= MAX_HOST_LEN
        && labels.len() >= 2
        && labels.iter().all(|label| is_valid_label(label))
        && is_alphabetic_tld(tld)
        && tld != "localhost"
}

/// Letters, digits and hyphens, 1–63 characters, not starting or ending with a hyphen.
fn is_valid_label(label: &str) -> bool {
    (1..=MAX_LABEL_LEN).contains(&label.len())
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

/// A top-level label of letters only, or a punycode (`xn--`) label.
fn is_alphabetic_tld(label: &str) -> bool {
    label.starts_with("xn--") || label.chars().all(|c| c.is_ascii_alphabetic())
}

/// Drops leading `www.` labels, but never the one that would leave a single label (`www.com`
/// stays), so that normalizing twice changes nothing.
fn strip_www(mut host: &str) -> &str {
    while let Some(rest) = host.strip_prefix("www.")
        && rest.contains('.')
    {
        host = rest;
    }
    host
}

/// `linkedin.com` or any sub-domain of it.
fn is_linkedin_host(host: &str) -> bool {
    host == LINKEDIN_HOST
        || host
            .strip_suffix(LINKEDIN_HOST)
            .is_some_and(|sub| sub.ends_with('.'))
}

/// Normalized LinkedIn value of `input` when it is a LinkedIn URL of the wanted kind.
fn linkedin_value(input: &str, kind: TargetKind) -> Option<String> {
    let located = locate(input.trim())?;
    linkedin_target(&located)
        .filter(|target| target.kind == kind)
        .map(|target| target.value)
}

/// Classifies a LinkedIn address: `/company/<slug>` or `/in/<slug>` on `linkedin.com` or one
/// sub-domain label (`www.`, `uk.`); anything after the slug is ignored. Other paths are invalid.
fn linkedin_target(located: &Located) -> Option<TargetRef> {
    let sub = located.host.strip_suffix(LINKEDIN_HOST)?;
    let at_most_one_label =
        sub.is_empty() || sub.strip_suffix('.').is_some_and(|l| !l.contains('.'));
    if !at_most_one_label {
        return None;
    }
    let mut segments = located.url.path_segments()?;
    let section = segments.next()?;
    let (kind, prefix) = if section.eq_ignore_ascii_case("company") {
        (TargetKind::LinkedinCompany, "company")
    } else if section.eq_ignore_ascii_case("in") {
        (TargetKind::LinkedinProfile, "in")
    } else {
        return None;
    };
    let slug = decode_slug(segments.next()?)?;
    Some(TargetRef {
        kind,
        value: format!("{LINKEDIN_HOST}/{prefix}/{slug}"),
    })
}

/// Percent-decodes and lower-cases a slug. None when it is not UTF-8, has no letter or digit, has
/// surrounding whitespace, or holds a character that would make the stored value ambiguous.
fn decode_slug(raw: &str) -> Option<String> {
    let slug = percent_decode_str(raw).decode_utf8().ok()?.to_lowercase();
    let ambiguous = |c: char| c.is_control() || matches!(c, '/' | '\\' | '?' | '#' | '%');
    let usable =
        slug.chars().any(char::is_alphanumeric) && slug.trim() == slug && !slug.contains(ambiguous);
    usable.then_some(slug)
}

#[cfg(test)]
mod tests {
    use super::TargetKind::{Domain as D, LinkedinCompany as C, LinkedinProfile as P};
    use super::*;

    type Expected<'a> = Option<(TargetKind, &'a str)>;

    fn check(cases: &[(&str, Expected)]) {
        for (input, expected) in cases {
            let got = parse_target(input).map(|t| (t.kind, t.value));
            let want = expected.map(|(kind, value)| (kind, value.to_owned()));
            assert_eq!(got, want, "input {input:?}");
            if let Some((kind, value)) = got {
                let again = parse_target(&value).map(|t| (t.kind, t.value));
                assert_eq!(again, Some((kind, value)), "value of {input:?} re-parsed");
            }
        }
    }

    /// Entries as a client might send them, with the expected kind and stored value.
    const CASES: &[(&str, Expected<'static>)] = &[
        // Schemes.
        ("acme.com", Some((D, "acme.com"))),
        ("http://acme.com", Some((D, "acme.com"))),
        ("https://acme.com", Some((D, "acme.com"))),
        ("HTTPS://ACME.COM", Some((D, "acme.com"))),
        ("HtTp://Acme.Com/", Some((D, "acme.com"))),
        ("//acme.com", Some((D, "acme.com"))),
        ("ftp://acme.com", None),
        ("mailto:jane@acme.com", None),
        ("javascript:alert(1)", None),
        ("file:///etc/passwd", None),
        ("http:acme.com", None),
        // www.
        ("www.acme.com", Some((D, "acme.com"))),
        ("https://www.acme.com/", Some((D, "acme.com"))),
        ("WWW.ACME.COM", Some((D, "acme.com"))),
        ("www2.acme.com", Some((D, "www2.acme.com"))),
        ("wwwacme.com", Some((D, "wwwacme.com"))),
        ("www.www.acme.com", Some((D, "acme.com"))),
        ("www.www.com", Some((D, "www.com"))),
        ("www.com", Some((D, "www.com"))),
        // Paths, queries, fragments, ports, trailing dots, userinfo.
        ("acme.com/about", Some((D, "acme.com"))),
        ("acme.com?ref=ad", Some((D, "acme.com"))),
        ("acme.com#contact", Some((D, "acme.com"))),
        (
            "https://WWW.Acme.com:8080/pricing?x=1#top",
            Some((D, "acme.com")),
        ),
        ("acme.com:8080", Some((D, "acme.com"))),
        ("http://acme.com:443/", Some((D, "acme.com"))),
        ("acme.com.", Some((D, "acme.com"))),
        ("https://acme.com../x", Some((D, "acme.com"))),
        ("http://user:pass@acme.com/", Some((D, "acme.com"))),
        ("jane@acme.com", Some((D, "acme.com"))),
        ("user:pass@acme.com", None),
        ("acme.com:99999", None),
        // Sub-domains, case, unicode and punycode.
        ("eu.shop.acme.co.uk", Some((D, "eu.shop.acme.co.uk"))),
        ("ACME.CO.UK", Some((D, "acme.co.uk"))),
        ("münchen.de", Some((D, "xn--mnchen-3ya.de"))),
        (
            "https://www.MÜNCHEN.de/impressum",
            Some((D, "xn--mnchen-3ya.de")),
        ),
        ("xn--mnchen-3ya.de", Some((D, "xn--mnchen-3ya.de"))),
        ("пример.рф", Some((D, "xn--e1afmkfd.xn--p1ai"))),
        ("acme.xn--p1ai", Some((D, "acme.xn--p1ai"))),
        ("123.com", Some((D, "123.com"))),
        ("my-company.io", Some((D, "my-company.io"))),
        // Invalid host names.
        ("-acme.com", None),
        ("acme-.com", None),
        ("acme_co.com", None),
        ("acme..com", None),
        ("acme.c0m", None),
        ("acme.123", None),
        ("acme", None),
        ("localhost", None),
        ("http://localhost:3000/", None),
        ("app.localhost", None),
        // IP addresses in any spelling.
        ("127.0.0.1", None),
        ("http://192.168.1.10:8080/admin", None),
        ("1.2.3.4.", None),
        ("[::1]", None),
        ("http://[2001:db8::1]/", None),
        ("2130706433", None),
        ("0x7f000001", None),
        ("0177.0.0.1", None),
        ("0x7f.1", None),
        // Whitespace and length.
        ("", None),
        ("   ", None),
        ("acme .com", None),
        ("acme.com extra", None),
        ("ac\tme.com", None),
        ("  acme.com  ", Some((D, "acme.com"))),
        ("\nacme.com\t", Some((D, "acme.com"))),
        // LinkedIn company pages.
        (
            "linkedin.com/company/acme",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "https://www.linkedin.com/company/acme/",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "https://uk.linkedin.com/company/acme/about",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "de.linkedin.com/company/acme/jobs/",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "linkedin.com/company/acme?trk=ad",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "linkedin.com/company/acme#top",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "LinkedIn.com/Company/ACME",
            Some((C, "linkedin.com/company/acme")),
        ),
        (
            "linkedin.com/company/acme%20inc",
            Some((C, "linkedin.com/company/acme inc")),
        ),
        (
            "linkedin.com/company/12345",
            Some((C, "linkedin.com/company/12345")),
        ),
        (
            "https://linkedin.com./company/acme",
            Some((C, "linkedin.com/company/acme")),
        ),
        // LinkedIn member profiles.
        (
            "linkedin.com/in/jane-doe",
            Some((P, "linkedin.com/in/jane-doe")),
        ),
        (
            "https://www.linkedin.com/in/jane-doe/",
            Some((P, "linkedin.com/in/jane-doe")),
        ),
        (
            "http://fr.linkedin.com/in/Jane-Doe?locale=fr",
            Some((P, "linkedin.com/in/jane-doe")),
        ),
        ("LINKEDIN.COM/IN/JANE", Some((P, "linkedin.com/in/jane"))),
        (
            "linkedin.com:443/in/jane",
            Some((P, "linkedin.com/in/jane")),
        ),
        (
            "linkedin.com/in/j%C3%BCrgen-m",
            Some((P, "linkedin.com/in/jürgen-m")),
        ),
        (
            "linkedin.com/in/J%C3%9CRGEN-M",
            Some((P, "linkedin.com/in/jürgen-m")),
        ),
        (
            "linkedin.com/in/jürgen-m",
            Some((P, "linkedin.com/in/jürgen-m")),
        ),
        // Other LinkedIn addresses.
        ("linkedin.com/in/%FF%FE", None),
        ("linkedin.com/in/", None),
        ("linkedin.com/in//jane", None),
        ("linkedin.com/in/a%2Fb", None),
        ("linkedin.com/in/%20jane", None),
        ("linkedin.com/in/%E2%80%8B", None),
        ("linkedin.com/company", None),
        ("linkedin.com", None),
        ("https://www.linkedin.com/", None),
        ("linkedin.com/feed", None),
        ("linkedin.com/school/mit", None),
        ("linkedin.com/jobs/view/12345", None),
        ("linkedin.com/pub/jane-doe/1/2/3", None),
        ("a.b.linkedin.com/in/jane", None),
        ("ftp://linkedin.com/in/jane", None),
        // Look-alikes are ordinary domains.
        ("notlinkedin.com/in/jane", Some((D, "notlinkedin.com"))),
        (
            "linkedin.com.evil.com/company/acme",
            Some((D, "linkedin.com.evil.com")),
        ),
    ];

    #[test]
    fn entries_are_classified_and_normalized_as_the_contract_says() {
        assert!(CASES.len() >= 70);
        check(CASES);
    }

    #[test]
    fn length_limits_count_characters_of_the_entry_as_sent() {
        let path_to_500 = format!("acme.com/{}", "a".repeat(491));
        let path_to_501 = format!("acme.com/{}", "a".repeat(492));
        let padded_500 = format!("  {}\t ", &path_to_500[..496]);
        let padded_501 = format!("  {path_to_500}\t ");
        let unicode_500 = format!("münchen.de/{}", "ü".repeat(489));
        let label_63 = format!("{}.com", "a".repeat(63));
        let label_64 = format!("{}.com", "a".repeat(64));
        check(&[
            (&path_to_500, Some((D, "acme.com"))),
            (&padded_500, Some((D, "acme.com"))),
            (&unicode_500, Some((D, "xn--mnchen-3ya.de"))),
            (&path_to_501, None),
            (&padded_501, None),
            (&label_63, Some((D, &label_63))),
            (&label_64, None),
        ]);
    }

    #[test]
    fn every_stored_value_parses_back_to_itself() {
        let entries = [
            "https://WWW.Acme.com:8080/pricing",
            "münchen.de",
            "www.com",
            "uk.linkedin.com/company/acme%20inc/about",
            "linkedin.com/in/J%C3%9CRGEN-M",
            "linkedin.com/company/%22quoted%22",
        ];
        for entry in entries {
            let target = parse_target(entry).expect("valid entry");
            assert_eq!(parse_target(&target.value), Some(target.clone()), "{entry}");
        }
    }

    #[test]
    fn target_kinds_round_trip_through_their_names() {
        for kind in [D, C, P] {
            assert_eq!(TargetKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(C.as_str(), "linkedin_company");
        assert_eq!(TargetKind::parse("Domain"), None);
        assert_eq!(TargetKind::parse("linkedin"), None);
    }

    #[test]
    fn normalize_domain_reduces_websites_to_bare_hosts() {
        let long_url = format!("https://www.acme.com/?q={}", "x".repeat(600));
        assert_eq!(
            normalize_domain("https://www.Acme.com/x?y#z").as_deref(),
            Some("acme.com")
        );
        assert_eq!(
            normalize_domain("  münchen.de. ").as_deref(),
            Some("xn--mnchen-3ya.de")
        );
        assert_eq!(normalize_domain(&long_url).as_deref(), Some("acme.com"));
        assert_eq!(
            normalize_domain("https://www.linkedin.com/company/acme").as_deref(),
            Some("linkedin.com")
        );
        for invalid in [
            "",
            "localhost",
            "10.0.0.1",
            "[::1]",
            "acme",
            "ftp://acme.com",
            "a b.com",
        ] {
            assert_eq!(normalize_domain(invalid), None, "{invalid}");
        }
    }

    #[test]
    fn normalize_linkedin_company_accepts_only_company_pages() {
        let company = |s| normalize_linkedin_company(s);
        assert_eq!(
            company("https://de.linkedin.com/company/Acme-GmbH/about/").as_deref(),
            Some("linkedin.com/company/acme-gmbh")
        );
        assert_eq!(
            company("linkedin.com/company/acme").as_deref(),
            Some("linkedin.com/company/acme")
        );
        for other in [
            "linkedin.com/in/jane",
            "linkedin.com/school/mit",
            "acme.com",
            "notlinkedin.com/company/acme",
            "linkedin.com.evil.com/company/acme",
            "a.b.linkedin.com/company/acme",
            "",
        ] {
            assert_eq!(company(other), None, "{other}");
        }
    }

    #[test]
    fn normalize_linkedin_profile_accepts_only_member_profiles() {
        let profile = |s| normalize_linkedin_profile(s);
        assert_eq!(
            profile("https://www.linkedin.com/in/Jane-Doe-123/?trk=x").as_deref(),
            Some("linkedin.com/in/jane-doe-123")
        );
        assert_eq!(
            profile("uk.linkedin.com/in/j%C3%BCrgen-m").as_deref(),
            Some("linkedin.com/in/jürgen-m")
        );
        for other in [
            "linkedin.com/company/acme",
            "linkedin.com/in/",
            "notlinkedin.com/in/x",
        ] {
            assert_eq!(profile(other), None, "{other}");
        }
    }

    #[test]
    fn registrable_domain_follows_the_public_suffix_list() {
        let cases = [
            ("eu.shop.acme.co.uk", Some("acme.co.uk")),
            ("acme.co.uk", Some("acme.co.uk")),
            ("acme.com", Some("acme.com")),
            ("shop.acme.com", Some("acme.com")),
            ("a.b.c.acme.io", Some("acme.io")),
            ("xn--e1afmkfd.xn--p1ai", Some("xn--e1afmkfd.xn--p1ai")),
            ("co.uk", None),
            ("com", None),
            ("acme.notarealtld", None),
        ];
        for (domain, expected) in cases {
            assert_eq!(registrable_domain(domain).as_deref(), expected, "{domain}");
        }
    }
}
