//! The SSRF guard of webhook delivery: what a webhook's host resolves to.
//!
//! [`crate::domain::webhook_url`] judges a webhook URL as written; this module judges where it
//! leads. Non-public addresses are refused at webhook
//! creation and again at every connection, every resolved address is checked, and the connection
//! goes only to a checked address. A host name that does not resolve at creation is accepted.
//!
//! - [`check_webhook_destination`] runs when a webhook URL is created or changed: it resolves the
//!   host and refuses the URL when any address is non-public.
//! - [`PublicOnlyResolver`] is the DNS resolver of the webhook HTTP client: it hands the client
//!   only public addresses, so a name that changes its answer after creation (DNS rebinding) still
//!   cannot reach a private one. The HTTP client skips DNS for a literal IP host, so the delivery
//!   code judges those with [`WebhookUrl::ip`] and [`crate::domain::address::is_public_ip`]; it
//!   must also disable proxies and redirects, which would bypass this resolver.
//!
//! Lookups use the system resolver through tokio and give up after [`DNS_TIMEOUT`].

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use url::Host;

use crate::domain::address::is_public_ip;
use crate::domain::webhook_url::{WebhookUrl, WebhookUrlError, is_local_host_name};

/// How long one DNS lookup may take; a lookup that takes longer counts as "does not resolve".
pub const DNS_TIMEOUT: Duration = Duration::from_secs(3);

/// Why a webhook's host gave no address a delivery may connect to; the text is what a delivery
/// attempt records as its error.
#[derive(Debug, thiserror::Error)]
pub enum DestinationError {
    /// The lookup did not finish within [`DNS_TIMEOUT`].
    #[error("DNS lookup of {host} timed out")]
    Timeout {
        /// The host name looked up.
        host: String,
    },
    /// The lookup failed (unknown name, no resolver, …).
    #[error("DNS lookup of {host} failed: {source}")]
    Lookup {
        /// The host name looked up.
        host: String,
        /// The resolver's error.
        source: io::Error,
    },
    /// The name is local by definition, or every address it resolves to is non-public.
    #[error("{host} does not resolve to a public address")]
    NoPublicAddress {
        /// The host name looked up.
        host: String,
    },
}

/// Resolves the URL's host and fails when any resolved address is non-public.
/// A name that does not resolve is accepted (checked again at connection time).
/// Literal IPs are judged directly. When allow_private is true, everything passes.
pub async fn check_webhook_destination(
    url: &WebhookUrl,
    allow_private: bool,
) -> Result<(), WebhookUrlError> {
    if allow_private {
        return Ok(());
    }
    let public = match url.host() {
        Host::Ipv4(ip) => is_public_ip(IpAddr::V4(*ip)),
        Host::Ipv6(ip) => is_public_ip(IpAddr::V6(*ip)),
        Host::Domain(name) => {
            !is_local_host_name(name) && resolves_only_to_public(name, url.port()).await
        }
    };
    if public {
        Ok(())
    } else {
        Err(WebhookUrlError::NonPublicAddress)
    }
}

/// True unless `name` resolves to at least one non-public address; a name that does not
/// resolve (error or time-out) counts as public here.
async fn resolves_only_to_public(name: &str, port: u16) -> bool {
    match lookup(name, port).await {
        Ok(addresses) => addresses.iter().all(|address| is_public_ip(address.ip())),
        Err(_) => true,
    }
}

/// Resolves `name` with the system resolver, giving up after [`DNS_TIMEOUT`].
async fn lookup(name: &str, port: u16) -> Result<Vec<SocketAddr>, DestinationError> {
    let host = || name.to_owned();
    match tokio::time::timeout(DNS_TIMEOUT, tokio::net::lookup_host((name, port))).await {
        Ok(Ok(addresses)) => Ok(addresses.collect()),
        Ok(Err(source)) => Err(DestinationError::Lookup {
            host: host(),
            source,
        }),
        Err(_) => Err(DestinationError::Timeout { host: host() }),
    }
}

/// The addresses of `addresses` a webhook may connect to (all of them when `allow_private`).
fn connectable(addresses: Vec<SocketAddr>, allow_private: bool) -> Vec<SocketAddr> {
    addresses
        .into_iter()
        .filter(|address| allow_private || is_public_ip(address.ip()))
        .collect()
}

/// DNS resolver for the webhook HTTP client (`reqwest::ClientBuilder::dns_resolver`): resolves
/// with tokio and returns only public addresses, failing when none is left. With
/// `allow_private` it returns every address.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PublicOnlyResolver {
    /// Let private and loopback addresses through (`SIGNALWATCH_ALLOW_PRIVATE_WEBHOOKS`).
    pub allow_private: bool,
}

impl PublicOnlyResolver {
    /// A resolver that lets non-public addresses through only when `allow_private`.
    pub fn new(allow_private: bool) -> Self {
        Self { allow_private }
    }

    /// The addresses of `name` a webhook may connect to, with port 0 (the HTTP client puts in
    /// the URL's port). Fails when the lookup fails or leaves no such address.
    pub async fn resolve_connectable(
        &self,
        name: &str,
    ) -> Result<Vec<SocketAddr>, DestinationError> {
        let refused = || DestinationError::NoPublicAddress {
            host: name.to_owned(),
        };
        if !self.allow_private && is_local_host_name(name) {
            return Err(refused());
        }
        let addresses = connectable(lookup(name, 0).await?, self.allow_private);
        if addresses.is_empty() {
            return Err(refused());
        }
        Ok(addresses)
    }
}

impl reqwest::dns::Resolve for PublicOnlyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let resolver = *self;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addresses = resolver.resolve_connectable(&host).await?;
            let addresses: reqwest::dns::Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::webhook_url::parse_webhook_url;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A webhook URL as stored while private webhooks were allowed.
    fn stored(input: &str) -> WebhookUrl {
        parse_webhook_url(input, true).expect("test URL parses")
    }

    #[tokio::test]
    async fn localhost_is_refused() {
        let result = check_webhook_destination(&stored("http://localhost:8080/hook"), false).await;
        assert_eq!(result, Err(WebhookUrlError::NonPublicAddress));
    }

    #[tokio::test]
    async fn a_literal_private_ip_is_refused_without_dns() {
        for input in [
            "http://10.0.0.1/",
            "http://169.254.169.254/",
            "http://[::1]/",
        ] {
            let result = check_webhook_destination(&stored(input), false).await;
            assert_eq!(result, Err(WebhookUrlError::NonPublicAddress), "{input}");
        }
    }

    #[tokio::test]
    async fn a_literal_public_ip_is_accepted_without_dns() {
        let url = stored("https://8.8.8.8/hook");
        assert_eq!(check_webhook_destination(&url, false).await, Ok(()));
    }

    #[tokio::test]
    async fn allowing_private_webhooks_lets_everything_through() {
        for input in [
            "http://localhost/",
            "http://127.0.0.1:9000/",
            "http://[fe80::1]/",
        ] {
            assert_eq!(
                check_webhook_destination(&stored(input), true).await,
                Ok(())
            );
        }
    }

    #[tokio::test]
    async fn a_name_that_does_not_resolve_is_accepted() {
        let url = stored("https://hooks.signalwatch-test.invalid/hook");
        assert_eq!(check_webhook_destination(&url, false).await, Ok(()));
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused_by_its_addresses() {
        // `localhost` is refused by name before any lookup; this checks the lookup path itself.
        assert!(!resolves_only_to_public("localhost", 80).await);
    }

    #[test]
    fn only_public_addresses_are_connectable() {
        let addresses: Vec<SocketAddr> =
            ["127.0.0.1:0", "8.8.8.8:0", "[::1]:0", "[2606:4700::1]:0"]
                .iter()
                .map(|text| text.parse().expect("test address parses"))
                .collect();
        let public = connectable(addresses.clone(), false);
        assert_eq!(public, vec![addresses[1], addresses[3]]);
        assert_eq!(connectable(addresses.clone(), true), addresses);
    }

    #[tokio::test]
    async fn the_resolver_refuses_local_names_and_unresolvable_names() {
        let resolver = PublicOnlyResolver::new(false);
        let local = resolver.resolve_connectable("localhost").await;
        assert!(matches!(
            local,
            Err(DestinationError::NoPublicAddress { .. })
        ));
        let unknown = resolver
            .resolve_connectable("nowhere.signalwatch-test.invalid")
            .await;
        assert!(matches!(
            unknown,
            Err(DestinationError::Lookup { .. } | DestinationError::Timeout { .. })
        ));
    }

    #[tokio::test]
    async fn the_resolver_returns_loopback_only_when_private_webhooks_are_allowed() {
        let addresses = PublicOnlyResolver::new(true)
            .resolve_connectable("localhost")
            .await
            .expect("localhost resolves");
        assert!(addresses.iter().all(|address| address.ip().is_loopback()));
    }

    /// Answers one HTTP request on loopback with 200 and returns the port.
    async fn one_shot_server() -> u16 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let port = listener.local_addr().expect("local address").port();
        tokio::spawn(async move {
            if let Ok((mut socket, _)) = listener.accept().await {
                let mut request = [0_u8; 4096];
                let _ = socket.read(&mut request).await;
                let reply = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
                let _ = socket.write_all(reply).await;
            }
        });
        port
    }

    fn client(allow_private: bool) -> reqwest::Client {
        reqwest::Client::builder()
            .dns_resolver(PublicOnlyResolver::new(allow_private))
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client builds")
    }

    #[tokio::test]
    async fn an_http_client_with_the_resolver_cannot_reach_loopback_by_name() {
        let port = one_shot_server().await;
        let result = client(false)
            .get(format!("http://localhost:{port}/"))
            .send()
            .await;
        let error = result.expect_err("loopback is refused");
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        let mut refused_by_resolver = false;
        while let Some(current) = cause {
            refused_by_resolver |= matches!(
                current.downcast_ref::<DestinationError>(),
                Some(DestinationError::NoPublicAddress { .. })
            );
            cause = current.source();
        }
        assert!(refused_by_resolver, "{error:?}");
    }

    #[tokio::test]
    async fn an_http_client_with_the_resolver_reaches_loopback_when_allowed() {
        let port = one_shot_server().await;
        let response = client(true)
            .get(format!("http://localhost:{port}/"))
            .send()
            .await
            .expect("request succeeds");
        assert_eq!(response.status(), reqwest::StatusCode::OK);
    }
}
