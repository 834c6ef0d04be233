//! Provisional registration by e-mail (`POST /v1/user/register`) and the
//! guest's move to full registration (`POST /v1/user/reRegister`).

use chrono::Duration;
use domain::account::{
    reregister_outcome, resend_outcome, signup_outcome, Email, ReRegisterError, ResendOutcome, SignupOutcome,
};

use super::mails::SiteInfo;
use super::repository::{KeyPurpose, NewKey, UserId, UserRepository};
use crate::clock::Clock;
use crate::mailer::{MailError, Mailer, OutgoingMail};
use crate::secrets::KeyGenerator;
use crate::RepoError;

#[derive(Debug, Clone)]
pub struct SignupConfig {
    pub site: SiteInfo,
    /// How long an activation link works.
    pub activation_ttl: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum SignupError {
    #[error(transparent)]
    NotAGuest(#[from] ReRegisterError),
    #[error("the activation mail could not be sent")]
    MailUnavailable(#[source] MailError),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for SignupError {
    fn from(error: RepoError) -> Self {
        Self::Unexpected(anyhow::Error::new(error))
    }
}

/// The signup use cases as the HTTP layer sees them (object-safe, so the
/// handlers do not need to know the concrete adapters).
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Signup: Send + Sync {
    /// The flag for `email`: a new or provisional address gets an activation
    /// mail (a repeat mails a new key and the earlier one stops working);
    /// guests and members only get their flag.
    async fn register(&self, email: &Email) -> Result<SignupOutcome, SignupError>;
    /// A guest's move to membership: the same activation mail; `NotAGuest`
    /// for any other address (unknown ones included).
    async fn reregister(&self, email: &Email) -> Result<SignupOutcome, SignupError>;
    /// An administrator's resend: a provisional account or a guest gets a
    /// new activation mail (the earlier link stops working); a member and an
    /// unknown address get no mail, and no account is made.
    async fn resend_activation(&self, email: &Email) -> Result<ResendOutcome, SignupError>;
}

#[async_trait::async_trait]
impl<R: UserRepository, M: Mailer, C: Clock, K: KeyGenerator> Signup for SignupService<R, M, C, K> {
    async fn register(&self, email: &Email) -> Result<SignupOutcome, SignupError> {
        SignupService::register(self, email).await
    }

    async fn reregister(&self, email: &Email) -> Result<SignupOutcome, SignupError> {
        SignupService::reregister(self, email).await
    }

    async fn resend_activation(&self, email: &Email) -> Result<ResendOutcome, SignupError> {
        SignupService::resend_activation(self, email).await
    }
}

pub struct SignupService<R, M, C, K> {
    users: R,
    mailer: M,
    clock: C,
    keys: K,
    config: SignupConfig,
}

impl<R: UserRepository, M: Mailer, C: Clock, K: KeyGenerator> SignupService<R, M, C, K> {
    pub fn new(users: R, mailer: M, clock: C, keys: K, config: SignupConfig) -> Self {
        Self { users, mailer, clock, keys, config }
    }

    /// New addresses (and provisional ones that lost their mail) get an
    /// activation mail; guests and members only get their flag back.
    pub async fn register(&self, email: &Email) -> Result<SignupOutcome, SignupError> {
        let existing = self.users.find_by_email(email).await?;
        let outcome = signup_outcome(existing.map(|(_, status)| status));
        if outcome == SignupOutcome::ConfirmationSent {
            self.send_activation(email, existing.map(|(id, _)| id)).await?;
        }
        Ok(outcome)
    }

    /// A guest asks to become a member: same activation mail as a new signup.
    pub async fn reregister(&self, email: &Email) -> Result<SignupOutcome, SignupError> {
        let existing = self.users.find_by_email(email).await?;
        let outcome = reregister_outcome(existing.map(|(_, status)| status))?;
        if outcome == SignupOutcome::ConfirmationSent {
            self.send_activation(email, existing.map(|(id, _)| id)).await?;
        }
        Ok(outcome)
    }

    /// An administrator's resend (see [`Signup::resend_activation`]).
    pub async fn resend_activation(&self, email: &Email) -> Result<ResendOutcome, SignupError> {
        let existing = self.users.find_by_email(email).await?;
        let outcome = resend_outcome(existing.map(|(_, status)| status));
        if let (ResendOutcome::Sent(_), Some((user, _))) = (outcome, existing) {
            self.send_activation(email, Some(user)).await?;
        }
        Ok(outcome)
    }

    async fn send_activation(&self, email: &Email, existing: Option<UserId>) -> Result<(), SignupError> {
        let key = self.keys.one_time_key();
        let new_key = NewKey {
            purpose: KeyPurpose::Activate,
            key_hash: key.hash.clone(),
            expires_at: self.clock.now() + self.config.activation_ttl,
            new_email: None,
        };
        match existing {
            Some(user) => self.users.replace_key(user, new_key).await?,
            None => match self.users.create_provisional(email, new_key.clone()).await {
                Ok(_) => {}
                // A parallel signup for the same address won the race: reuse its account.
                Err(RepoError::Conflict(_)) => {
                    let Some((user, _)) = self.users.find_by_email(email).await? else {
                        return Err(anyhow::anyhow!("account vanished after a signup conflict").into());
                    };
                    self.users.replace_key(user, new_key).await?;
                }
                Err(other) => return Err(other.into()),
            },
        }
        self.mailer.send(self.activation_mail(email, &key.plain)).await.map_err(SignupError::MailUnavailable)
    }

    fn activation_mail(&self, to: &Email, key: &str) -> OutgoingMail {
        self.config.site.activation_mail(to, key, self.config.activation_ttl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::repository::MockUserRepository;
    use crate::clock::MockClock;
    use crate::mailer::MockMailer;
    use crate::secrets::{hash_key, MockKeyGenerator, OneTimeKey};
    use chrono::{TimeZone, Utc};
    use domain::account::AccountStatus;
    use std::sync::{Arc, Mutex};

    fn config() -> SignupConfig {
        SignupConfig {
            site: SiteInfo {
                site_name: "ぐんまクラウドファンディング".into(),
                public_url: "https://cf.example.jp".into(),
                operator: Default::default(),
            },
            activation_ttl: Duration::hours(24),
        }
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap());
        clock
    }

    fn email() -> Email {
        Email::parse("taro@example.jp").unwrap()
    }

    const KEY: &str = "ActivationKey0123456789abcdefghijklmnopqrst";

    fn keys() -> MockKeyGenerator {
        let mut keys = MockKeyGenerator::new();
        keys.expect_one_time_key().returning(|| OneTimeKey::from_plain(KEY));
        keys
    }

    /// The key inside the mailed link.
    fn key_in(mail: &OutgoingMail) -> String {
        let start = mail.text_body.find("?activate=").unwrap() + "?activate=".len();
        mail.text_body[start..].split_whitespace().next().unwrap().to_string()
    }

    fn recording_mailer() -> (MockMailer, Arc<Mutex<Vec<OutgoingMail>>>) {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&sent);
        let mut mailer = MockMailer::new();
        mailer.expect_send().returning(move |mail| {
            sink.lock().unwrap().push(mail);
            Ok(())
        });
        (mailer, sent)
    }

    #[tokio::test]
    async fn a_new_address_gets_an_account_and_an_activation_mail_whose_key_is_stored_hashed() {
        let stored = Arc::new(Mutex::new(None));
        let stored_in_repo = Arc::clone(&stored);
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(None));
        users.expect_create_provisional().times(1).returning(move |_, key| {
            *stored_in_repo.lock().unwrap() = Some(key);
            Ok(UserId(7))
        });
        let (mailer, sent) = recording_mailer();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 100);
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].to, email());
        assert!(sent[0].subject.contains("ぐんまクラウドファンディング"));
        assert!(sent[0].text_body.contains("https://cf.example.jp/signup/password/?activate="));
        let key = stored.lock().unwrap().clone().unwrap();
        assert_eq!(key.purpose, KeyPurpose::Activate);
        assert_eq!(key_in(&sent[0]), KEY, "the mailed key is the generated one");
        assert_eq!(key.key_hash, hash_key(KEY));
        assert_eq!(key.expires_at, Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap());
    }

    #[tokio::test]
    async fn a_guest_gets_flag_200_and_no_mail() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(Some((UserId(3), AccountStatus::Guest))));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 200);
    }

    #[tokio::test]
    async fn a_member_gets_flag_1_and_no_mail() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(Some((UserId(3), AccountStatus::Member))));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 1);
    }

    #[tokio::test]
    async fn a_provisional_account_gets_a_fresh_key_and_mail() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(Some((UserId(5), AccountStatus::Provisional))));
        users.expect_create_provisional().never();
        users
            .expect_replace_key()
            .withf(|user, key| *user == UserId(5) && key.purpose == KeyPurpose::Activate)
            .times(1)
            .returning(|_, _| Ok(()));
        let (mailer, sent) = recording_mailer();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 100);
        assert_eq!(sent.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_parallel_signup_that_won_the_race_is_reused() {
        let mut users = MockUserRepository::new();
        let mut seq = mockall::Sequence::new();
        users.expect_find_by_email().times(1).in_sequence(&mut seq).returning(|_| Ok(None));
        users
            .expect_create_provisional()
            .times(1)
            .in_sequence(&mut seq)
            .returning(|_, _| Err(RepoError::Conflict("users_email_lower_key".into())));
        users
            .expect_find_by_email()
            .times(1)
            .in_sequence(&mut seq)
            .returning(|_| Ok(Some((UserId(9), AccountStatus::Provisional))));
        users.expect_replace_key().times(1).in_sequence(&mut seq).returning(|_, _| Ok(()));
        let (mailer, sent) = recording_mailer();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 100);
        assert_eq!(sent.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_mail_failure_is_reported_as_mail_unavailable() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(None));
        users.expect_create_provisional().returning(|_, _| Ok(UserId(1)));
        let mut mailer = MockMailer::new();
        mailer.expect_send().returning(|_| Err(MailError::Delivery("connection refused".into())));

        let result = SignupService::new(users, mailer, clock(), keys(), config()).register(&email()).await;

        assert!(matches!(result, Err(SignupError::MailUnavailable(_))));
    }

    #[tokio::test]
    async fn reregistering_a_guest_sends_the_activation_mail() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(Some((UserId(4), AccountStatus::Guest))));
        users.expect_replace_key().withf(|user, _| *user == UserId(4)).times(1).returning(|_, _| Ok(()));
        let (mailer, sent) = recording_mailer();

        let outcome = SignupService::new(users, mailer, clock(), keys(), config()).reregister(&email()).await.unwrap();

        assert_eq!(outcome.flag(), 100);
        assert!(sent.lock().unwrap()[0].text_body.contains("/signup/password/?activate="));
    }

    #[tokio::test]
    async fn a_resend_to_a_provisional_account_or_a_guest_replaces_its_key_and_mails_the_new_one() {
        for status in [AccountStatus::Provisional, AccountStatus::Guest] {
            let mut users = MockUserRepository::new();
            users.expect_find_by_email().returning(move |_| Ok(Some((UserId(6), status))));
            users.expect_create_provisional().never();
            users
                .expect_replace_key()
                .withf(|user, key| {
                    *user == UserId(6) && key.purpose == KeyPurpose::Activate && key.key_hash == hash_key(KEY)
                })
                .times(1)
                .returning(|_, _| Ok(()));
            let (mailer, sent) = recording_mailer();

            let outcome =
                SignupService::new(users, mailer, clock(), keys(), config()).resend_activation(&email()).await.unwrap();

            assert_eq!(outcome, ResendOutcome::Sent(status));
            let sent = sent.lock().unwrap();
            assert_eq!(sent.len(), 1);
            assert_eq!(key_in(&sent[0]), KEY);
        }
    }

    #[tokio::test]
    async fn a_resend_to_a_member_or_an_unknown_address_sends_nothing_and_makes_no_account() {
        for (existing, expected) in [
            (Some((UserId(2), AccountStatus::Member)), ResendOutcome::AlreadyMember),
            (None, ResendOutcome::NotRegistered),
        ] {
            let mut users = MockUserRepository::new();
            users.expect_find_by_email().returning(move |_| Ok(existing));
            users.expect_create_provisional().never();
            users.expect_replace_key().never();
            let mut mailer = MockMailer::new();
            mailer.expect_send().never();

            let outcome =
                SignupService::new(users, mailer, clock(), keys(), config()).resend_activation(&email()).await.unwrap();

            assert_eq!(outcome, expected);
        }
    }

    #[tokio::test]
    async fn reregistering_an_unknown_address_is_refused() {
        let mut users = MockUserRepository::new();
        users.expect_find_by_email().returning(|_| Ok(None));
        let mut mailer = MockMailer::new();
        mailer.expect_send().never();

        let result = SignupService::new(users, mailer, clock(), keys(), config()).reregister(&email()).await;

        assert!(matches!(result, Err(SignupError::NotAGuest(_))));
    }
}
