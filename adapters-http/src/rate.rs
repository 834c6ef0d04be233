//! Rate limits of the auth endpoints, keyed by client address and, where a
//! request names an account, by that account too.

use actix_web::{web, HttpRequest};
use ports::rate_limit::{allow, RateLimiter, RateRule};
use ports::secrets::hash_key;

use crate::ApiError;

pub(crate) const LOGIN_PER_IP: RateRule = RateRule::new("login:ip", 30, 5);
pub(crate) const SIGNUP_PER_IP: RateRule = RateRule::new("signup:ip", 30, 10);
pub(crate) const SIGNUP_PER_EMAIL: RateRule = RateRule::new("signup:email", 5, 10);
pub(crate) const FORGOT_PER_IP: RateRule = RateRule::new("forgot:ip", 20, 15);
pub(crate) const FORGOT_PER_EMAIL: RateRule = RateRule::new("forgot:email", 3, 15);
pub(crate) const RESET_PER_IP: RateRule = RateRule::new("reset:ip", 30, 15);
pub(crate) const REGIST_PASSWORD_PER_IP: RateRule = RateRule::new("regist_password:ip", 30, 15);
pub(crate) const EMAIL_CHANGE_PER_USER: RateRule = RateRule::new("email_change:user", 5, 60);
pub(crate) const EMAIL_CHANGE_PER_IP: RateRule = RateRule::new("email_change:ip", 20, 60);
/// An administrator's resends of registration mail per hour (a slip of a script, not a person, reaches it).
pub(crate) const RESEND_PER_ADMIN: RateRule = RateRule::new("resend_register:admin", 60, 60);
/// Resends to one address per 10 minutes: a person waiting for the mail does not need more, and an inbox is
/// not flooded by repeated clicks.
pub(crate) const RESEND_PER_EMAIL: RateRule = RateRule::new("resend_register:email", 3, 10);
/// Supports placed per client address per 10 minutes: a card-testing script meets this long before the
/// provider's own limits.
pub(crate) const SUPPORT_PER_IP: RateRule = RateRule::new("support:ip", 30, 10);
/// Card set-ups started per client address per 10 minutes: each makes an object at the provider, and a
/// supporter needs one per card typed.
pub(crate) const CARD_SETUP_PER_IP: RateRule = RateRule::new("card_setup:ip", 30, 10);
/// Image uploads per user per hour (each decodes an image: CPU and memory);
/// the count comes from [`UserRateSettings`].
pub(crate) const UPLOAD_PER_USER_WINDOW_MINUTES: i64 = 60;

/// The limits in force: the production maxima above, each multiplied by `scale`. Only load and fuzz runs, which
/// send thousands of requests from one address, raise it (`RATE_LIMIT_SCALE`); production keeps 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    scale: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self { scale: 1 }
    }
}

impl RateLimits {
    pub const ENV_VAR: &'static str = "RATE_LIMIT_SCALE";

    /// Every maximum multiplied by `scale` (at least 1).
    pub fn scaled(scale: u32) -> Self {
        Self { scale: scale.max(1) }
    }

    /// From `RATE_LIMIT_SCALE` (a whole number, 1 when unset or empty).
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(Self::ENV_VAR) {
            Ok(raw) if !raw.trim().is_empty() => raw
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|scale| *scale >= 1)
                .map(Self::scaled)
                .ok_or_else(|| format!("{}: {raw:?} is not a whole number of at least 1", Self::ENV_VAR)),
            _ => Ok(Self::default()),
        }
    }

    fn apply(self, rule: RateRule) -> RateRule {
        RateRule { max: rule.max.saturating_mul(self.scale), ..rule }
    }
}

/// Whether to take the client address from `X-Forwarded-For` (only behind a
/// trusted load balancer; otherwise anyone could pick their own address).
#[derive(Debug, Clone, Copy, Default)]
pub struct ProxySettings {
    pub trust_forwarded_for: bool,
}

pub(crate) fn client_ip(req: &HttpRequest) -> String {
    let trust = req.app_data::<web::Data<ProxySettings>>().is_some_and(|s| s.trust_forwarded_for);
    let info = req.connection_info();
    let address = if trust { info.realip_remote_addr() } else { info.peer_addr() };
    address.unwrap_or("unknown").to_string()
}

/// Counts one request per `(rule, subject)` and refuses with 429 past the limit.
/// E-mail subjects are hashed so the table holds no addresses.
pub(crate) async fn enforce(req: &HttpRequest, checks: &[(RateRule, Subject<'_>)]) -> Result<(), ApiError> {
    let Some(limiter) = req.app_data::<web::Data<dyn RateLimiter>>() else { return Ok(()) };
    let limits = req.app_data::<web::Data<RateLimits>>().map(|l| *l.get_ref()).unwrap_or_default();
    let now = chrono::Utc::now();
    for (rule, subject) in checks {
        let rule = limits.apply(*rule);
        let subject = match subject {
            Subject::Ip => client_ip(req),
            Subject::Email(email) => hash_key(&email.to_lowercase()),
            Subject::User(id) => format!("user:{id}"),
        };
        match allow(limiter.get_ref(), rule, &subject, now).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(rule = rule.name, "rate limit reached");
                return Err(ApiError::TooManyRequests);
            }
            Err(e) => return Err(ApiError::internal(&e)),
        }
    }
    Ok(())
}

pub(crate) enum Subject<'a> {
    Ip,
    Email(&'a str),
    /// A logged-in user's id.
    User(i64),
}

/// Per-user limits a deployment (or a test) tunes, registered as app data;
/// absent means the defaults.
#[derive(Debug, Clone, Copy)]
pub struct UserRateSettings {
    pub uploads_per_hour: u32,
}

impl Default for UserRateSettings {
    fn default() -> Self {
        Self { uploads_per_hour: 20 }
    }
}

impl UserRateSettings {
    pub(crate) fn of(req: &HttpRequest) -> Self {
        req.app_data::<web::Data<Self>>().map(|s| *s.get_ref()).unwrap_or_default()
    }

    pub(crate) fn upload_rule(self) -> RateRule {
        RateRule::new("upload:user", self.uploads_per_hour, UPLOAD_PER_USER_WINDOW_MINUTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_limits_are_the_defaults_and_a_scale_multiplies_every_maximum() {
        assert_eq!(RateLimits::default().apply(LOGIN_PER_IP), LOGIN_PER_IP);
        let scaled = RateLimits::scaled(100).apply(FORGOT_PER_EMAIL);
        assert_eq!((scaled.name, scaled.max, scaled.window), ("forgot:email", 300, FORGOT_PER_EMAIL.window));
        assert_eq!(RateLimits::scaled(0), RateLimits::default());
    }
}
