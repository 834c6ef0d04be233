//! A password checked against an account under the lockout rule. Login,
//! password change and e-mail change share it, so a wrong current password
//! counts like a wrong login password and a locked account is locked for all.

use chrono::{DateTime, NaiveDateTime, Utc};
use domain::auth::{LoginAttempt, LoginGuard};
use domain::time::tokyo_datetime;

use super::credentials::PasswordHasher;
use super::repository::{Credentials, UserRepository};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PasswordCheck {
    Matches,
    Mismatch,
    /// Locked until this Tokyo time; the password was not considered.
    Locked {
        until: NaiveDateTime,
    },
}

/// Checks `password` for `account`. A locked account is refused before
/// bcrypt runs; an account without a password spends the time of a real
/// check, so neither answer tells how the account stands by its timing.
pub(crate) async fn check_password<R: UserRepository, H: PasswordHasher>(
    users: &R,
    hasher: &H,
    account: &Credentials,
    password: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<PasswordCheck> {
    let guard =
        LoginGuard { failed_count: account.failed_login_count, banned_until: account.banned_until.map(tokyo_datetime) };
    if let Some(until) = guard.locked_until(tokyo_datetime(now)) {
        return Ok(PasswordCheck::Locked { until });
    }
    let Some(hash) = account.password_hash.as_deref() else {
        hasher.verify_dummy(password).await?;
        return Ok(PasswordCheck::Mismatch);
    };
    let password_ok = hasher.verify(password, hash).await?;
    Ok(match users.record_password_check(account.id, password_ok, now).await? {
        LoginAttempt::Succeeded => PasswordCheck::Matches,
        LoginAttempt::WrongPassword { .. } => PasswordCheck::Mismatch,
        LoginAttempt::Locked { until } => {
            tracing::warn!(user = account.id.0, "account locked after repeated wrong passwords");
            PasswordCheck::Locked { until }
        }
    })
}
