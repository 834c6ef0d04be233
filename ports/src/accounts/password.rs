//! Password flows: setting the first password from the activation link,
//! forgotten-password mail, reset from its link, and change while logged in.

use chrono::{Duration, NaiveDateTime};
use domain::account::{AccountStatus, Email};
use domain::auth::{LoginFailure, Password};

use super::credentials::{IssuedToken, PasswordHasher};
use super::guard::{check_password, PasswordCheck};
use super::mails::SiteInfo;
use super::repository::{KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
use super::session::Sessions;
use crate::clock::Clock;
use crate::mailer::{MailError, Mailer};
use crate::secrets::{hash_key, KeyGenerator};
use crate::RepoError;

#[derive(Debug, Clone)]
pub struct PasswordConfig {
    pub site: SiteInfo,
    pub reset_ttl: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum PasswordFlowError {
    #[error("invalid key")]
    InvalidKey,
    #[error("expired key")]
    ExpiredKey,
    /// The current password given for a change is wrong (counted like a
    /// wrong login password).
    #[error("current password mismatch")]
    CurrentPasswordMismatch,
    /// Too many wrong passwords: locked like login until this Tokyo time.
    #[error("{}", LoginFailure::Locked { until: *.until })]
    Locked { until: NaiveDateTime },
    #[error("the mail could not be sent")]
    MailUnavailable(#[source] MailError),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for PasswordFlowError {
    fn from(error: RepoError) -> Self {
        Self::Unexpected(error.into())
    }
}

impl From<RedeemError> for PasswordFlowError {
    fn from(error: RedeemError) -> Self {
        match error {
            RedeemError::Invalid | RedeemError::AddressTaken => Self::InvalidKey,
            RedeemError::Expired => Self::ExpiredKey,
            RedeemError::Repo(e) => e.into(),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait PasswordFlows: Send + Sync {
    /// Sets the first password from an activation key; the account becomes a
    /// member. The key works once: a repeat is `InvalidKey`.
    async fn register_password(&self, activation_key: &str, password: &Password) -> Result<(), PasswordFlowError>;
    /// Mails a reset link to a member; `false` when no member holds the
    /// address. A repeat mails a new link and the earlier one stops working.
    async fn forgot(&self, email: &Email) -> Result<bool, PasswordFlowError>;
    /// Sets a new password from a reset key: `InvalidKey` for an unknown or
    /// used key (so a repeat), `ExpiredKey` once the link's lifetime is over.
    async fn reset(&self, reset_key: &str, password: &Password) -> Result<(), PasswordFlowError>;
    /// Changes the password of a logged-in member and returns a new token;
    /// every earlier token stops working.
    async fn change(&self, user: UserId, current: &str, new: &Password) -> Result<IssuedToken, PasswordFlowError>;
}

pub struct PasswordService<R, H, M, C, K, S> {
    users: R,
    hasher: H,
    mailer: M,
    clock: C,
    keys: K,
    sessions: S,
    config: PasswordConfig,
}

impl<R, H, M, C, K, S> PasswordService<R, H, M, C, K, S> {
    pub fn new(users: R, hasher: H, mailer: M, clock: C, keys: K, sessions: S, config: PasswordConfig) -> Self {
        Self { users, hasher, mailer, clock, keys, sessions, config }
    }
}

impl<R: UserRepository, H: PasswordHasher, M: Mailer, C: Clock, K: KeyGenerator, S: Sessions>
    PasswordService<R, H, M, C, K, S>
{
    async fn set_with_key(&self, key: &str, purpose: KeyPurpose, password: &Password) -> Result<(), PasswordFlowError> {
        if key.trim().is_empty() {
            return Err(PasswordFlowError::InvalidKey);
        }
        let key_hash = hash_key(key.trim());
        // A made-up key is refused before bcrypt spends a quarter of a second on it.
        self.users.check_key(key_hash.clone(), purpose, self.clock.now()).await?;
        let password_hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        self.users
            .redeem_key(key_hash, purpose, now, KeyAction::SetPassword { password_hash, changed_at: now })
            .await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl<R, H, M, C, K, S> PasswordFlows for PasswordService<R, H, M, C, K, S>
where
    R: UserRepository,
    H: PasswordHasher,
    M: Mailer,
    C: Clock,
    K: KeyGenerator,
    S: Sessions,
{
    async fn register_password(&self, activation_key: &str, password: &Password) -> Result<(), PasswordFlowError> {
        self.set_with_key(activation_key, KeyPurpose::Activate, password).await
    }

    async fn forgot(&self, email: &Email) -> Result<bool, PasswordFlowError> {
        let Some(account) = self.users.credentials_by_email(email).await? else { return Ok(false) };
        if account.status != AccountStatus::Member {
            return Ok(false);
        }
        let key = self.keys.one_time_key();
        let new_key = NewKey {
            purpose: KeyPurpose::ResetPassword,
            key_hash: key.hash.clone(),
            expires_at: self.clock.now() + self.config.reset_ttl,
            new_email: None,
        };
        self.users.replace_key(account.id, new_key).await?;
        let mail = self.config.site.password_reset_mail(&account.email, &key.plain, self.config.reset_ttl);
        self.mailer.send(mail).await.map_err(PasswordFlowError::MailUnavailable)?;
        Ok(true)
    }

    async fn reset(&self, reset_key: &str, password: &Password) -> Result<(), PasswordFlowError> {
        self.set_with_key(reset_key, KeyPurpose::ResetPassword, password).await
    }

    async fn change(&self, user: UserId, current: &str, new: &Password) -> Result<IssuedToken, PasswordFlowError> {
        let account = self.users.credentials(user).await?;
        match check_password(&self.users, &self.hasher, &account, current, self.clock.now()).await? {
            PasswordCheck::Matches => {}
            PasswordCheck::Mismatch => return Err(PasswordFlowError::CurrentPasswordMismatch),
            PasswordCheck::Locked { until } => return Err(PasswordFlowError::Locked { until }),
        }
        let new_hash = self.hasher.hash(new.expose()).await?;
        self.users.set_password(user, new_hash, self.clock.now()).await?;
        Ok(self.sessions.reissue(user).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::credentials::MockPasswordHasher;
    use crate::accounts::repository::{Credentials, MockUserRepository};
    use crate::accounts::session::MockSessions;
    use crate::clock::MockClock;
    use crate::mailer::{MockMailer, OutgoingMail};
    use crate::secrets::{MockKeyGenerator, OneTimeKey};
    use chrono::{DateTime, TimeZone, Utc};
    use domain::auth::LoginAttempt;
    use std::sync::{Arc, Mutex};

    type Service =
        PasswordService<MockUserRepository, MockPasswordHasher, MockMailer, MockClock, MockKeyGenerator, MockSessions>;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
    }

    fn service(
        users: MockUserRepository,
        hasher: MockPasswordHasher,
        mailer: MockMailer,
        sessions: MockSessions,
    ) -> Service {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let config = PasswordConfig {
            site: SiteInfo {
                site_name: "ぐんまクラウドファンディング".into(),
                public_url: "https://cf.example.jp".into(),
                operator: Default::default(),
            },
            reset_ttl: Duration::hours(1),
        };
        PasswordService::new(users, hasher, mailer, clock, keys(), sessions, config)
    }

    const KEY: &str = "ResetKey0123456789abcdefghijklmnopqrstuvwxy";

    fn keys() -> MockKeyGenerator {
        let mut keys = MockKeyGenerator::new();
        keys.expect_one_time_key().returning(|| OneTimeKey::from_plain(KEY));
        keys
    }

    fn hashing() -> MockPasswordHasher {
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_hash().returning(|p| Ok(format!("hashed:{p}")));
        hasher
    }

    fn password() -> Password {
        Password::parse("new-password-1").unwrap()
    }

    /// A repository whose keys all work when checked.
    fn live_key() -> MockUserRepository {
        let mut users = MockUserRepository::new();
        users.expect_check_key().returning(|_, _, _| Ok(()));
        users
    }

    fn member() -> Credentials {
        Credentials {
            id: UserId(7),
            email: Email::parse("taro@example.jp").unwrap(),
            status: AccountStatus::Member,
            password_hash: Some("hashed:old-password".into()),
            failed_login_count: 0,
            banned_until: None,
            password_changed_at: now(),
            is_administrator: false,
        }
    }

    #[tokio::test]
    async fn an_activation_key_sets_the_hashed_password() {
        let mut users = live_key();
        users
            .expect_redeem_key()
            .withf(|hash, purpose, _, action| {
                *hash == hash_key("KEY")
                    && *purpose == KeyPurpose::Activate
                    && matches!(action, KeyAction::SetPassword { password_hash, .. } if password_hash == "hashed:new-password-1")
            })
            .times(1)
            .returning(|_, _, _, _| Ok(UserId(7)));

        service(users, hashing(), MockMailer::new(), MockSessions::new())
            .register_password("KEY", &password())
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn an_unknown_or_used_activation_key_is_invalid_before_any_hashing() {
        let mut users = MockUserRepository::new();
        users.expect_check_key().returning(|_, _, _| Err(RedeemError::Invalid));
        users.expect_redeem_key().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_hash().never();

        let result =
            service(users, hasher, MockMailer::new(), MockSessions::new()).register_password("KEY", &password()).await;

        assert!(matches!(result, Err(PasswordFlowError::InvalidKey)));
    }

    #[tokio::test]
    async fn a_key_used_by_a_parallel_request_meanwhile_is_invalid() {
        let mut users = live_key();
        users.expect_redeem_key().returning(|_, _, _, _| Err(RedeemError::Invalid));

        let result = service(users, hashing(), MockMailer::new(), MockSessions::new())
            .register_password("KEY", &password())
            .await;

        assert!(matches!(result, Err(PasswordFlowError::InvalidKey)));
    }

    #[tokio::test]
    async fn an_empty_key_is_invalid_without_touching_the_database() {
        let result =
            service(MockUserRepository::new(), MockPasswordHasher::new(), MockMailer::new(), MockSessions::new())
                .register_password("  ", &password())
                .await;

        assert!(matches!(result, Err(PasswordFlowError::InvalidKey)));
    }

    #[tokio::test]
    async fn an_expired_reset_key_is_reported_as_expired() {
        let mut users = MockUserRepository::new();
        users.expect_check_key().returning(|_, _, _| Err(RedeemError::Expired));

        let result = service(users, hashing(), MockMailer::new(), MockSessions::new()).reset("KEY", &password()).await;

        assert!(matches!(result, Err(PasswordFlowError::ExpiredKey)));
    }

    #[tokio::test]
    async fn forgot_mails_a_one_hour_reset_link_to_a_member() {
        let mut users = MockUserRepository::new();
        users.expect_credentials_by_email().returning(|_| Ok(Some(member())));
        users
            .expect_replace_key()
            .withf(|user, key| {
                *user == UserId(7)
                    && key.purpose == KeyPurpose::ResetPassword
                    && key.expires_at == now() + Duration::hours(1)
                    && key.key_hash == hash_key(KEY)
            })
            .times(1)
            .returning(|_, _| Ok(()));
        let sent = Arc::new(Mutex::new(Vec::<OutgoingMail>::new()));
        let sink = Arc::clone(&sent);
        let mut mailer = MockMailer::new();
        mailer.expect_send().returning(move |mail| {
            sink.lock().unwrap().push(mail);
            Ok(())
        });

        let updated = service(users, MockPasswordHasher::new(), mailer, MockSessions::new())
            .forgot(&Email::parse("taro@example.jp").unwrap())
            .await
            .unwrap();

        assert!(updated);
        let link = format!("https://cf.example.jp/reset-password/?secret={KEY}");
        assert!(sent.lock().unwrap()[0].text_body.contains(&link), "the generated key is mailed");
    }

    #[tokio::test]
    async fn forgot_for_an_unknown_address_sends_nothing() {
        let mut users = MockUserRepository::new();
        users.expect_credentials_by_email().returning(|_| Ok(None));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();

        let updated = service(users, MockPasswordHasher::new(), mailer, MockSessions::new())
            .forgot(&Email::parse("nobody@example.jp").unwrap())
            .await
            .unwrap();

        assert!(!updated);
    }

    #[tokio::test]
    async fn change_with_the_right_current_password_stores_the_new_one_and_reissues_the_token() {
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(|_| Ok(member()));
        users
            .expect_set_password()
            .withf(|user, hash, at| *user == UserId(7) && hash == "hashed:new-password-1" && *at == now())
            .times(1)
            .returning(|_, _, _| Ok(()));
        users.expect_record_password_check().returning(|_, _, _| Ok(LoginAttempt::Succeeded));
        let mut hasher = hashing();
        hasher.expect_verify().returning(|p, h| Ok(h == format!("hashed:{p}")));
        let mut sessions = MockSessions::new();
        sessions.expect_reissue().returning(|_| Ok(IssuedToken { token: "fresh".into(), expires_at: now() }));

        let token = service(users, hasher, MockMailer::new(), sessions)
            .change(UserId(7), "old-password", &password())
            .await
            .unwrap();

        assert_eq!(token.token, "fresh");
    }

    #[tokio::test]
    async fn change_with_a_wrong_current_password_counts_a_failure_and_changes_nothing() {
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(|_| Ok(member()));
        users
            .expect_record_password_check()
            .withf(|user, ok, _| *user == UserId(7) && !*ok)
            .times(1)
            .returning(|_, _, _| Ok(LoginAttempt::WrongPassword { attempts_left: 9 }));
        users.expect_set_password().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().returning(|_, _| Ok(false));

        let result =
            service(users, hasher, MockMailer::new(), MockSessions::new()).change(UserId(7), "nope", &password()).await;

        assert!(matches!(result, Err(PasswordFlowError::CurrentPasswordMismatch)));
    }

    #[tokio::test]
    async fn the_tenth_wrong_current_password_locks_the_account_like_login() {
        let until = chrono::NaiveDate::from_ymd_opt(2026, 11, 25).unwrap().and_hms_opt(21, 30, 0).unwrap();
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(|_| Ok(member()));
        users.expect_record_password_check().returning(move |_, _, _| Ok(LoginAttempt::Locked { until }));
        users.expect_set_password().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().returning(|_, _| Ok(false));

        let result =
            service(users, hasher, MockMailer::new(), MockSessions::new()).change(UserId(7), "nope", &password()).await;

        let err = result.unwrap_err();
        assert!(matches!(err, PasswordFlowError::Locked { .. }));
        assert!(err.to_string().starts_with("パスワードを10回間違えたため、2026年11月25日 21:30まで"));
    }

    #[tokio::test]
    async fn a_locked_account_cannot_change_its_password_even_with_the_right_one() {
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(|_| {
            Ok(Credentials { failed_login_count: 10, banned_until: Some(now() + Duration::minutes(10)), ..member() })
        });
        users.expect_record_password_check().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().never();

        let result = service(users, hasher, MockMailer::new(), MockSessions::new())
            .change(UserId(7), "old-password", &password())
            .await;

        assert!(matches!(result, Err(PasswordFlowError::Locked { .. })));
    }
}
