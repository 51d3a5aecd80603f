//! The webhook URL a customer gives a monitor (`webhook_url`) or a webhook subscription
//! (`endpoint_url`), checked before it is stored.
//!
//! Rules (those of `POST /monitors`, the API's limits and the SSRF rules of delivery):
//! - at most 500 characters, counted on the text as sent;
//! - an absolute `http` or `https` URL with a host. It is stored and shown as sent (surrounding
//!   spaces trimmed); deliveries and comparisons use the parsed (WHATWG) form, so
//!   `HTTP://Example.COM` is kept as written and names the same endpoint as `http://example.com/`;
//! - no user name or password: the URL is shown back in API responses and listed with the
//!   monitor, so it must not hold credentials (receivers authenticate deliveries by their
//!   signature);
//! - no whitespace or control characters (the WHATWG parser would silently drop tabs and line
//!   breaks and change the URL); surrounding spaces are trimmed;
//! - unless private webhooks are allowed (`SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS`), a literal IP host
//!   must be public (see [`crate::domain::address`]) — every IPv4 spelling (`2130706433`,
//!   `0x7f.1`, `0177.0.0.1`) is read as an IPv4 address by the parser and judged as such — and a
//!   host name must not be one that names the local machine or network by definition:
//!   `localhost`, and names ending in `.localhost`, `.localdomain`, `.local` (multicast DNS),
//!   `.internal` or `.home.arpa`.
//!
//! Host names are not resolved here: a name that does not resolve is accepted, and what it
//! resolves to is checked by `crate::delivery::guard` at creation and at every connection.
//!
//! Pure functions, no I/O.

use std::fmt;
use std::net::IpAddr;

use url::{Host, Url};

use crate::domain::address::is_public_ip;

/// Longest webhook URL accepted, in characters.
pub const MAX_WEBHOOK_URL_CHARS: usize = 500;

/// DNS zones that name the local machine or the local network by definition; a host equal to one
/// of them or under one of them is never a public destination.
const LOCAL_ZONES: [&str; 5] = ["localhost", "local", "internal", "home.arpa", "localdomain"];

/// A webhook URL that passed [`parse_webhook_url`]: an absolute HTTP(S) URL with a host, and the
/// text it was written as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl {
    url: Url,
    host: Host<String>,
    text: String,
}

impl WebhookUrl {
    /// The URL as sent, without surrounding spaces: what is stored and returned to clients.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The parsed URL, for the HTTP client that delivers to it.
    pub fn as_url(&self) -> &Url {
        &self.url
    }

    /// True when both name the same endpoint, however each was written
    /// (`https://Example.com` and `https://example.com:443/` do).
    pub fn same_endpoint(&self, other: &WebhookUrl) -> bool {
        self.url == other.url
    }

    /// The host: a domain name (lower-case, IDNA/punycode applied) or a literal IP address.
    pub fn host(&self) -> &Host<String> {
        &self.host
    }

    /// The host when it is a literal IP address, `None` for a domain name.
    pub fn ip(&self) -> Option<IpAddr> {
        match self.host {
            Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
            Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
            Host::Domain(_) => None,
        }
    }

    /// The port a delivery connects to: the explicit one, else 443 for https and 80 for http.
    pub fn port(&self) -> u16 {
        self.url
            .port_or_known_default()
            .unwrap_or(if self.url.scheme() == "https" {
                443
            } else {
                80
            })
    }

    /// The URL as sent, consuming the value.
    pub fn into_string(self) -> String {
        self.text
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a webhook URL was refused. The messages name the monitor field `webhook_url`; use
/// [`WebhookUrlError::message_for`] for a field with another name (`endpoint_url`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WebhookUrlError {
    /// Empty or only whitespace.
    #[error("webhook_url must not be empty")]
    Empty,
    /// Over [`MAX_WEBHOOK_URL_CHARS`] characters.
    #[error("webhook_url must be at most 500 characters")]
    TooLong,
    /// Not an absolute URL with the `http` or `https` scheme.
    #[error("webhook_url must be an HTTP or HTTPS URL")]
    NotHttp,
    /// An HTTP(S) URL that does not parse (bad IP literal, bad port, whitespace, …).
    #[error("webhook_url must be a valid URL")]
    Malformed,
    /// An HTTP(S) URL without a host (`http://`, `http://:80/`).
    #[error("webhook_url must include a host name")]
    NoHost,
    /// A host name with a character other than letters, digits, hyphens and dots (`a*.example`),
    /// an empty label, or a label that starts or ends with a hyphen.
    #[error("webhook_url must name its host with letters, digits, hyphens and dots")]
    BadHostName,
    /// A user name or password before the host.
    #[error("webhook_url must not contain a user name or password")]
    HasCredentials,
    /// A non-public literal IP, a local host name, or a name resolving to a non-public address.
    #[error(
        "webhook_url: Webhook URL must be a public address (for development on one machine, \
         start the service with SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS=true)"
    )]
    NonPublicAddress,
}

/// The Webhooks API's refusal of a non-public endpoint URL.
pub const PUBLIC_ADDRESS_MESSAGE: &str = "Webhook URL must be a public address";

impl WebhookUrlError {
    /// The message with `field` in place of `webhook_url`, e.g.
    /// `"endpoint_url must be an HTTP or HTTPS URL"`.
    ///
    /// A non-public address on the Webhooks API reads exactly as the commercial service's
    /// message, which its clients may match.
    pub fn message_for(&self, field: &str) -> String {
        if matches!(self, Self::NonPublicAddress) && field == "endpoint_url" {
            return PUBLIC_ADDRESS_MESSAGE.to_string();
        }
        let message = self.to_string();
        match message.strip_prefix("webhook_url") {
            Some(rest) => format!("{field}{rest}"),
            None => message,
        }
    }
}

/// Parses and checks a webhook URL: at most 500 characters, an absolute http or https URL with a
/// host and without user name or password, and — unless `allow_private` — a public literal IP or
/// a host name that is not local by definition (see the module documentation). Host names are
/// NOT resolved here (see `crate::delivery::guard`).
pub fn parse_webhook_url(input: &str, allow_private: bool) -> Result<WebhookUrl, WebhookUrlError> {
    let text = checked_text(input)?;
    let url = parse_http_url(text)?;
    let host = url
        .host()
        .map(|host| host.to_owned())
        .ok_or(WebhookUrlError::NoHost)?;
    if let Host::Domain(name) = &host
        && !is_host_name(name)
    {
        return Err(WebhookUrlError::BadHostName);
    }
    if !allow_private && !is_public_host(&host) {
        return Err(WebhookUrlError::NonPublicAddress);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(WebhookUrlError::HasCredentials);
    }
    Ok(WebhookUrl {
        url,
        host,
        text: text.to_string(),
    })
}

/// True when `name` (a parsed host: lower-case, international names in their ASCII form) is
/// dot-separated labels of letters, digits and hyphens, none empty and none starting or ending
/// with a hyphen; a trailing dot is allowed. The parser itself lets through characters such as
/// `*` or `_`, which no host name holds.
fn is_host_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    name.split('.').all(|label| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
}

/// True when `name` is, or is under, `localhost`, `localdomain`, `local`, `internal` or
/// `home.arpa`: names that are local by definition. Compared case-insensitively by whole labels,
/// a trailing dot ignored.
pub fn is_local_host_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    LOCAL_ZONES.iter().any(|zone| {
        name.strip_suffix(zone)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
    })
}

/// Checks length, emptiness and stray characters; returns the text without surrounding spaces.
fn checked_text(input: &str) -> Result<&str, WebhookUrlError> {
    if input.chars().count() > MAX_WEBHOOK_URL_CHARS {
        return Err(WebhookUrlError::TooLong);
    }
    let text = input.trim();
    if text.is_empty() {
        return Err(WebhookUrlError::Empty);
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(WebhookUrlError::Malformed);
    }
    Ok(text)
}

/// Parses `text` as an absolute URL and insists on the http or https scheme.
fn parse_http_url(text: &str) -> Result<Url, WebhookUrlError> {
    let url = Url::parse(text).map_err(|error| {
        if !has_http_scheme(text) {
            WebhookUrlError::NotHttp
        } else if error == url::ParseError::EmptyHost {
            WebhookUrlError::NoHost
        } else {
            WebhookUrlError::Malformed
        }
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(WebhookUrlError::NotHttp);
    }
    Ok(url)
}

fn has_http_scheme(text: &str) -> bool {
    text.split_once(':').is_some_and(|(scheme, _)| {
        scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
    })
}

fn is_public_host(host: &Host<String>) -> bool {
    match host {
        Host::Ipv4(ip) => is_public_ip(IpAddr::V4(*ip)),
        Host::Ipv6(ip) => is_public_ip(IpAddr::V6(*ip)),
        Host::Domain(name) => !is_local_host_name(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use WebhookUrlError::*;

    fn assert_refused(cases: &[(&str, WebhookUrlError)]) {
        for (input, expected) in cases {
            assert_eq!(
                parse_webhook_url(input, false),
                Err(*expected),
                "{input:?} should be refused"
            );
        }
    }

    fn url_of_length(length: usize) -> String {
        let prefix = "https://hooks.example.com/";
        format!("{prefix}{}", "a".repeat(length - prefix.len()))
    }

    #[test]
    fn a_host_name_holds_only_letters_digits_hyphens_and_dots() {
        assert_refused(&[
            ("HTTP://0.Ah*", BadHostName),
            ("https://hooks_in.example.com/", BadHostName),
            ("https://-hooks.example.com/", BadHostName),
            ("https://hooks..example.com/", BadHostName),
        ]);
        for url in [
            "https://hooks.example.com./in",
            "https://b\u{fc}cher.example:443",
            "https://abc.execute-api.us-east-1.amazonaws.com/prod",
        ] {
            assert!(parse_webhook_url(url, false).is_ok(), "{url}");
        }
        assert!(parse_webhook_url("http://localhost:8080/hook", true).is_ok());
    }

    #[test]
    fn every_refused_ipv4_range_is_refused_as_a_literal_host() {
        assert_refused(&[
            ("http://0.0.0.0/", NonPublicAddress),
            ("http://0.1.2.3/", NonPublicAddress),
            ("http://10.0.0.1/", NonPublicAddress),
            ("https://10.255.255.255/hook", NonPublicAddress),
            ("http://100.64.0.1/", NonPublicAddress),
            ("http://100.127.255.254/", NonPublicAddress),
            ("http://127.0.0.1/", NonPublicAddress),
            ("http://127.255.255.254:8080/hook", NonPublicAddress),
            ("http://169.254.169.254/latest/meta-data/", NonPublicAddress),
            ("http://169.254.0.1/", NonPublicAddress),
            ("http://172.16.0.1/", NonPublicAddress),
            ("http://172.31.255.255/", NonPublicAddress),
            ("http://192.0.0.1/", NonPublicAddress),
            ("http://192.0.2.10/", NonPublicAddress),
            ("http://192.88.99.1/", NonPublicAddress),
            ("http://192.168.1.1/", NonPublicAddress),
            ("http://198.18.0.1/", NonPublicAddress),
            ("http://198.19.255.255/", NonPublicAddress),
            ("http://198.51.100.7/", NonPublicAddress),
            ("http://203.0.113.9/", NonPublicAddress),
            ("http://224.0.0.1/", NonPublicAddress),
            ("http://239.255.255.250/", NonPublicAddress),
            ("http://240.0.0.1/", NonPublicAddress),
            ("http://255.255.255.255/", NonPublicAddress),
        ]);
    }

    #[test]
    fn decimal_octal_hex_and_mixed_ipv4_spellings_are_read_as_ipv4_and_refused() {
        assert_refused(&[
            ("http://0/", NonPublicAddress),
            ("http://2130706433/", NonPublicAddress),
            ("http://0x7f.1/", NonPublicAddress),
            ("http://0177.0.0.1/", NonPublicAddress),
            ("http://0x7f000001/", NonPublicAddress),
            ("http://017700000001/", NonPublicAddress),
            ("http://127.1/", NonPublicAddress),
            ("http://0177.1/", NonPublicAddress),
            ("http://0x7f.0.0.0x1/", NonPublicAddress),
            ("http://127.0.0.1./", NonPublicAddress),
            ("http://0xA9.0xFE.0xA9.0xFE/", NonPublicAddress),
            ("http://0xa9fea9fe/", NonPublicAddress),
            ("http://2852039166/", NonPublicAddress),
            ("http://3232235777/", NonPublicAddress),
            ("http://0x0a.0.0x0.01/", NonPublicAddress),
            ("http://0300.0250.1.1/", NonPublicAddress),
            (
                "http://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}/",
                NonPublicAddress,
            ),
        ]);
    }

    #[test]
    fn ipv6_literals_that_are_or_carry_non_public_addresses_are_refused() {
        assert_refused(&[
            ("http://[::]/", NonPublicAddress),
            ("http://[::1]/", NonPublicAddress),
            ("http://[0:0:0:0:0:0:0:1]:8080/", NonPublicAddress),
            ("http://[::ffff:127.0.0.1]/", NonPublicAddress),
            ("http://[::ffff:7f00:1]/", NonPublicAddress),
            ("http://[::ffff:169.254.169.254]/", NonPublicAddress),
            ("http://[::ffff:10.0.0.1]/", NonPublicAddress),
            ("http://[::127.0.0.1]/", NonPublicAddress),
            ("http://[::a00:1]/", NonPublicAddress),
            ("http://[::ffff:0:7f00:1]/", NonPublicAddress),
            ("http://[64:ff9b::127.0.0.1]/", NonPublicAddress),
            ("http://[64:ff9b::a9fe:a9fe]/", NonPublicAddress),
            ("http://[64:ff9b:1::1]/", NonPublicAddress),
            ("http://[2002:7f00:1::]/", NonPublicAddress),
            ("http://[2002:a9fe:a9fe::1]/", NonPublicAddress),
            (
                "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
                NonPublicAddress,
            ),
            (
                "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
                NonPublicAddress,
            ),
            ("http://[fc00::1]/", NonPublicAddress),
            ("http://[fd12:3456:789a::1]/", NonPublicAddress),
            ("http://[fe80::1]/", NonPublicAddress),
            ("http://[febf::1]/", NonPublicAddress),
            ("http://[fec0::1]/", NonPublicAddress),
            ("http://[ff02::1]/", NonPublicAddress),
            ("http://[2001:db8::1]/", NonPublicAddress),
            ("http://[100::1]/", NonPublicAddress),
            ("http://[2001:10::1]/", NonPublicAddress),
            ("http://[2001:2::1]/", NonPublicAddress),
        ]);
    }

    #[test]
    fn host_names_that_are_local_by_definition_are_refused_without_dns() {
        assert_refused(&[
            ("http://localhost/", NonPublicAddress),
            ("http://LOCALHOST:8080/hook", NonPublicAddress),
            ("http://localhost./", NonPublicAddress),
            ("http://api.localhost/", NonPublicAddress),
            ("http://\u{24db}ocalhost/", NonPublicAddress),
            ("http://localhost.localdomain/", NonPublicAddress),
            ("http://printer.local/", NonPublicAddress),
            (
                "http://metadata.google.internal/computeMetadata/v1/",
                NonPublicAddress,
            ),
            ("http://router.home.arpa/", NonPublicAddress),
        ]);
    }

    #[test]
    fn schemes_other_than_http_and_https_are_refused() {
        assert_refused(&[
            ("ftp://example.com/", NotHttp),
            ("file:///etc/passwd", NotHttp),
            ("gopher://example.com:70/", NotHttp),
            ("javascript:alert(1)", NotHttp),
            ("data:text/plain,hello", NotHttp),
            ("ws://example.com/socket", NotHttp),
            ("ftp://", NotHttp),
            ("example.com/hook", NotHttp),
            ("//example.com/hook", NotHttp),
            ("/hook", NotHttp),
        ]);
    }

    #[test]
    fn empty_malformed_and_hostless_urls_are_refused() {
        assert_refused(&[
            ("", Empty),
            ("   ", Empty),
            ("http://", NoHost),
            ("https://", NoHost),
            ("http://:80/", NoHost),
            ("http://?x=1", NoHost),
            ("http://exa mple.com/", Malformed),
            ("http://exa\nmple.com/", Malformed),
            ("http://example.com/\thook", Malformed),
            ("http://[::1/", Malformed),
            ("http://256.0.0.1/", Malformed),
            ("http://[fe80::1%25eth0]/", Malformed),
            ("http://example.com:99999/", Malformed),
            ("http://exa%00mple.com/", Malformed),
        ]);
    }

    #[test]
    fn user_names_and_passwords_are_refused() {
        assert_refused(&[
            ("https://user:secret@example.com/hook", HasCredentials),
            ("https://user@example.com/hook", HasCredentials),
            ("https://:secret@example.com/hook", HasCredentials),
            ("http://example.com@127.0.0.1/", NonPublicAddress),
        ]);
    }

    #[test]
    fn a_url_of_501_characters_is_refused_and_one_of_500_is_accepted() {
        let too_long = url_of_length(501);
        assert_eq!(too_long.chars().count(), 501);
        assert_eq!(parse_webhook_url(&too_long, false), Err(TooLong));
        assert_eq!(parse_webhook_url(&too_long, true), Err(TooLong));
        let longest = url_of_length(500);
        let parsed = parse_webhook_url(&longest, false).expect("500 characters are allowed");
        assert_eq!(parsed.as_str(), longest);
    }

    #[test]
    fn the_length_limit_counts_characters_not_bytes() {
        let prefix = "https://hooks.example.com/";
        let text = format!("{prefix}{}", "é".repeat(500 - prefix.len()));
        assert!(parse_webhook_url(&text, false).is_ok());
    }

    #[test]
    fn public_urls_are_kept_as_sent_and_delivered_to_in_their_parsed_form() {
        let cases = [
            (
                "https://example.com/hooks/signalbase",
                "https://example.com/hooks/signalbase",
            ),
            ("http://example.com", "http://example.com/"),
            (
                "HTTPS://Hooks.EXAMPLE.com/Path",
                "https://hooks.example.com/Path",
            ),
            (
                "https://hooks.example.com:8443/a/b?c=d",
                "https://hooks.example.com:8443/a/b?c=d",
            ),
            ("https://example.com:443/", "https://example.com/"),
            (
                "  https://example.com/padded  ",
                "https://example.com/padded",
            ),
            (
                "https://hooks.example.com/?t=1#part",
                "https://hooks.example.com/?t=1#part",
            ),
            (
                "https://b\u{fc}cher.example/",
                "https://xn--bcher-kva.example/",
            ),
            ("https://8.8.8.8/hook", "https://8.8.8.8/hook"),
            ("http://1.1.1.1/", "http://1.1.1.1/"),
            ("http://134744072/", "http://8.8.8.8/"),
            (
                "https://[2606:4700:4700::1111]/",
                "https://[2606:4700:4700::1111]/",
            ),
            (
                "http://[2001:4860:4860::8888]:8080/",
                "http://[2001:4860:4860::8888]:8080/",
            ),
            ("https://[::ffff:8.8.8.8]/", "https://[::ffff:808:808]/"),
            ("https://[2002:808:808::1]/", "https://[2002:808:808::1]/"),
            ("https://[64:ff9b::8.8.8.8]/", "https://[64:ff9b::808:808]/"),
            ("http://100.63.255.255/", "http://100.63.255.255/"),
            ("http://172.32.0.1/", "http://172.32.0.1/"),
            ("http://198.20.0.1/", "http://198.20.0.1/"),
            (
                "https://localhost.example.com/",
                "https://localhost.example.com/",
            ),
            (
                "https://internal.example.com/",
                "https://internal.example.com/",
            ),
            ("https://mylocal/", "https://mylocal/"),
        ];
        for (input, normalized) in cases {
            let parsed = parse_webhook_url(input, false).expect(input);
            assert_eq!(parsed.as_str(), input.trim(), "kept as sent: {input:?}");
            assert_eq!(parsed.as_url().as_str(), normalized, "parsed: {input:?}");
            let written_normalized = parse_webhook_url(normalized, false).expect(normalized);
            assert!(parsed.same_endpoint(&written_normalized), "{input:?}");
        }
    }

    #[test]
    fn different_paths_queries_or_ports_are_different_endpoints() {
        let base = parse_webhook_url("https://example.com/hook", false).expect("valid");
        for other in [
            "https://example.com/Hook",
            "https://example.com/hook?x=1",
            "https://example.com:8443/hook",
            "http://example.com/hook",
            "https://www.example.com/hook",
        ] {
            let other = parse_webhook_url(other, false).expect(other);
            assert!(!base.same_endpoint(&other), "{other}");
        }
    }

    #[test]
    fn allowing_private_webhooks_lets_local_hosts_through_but_keeps_the_other_rules() {
        for input in [
            "http://127.0.0.1:8080/hook",
            "http://localhost:3000/",
            "http://[::1]/",
            "http://10.0.0.5/",
            "http://printer.local/",
        ] {
            assert!(parse_webhook_url(input, true).is_ok(), "{input:?}");
        }
        assert_eq!(parse_webhook_url("ftp://localhost/", true), Err(NotHttp));
        assert_eq!(parse_webhook_url("http://", true), Err(NoHost));
        assert_eq!(
            parse_webhook_url("http://u:p@localhost/", true),
            Err(HasCredentials)
        );
    }

    #[test]
    fn host_ip_and_port_describe_where_a_delivery_connects() {
        let named = parse_webhook_url("https://Hooks.Example.com/x", false).expect("valid");
        assert_eq!(named.host(), &Host::Domain("hooks.example.com".to_owned()));
        assert_eq!(named.ip(), None);
        assert_eq!(named.port(), 443);
        let literal = parse_webhook_url("http://8.8.8.8:8080/", false).expect("valid");
        assert_eq!(literal.ip(), Some(IpAddr::from([8, 8, 8, 8])));
        assert_eq!(literal.port(), 8080);
        let plain = parse_webhook_url("http://example.com/", false).expect("valid");
        assert_eq!(plain.port(), 80);
        assert_eq!(plain.to_string(), "http://example.com/");
        assert_eq!(plain.into_string(), "http://example.com/");
    }

    #[test]
    fn error_messages_can_name_another_field() {
        assert_eq!(
            NonPublicAddress.message_for("endpoint_url"),
            "Webhook URL must be a public address"
        );
        assert!(
            NonPublicAddress
                .to_string()
                .starts_with("webhook_url: Webhook URL must be a public address"),
            "{NonPublicAddress}"
        );
        assert!(
            NonPublicAddress
                .to_string()
                .contains("SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS=true"),
            "says how to allow local endpoints"
        );
        assert_eq!(
            TooLong.message_for("endpoint_url"),
            "endpoint_url must be at most 500 characters"
        );
        assert_eq!(
            NotHttp.message_for("endpoint_url"),
            "endpoint_url must be an HTTP or HTTPS URL"
        );
    }

    #[test]
    fn local_host_names_are_matched_by_whole_labels() {
        assert!(is_local_host_name("localhost"));
        assert!(is_local_host_name("a.b.LOCAL."));
        assert!(is_local_host_name("svc.internal"));
        assert!(!is_local_host_name("notlocalhost"));
        assert!(!is_local_host_name("example.local.com"));
        assert!(!is_local_host_name("home.arpa.example"));
    }
}
