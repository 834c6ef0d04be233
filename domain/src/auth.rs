//! Passwords, login failures and lockout, and one-time keys
//! (spec 000 §4, §5, §8, §9; spec 001 §5).
//!
//! The caller passes "now" already converted to Asia/Tokyo, so lock times
//! and key expiry read the same way they are shown.

use chrono::{Duration, NaiveDateTime};
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MSG_PASSWORD_REQUIRED: &str = "パスワードを入力してください";
pub const MSG_PASSWORD_TOO_SHORT: &str = "パスワードは8文字以上で設定してください";
pub const MSG_PASSWORD_TOO_LONG: &str = "パスワードは72バイト以内で設定してください（全角文字は1文字3バイトです）。";
pub const MSG_PASSWORD_CONFIRM_SETUP: &str = "パスワードと同一のパスワードを入力してください。";
pub const MSG_PASSWORD_CONFIRM_NEW: &str = "新しいパスワードと同一のパスワードを入力してください。";
pub const MSG_PASSWORD_MISMATCH: &str = "パスワードが間違っています";
pub const MSG_USER_NOT_FOUND: &str = "登録されていないメールアドレスです。";
pub const MSG_LOGIN_EXPIRED: &str = "ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。";
pub const MSG_ACTIVATION_KEY_INVALID: &str =
    "アクティベートキーが無効です。メールアドレス登録時のメールに記載されたURLから再度アクセスしてください。";

/// Minimum password length in characters.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// bcrypt reads only the first 72 bytes; longer passwords would be silently
/// truncated, so they are refused instead.
pub const PASSWORD_MAX_BYTES: usize = 72;
/// Consecutive wrong passwords that lock an account.
pub const MAX_FAILED_LOGINS: u32 = 10;
/// Decision: a lock lasts 30 minutes — long enough to stop guessing
/// (at most 10 tries per half hour), short enough that a forgetful member
/// is not stuck for a day. Operators can lift it earlier ([`LoginGuard::unlocked`]).
pub const LOCK_MINUTES: i64 = 30;

/// A password that satisfies the setup rules. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Which form a new password comes from: the confirmation message differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PasswordPurpose {
    /// First password after signup.
    Setup,
    /// Reset from the forgot-password mail.
    Reset,
    /// Change from the account screen.
    Change,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    #[error("{}", MSG_PASSWORD_REQUIRED)]
    Required,
    #[error("{}", MSG_PASSWORD_TOO_SHORT)]
    TooShort,
    #[error("{}", MSG_PASSWORD_TOO_LONG)]
    TooLong,
    #[error("{}", .0.confirmation_message())]
    ConfirmationMismatch(PasswordPurpose),
}

impl PasswordPurpose {
    /// The message when the confirmation differs from the new password.
    pub const fn confirmation_message(self) -> &'static str {
        match self {
            Self::Setup => MSG_PASSWORD_CONFIRM_SETUP,
            Self::Reset | Self::Change => MSG_PASSWORD_CONFIRM_NEW,
        }
    }
}

impl Password {
    /// Required, at least 8 characters, at most 72 UTF-8 bytes. Not trimmed:
    /// spaces are part of a password.
    pub fn parse(raw: &str) -> Result<Self, PasswordError> {
        if raw.is_empty() {
            return Err(PasswordError::Required);
        }
        if raw.chars().count() < PASSWORD_MIN_CHARS {
            return Err(PasswordError::TooShort);
        }
        if raw.len() > PASSWORD_MAX_BYTES {
            return Err(PasswordError::TooLong);
        }
        Ok(Self(raw.to_string()))
    }

    /// A new password and its confirmation, as the setup, reset and change forms send them.
    pub fn with_confirmation(raw: &str, confirmation: &str, purpose: PasswordPurpose) -> Result<Self, PasswordError> {
        let password = Self::parse(raw)?;
        if raw != confirmation {
            return Err(PasswordError::ConfirmationMismatch(purpose));
        }
        Ok(password)
    }

    /// The plain text, for hashing only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

/// The login form's and the change form's current password: only required,
/// because old accounts may predate today's rules.
pub fn require_current_password(raw: &str) -> Result<&str, PasswordError> {
    if raw.is_empty() {
        return Err(PasswordError::Required);
    }
    Ok(raw)
}

/// An account's login-failure state, as stored with the user.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginGuard {
    /// Consecutive wrong passwords since the last success or lock expiry.
    pub failed_count: u32,
    /// Set while locked (Asia/Tokyo); the lock ends at this time.
    pub banned_until: Option<NaiveDateTime>,
}

/// The result of one login attempt with a known e-mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum LoginAttempt {
    Succeeded,
    /// Wrong password; `attempts_left` more before the lock.
    WrongPassword {
        attempts_left: u32,
    },
    /// Locked until `until`; the password was not even considered.
    Locked {
        until: NaiveDateTime,
    },
}

impl LoginGuard {
    /// A guard with no failures and no lock (also how an operator lifts a lock).
    pub const fn unlocked() -> Self {
        Self { failed_count: 0, banned_until: None }
    }

    /// The lock's end, if the account is locked at `now`.
    pub fn locked_until(&self, now: NaiveDateTime) -> Option<NaiveDateTime> {
        self.banned_until.filter(|until| now < *until)
    }

    /// Applies one attempt. While locked, even the right password does not
    /// log in and the lock is not extended. An expired lock starts a fresh
    /// count. The tenth consecutive failure locks for [`LOCK_MINUTES`].
    pub fn attempt(self, password_ok: bool, now: NaiveDateTime) -> (LoginAttempt, LoginGuard) {
        if let Some(until) = self.locked_until(now) {
            return (LoginAttempt::Locked { until }, self);
        }
        let current = if self.banned_until.is_some() { Self::unlocked() } else { self };
        if password_ok {
            return (LoginAttempt::Succeeded, Self::unlocked());
        }
        let failed_count = current.failed_count.saturating_add(1);
        if failed_count >= MAX_FAILED_LOGINS {
            let until = now + Duration::minutes(LOCK_MINUTES);
            return (LoginAttempt::Locked { until }, Self { failed_count, banned_until: Some(until) });
        }
        let attempts_left = MAX_FAILED_LOGINS - failed_count;
        (LoginAttempt::WrongPassword { attempts_left }, Self { failed_count, banned_until: None })
    }
}

/// Why a login did not happen, with the message and detail code the
/// client shows and branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum LoginFailure {
    UserNotFound,
    PasswordMismatch,
    Locked { until: NaiveDateTime },
    Expired,
}

/// Displays the message shown to the user.
impl fmt::Display for LoginFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UserNotFound => f.write_str(MSG_USER_NOT_FOUND),
            Self::PasswordMismatch => f.write_str(MSG_PASSWORD_MISMATCH),
            Self::Locked { until } => f.write_str(&lockout_message(*until)),
            Self::Expired => f.write_str(MSG_LOGIN_EXPIRED),
        }
    }
}

impl std::error::Error for LoginFailure {}

impl LoginFailure {
    /// The `detail` code of the error response.
    pub const fn detail(self) -> &'static str {
        match self {
            Self::UserNotFound => "E_USER_NOT_FOUND",
            Self::PasswordMismatch => "E_PASSWORD_MISMATCH",
            Self::Locked { .. } => "E_LOGIN_LOCKED",
            Self::Expired => "E_LOGIN_EXPIRED",
        }
    }

    /// The failure for an attempt that did not succeed; `None` on success.
    pub const fn from_attempt(attempt: LoginAttempt) -> Option<Self> {
        match attempt {
            LoginAttempt::Succeeded => None,
            LoginAttempt::WrongPassword { .. } => Some(Self::PasswordMismatch),
            LoginAttempt::Locked { until } => Some(Self::Locked { until }),
        }
    }
}

/// 'パスワードを10回間違えたため、{time}までログインが制限されています。…'
pub fn lockout_message(until: NaiveDateTime) -> String {
    format!(
        "パスワードを{MAX_FAILED_LOGINS}回間違えたため、{}までログインが制限されています。制限を解除したい場合は運営まで連絡してください。",
        format_ja_datetime(until)
    )
}

/// A time as Japanese readers expect it: `2026年11月25日 21:30`.
pub fn format_ja_datetime(t: NaiveDateTime) -> String {
    t.format("%Y年%-m月%-d日 %H:%M").to_string()
}

/// A one-time key (activation, password reset, e-mail change) works once,
/// and only before it expires.
pub fn is_key_usable(expires_at: NaiveDateTime, used_at: Option<NaiveDateTime>, now: NaiveDateTime) -> bool {
    used_at.is_none() && now < expires_at
}

/// What a one-time key is for; each has its own lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyPurpose {
    Activation,
    PasswordReset,
    EmailChange,
}

impl KeyPurpose {
    /// Decision: activation and e-mail change keys live 24 hours (mail can
    /// be slow and people read it the next morning); a reset key lives 1 hour
    /// because it grants access to an existing account.
    pub fn lifetime(self) -> Duration {
        match self {
            Self::Activation | Self::EmailChange => Duration::hours(24),
            Self::PasswordReset => Duration::hours(1),
        }
    }

    pub fn expires_at(self, issued_at: NaiveDateTime) -> NaiveDateTime {
        issued_at + self.lifetime()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use proptest::prelude::*;

    fn at(h: u32, m: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 25).unwrap().and_hms_opt(h, m, 0).unwrap()
    }

    #[test]
    fn empty_password_is_required() {
        assert_eq!(Password::parse("").unwrap_err().to_string(), "パスワードを入力してください");
        assert_eq!(require_current_password("").unwrap_err().to_string(), "パスワードを入力してください");
    }

    #[test]
    fn seven_characters_are_too_short_and_eight_are_enough() {
        assert_eq!(Password::parse("abcdefg").unwrap_err().to_string(), "パスワードは8文字以上で設定してください");
        assert!(Password::parse("abcdefgh").is_ok());
        assert!(Password::parse("あいうえおかきく").is_ok());
    }

    #[test]
    fn sixty_four_character_japanese_password_is_refused_as_over_72_bytes() {
        let long: String = "あ".repeat(64);
        assert_eq!(long.len(), 192);
        let err = Password::parse(&long).unwrap_err();
        assert_eq!(err, PasswordError::TooLong);
        assert_eq!(err.to_string(), "パスワードは72バイト以内で設定してください（全角文字は1文字3バイトです）。");
    }

    #[test]
    fn exactly_72_bytes_is_accepted() {
        assert!(Password::parse(&"あ".repeat(24)).is_ok());
        assert!(Password::parse(&"a".repeat(72)).is_ok());
        assert_eq!(Password::parse(&"a".repeat(73)), Err(PasswordError::TooLong));
    }

    #[test]
    fn confirmation_mismatch_message_depends_on_the_form() {
        let setup = Password::with_confirmation("password1", "password2", PasswordPurpose::Setup).unwrap_err();
        assert_eq!(setup.to_string(), "パスワードと同一のパスワードを入力してください。");
        for purpose in [PasswordPurpose::Reset, PasswordPurpose::Change] {
            let err = Password::with_confirmation("password1", "password2", purpose).unwrap_err();
            assert_eq!(err.to_string(), "新しいパスワードと同一のパスワードを入力してください。");
        }
        assert!(Password::with_confirmation("password1", "password1", PasswordPurpose::Setup).is_ok());
    }

    #[test]
    fn password_debug_does_not_leak_it() {
        let p = Password::parse("secret-password").unwrap();
        assert_eq!(format!("{p:?}"), "Password(***)");
        assert_eq!(p.expose(), "secret-password");
    }

    #[test]
    fn tenth_wrong_password_locks_for_thirty_minutes() {
        let mut guard = LoginGuard::unlocked();
        for i in 1..MAX_FAILED_LOGINS {
            let (attempt, next) = guard.attempt(false, at(21, 0));
            assert_eq!(attempt, LoginAttempt::WrongPassword { attempts_left: MAX_FAILED_LOGINS - i });
            guard = next;
        }
        let (attempt, guard) = guard.attempt(false, at(21, 0));
        assert_eq!(attempt, LoginAttempt::Locked { until: at(21, 30) });
        assert_eq!(guard.banned_until, Some(at(21, 30)));
    }

    #[test]
    fn correct_password_during_the_lock_does_not_log_in() {
        let locked = LoginGuard { failed_count: 10, banned_until: Some(at(21, 30)) };
        let (attempt, after) = locked.attempt(true, at(21, 29));
        assert_eq!(attempt, LoginAttempt::Locked { until: at(21, 30) });
        assert_eq!(after, locked);
    }

    #[test]
    fn correct_password_after_the_lock_logs_in_and_clears_the_count() {
        let locked = LoginGuard { failed_count: 10, banned_until: Some(at(21, 30)) };
        assert_eq!(locked.attempt(true, at(21, 30)), (LoginAttempt::Succeeded, LoginGuard::unlocked()));
    }

    #[test]
    fn wrong_password_after_an_expired_lock_starts_a_fresh_count() {
        let locked = LoginGuard { failed_count: 10, banned_until: Some(at(21, 30)) };
        let (attempt, after) = locked.attempt(false, at(22, 0));
        assert_eq!(attempt, LoginAttempt::WrongPassword { attempts_left: 9 });
        assert_eq!(after, LoginGuard { failed_count: 1, banned_until: None });
    }

    #[test]
    fn success_resets_the_failure_count() {
        let guard = LoginGuard { failed_count: 9, banned_until: None };
        assert_eq!(guard.attempt(true, at(9, 0)).1, LoginGuard::unlocked());
    }

    #[test]
    fn lockout_message_shows_the_time_in_japanese() {
        let failure = LoginFailure::Locked { until: at(21, 30) };
        assert_eq!(
            failure.to_string(),
            "パスワードを10回間違えたため、2026年11月25日 21:30までログインが制限されています。制限を解除したい場合は運営まで連絡してください。"
        );
    }

    #[test]
    fn japanese_time_pads_minutes_but_not_month_or_day() {
        let t = NaiveDate::from_ymd_opt(2026, 1, 5).unwrap().and_hms_opt(9, 5, 0).unwrap();
        assert_eq!(format_ja_datetime(t), "2026年1月5日 09:05");
    }

    #[test]
    fn login_failures_carry_the_spec_messages_and_details() {
        assert_eq!(LoginFailure::PasswordMismatch.to_string(), "パスワードが間違っています");
        assert_eq!(LoginFailure::PasswordMismatch.detail(), "E_PASSWORD_MISMATCH");
        assert_eq!(LoginFailure::UserNotFound.to_string(), "登録されていないメールアドレスです。");
        assert_eq!(LoginFailure::UserNotFound.detail(), "E_USER_NOT_FOUND");
        assert_eq!(
            LoginFailure::Expired.to_string(),
            "ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。"
        );
        assert_eq!(
            LoginFailure::from_attempt(LoginAttempt::WrongPassword { attempts_left: 3 }),
            Some(LoginFailure::PasswordMismatch)
        );
    }

    #[test]
    fn activation_key_message_matches_the_spec() {
        assert_eq!(
            MSG_ACTIVATION_KEY_INVALID,
            "アクティベートキーが無効です。メールアドレス登録時のメールに記載されたURLから再度アクセスしてください。"
        );
    }

    #[test]
    fn key_works_once_and_only_before_it_expires() {
        assert!(is_key_usable(at(12, 0), None, at(11, 59)));
        assert!(!is_key_usable(at(12, 0), None, at(12, 0)));
        assert!(!is_key_usable(at(12, 0), Some(at(11, 0)), at(11, 30)));
    }

    #[test]
    fn reset_keys_expire_sooner_than_activation_keys() {
        assert_eq!(KeyPurpose::PasswordReset.expires_at(at(10, 0)), at(11, 0));
        assert_eq!(KeyPurpose::Activation.lifetime(), Duration::hours(24));
    }

    fn any_time() -> impl Strategy<Value = NaiveDateTime> {
        (0i64..10_000_000).prop_map(|m| at(0, 0) + Duration::minutes(m))
    }

    proptest! {
        #[test]
        fn accepted_passwords_fit_bcrypt_and_the_minimum(raw in "\\PC{0,80}") {
            if let Ok(p) = Password::parse(&raw) {
                prop_assert!(p.expose().len() <= PASSWORD_MAX_BYTES);
                prop_assert!(p.expose().chars().count() >= PASSWORD_MIN_CHARS);
            }
        }

        #[test]
        fn a_locked_account_never_logs_in(count in 0u32..20, lock_in in 1i64..100, now in any_time(), ok in any::<bool>()) {
            let guard = LoginGuard { failed_count: count, banned_until: Some(now + Duration::minutes(lock_in)) };
            let (attempt, after) = guard.attempt(ok, now);
            prop_assert_eq!(attempt, LoginAttempt::Locked { until: now + Duration::minutes(lock_in) });
            prop_assert_eq!(after, guard);
        }

        #[test]
        fn failures_below_ten_never_lock(failures in 0u32..MAX_FAILED_LOGINS, now in any_time()) {
            let mut guard = LoginGuard::unlocked();
            for _ in 0..failures {
                guard = guard.attempt(false, now).1;
            }
            prop_assert_eq!(guard.locked_until(now), None);
            prop_assert_eq!(guard.failed_count, failures);
        }

        #[test]
        fn a_lock_lasts_exactly_thirty_minutes(now in any_time()) {
            let guard = LoginGuard { failed_count: MAX_FAILED_LOGINS - 1, banned_until: None };
            let (_, locked) = guard.attempt(false, now);
            prop_assert!(locked.locked_until(now + Duration::minutes(LOCK_MINUTES) - Duration::seconds(1)).is_some());
            prop_assert!(locked.locked_until(now + Duration::minutes(LOCK_MINUTES)).is_none());
        }
    }
}
