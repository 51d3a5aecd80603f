//! The SSRF bypass corpus: URLs that must never lead a delivery into the service's own network,
//! whatever spelling hides the address. Every row must be refused by the client before any
//! connection (a trap listens on the loopback port the rows use, and must see nothing), and
//! already at webhook creation.

use std::net::IpAddr;
use std::time::Duration;

use super::test_support::Trap;
use super::*;
use crate::delivery::guard::check_webhook_destination;

/// (name, URL); `{port}` stands for the trap's port.
const CORPUS: &[(&str, &str)] = &[
    ("loopback", "http://127.0.0.1:{port}/hook"),
    ("loopback decimal", "http://2130706433:{port}/"),
    ("loopback octal", "http://0177.0.0.1:{port}/"),
    ("loopback octal whole", "http://017700000001:{port}/"),
    ("loopback hex short", "http://0x7f.1:{port}/"),
    ("loopback hex whole", "http://0x7f000001:{port}/"),
    (
        "loopback hex upper-case prefix",
        "http://0X7F.0.0.1:{port}/",
    ),
    ("loopback two parts", "http://127.1:{port}/"),
    ("loopback mixed bases", "http://0x7f.0.0.01:{port}/"),
    ("loopback trailing dot", "http://127.0.0.1.:{port}/"),
    ("loopback percent-encoded", "http://%31%32%37.0.0.1:{port}/"),
    (
        "loopback full-width digits",
        "http://１２７.０.０.１:{port}/",
    ),
    ("loopback end of range", "http://127.255.255.254:{port}/"),
    ("loopback over https", "https://127.0.0.1:{port}/"),
    ("loopback with a user", "http://user@127.0.0.1:{port}/"),
    (
        "loopback with user and password",
        "http://user:pass@127.0.0.1:{port}/",
    ),
    (
        "loopback behind a public-looking user",
        "http://example.com@127.0.0.1:{port}/",
    ),
    ("private 10/8", "http://10.0.0.1/"),
    ("private 10/8 decimal", "http://167772161/"),
    ("private 10/8 octal", "http://012.0.0.1/"),
    ("private 10/8 hex", "http://0xa.0.0.1/"),
    ("private 10/8 two parts", "http://10.1:8080/"),
    ("private 172.16/12", "http://172.16.0.1/"),
    ("private 192.168/16", "http://192.168.0.1/"),
    ("private 192.168/16 decimal", "http://3232235521/"),
    ("private 192.168/16 octal", "http://0300.0250.0.1/"),
    ("private 192.168/16 hex", "http://0xc0.0xa8.0.1/"),
    ("private 192.168/16 hex whole", "http://0xc0a80001/"),
    ("private 192.168/16 three parts", "http://192.168.1/"),
    ("metadata", "http://169.254.169.254/latest/meta-data/"),
    ("metadata decimal", "http://2852039166/"),
    ("metadata octal", "http://0251.0376.0251.0376/"),
    ("metadata hex", "http://0xa9.0xfe.0xa9.0xfe/"),
    ("metadata hex whole", "http://0xa9fea9fe/"),
    ("metadata three parts", "http://169.254.43518/"),
    ("this host 0.0.0.0", "http://0.0.0.0:{port}/"),
    ("this host 0", "http://0:{port}/"),
    ("this host hex 0", "http://0x0:{port}/"),
    ("CGNAT", "http://100.64.0.1/"),
    ("benchmarking", "http://198.18.0.1/"),
    ("multicast", "http://224.0.0.1/"),
    ("broadcast", "http://255.255.255.255/"),
    ("reserved 240/4", "http://240.0.0.1/"),
    ("IPv6 loopback", "http://[::1]:{port}/"),
    (
        "IPv6 loopback long form",
        "http://[0:0:0:0:0:0:0:1]:{port}/",
    ),
    ("IPv6 unspecified", "http://[::]:{port}/"),
    ("IPv4-mapped loopback", "http://[::ffff:127.0.0.1]:{port}/"),
    ("IPv4-mapped loopback hex", "http://[::ffff:7f00:1]:{port}/"),
    ("IPv4-mapped metadata", "http://[::ffff:a9fe:a9fe]/"),
    ("IPv4-compatible loopback", "http://[::127.0.0.1]:{port}/"),
    (
        "IPv4-translated loopback",
        "http://[::ffff:0:7f00:1]:{port}/",
    ),
    ("NAT64 loopback", "http://[64:ff9b::7f00:1]/"),
    ("NAT64 metadata", "http://[64:ff9b::a9fe:a9fe]/"),
    ("6to4 loopback", "http://[2002:7f00:1::]/"),
    ("6to4 metadata", "http://[2002:a9fe:a9fe::]/"),
    ("Teredo", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"),
    ("unique local fc00::/7", "http://[fc00::1]/"),
    ("unique local fd", "http://[fd12::1]/"),
    ("link-local IPv6", "http://[fe80::1]/"),
    ("multicast IPv6", "http://[ff02::1]/"),
    ("localhost", "http://localhost:{port}/"),
    ("localhost upper-case", "http://LOCALHOST:{port}/"),
    ("localhost trailing dot", "http://localhost.:{port}/"),
    (
        "localhost percent-encoded dot",
        "http://localhost%2e:{port}/",
    ),
    ("subdomain of localhost", "http://foo.localhost:{port}/"),
    (
        "localhost.localdomain",
        "http://localhost.localdomain:{port}/",
    ),
    ("localhost with a user", "http://user@localhost:{port}/"),
    (
        "cloud metadata name",
        "http://metadata.google.internal/computeMetadata/v1/",
    ),
    ("multicast DNS name", "http://printer.local/"),
];

/// The corpus with the trap's port filled in, plus every /etc/hosts name that resolves only to
/// non-public addresses: those are not local by name, so they exercise the resolver's address
/// check rather than the URL rules.
async fn corpus(port: u16) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = CORPUS
        .iter()
        .map(|(name, url)| (name.to_string(), url.replace("{port}", &port.to_string())))
        .collect();
    for host in private_names_in_hosts_file().await {
        rows.push((
            format!("/etc/hosts name {host}"),
            format!("http://{host}:{port}/"),
        ));
    }
    rows
}

async fn private_names_in_hosts_file() -> Vec<String> {
    let hosts = std::fs::read_to_string("/etc/hosts").unwrap_or_default();
    let mut names = Vec::new();
    for line in hosts.lines() {
        let line = line.split('#').next().unwrap_or_default();
        let mut fields = line.split_whitespace();
        let Some(Ok(ip)) = fields.next().map(str::parse::<IpAddr>) else {
            continue;
        };
        for name in fields {
            let usable = !is_public_ip(ip)
                && parse_webhook_url(&format!("http://{name}/"), false).is_ok()
                && resolves_only_to_non_public(name).await;
            if usable && !names.iter().any(|known| known == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// True when `name` resolves, and to non-public addresses only (another source of names, such
/// as DNS, may add public ones, which the resolver would rightly let through).
async fn resolves_only_to_non_public(name: &str) -> bool {
    match tokio::net::lookup_host((name, 80)).await {
        Ok(addresses) => {
            let addresses: Vec<_> = addresses.collect();
            !addresses.is_empty() && addresses.iter().all(|address| !is_public_ip(address.ip()))
        }
        Err(_) => false,
    }
}

#[tokio::test]
async fn every_corpus_url_is_refused_by_the_client_without_a_connection() {
    let trap = Trap::bind().await;
    // Short, so a URL that slipped through fails the test quickly instead of hanging it.
    let client = WebhookClient::new(false, Duration::from_secs(2)).expect("client builds");
    let rows = corpus(trap.port).await;
    assert!(rows.len() >= 40, "the corpus has {} rows", rows.len());
    let mut leaks = Vec::new();
    for (name, url) in &rows {
        let outcome = client.post(url, &[], b"{}".to_vec()).await;
        let error = outcome.error.as_deref().unwrap_or_default();
        if outcome.status.is_some() || !error.starts_with("destination refused") {
            leaks.push(format!("{name} ({url}): {outcome:?}"));
        }
    }
    assert!(leaks.is_empty(), "not refused:\n{}", leaks.join("\n"));
    assert_eq!(trap.connections_so_far().await, 0);
}

#[tokio::test]
async fn every_corpus_url_is_refused_at_webhook_creation() {
    let mut accepted = Vec::new();
    for (name, url) in corpus(8080).await {
        let refused = match parse_webhook_url(&url, false) {
            Err(_) => true,
            Ok(parsed) => check_webhook_destination(&parsed, false).await.is_err(),
        };
        if !refused {
            accepted.push(format!("{name} ({url})"));
        }
    }
    assert!(accepted.is_empty(), "accepted:\n{}", accepted.join("\n"));
}

#[tokio::test]
async fn the_literal_ip_spellings_are_read_as_the_addresses_they_hide() {
    // A spelling refused only because it failed to parse would prove nothing about the address
    // check; these must parse (with private webhooks allowed) to the address they hide.
    let cases = [
        ("http://2130706433/", "127.0.0.1"),
        ("http://0177.0.0.1/", "127.0.0.1"),
        ("http://0x7f.1/", "127.0.0.1"),
        ("http://%31%32%37.0.0.1/", "127.0.0.1"),
        ("http://0/", "0.0.0.0"),
        ("http://169.254.43518/", "169.254.169.254"),
        ("http://0xc0a80001/", "192.168.0.1"),
        ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1"),
    ];
    for (url, address) in cases {
        let parsed = parse_webhook_url(url, true).expect("test URL parses");
        let expected: IpAddr = address.parse().expect("test address parses");
        assert_eq!(parsed.ip(), Some(expected), "{url}");
    }
}
