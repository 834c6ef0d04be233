//! Fixed-window rate limits for the auth endpoints. The counters live in
//! shared storage so the limits hold across several app-server processes.

use chrono::{DateTime, Duration, DurationRound, Utc};

use crate::RepoError;

/// At most `max` hits per `window` for one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateRule {
    pub name: &'static str,
    pub max: u32,
    pub window: Duration,
}

impl RateRule {
    pub const fn new(name: &'static str, max: u32, window_minutes: i64) -> Self {
        Self { name, max, window: Duration::minutes(window_minutes) }
    }

    /// The start of the window `now` falls in.
    pub fn window_start(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now.duration_trunc(self.window).unwrap_or(now)
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait RateLimiter: Send + Sync {
    /// Counts one hit of `key` in the window starting at `window_start` and
    /// returns the hits so far in that window, this one included. Not
    /// idempotent (each call is a hit); MUST count atomically so parallel
    /// hits, also from other processes, are never lost. An unknown key starts
    /// at 1.
    async fn hit(&self, key: &str, window_start: DateTime<Utc>) -> Result<u32, RepoError>;
}

/// Whether one more request under `rule` for `subject` is allowed at `now`.
pub async fn allow(
    limiter: &dyn RateLimiter,
    rule: RateRule,
    subject: &str,
    now: DateTime<Utc>,
) -> Result<bool, RepoError> {
    let key = format!("{}:{subject}", rule.name);
    Ok(limiter.hit(&key, rule.window_start(now)).await? <= rule.max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn windows_start_on_their_boundary() {
        let rule = RateRule::new("login", 5, 15);
        let now = Utc.with_ymd_and_hms(2026, 11, 25, 12, 29, 59).unwrap();
        assert_eq!(rule.window_start(now), Utc.with_ymd_and_hms(2026, 11, 25, 12, 15, 0).unwrap());
    }

    #[tokio::test]
    async fn the_hit_after_the_maximum_is_refused() {
        let mut limiter = MockRateLimiter::new();
        let mut count = 0;
        limiter.expect_hit().withf(|key, _| key == "forgot:a").returning(move |_, _| {
            count += 1;
            Ok(count)
        });
        let rule = RateRule::new("forgot", 2, 15);
        let now = Utc::now();

        assert!(allow(&limiter, rule, "a", now).await.unwrap());
        assert!(allow(&limiter, rule, "a", now).await.unwrap());
        assert!(!allow(&limiter, rule, "a", now).await.unwrap());
    }
}
