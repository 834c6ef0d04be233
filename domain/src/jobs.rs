//! Rules of background work: when a failed try runs again.

use chrono::Duration;

/// The first retry waits this long; each further one twice as long.
pub const FIRST_RETRY_SECONDS: i64 = 30;
/// No retry waits longer than an hour.
pub const MAX_RETRY_SECONDS: i64 = 3600;

/// How long to wait after the `attempts`-th failed try (1-based) before the
/// next one: 30 s, 1 min, 2 min, ... up to an hour.
pub fn retry_delay(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(20);
    let seconds = FIRST_RETRY_SECONDS.saturating_mul(1_i64 << doublings);
    Duration::seconds(seconds.min(MAX_RETRY_SECONDS))
}

/// Whether a job that just failed its `attempts`-th try may run again.
pub const fn may_retry(attempts: u32, max_attempts: u32) -> bool {
    attempts < max_attempts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn retries_wait_thirty_seconds_then_double() {
        assert_eq!(retry_delay(1), Duration::seconds(30));
        assert_eq!(retry_delay(2), Duration::seconds(60));
        assert_eq!(retry_delay(4), Duration::seconds(240));
    }

    #[test]
    fn no_retry_waits_more_than_an_hour() {
        assert_eq!(retry_delay(8), Duration::seconds(3600));
        assert_eq!(retry_delay(u32::MAX), Duration::seconds(3600));
    }

    #[test]
    fn the_last_allowed_try_is_not_retried() {
        assert!(may_retry(4, 5));
        assert!(!may_retry(5, 5));
        assert!(!may_retry(6, 5));
    }

    proptest! {
        #[test]
        fn delays_never_shrink_as_tries_grow(attempts in 0u32..100) {
            prop_assert!(retry_delay(attempts + 1) >= retry_delay(attempts));
            prop_assert!(retry_delay(attempts) >= Duration::seconds(FIRST_RETRY_SECONDS));
        }
    }
}
