//! Signing a delivery: the headers a receiver verifies,
//! in both the service's own set and the Standard Webhooks set, from one secret.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::webhook_secret::SECRET_PREFIX;

type HmacSha256 = Hmac<Sha256>;

/// What a delivery attempt is signed over, besides the body.
#[derive(Debug, Clone, Copy)]
pub struct Signed<'a> {
    pub secret: &'a str,
    pub event_id: &'a str,
    pub event_type: &'a str,
    /// Unix seconds of this attempt.
    pub timestamp: i64,
    pub monitor_id: Option<&'a str>,
}

fn hmac(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().to_vec()
}

/// `X-Webhook-Signature`: hex HMAC-SHA256 of the raw body, keyed with the whole secret string.
pub fn body_signature(secret: &str, body: &[u8]) -> String {
    hex::encode(hmac(secret.as_bytes(), &[body]))
}

/// The Standard Webhooks key: the base64-decoded bytes after `whsec_` (the whole string's bytes
/// when it does not decode, so a signature is always produced).
fn standard_key(secret: &str) -> Vec<u8> {
    let encoded = secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret);
    STANDARD
        .decode(encoded)
        .unwrap_or_else(|_| secret.as_bytes().to_vec())
}

/// `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`.
pub fn standard_signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    let timestamp = timestamp.to_string();
    let mac = hmac(
        &standard_key(secret),
        &[id.as_bytes(), b".", timestamp.as_bytes(), b".", body],
    );
    format!("v1,{}", STANDARD.encode(mac))
}

/// Every header of a signed delivery attempt.
pub fn delivery_headers(signed: &Signed, body: &[u8]) -> Vec<(String, String)> {
    let timestamp = signed.timestamp.to_string();
    let mut headers = vec![
        ("X-Webhook-Event".to_string(), signed.event_type.to_string()),
        ("X-Webhook-ID".to_string(), signed.event_id.to_string()),
        ("X-Webhook-Timestamp".to_string(), timestamp.clone()),
        (
            "X-Webhook-Signature".to_string(),
            body_signature(signed.secret, body),
        ),
        ("webhook-id".to_string(), signed.event_id.to_string()),
        ("webhook-timestamp".to_string(), timestamp),
        (
            "webhook-signature".to_string(),
            standard_signature(signed.secret, signed.event_id, signed.timestamp, body),
        ),
    ];
    if let Some(monitor_id) = signed.monitor_id {
        headers.push(("X-Monitor-ID".to_string(), monitor_id.to_string()));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_signature_is_the_rfc_4231_style_hex_hmac_of_the_body() {
        // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog"), a well-known vector.
        assert_eq!(
            body_signature("key", b"The quick brown fox jumps over the lazy dog"),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        );
    }

    #[test]
    fn the_standard_signature_is_keyed_with_the_decoded_secret() {
        // The Standard Webhooks specification's example secret, id, timestamp and payload.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            standard_signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn monitor_deliveries_carry_the_monitor_id() {
        let signed = Signed {
            secret: "whsec_AAAA",
            event_id: "e1",
            event_type: "funding.created",
            timestamp: 1,
            monitor_id: Some("m1"),
        };
        let headers = delivery_headers(&signed, b"{}");
        let names: Vec<&str> = headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "X-Webhook-Event",
                "X-Webhook-ID",
                "X-Webhook-Timestamp",
                "X-Webhook-Signature",
                "webhook-id",
                "webhook-timestamp",
                "webhook-signature",
                "X-Monitor-ID"
            ]
        );
        assert_eq!(headers[1].1, "e1");
        assert_eq!(headers[4].1, "e1");
    }
}
