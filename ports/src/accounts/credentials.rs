//! Ports for password hashing and session tokens. Their implementations
//! (bcrypt, JWT) live in adapters; the use cases only see these traits.

use chrono::{DateTime, Utc};

use super::repository::UserId;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait PasswordHasher: Send + Sync {
    /// A salted hash of `password` (already checked against the password
    /// rules). Two calls give different hashes that both verify.
    async fn hash(&self, password: &str) -> anyhow::Result<String>;
    /// Whether `password` matches `hash`. A malformed hash is `Ok(false)`;
    /// `Err` only when the check could not run. Pure.
    async fn verify(&self, password: &str, hash: &str) -> anyhow::Result<bool>;
    /// Spends the time of one `verify` against a real hash of the configured
    /// cost, for accounts that have none (unknown addresses, guests), so the
    /// answer's timing does not tell whether an account exists.
    async fn verify_dummy(&self, password: &str) -> anyhow::Result<()>;
}

/// A signed session token and when it stops working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedToken {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// What a valid token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionClaims {
    pub user: UserId,
    /// The account's `password_changed_at` (milliseconds) when the token was
    /// issued; a token whose value differs from the account's is refused.
    pub password_version: i64,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait TokenIssuer: Send + Sync {
    /// A signed token carrying `claims`, valid from `now` for the configured
    /// session length. `verify` of it MUST answer the same claims until then.
    fn issue(&self, claims: SessionClaims, now: DateTime<Utc>) -> anyhow::Result<IssuedToken>;
    /// The claims of a token this issuer signed. MUST return `None` (never
    /// panic) when the token is malformed, forged or expired at `now`. Pure.
    fn verify(&self, token: &str, now: DateTime<Utc>) -> Option<SessionClaims>;
}

/// The version a token must carry for an account.
pub fn password_version(password_changed_at: DateTime<Utc>) -> i64 {
    password_changed_at.timestamp_millis()
}
