//! Changing the login address (`/v1/user/set/updateEmail`, then the mailed
//! link, `/v1/user/set/updateLoginEmail`). A stolen session token alone must
//! not be enough to take an account over, so the change asks for the current
//! password (counted like a login), the old address hears of the request and
//! of the change, and the change ends every other session.

use chrono::{Duration, NaiveDateTime};
use domain::account::Email;
use domain::auth::LoginFailure;

use super::credentials::{IssuedToken, PasswordHasher};
use super::guard::{check_password, PasswordCheck};
use super::mails::SiteInfo;
use super::repository::{KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
use super::session::Sessions;
use crate::clock::Clock;
use crate::mailer::{MailError, Mailer};
use crate::secrets::{hash_key, KeyGenerator};
use crate::RepoError;

/// The seed's answer flags to a change request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmailChangeRequest {
    /// Another account holds the address.
    pub duplicate: bool,
    pub not_found: bool,
    /// The confirmation link was mailed to the new address.
    pub sended: bool,
}

/// The change is done: the account's address and the caller's new token
/// (every token issued before has stopped working).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailChanged {
    pub email: Email,
    pub token: IssuedToken,
}

#[derive(Debug, thiserror::Error)]
pub enum EmailChangeError {
    #[error("current password mismatch")]
    CurrentPasswordMismatch,
    /// Too many wrong passwords: locked like login until this Tokyo time.
    #[error("{}", LoginFailure::Locked { until: *.until })]
    Locked { until: NaiveDateTime },
    #[error("invalid key")]
    InvalidKey,
    #[error("the mail could not be sent")]
    MailUnavailable(#[source] MailError),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for EmailChangeError {
    fn from(error: RepoError) -> Self {
        Self::Unexpected(error.into())
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait EmailChanges: Send + Sync {
    /// Checks `current_password`, then mails a confirmation link to
    /// `new_email` and a notice to the current address. `not_found` when the
    /// account is gone; a repeat mails a new link and the earlier one stops
    /// working. A wrong password counts towards the lockout.
    async fn request(
        &self,
        user: UserId,
        new_email: &Email,
        current_password: &str,
    ) -> Result<EmailChangeRequest, EmailChangeError>;
    /// Completes the change from the mailed key (only for the key's own
    /// account), tells the old address, and returns a fresh token. The key
    /// works once: a repeat is `InvalidKey`.
    async fn confirm(&self, user: UserId, key: &str) -> Result<EmailChanged, EmailChangeError>;
}

pub struct EmailChangeService<U, H, M, C, K, S> {
    users: U,
    hasher: H,
    mailer: M,
    clock: C,
    keys: K,
    sessions: S,
    config: EmailChangeConfig,
}

#[derive(Debug, Clone)]
pub struct EmailChangeConfig {
    pub site: SiteInfo,
    /// How long the confirmation link works.
    pub key_ttl: Duration,
}

impl<U, H, M, C, K, S> EmailChangeService<U, H, M, C, K, S> {
    pub fn new(users: U, hasher: H, mailer: M, clock: C, keys: K, sessions: S, config: EmailChangeConfig) -> Self {
        Self { users, hasher, mailer, clock, keys, sessions, config }
    }
}

impl<U: UserRepository, H: PasswordHasher, M: Mailer, C: Clock, K: KeyGenerator, S: Sessions>
    EmailChangeService<U, H, M, C, K, S>
{
    async fn send(&self, mail: crate::mailer::OutgoingMail) -> Result<(), EmailChangeError> {
        self.mailer.send(mail).await.map_err(EmailChangeError::MailUnavailable)
    }
}

#[async_trait::async_trait]
impl<U, H, M, C, K, S> EmailChanges for EmailChangeService<U, H, M, C, K, S>
where
    U: UserRepository,
    H: PasswordHasher,
    M: Mailer,
    C: Clock,
    K: KeyGenerator,
    S: Sessions,
{
    async fn request(
        &self,
        user: UserId,
        new_email: &Email,
        current_password: &str,
    ) -> Result<EmailChangeRequest, EmailChangeError> {
        let account = match self.users.credentials(user).await {
            Ok(account) => account,
            Err(RepoError::NotFound) => {
                return Ok(EmailChangeRequest { duplicate: false, not_found: true, sended: false })
            }
            Err(other) => return Err(other.into()),
        };
        // The password comes first, so a stolen token cannot even ask which addresses are taken.
        match check_password(&self.users, &self.hasher, &account, current_password, self.clock.now()).await? {
            PasswordCheck::Matches => {}
            PasswordCheck::Mismatch => return Err(EmailChangeError::CurrentPasswordMismatch),
            PasswordCheck::Locked { until } => return Err(EmailChangeError::Locked { until }),
        }
        if let Some((holder, _)) = self.users.find_by_email(new_email).await? {
            return Ok(EmailChangeRequest { duplicate: holder != user, not_found: false, sended: false });
        }
        let key = self.keys.one_time_key();
        let new_key = NewKey {
            purpose: KeyPurpose::ChangeEmail,
            key_hash: key.hash.clone(),
            expires_at: self.clock.now() + self.config.key_ttl,
            new_email: Some(new_email.clone()),
        };
        match self.users.replace_key(user, new_key).await {
            Ok(()) => {}
            Err(RepoError::NotFound) => {
                return Ok(EmailChangeRequest { duplicate: false, not_found: true, sended: false })
            }
            Err(other) => return Err(other.into()),
        }
        self.send(self.config.site.email_change_mail(new_email, &key.plain, self.config.key_ttl)).await?;
        self.send(self.config.site.email_change_requested_notice(&account.email, new_email)).await?;
        Ok(EmailChangeRequest { duplicate: false, not_found: false, sended: true })
    }

    async fn confirm(&self, user: UserId, key: &str) -> Result<EmailChanged, EmailChangeError> {
        if key.trim().is_empty() {
            return Err(EmailChangeError::InvalidKey);
        }
        let old_email = self.users.credentials(user).await?.email;
        let now = self.clock.now();
        let action = KeyAction::ChangeEmail { owner: user, changed_at: now };
        match self.users.redeem_key(hash_key(key.trim()), KeyPurpose::ChangeEmail, now, action).await {
            Ok(_) => {}
            Err(RedeemError::Repo(e)) => return Err(e.into()),
            Err(RedeemError::Invalid | RedeemError::Expired | RedeemError::AddressTaken) => {
                return Err(EmailChangeError::InvalidKey)
            }
        }
        let email = self.users.credentials(user).await?.email;
        self.send(self.config.site.email_changed_notice(&old_email, &email)).await?;
        let token = self.sessions.reissue(user).await?;
        Ok(EmailChanged { email, token })
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
    use domain::account::AccountStatus;
    use domain::auth::LoginAttempt;
    use std::sync::{Arc, Mutex};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
    }

    fn email(raw: &str) -> Email {
        Email::parse(raw).unwrap()
    }

    const KEY: &str = "ChangeKey0123456789abcdefghijklmnopqrstuvwx";

    fn member() -> Credentials {
        Credentials {
            id: UserId(7),
            email: email("taro@example.jp"),
            status: AccountStatus::Member,
            password_hash: Some("hash".into()),
            failed_login_count: 0,
            banned_until: None,
            password_changed_at: now(),
            is_administrator: false,
        }
    }

    type Service = EmailChangeService<
        MockUserRepository,
        MockPasswordHasher,
        MockMailer,
        MockClock,
        MockKeyGenerator,
        MockSessions,
    >;
    type Sent = Arc<Mutex<Vec<OutgoingMail>>>;

    struct Mocks {
        users: MockUserRepository,
        hasher: MockPasswordHasher,
        mailer: MockMailer,
        keys: MockKeyGenerator,
        sessions: MockSessions,
        sent: Sent,
    }

    impl Mocks {
        /// A member whose current password is `right-password`; mails are collected.
        fn new() -> Self {
            let mut users = MockUserRepository::new();
            users.expect_credentials().returning(|_| Ok(member()));
            users.expect_record_password_check().returning(|_, ok, _| {
                Ok(if ok { LoginAttempt::Succeeded } else { LoginAttempt::WrongPassword { attempts_left: 9 } })
            });
            let mut hasher = MockPasswordHasher::new();
            hasher.expect_verify().returning(|password, _| Ok(password == "right-password"));
            let sent = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&sent);
            let mut mailer = MockMailer::new();
            mailer.expect_send().returning(move |mail| {
                sink.lock().unwrap().push(mail);
                Ok(())
            });
            let mut keys = MockKeyGenerator::new();
            keys.expect_one_time_key().returning(|| OneTimeKey::from_plain(KEY));
            Self { users, hasher, mailer, keys, sessions: MockSessions::new(), sent }
        }

        fn service(self) -> (Service, Sent) {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now());
            let site = SiteInfo {
                site_name: "ぐんまクラウドファンディング".into(),
                public_url: "https://cf.example.jp".into(),
                operator: Default::default(),
            };
            let service = EmailChangeService::new(
                self.users,
                self.hasher,
                self.mailer,
                clock,
                self.keys,
                self.sessions,
                EmailChangeConfig { site, key_ttl: Duration::hours(24) },
            );
            (service, self.sent)
        }
    }

    #[tokio::test]
    async fn a_wrong_current_password_is_counted_and_nothing_is_mailed() {
        let mut mocks = Mocks::new();
        mocks.users.expect_find_by_email().never();
        mocks.users.expect_replace_key().never();
        let (service, sent) = mocks.service();

        let result = service.request(UserId(7), &email("new@example.jp"), "guess").await;

        assert!(matches!(result, Err(EmailChangeError::CurrentPasswordMismatch)));
        assert!(sent.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn an_address_held_by_another_account_is_a_duplicate_and_nothing_is_sent() {
        let mut mocks = Mocks::new();
        mocks.users.expect_find_by_email().returning(|_| Ok(Some((UserId(9), AccountStatus::Member))));
        let (service, sent) = mocks.service();

        let outcome = service.request(UserId(7), &email("taken@example.jp"), "right-password").await.unwrap();

        assert_eq!(outcome, EmailChangeRequest { duplicate: true, not_found: false, sended: false });
        assert!(sent.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_request_mails_the_link_to_the_new_address_and_a_masked_notice_to_the_old_one() {
        let mut mocks = Mocks::new();
        mocks.users.expect_find_by_email().returning(|_| Ok(None));
        mocks
            .users
            .expect_replace_key()
            .withf(|user, key| {
                *user == UserId(7)
                    && key.purpose == KeyPurpose::ChangeEmail
                    && key.new_email.as_ref().map(Email::as_str) == Some("newaddress@example.jp")
                    && key.key_hash == hash_key(KEY)
            })
            .returning(|_, _| Ok(()));
        let (service, sent) = mocks.service();

        let outcome = service.request(UserId(7), &email("newaddress@example.jp"), "right-password").await.unwrap();

        assert!(outcome.sended);
        let sent = sent.lock().unwrap();
        assert_eq!(sent[0].to.as_str(), "newaddress@example.jp");
        assert!(
            sent[0].text_body.contains(&format!("/edit/email/updated?activate={KEY}")),
            "the generated key is mailed"
        );
        assert_eq!(sent[1].to.as_str(), "taro@example.jp");
        assert!(sent[1].text_body.contains("ne***@ex***.jp"));
        assert!(!sent[1].text_body.contains("newaddress@example.jp"));
        assert!(!sent[1].text_body.contains("activate="));
    }

    #[tokio::test]
    async fn confirming_moves_the_address_ends_other_sessions_and_tells_the_old_address() {
        let mut mocks = Mocks::new();
        mocks
            .users
            .expect_redeem_key()
            .withf(|_, purpose, _, action| {
                *purpose == KeyPurpose::ChangeEmail
                    && *action == KeyAction::ChangeEmail { owner: UserId(7), changed_at: now() }
            })
            .times(1)
            .returning(|_, _, _, _| Ok(UserId(7)));
        mocks.sessions.expect_reissue().returning(|_| Ok(IssuedToken { token: "fresh".into(), expires_at: now() }));
        let (service, sent) = mocks.service();

        let changed = service.confirm(UserId(7), "KEY").await.unwrap();

        assert_eq!(changed.token.token, "fresh");
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].to.as_str(), "taro@example.jp");
    }

    #[tokio::test]
    async fn a_key_of_another_account_or_a_used_key_is_invalid() {
        let mut mocks = Mocks::new();
        mocks.users.expect_redeem_key().returning(|_, _, _, _| Err(RedeemError::Invalid));
        mocks.sessions.expect_reissue().never();
        let (service, sent) = mocks.service();

        assert!(matches!(service.confirm(UserId(7), "KEY").await, Err(EmailChangeError::InvalidKey)));
        assert!(sent.lock().unwrap().is_empty());
    }
}
