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
    /// The key `plain` with the hash we store of it.
    pub fn from_plain(plain: impl Into<String>) -> Self {
        let plain = plain.into();
        let hash = hash_key(&plain);
        Self { plain, hash }
    }
}

/// Where one-time keys come from. A port like `Clock`, so use-case tests
/// choose the key and can check that the mailed link carries it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait KeyGenerator: Send + Sync {
    /// MUST return a new key on every call: `KEY_LENGTH` ASCII alphanumeric
    /// characters from a cryptographically secure source (never repeated,
    /// never predictable from earlier keys), with `hash == hash_key(&plain)`.
    fn one_time_key(&self) -> OneTimeKey;
}

/// The real generator: the thread's CSPRNG.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomKeys;

impl KeyGenerator for RandomKeys {
    fn one_time_key(&self) -> OneTimeKey {
        let plain: String = rand::thread_rng().sample_iter(&Alphanumeric).take(KEY_LENGTH).map(char::from).collect();
        OneTimeKey::from_plain(plain)
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
        let key = RandomKeys.one_time_key();
        assert_eq!(key.plain.len(), KEY_LENGTH);
        assert!(key.plain.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(hash_key(&key.plain), key.hash);
    }

    #[test]
    fn two_keys_differ() {
        assert_ne!(RandomKeys.one_time_key().plain, RandomKeys.one_time_key().plain);
    }
}
