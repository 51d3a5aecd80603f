//! Which IP addresses a webhook may connect to.
//!
//! signalwatch pushes signed webhooks to URLs chosen by its customers. A webhook must never become a
//! way into the network the service runs in, so every address a delivery could connect to — a
//! literal IP in the webhook URL, or any address its host name resolves to — is judged here
//! by the service's SSRF rules: loopback, private, link-local (cloud metadata at 169.254.169.254
//! included), CGNAT, benchmarking, documentation, multicast, broadcast and reserved ranges are
//! refused, and so are IPv6 addresses that carry one of those IPv4 addresses inside them.
//!
//! Decisions beyond the contract's list:
//! - Teredo (`2001::/32`) is refused as a whole: a Teredo address is reached through a relay chosen
//!   by the address itself, and no webhook receiver needs one.
//! - The local-use NAT64 prefix `64:ff9b:1::/48` is refused as a whole: it is private to the network
//!   that defines it, and where it embeds the IPv4 address depends on that network's prefix length.
//! - The IPv4-translated form `::ffff:0:a.b.c.d` is judged by its IPv4 address like the mapped form,
//!   and the newer IPv6 documentation prefix `3fff::/20` is refused with `2001:db8::/32`.
//!
//! Pure functions, no I/O.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// IPv4 ranges a webhook may never reach, as (network, prefix length).
const REFUSED_V4: [(Ipv4Addr, u8); 15] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),     // "this network", 0.0.0.0 included
    (Ipv4Addr::new(10, 0, 0, 0), 8),    // private
    (Ipv4Addr::new(100, 64, 0, 0), 10), // shared address space (CGNAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8),   // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16), // link-local, cloud metadata
    (Ipv4Addr::new(172, 16, 0, 0), 12), // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),  // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),  // documentation (TEST-NET-1)
    (Ipv4Addr::new(192, 88, 99, 0), 24), // 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16), // private
    (Ipv4Addr::new(198, 18, 0, 0), 15), // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation (TEST-NET-2)
    (Ipv4Addr::new(203, 0, 113, 0), 24), // documentation (TEST-NET-3)
    (Ipv4Addr::new(224, 0, 0, 0), 4),   // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),   // reserved, 255.255.255.255 (broadcast) included
];

/// IPv6 ranges a webhook may never reach, whatever they may carry, as (network, prefix length).
const REFUSED_V6: [(Ipv6Addr, u8); 13] = [
    (Ipv6Addr::UNSPECIFIED, 128),                         // ::
    (Ipv6Addr::LOCALHOST, 128),                           // ::1
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64),      // discard-only
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48),  // local-use NAT64
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 32),     // Teredo
    (Ipv6Addr::new(0x2001, 2, 0, 0, 0, 0, 0, 0), 48),     // benchmarking
    (Ipv6Addr::new(0x2001, 0x10, 0, 0, 0, 0, 0, 0), 28),  // ORCHID
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),     // documentation
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7),      // unique local
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10),     // link-local
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10),     // site-local (deprecated)
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8),      // multicast
];

/// IPv6 ranges whose last 32 bits are an IPv4 address, as (network, prefix length).
const CARRYING_V4_IN_LAST_32_BITS: [(Ipv6Addr, u8); 4] = [
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0), 96), // IPv4-mapped
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 96),      // IPv4-compatible (deprecated)
    (Ipv6Addr::new(0, 0, 0, 0, 0xffff, 0, 0, 0), 96), // IPv4-translated
    (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96), // NAT64 well-known prefix
];

/// The 6to4 prefix; the IPv4 address sits in bits 16..48.
const SIX_TO_FOUR: (Ipv6Addr, u8) = (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16);

/// True when a webhook may connect to this address: false for every non-public range.
pub fn is_public_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_ipv4(v4),
        IpAddr::V6(v6) => is_public_ipv6(v6),
    }
}

/// True when a webhook may connect to this IPv4 address.
pub fn is_public_ipv4(ip: Ipv4Addr) -> bool {
    !REFUSED_V4
        .iter()
        .any(|&(network, prefix)| in_v4_range(ip, network, prefix))
}

/// True when a webhook may connect to this IPv6 address. An address that carries an IPv4 address
/// (mapped, compatible, translated, NAT64, 6to4) is as public as the IPv4 address it carries.
pub fn is_public_ipv6(ip: Ipv6Addr) -> bool {
    if REFUSED_V6
        .iter()
        .any(|&(network, prefix)| in_v6_range(ip, network, prefix))
    {
        return false;
    }
    match embedded_ipv4(ip) {
        Some(v4) => is_public_ipv4(v4),
        None => true,
    }
}

/// The IPv4 address an IPv6 address carries, for the forms a connection would end up delivering
/// to that IPv4 host.
fn embedded_ipv4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let o = ip.octets();
    if CARRYING_V4_IN_LAST_32_BITS
        .iter()
        .any(|&(network, prefix)| in_v6_range(ip, network, prefix))
    {
        return Some(Ipv4Addr::new(o[12], o[13], o[14], o[15]));
    }
    let (network, prefix) = SIX_TO_FOUR;
    if in_v6_range(ip, network, prefix) {
        return Some(Ipv4Addr::new(o[2], o[3], o[4], o[5]));
    }
    None
}

fn in_v4_range(ip: Ipv4Addr, network: Ipv4Addr, prefix: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(network) & mask
}

fn in_v6_range(ip: Ipv6Addr, network: Ipv6Addr, prefix: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(network) & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(text: &str) -> bool {
        is_public_ip(text.parse().expect("test address parses"))
    }

    fn v6(text: &str) -> bool {
        is_public_ip(IpAddr::V6(text.parse().expect("test address parses")))
    }

    #[test]
    fn every_refused_ipv4_range_is_refused_at_both_ends() {
        let refused = [
            "0.0.0.0",
            "0.255.255.255",
            "10.0.0.0",
            "10.255.255.255",
            "100.64.0.0",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.255",
            "169.254.0.0",
            "169.254.169.254",
            "169.254.255.255",
            "172.16.0.0",
            "172.31.255.255",
            "192.0.0.0",
            "192.0.0.255",
            "192.0.2.0",
            "192.0.2.255",
            "192.88.99.0",
            "192.88.99.255",
            "192.168.0.0",
            "192.168.255.255",
            "198.18.0.0",
            "198.19.255.255",
            "198.51.100.0",
            "198.51.100.255",
            "203.0.113.0",
            "203.0.113.255",
            "224.0.0.0",
            "239.255.255.255",
            "240.0.0.0",
            "254.255.255.255",
            "255.255.255.255",
        ];
        for address in refused {
            assert!(!v4(address), "{address} should be refused");
        }
    }

    #[test]
    fn addresses_just_outside_the_refused_ipv4_ranges_are_public() {
        let public = [
            "1.0.0.0",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "191.255.255.255",
            "192.0.1.0",
            "192.0.3.0",
            "192.88.98.255",
            "192.88.100.0",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "198.51.99.255",
            "198.51.101.0",
            "203.0.112.255",
            "203.0.114.0",
            "223.255.255.255",
            "8.8.8.8",
            "1.1.1.1",
        ];
        for address in public {
            assert!(v4(address), "{address} should be public");
        }
    }

    #[test]
    fn the_refused_ipv6_ranges_are_refused() {
        let refused = [
            "::",
            "::1",
            "100::",
            "100::ffff:ffff:ffff:ffff",
            "2001::1",
            "2001:0:ffff::1",
            "2001:2::",
            "2001:2:0:ffff::1",
            "2001:10::1",
            "2001:1f::1",
            "2001:db8::1",
            "2001:db8:ffff::1",
            "3fff::1",
            "3fff:fff::1",
            "fc00::1",
            "fdff:ffff::1",
            "fe80::1",
            "febf:ffff::1",
            "fec0::1",
            "feff::1",
            "ff00::",
            "ff02::1",
            "ffff:ffff::1",
            "64:ff9b:1::1",
            "64:ff9b:1:ffff::8.8.8.8",
        ];
        for address in refused {
            assert!(!v6(address), "{address} should be refused");
        }
    }

    #[test]
    fn ipv6_carrying_a_refused_ipv4_address_is_refused() {
        let refused = [
            "::ffff:127.0.0.1",
            "::ffff:7f00:1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::ffff:0.0.0.0",
            "::ffff:255.255.255.255",
            "::127.0.0.1",
            "::10.0.0.1",
            "::192.168.1.1",
            "::ffff:0:127.0.0.1",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::100.64.0.1",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::1",
            "2002:c0a8:101:1::1",
            "2002:c058:6301::1",
            "2002:e000:1::",
        ];
        for address in refused {
            assert!(!v6(address), "{address} should be refused");
        }
    }

    #[test]
    fn teredo_is_refused_whatever_client_it_carries() {
        // Client 127.0.0.1 (0x80fffffe inverted) and client 8.8.8.8 (0xf7f7f7f7 inverted).
        assert!(!v6("2001:0:4136:e378:8000:63bf:80ff:fffe"));
        assert!(!v6("2001:0:4136:e378:8000:63bf:f7f7:f7f7"));
    }

    #[test]
    fn ipv6_carrying_a_public_ipv4_address_is_public() {
        for address in [
            "::ffff:8.8.8.8",
            "::8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(v6(address), "{address} should be public");
        }
    }

    #[test]
    fn global_unicast_ipv6_addresses_are_public() {
        let public = [
            "2606:4700:4700::1111",
            "2001:4860:4860::8888",
            "2a00:1450:4001:80b::200e",
            "2001:1::1",
            "2001:3::1",
            "2001:db7:ffff::1",
            "2001:db9::1",
            "2003::1",
            "2001:20::1",
            "fbff:ffff::1",
        ];
        for address in public {
            assert!(v6(address), "{address} should be public");
        }
    }
}
