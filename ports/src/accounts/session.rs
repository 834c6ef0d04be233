//! Login (`POST /v1/user/login`) with the lockout rule, and the check of a
//! session token on every authenticated request.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use domain::account::{AccountStatus, Email};
use domain::auth::LoginFailure;
use domain::time::from_tokyo;

use super::credentials::{password_version, IssuedToken, PasswordHasher, SessionClaims, TokenIssuer};
use super::guard::{check_password, PasswordCheck};
use super::repository::{Credentials, UserId, UserRepository};
use crate::clock::Clock;
use crate::RepoError;

/// The caller of an authenticated request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionUser {
    pub id: UserId,
    pub email: Email,
    pub is_admin: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Unknown address, wrong password or locked: the client shows the message.
    #[error("{failure}")]
    Refused { failure: LoginFailure, banned_until: Option<DateTime<Utc>> },
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Missing, forged or expired token, or one issued before a password change.
    #[error("not authenticated")]
    Unauthenticated,
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for LoginError {
    fn from(error: RepoError) -> Self {
        Self::Unexpected(error.into())
    }
}

/// The session use cases as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Sessions: Send + Sync {
    /// A token for the member holding `email` when `password` matches. Not
    /// idempotent: every call on an account is one attempt of its lockout; an
    /// unknown address answers like a wrong password, in the same time.
    async fn login(&self, email: &Email, password: &str) -> Result<IssuedToken, LoginError>;
    /// Who `token` belongs to. Refuses a malformed, forged or expired token and
    /// one issued before the account's last password change. Read-only.
    async fn authenticate(&self, token: &str) -> Result<SessionUser, AuthError>;
    /// A fresh token for `user` (after a password change); an error when the
    /// account is gone.
    async fn reissue(&self, user: UserId) -> anyhow::Result<IssuedToken>;
}

/// Shared sessions (one service serves both the HTTP layer and other use cases).
#[async_trait::async_trait]
impl<S: Sessions + ?Sized> Sessions for std::sync::Arc<S> {
    async fn login(&self, email: &Email, password: &str) -> Result<IssuedToken, LoginError> {
        (**self).login(email, password).await
    }
    async fn authenticate(&self, token: &str) -> Result<SessionUser, AuthError> {
        (**self).authenticate(token).await
    }
    async fn reissue(&self, user: UserId) -> anyhow::Result<IssuedToken> {
        (**self).reissue(user).await
    }
}

pub struct SessionService<R, H, T, C> {
    users: R,
    hasher: H,
    tokens: T,
    clock: C,
    /// Configured administrator addresses, lower-cased.
    admin_emails: HashSet<String>,
}

impl<R: UserRepository, H: PasswordHasher, T: TokenIssuer, C: Clock> SessionService<R, H, T, C> {
    pub fn new(users: R, hasher: H, tokens: T, clock: C, admin_emails: &[String]) -> Self {
        let admin_emails = admin_emails.iter().map(|e| e.trim().to_lowercase()).filter(|e| !e.is_empty()).collect();
        Self { users, hasher, tokens, clock, admin_emails }
    }

    fn issue_for(&self, account: &Credentials) -> anyhow::Result<IssuedToken> {
        let claims =
            SessionClaims { user: account.id, password_version: password_version(account.password_changed_at) };
        self.tokens.issue(claims, self.clock.now())
    }
}

fn refused(failure: LoginFailure) -> LoginError {
    let banned_until = match failure {
        LoginFailure::Locked { until } => Some(from_tokyo(until)),
        _ => None,
    };
    LoginError::Refused { failure, banned_until }
}

#[async_trait::async_trait]
impl<R: UserRepository, H: PasswordHasher, T: TokenIssuer, C: Clock> Sessions for SessionService<R, H, T, C> {
    /// Accounts without a password (guests, provisional sign-ups) cannot log
    /// in and get the same answer as an unknown address, after the same time.
    async fn login(&self, email: &Email, password: &str) -> Result<IssuedToken, LoginError> {
        let account = match self.users.credentials_by_email(email).await? {
            Some(account) if account.status == AccountStatus::Member && account.password_hash.is_some() => account,
            _ => {
                self.hasher.verify_dummy(password).await?;
                return Err(refused(LoginFailure::UserNotFound));
            }
        };
        match check_password(&self.users, &self.hasher, &account, password, self.clock.now()).await? {
            PasswordCheck::Matches => Ok(self.issue_for(&account)?),
            PasswordCheck::Mismatch => Err(refused(LoginFailure::PasswordMismatch)),
            PasswordCheck::Locked { until } => Err(refused(LoginFailure::Locked { until })),
        }
    }

    async fn authenticate(&self, token: &str) -> Result<SessionUser, AuthError> {
        let claims = self.tokens.verify(token, self.clock.now()).ok_or(AuthError::Unauthenticated)?;
        let account = match self.users.credentials(claims.user).await {
            Ok(account) => account,
            Err(RepoError::NotFound) => return Err(AuthError::Unauthenticated),
            Err(other) => return Err(AuthError::Unexpected(other.into())),
        };
        if account.status != AccountStatus::Member
            || password_version(account.password_changed_at) != claims.password_version
        {
            return Err(AuthError::Unauthenticated);
        }
        let is_admin = account.is_administrator || self.admin_emails.contains(&account.email.normalized());
        Ok(SessionUser { id: account.id, email: account.email, is_admin })
    }

    async fn reissue(&self, user: UserId) -> anyhow::Result<IssuedToken> {
        let account = self.users.credentials(user).await?;
        self.issue_for(&account)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::credentials::{MockPasswordHasher, MockTokenIssuer};
    use crate::accounts::repository::MockUserRepository;
    use crate::clock::MockClock;
    use chrono::{Duration, TimeZone};
    use domain::auth::LoginAttempt;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        clock
    }

    fn member(failed: u32, banned_until: Option<DateTime<Utc>>) -> Credentials {
        Credentials {
            id: UserId(7),
            email: Email::parse("taro@example.jp").unwrap(),
            status: AccountStatus::Member,
            password_hash: Some("$2b$hash".into()),
            failed_login_count: failed,
            banned_until,
            password_changed_at: Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap(),
            is_administrator: false,
        }
    }

    fn hasher(matches: bool) -> MockPasswordHasher {
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().returning(move |_, _| Ok(matches));
        hasher
    }

    fn tokens() -> MockTokenIssuer {
        let mut tokens = MockTokenIssuer::new();
        tokens.expect_issue().returning(|claims, now| {
            Ok(IssuedToken { token: format!("t-{}-{}", claims.user.0, claims.password_version), expires_at: now })
        });
        tokens
    }

    fn service(
        users: MockUserRepository,
        hasher: MockPasswordHasher,
    ) -> SessionService<MockUserRepository, MockPasswordHasher, MockTokenIssuer, MockClock> {
        SessionService::new(users, hasher, tokens(), clock(), &["Admin@Example.jp".to_string()])
    }

    fn email() -> Email {
        Email::parse("taro@example.jp").unwrap()
    }

    fn recording(password_ok: bool, outcome: LoginAttempt) -> MockUserRepository {
        let mut users = MockUserRepository::new();
        users
            .expect_record_password_check()
            .withf(move |user, ok, at| *user == UserId(7) && *ok == password_ok && *at == now())
            .times(1)
            .returning(move |_, _, _| Ok(outcome));
        users
    }

    fn tokyo(hour: u32, minute: u32) -> chrono::NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2026, 11, 25).unwrap().and_hms_opt(hour, minute, 0).unwrap()
    }

    #[tokio::test]
    async fn the_right_password_logs_in_and_is_recorded_as_a_success() {
        let mut users = recording(true, LoginAttempt::Succeeded);
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(3, None))));

        let token = service(users, hasher(true)).login(&email(), "correct horse").await.unwrap();

        assert!(token.token.starts_with("t-7-"));
    }

    #[tokio::test]
    async fn an_unknown_address_is_user_not_found_after_a_dummy_hash_check() {
        let mut users = MockUserRepository::new();
        users.expect_credentials_by_email().returning(|_| Ok(None));
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().never();
        hasher.expect_verify_dummy().times(1).returning(|_| Ok(()));

        let err = service(users, hasher).login(&email(), "whatever1").await.unwrap_err();

        assert!(matches!(err, LoginError::Refused { failure: LoginFailure::UserNotFound, .. }));
        assert_eq!(err.to_string(), "登録されていないメールアドレスです。");
    }

    #[tokio::test]
    async fn a_guest_without_password_cannot_log_in_and_takes_as_long_as_a_member() {
        let mut users = MockUserRepository::new();
        users.expect_credentials_by_email().returning(|_| {
            Ok(Some(Credentials { status: AccountStatus::Guest, password_hash: None, ..member(0, None) }))
        });
        users.expect_record_password_check().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify_dummy().times(1).returning(|_| Ok(()));

        let err = service(users, hasher).login(&email(), "whatever1").await.unwrap_err();

        assert!(matches!(err, LoginError::Refused { failure: LoginFailure::UserNotFound, .. }));
    }

    #[tokio::test]
    async fn a_wrong_password_is_recorded_and_refused() {
        let mut users = recording(false, LoginAttempt::WrongPassword { attempts_left: 7 });
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(2, None))));

        let err = service(users, hasher(false)).login(&email(), "wrong-pass").await.unwrap_err();

        assert_eq!(err.to_string(), "パスワードが間違っています");
    }

    #[tokio::test]
    async fn the_attempt_that_locks_answers_with_the_time_in_japanese() {
        let mut users = recording(false, LoginAttempt::Locked { until: tokyo(21, 30) });
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(9, None))));

        let err = service(users, hasher(false)).login(&email(), "wrong-pass").await.unwrap_err();

        let LoginError::Refused { banned_until, .. } = &err else { panic!("{err:?}") };
        // 21:30 in Tokyo is 12:30 UTC.
        assert_eq!(*banned_until, Some(now() + Duration::minutes(30)));
        assert_eq!(
            err.to_string(),
            "パスワードを10回間違えたため、2026年11月25日 21:30までログインが制限されています。制限を解除したい場合は運営まで連絡してください。"
        );
    }

    #[tokio::test]
    async fn the_right_password_during_the_lock_does_not_log_in() {
        let mut users = MockUserRepository::new();
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(10, Some(now() + Duration::minutes(5))))));
        users.expect_record_password_check().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_verify().never();

        let err = service(users, hasher).login(&email(), "correct horse").await.unwrap_err();

        assert!(matches!(err, LoginError::Refused { failure: LoginFailure::Locked { .. }, .. }));
    }

    #[tokio::test]
    async fn a_lock_set_by_a_parallel_attempt_refuses_even_the_right_password() {
        let mut users = recording(true, LoginAttempt::Locked { until: tokyo(21, 30) });
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(9, None))));

        let err = service(users, hasher(true)).login(&email(), "correct horse").await.unwrap_err();

        assert!(matches!(err, LoginError::Refused { failure: LoginFailure::Locked { .. }, .. }));
    }

    #[tokio::test]
    async fn after_the_lock_expires_the_right_password_logs_in() {
        let mut users = recording(true, LoginAttempt::Succeeded);
        users.expect_credentials_by_email().returning(|_| Ok(Some(member(10, Some(now() - Duration::minutes(1))))));

        assert!(service(users, hasher(true)).login(&email(), "correct horse").await.is_ok());
    }

    fn verifying(claims: Option<SessionClaims>) -> MockTokenIssuer {
        let mut tokens = MockTokenIssuer::new();
        tokens.expect_verify().returning(move |_, _| claims);
        tokens
    }

    #[tokio::test]
    async fn a_valid_token_authenticates_its_member() {
        let account = member(0, None);
        let claims = SessionClaims { user: UserId(7), password_version: password_version(account.password_changed_at) };
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(move |_| Ok(member(0, None)));
        let service = SessionService::new(users, MockPasswordHasher::new(), verifying(Some(claims)), clock(), &[]);

        let user = service.authenticate("token").await.unwrap();

        assert_eq!(user.id, UserId(7));
        assert!(!user.is_admin);
    }

    #[tokio::test]
    async fn a_token_from_before_a_password_change_is_refused() {
        let claims = SessionClaims { user: UserId(7), password_version: 1 };
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(move |_| Ok(member(0, None)));
        let service = SessionService::new(users, MockPasswordHasher::new(), verifying(Some(claims)), clock(), &[]);

        assert!(matches!(service.authenticate("token").await, Err(AuthError::Unauthenticated)));
    }

    #[tokio::test]
    async fn a_forged_or_expired_token_is_refused() {
        let service =
            SessionService::new(MockUserRepository::new(), MockPasswordHasher::new(), verifying(None), clock(), &[]);

        assert!(matches!(service.authenticate("junk").await, Err(AuthError::Unauthenticated)));
    }

    #[tokio::test]
    async fn a_grant_in_the_database_makes_an_administrator() {
        let granted = Credentials { is_administrator: true, ..member(0, None) };
        let claims = SessionClaims { user: UserId(7), password_version: password_version(granted.password_changed_at) };
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(move |_| Ok(granted.clone()));
        let service = SessionService::new(users, MockPasswordHasher::new(), verifying(Some(claims)), clock(), &[]);

        assert!(service.authenticate("token").await.unwrap().is_admin);
    }

    #[tokio::test]
    async fn configured_administrator_addresses_match_in_any_case() {
        let admin = Credentials { email: Email::parse("admin@example.JP").unwrap(), ..member(0, None) };
        let claims = SessionClaims { user: UserId(7), password_version: password_version(admin.password_changed_at) };
        let mut users = MockUserRepository::new();
        users.expect_credentials().returning(move |_| Ok(admin.clone()));
        let service = SessionService::new(
            users,
            MockPasswordHasher::new(),
            verifying(Some(claims)),
            clock(),
            &["Admin@Example.jp".into()],
        );

        assert!(service.authenticate("token").await.unwrap().is_admin);
    }
}
