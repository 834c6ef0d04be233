//! A small in-process cache for the public reads (totals, sponsor walls,
//! project lists). Public totals may be a few seconds old (docs/decisions.md):
//! a fresh entry is served as is; a stale one is served to everyone while a
//! single caller refreshes it, so an expensive aggregate never stalls a
//! burst of requests (no stampede, no latency spike when an entry expires).

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::Mutex;

use chrono::{DateTime, Duration, Utc};

struct Slot<V> {
    value: V,
    fetched_at: DateTime<Utc>,
    /// Set while one caller refreshes the stale value.
    refresh_started: Option<DateTime<Utc>>,
}

pub struct TtlCache<K, V> {
    ttl: Duration,
    entries: Mutex<HashMap<K, Slot<V>>>,
}

/// A refresh that has not finished after this long (its caller went away)
/// lets another caller try.
const REFRESH_TIMEOUT_SECONDS: i64 = 10;

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    /// A zero `ttl` disables caching: every call fetches.
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, entries: Mutex::new(HashMap::new()) }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<K, Slot<V>>> {
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cached value of `key`, or the result of `fetch` (which is only
    /// awaited when needed). Errors are not cached.
    pub async fn get_or_fetch<E>(
        &self,
        key: K,
        now: DateTime<Utc>,
        fetch: impl Future<Output = Result<V, E>>,
    ) -> Result<V, E> {
        if self.ttl <= Duration::zero() {
            return fetch.await;
        }
        {
            let mut entries = self.entries();
            if let Some(slot) = entries.get_mut(&key) {
                if now - slot.fetched_at < self.ttl {
                    return Ok(slot.value.clone());
                }
                let someone_refreshing =
                    slot.refresh_started.is_some_and(|t| now - t < Duration::seconds(REFRESH_TIMEOUT_SECONDS));
                if someone_refreshing {
                    return Ok(slot.value.clone());
                }
                slot.refresh_started = Some(now);
            }
        }
        let result = fetch.await;
        let mut entries = self.entries();
        match result {
            Ok(value) => {
                entries.insert(key, Slot { value: value.clone(), fetched_at: now, refresh_started: None });
                Ok(value)
            }
            Err(error) => {
                if let Some(slot) = entries.get_mut(&key) {
                    slot.refresh_started = None;
                }
                Err(error)
            }
        }
    }

    /// Forgets `key` (after a write this process made).
    pub fn invalidate(&self, key: &K) {
        self.entries().remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn t(seconds: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 0, 0, 0).unwrap() + Duration::seconds(seconds)
    }

    async fn counted(calls: &AtomicU32, value: u32) -> Result<u32, ()> {
        calls.fetch_add(1, Ordering::SeqCst);
        Ok(value)
    }

    #[tokio::test]
    async fn a_fresh_value_is_served_without_fetching_again() {
        let cache = TtlCache::new(Duration::seconds(3));
        let calls = AtomicU32::new(0);
        assert_eq!(cache.get_or_fetch("k", t(0), counted(&calls, 1)).await, Ok(1));
        assert_eq!(cache.get_or_fetch("k", t(2), counted(&calls, 2)).await, Ok(1));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_stale_value_is_refreshed_by_the_next_caller() {
        let cache = TtlCache::new(Duration::seconds(3));
        let calls = AtomicU32::new(0);
        cache.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();
        assert_eq!(cache.get_or_fetch("k", t(3), counted(&calls, 2)).await, Ok(2));
        assert_eq!(cache.get_or_fetch("k", t(4), counted(&calls, 3)).await, Ok(2));
    }

    #[tokio::test]
    async fn while_one_caller_refreshes_the_others_get_the_stale_value() {
        let cache = TtlCache::new(Duration::seconds(3));
        cache.get_or_fetch("k", t(0), async { Ok::<_, ()>(1) }).await.unwrap();
        // Mark a refresh as started by taking the slot at t(5) with a fetch that never completes.
        let pending = cache.get_or_fetch("k", t(5), std::future::pending::<Result<u32, ()>>());
        tokio::select! { _ = pending => unreachable!(), _ = tokio::task::yield_now() => {} }
        assert_eq!(cache.get_or_fetch("k", t(6), async { Ok::<_, ()>(9) }).await, Ok(1));
        // A refresh abandoned for long enough lets another caller try.
        assert_eq!(cache.get_or_fetch("k", t(16), async { Ok::<_, ()>(9) }).await, Ok(9));
    }

    #[tokio::test]
    async fn errors_are_not_cached_and_a_zero_ttl_always_fetches() {
        let cache: TtlCache<&str, u32> = TtlCache::new(Duration::seconds(3));
        assert_eq!(cache.get_or_fetch("k", t(0), async { Err::<u32, _>("down") }).await, Err("down"));
        assert_eq!(cache.get_or_fetch("k", t(0), async { Ok::<_, &str>(4) }).await, Ok(4));

        let uncached = TtlCache::new(Duration::zero());
        let calls = AtomicU32::new(0);
        uncached.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();
        uncached.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn an_invalidated_key_is_fetched_again() {
        let cache = TtlCache::new(Duration::seconds(30));
        cache.get_or_fetch(1, t(0), async { Ok::<_, ()>("old") }).await.unwrap();
        cache.invalidate(&1);
        assert_eq!(cache.get_or_fetch(1, t(1), async { Ok::<_, ()>("new") }).await, Ok("new"));
    }
}
