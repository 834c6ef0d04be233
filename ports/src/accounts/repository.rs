use chrono::{DateTime, Utc};
use domain::account::{AccountStatus, Email};
use domain::auth::LoginAttempt;

use crate::RepoError;

// Lives in `domain` so domain rules can key by it; re-exported where it was.
pub use domain::ids::UserId;

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
    /// The requested address, for `ChangeEmail` only.
    pub new_email: Option<Email>,
}

/// What a login needs to know about an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub id: UserId,
    pub email: Email,
    pub status: AccountStatus,
    pub password_hash: Option<String>,
    pub failed_login_count: u32,
    pub banned_until: Option<DateTime<Utc>>,
    /// Tokens carrying another value were issued before the last change of
    /// the credentials (password or login address).
    pub password_changed_at: DateTime<Utc>,
    /// Holds an administrator grant in the database.
    pub is_administrator: bool,
}

/// What redeeming a key does, inside the same transaction that marks it used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyAction {
    /// Sets the password (activation makes the account a member; reset keeps its status).
    SetPassword { password_hash: String, changed_at: DateTime<Utc> },
    /// Moves the account to the key's `new_email`; only for the key's own
    /// account. Every session token issued before `changed_at` stops working.
    ChangeEmail { owner: UserId, changed_at: DateTime<Utc> },
}

#[derive(Debug, thiserror::Error)]
pub enum RedeemError {
    /// No such key, already used, another purpose, or another account's key.
    #[error("invalid key")]
    Invalid,
    #[error("expired key")]
    Expired,
    /// The e-mail change collides with an account created since the request.
    #[error("address taken")]
    AddressTaken,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait UserRepository: Send + Sync {
    /// The account holding `email` (compared case-insensitively), if any.
    /// MUST return `Ok(None)`, not `NotFound`, when no account holds it. Read-only.
    async fn find_by_email(&self, email: &Email) -> Result<Option<(UserId, AccountStatus)>, RepoError>;

    /// Creates a provisional account for `email` and stores its activation key,
    /// both or neither. MUST return `RepoError::Conflict` when an account
    /// already holds the address (also when a parallel request just created it),
    /// so a repeat never makes a second account.
    async fn create_provisional(&self, email: &Email, key: NewKey) -> Result<UserId, RepoError>;

    /// Stores a further key for an existing account. Earlier unused keys of
    /// the same purpose stop working. MUST return `RepoError::NotFound` when no
    /// account has `user`. A repeat leaves one live key (the last one).
    async fn replace_key(&self, user: UserId, key: NewKey) -> Result<(), RepoError>;

    /// Login data of the account holding `email` (case-insensitive). MUST
    /// return `Ok(None)` when no account holds it. Read-only.
    async fn credentials_by_email(&self, email: &Email) -> Result<Option<Credentials>, RepoError>;

    /// Login data of `user`. MUST return `RepoError::NotFound` when absent. Read-only.
    async fn credentials(&self, user: UserId) -> Result<Credentials, RepoError>;

    /// Applies the outcome of one password check (`password_ok`) to the
    /// account's lockout counters with `domain::auth::LoginGuard::attempt`,
    /// reading and writing them under one row lock so that parallel attempts
    /// never lose a count, and returns the attempt's result (also `Locked`
    /// when a parallel attempt locked the account meanwhile). MUST return
    /// `RepoError::NotFound` when no account has `user`. Not idempotent: each
    /// call is one attempt and counts.
    async fn record_password_check(
        &self,
        user: UserId,
        password_ok: bool,
        now: DateTime<Utc>,
    ) -> Result<LoginAttempt, RepoError>;

    /// Whether an unused key with hash `key_hash` and purpose `purpose` works
    /// at `now`, without using it: `Ok` when it does, `Invalid` or `Expired`
    /// otherwise. Lets a flow refuse a made-up key before doing costly work.
    /// An unknown hash is `Invalid` (never `NotFound`). Read-only.
    async fn check_key(&self, key_hash: String, purpose: KeyPurpose, now: DateTime<Utc>) -> Result<(), RedeemError>;

    /// Redeems the unused, unexpired key whose hash is `key_hash` and whose
    /// purpose is `purpose`, applying `action` in the same transaction. A key
    /// works once: concurrent redemptions of one key let exactly one through.
    /// MUST return `RedeemError::Invalid` for an unknown or used key (so a
    /// repeat is `Invalid`), `Expired` for an expired one, and `AddressTaken`
    /// when an e-mail change collides with an account created meanwhile;
    /// nothing is applied then. Returns the key's account.
    async fn redeem_key(
        &self,
        key_hash: String,
        purpose: KeyPurpose,
        now: DateTime<Utc>,
        action: KeyAction,
    ) -> Result<UserId, RedeemError>;

    /// Replaces the password of `user`; tokens issued before `changed_at` stop working.
    /// MUST return `RepoError::NotFound` when no account has `user`. Repeating
    /// it with the same arguments leaves the same state.
    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        changed_at: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}
