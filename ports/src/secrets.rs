//! One-time keys mailed to users. Only the SHA-256 of a key is stored, so a
//! leaked database does not hand out working activation or reset links.

use rand::{distributions::Alphanumeric, Rng};
use sha2::{Digest, Sha256};

/// A key as it appears in a mailed link, and the hash we keep of it.
#[derive(Debug, Clone)]
pub struct OneTimeKey {
    pub plain: String,
    pub hash: String,
}

/// 43 alphanumeric characters: about 256 bits of entropy, URL-safe.
pub const KEY_LENGTH: usize = 43;

impl OneTimeKey {
    pub fn generate() -> Self {
        let plain: String = rand::thread_rng().sample_iter(&Alphanumeric).take(KEY_LENGTH).map(char::from).collect();
        let hash = hash_key(&plain);
        Self { plain, hash }
    }
}

pub fn hash_key(plain: &str) -> String {
    hex::encode(Sha256::digest(plain.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_url_safe_and_hash_to_what_is_stored() {
        let key = OneTimeKey::generate();
        assert_eq!(key.plain.len(), KEY_LENGTH);
        assert!(key.plain.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(hash_key(&key.plain), key.hash);
    }

    #[test]
    fn two_keys_differ() {
        assert_ne!(OneTimeKey::generate().plain, OneTimeKey::generate().plain);
    }
}
