//! Team API keys: `sw_live_` followed by 40 base62 characters, shown once and stored only as a
//! SHA-256 hash.

use rand::Rng;
use sha2::{Digest, Sha256};

/// Every API key starts with this prefix.
pub const API_KEY_PREFIX: &str = "sw_live_";
const KEY_BODY_LEN: usize = 40;
const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Generates a new random API key.
pub fn generate_api_key() -> String {
    let mut rng = rand::rng();
    let body: String = (0..KEY_BODY_LEN)
        .map(|_| BASE62[rng.random_range(0..BASE62.len())] as char)
        .collect();
    format!("{API_KEY_PREFIX}{body}")
}

/// The start of a key shown to tell keys apart: the prefix and four characters.
pub fn key_prefix(key: &str) -> String {
    key.chars().take(API_KEY_PREFIX.len() + 4).collect()
}

/// The stored form of a key: lower-case hex SHA-256.
pub fn hash_api_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_has_the_prefix_and_forty_base62_characters() {
        let key = generate_api_key();
        let body = key.strip_prefix(API_KEY_PREFIX).expect("prefix");
        assert_eq!(body.len(), 40);
        assert!(body.bytes().all(|b| b.is_ascii_alphanumeric()));
    }

    #[test]
    fn the_shown_prefix_is_the_key_kind_and_four_characters() {
        assert_eq!(key_prefix("sw_live_AbCdEfGh"), "sw_live_AbCd");
    }

    #[test]
    fn two_generated_keys_differ() {
        assert_ne!(generate_api_key(), generate_api_key());
    }

    #[test]
    fn the_hash_is_hex_sha256_of_the_key() {
        assert_eq!(
            hash_api_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
