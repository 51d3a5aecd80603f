//! Webhook signing secrets: `whsec_` followed by the base64 of 32 random bytes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::RngCore;

/// Prefix of every signing secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// Generates a new signing secret.
pub fn generate_webhook_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// `…` followed by the last four characters, shown instead of the secret on every read.
pub fn secret_preview(secret: &str) -> String {
    let tail: String = secret
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_carries_thirty_two_random_bytes_in_base64() {
        let secret = generate_webhook_secret();
        let body = secret.strip_prefix(SECRET_PREFIX).expect("prefix");
        assert_eq!(STANDARD.decode(body).expect("base64").len(), 32);
    }

    #[test]
    fn the_preview_shows_only_the_last_four_characters() {
        assert_eq!(secret_preview("whsec_abcdef1234"), "…1234");
    }
}
