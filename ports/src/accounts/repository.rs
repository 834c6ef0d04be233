use chrono::{DateTime, Utc};
use domain::account::{AccountStatus, Email};

use crate::RepoError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub i64);

/// What a one-time key is for; stored with the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPurpose {
    Activate,
    ResetPassword,
    ChangeEmail,
}

/// A key to store: only its hash, never the mailed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    pub purpose: KeyPurpose,
    pub key_hash: String,
    pub expires_at: DateTime<Utc>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait UserRepository: Send + Sync {
    /// The account holding `email` (compared case-insensitively), if any.
    async fn find_by_email(&self, email: &Email) -> Result<Option<(UserId, AccountStatus)>, RepoError>;

    /// Creates a provisional account for `email` and stores its activation key,
    /// both or neither. MUST return `RepoError::Conflict` when an account
    /// already holds the address (also when a parallel request just created it).
    async fn create_provisional(&self, email: &Email, key: NewKey) -> Result<UserId, RepoError>;

    /// Stores a further key for an existing account. Earlier unused keys of
    /// the same purpose stop working. MUST return `RepoError::NotFound` when no
    /// account has `user`.
    async fn replace_key(&self, user: UserId, key: NewKey) -> Result<(), RepoError>;
}
