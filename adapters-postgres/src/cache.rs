//! A small in-process cache for the public reads (totals, sponsor walls,
//! project lists), used by `CachedCatalogRepository`. Public totals may be a few seconds old (docs/decisions.md):
//! a fresh entry is served as is; a stale one is served at once to everyone
//! while a single background task refreshes it, so no request ever waits for
//! an expensive aggregate once it has been computed (no stampede and no
//! latency spike when an entry expires). Only a missing entry is fetched
//! in line.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, Duration, Utc};

struct Slot<V> {
    value: V,
    fetched_at: DateTime<Utc>,
    /// Set while one refresh of the stale value runs.
    refresh_started: Option<DateTime<Utc>>,
}

struct Entries<K, V> {
    slots: HashMap<K, Slot<V>>,
    /// Bumped by every invalidation: a fetch that started before one must not
    /// store what it read.
    generation: u64,
}

pub struct TtlCache<K, V> {
    ttl: Duration,
    /// A value at least this old is never served, not even while a refresh
    /// runs: the caller fetches in line. `None`: any stale value is served.
    max_age: Option<Duration>,
    entries: Arc<Mutex<Entries<K, V>>>,
}

/// A refresh that has not finished after this long (it failed silently or
/// hangs) lets another caller start one.
const REFRESH_TIMEOUT_SECONDS: i64 = 10;

fn lock<K, V>(entries: &Mutex<Entries<K, V>>) -> MutexGuard<'_, Entries<K, V>> {
    entries.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stores a fetched value unless the key was invalidated since the fetch began.
fn store<K: Eq + Hash, V>(
    entries: &Mutex<Entries<K, V>>,
    key: K,
    value: V,
    fetched_at: DateTime<Utc>,
    generation: u64,
) {
    let mut entries = lock(entries);
    if entries.generation == generation {
        entries.slots.insert(key, Slot { value, fetched_at, refresh_started: None });
    }
}

fn refresh_failed<K: Eq + Hash, V>(entries: &Mutex<Entries<K, V>>, key: &K) {
    if let Some(slot) = lock(entries).slots.get_mut(key) {
        slot.refresh_started = None;
    }
}

impl<K, V> TtlCache<K, V>
where
    K: Eq + Hash + Clone + Send + 'static,
    V: Clone + Send + 'static,
{
    /// A zero `ttl` disables caching: every call fetches.
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, max_age: None, entries: Arc::new(Mutex::new(Entries { slots: HashMap::new(), generation: 0 })) }
    }

    /// Like `new`, but nothing older than `max_age` is ever served: a value
    /// is fresh for `ttl`, then served while one refresh runs until it is
    /// `max_age` old, then fetched in line. What readers see is therefore at
    /// most `max_age` behind storage, however rarely the key is read.
    pub fn bounded(ttl: Duration, max_age: Duration) -> Self {
        Self { max_age: Some(max_age), ..Self::new(ttl.min(max_age)) }
    }

    /// The cached value of `key`, or the result of `fetch`. `fetch` is awaited
    /// here only when there is no value yet; a stale value is returned at once
    /// and `fetch` runs on the Tokio runtime to replace it (in line when there
    /// is no runtime). Errors are not cached.
    pub async fn get_or_fetch<E>(
        &self,
        key: K,
        now: DateTime<Utc>,
        fetch: impl Future<Output = Result<V, E>> + Send + 'static,
    ) -> Result<V, E>
    where
        E: Send + 'static,
    {
        if self.ttl <= Duration::zero() {
            return fetch.await;
        }
        let generation = {
            let mut entries = lock(&self.entries);
            let generation = entries.generation;
            let max_age = self.max_age;
            let slot = entries.slots.get_mut(&key).filter(|slot| max_age.is_none_or(|m| now - slot.fetched_at < m));
            if let Some(slot) = slot {
                if now - slot.fetched_at < self.ttl {
                    return Ok(slot.value.clone());
                }
                let someone_refreshing =
                    slot.refresh_started.is_some_and(|t| now - t < Duration::seconds(REFRESH_TIMEOUT_SECONDS));
                let stale = slot.value.clone();
                if someone_refreshing {
                    return Ok(stale);
                }
                if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                    slot.refresh_started = Some(now);
                    let entries = Arc::clone(&self.entries);
                    runtime.spawn(async move {
                        match fetch.await {
                            Ok(value) => store(&entries, key, value, now, generation),
                            Err(_) => refresh_failed(&entries, &key),
                        }
                    });
                    return Ok(stale);
                }
            }
            generation
        };
        let value = fetch.await?;
        store(&self.entries, key, value.clone(), now, generation);
        Ok(value)
    }

    /// Forgets every entry (after a write this process made); a fetch
    /// already running will not bring an old value back.
    pub fn invalidate_all(&self) {
        let mut entries = lock(&self.entries);
        entries.generation += 1;
        entries.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use std::sync::atomic::{AtomicU32, Ordering};
    use tokio::sync::oneshot;

    fn t(seconds: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 0, 0, 0).unwrap() + Duration::seconds(seconds)
    }

    fn counted(calls: &Arc<AtomicU32>, value: u32) -> impl Future<Output = Result<u32, ()>> + Send + 'static {
        let calls = Arc::clone(calls);
        async move {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(value)
        }
    }

    /// Lets spawned refreshes run to completion (they never wait on anything here).
    async fn let_refreshes_finish() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_fresh_value_is_served_without_fetching_again() {
        let cache = TtlCache::new(Duration::seconds(3));
        let calls = Arc::new(AtomicU32::new(0));
        assert_eq!(cache.get_or_fetch("k", t(0), counted(&calls, 1)).await, Ok(1));
        assert_eq!(cache.get_or_fetch("k", t(2), counted(&calls, 2)).await, Ok(1));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_stale_value_is_served_at_once_and_replaced_in_the_background() {
        let cache = TtlCache::new(Duration::seconds(3));
        let calls = Arc::new(AtomicU32::new(0));
        cache.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();

        assert_eq!(cache.get_or_fetch("k", t(3), counted(&calls, 2)).await, Ok(1), "nobody waits for the refresh");
        let_refreshes_finish().await;

        assert_eq!(cache.get_or_fetch("k", t(4), counted(&calls, 3)).await, Ok(2));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn while_one_refresh_runs_everyone_gets_the_stale_value_and_no_second_refresh_starts() {
        let cache = TtlCache::new(Duration::seconds(3));
        cache.get_or_fetch("k", t(0), async { Ok::<_, ()>(1) }).await.unwrap();
        let (release, released) = oneshot::channel::<u32>();
        let calls = Arc::new(AtomicU32::new(0));

        let slow = async move { Ok::<_, ()>(released.await.unwrap_or(0)) };
        assert_eq!(cache.get_or_fetch("k", t(5), slow).await, Ok(1));
        assert_eq!(cache.get_or_fetch("k", t(6), counted(&calls, 9)).await, Ok(1));
        assert_eq!(calls.load(Ordering::SeqCst), 0);

        release.send(7).unwrap();
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch("k", t(7), counted(&calls, 9)).await, Ok(7));
        // A refresh that never finishes lets another caller try after a while.
        let (_never, pending) = oneshot::channel::<u32>();
        cache.get_or_fetch("k", t(10), async move { Ok::<_, ()>(pending.await.unwrap_or(0)) }).await.unwrap();
        cache.get_or_fetch("k", t(21), counted(&calls, 8)).await.unwrap();
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch("k", t(22), counted(&calls, 0)).await, Ok(8));
    }

    #[tokio::test]
    async fn a_bounded_cache_never_serves_a_value_older_than_its_maximum_age() {
        let cache = TtlCache::bounded(Duration::milliseconds(500), Duration::seconds(1));
        let calls = Arc::new(AtomicU32::new(0));
        let ms = |n: i64| t(0) + Duration::milliseconds(n);
        cache.get_or_fetch("k", ms(0), counted(&calls, 1)).await.unwrap();
        assert_eq!(cache.get_or_fetch("k", ms(400), counted(&calls, 2)).await, Ok(1), "fresh");
        assert_eq!(calls.load(Ordering::SeqCst), 1);

        assert_eq!(cache.get_or_fetch("k", ms(600), counted(&calls, 2)).await, Ok(1), "stale, refreshed behind");
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch("k", ms(700), counted(&calls, 3)).await, Ok(2));

        // Nobody asked for a while: the old value is not served, the caller waits for a new one.
        assert_eq!(cache.get_or_fetch("k", ms(1_600), counted(&calls, 4)).await, Ok(4));
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn errors_are_not_cached_a_failed_refresh_is_retried_and_a_zero_ttl_always_fetches() {
        let cache: TtlCache<&str, u32> = TtlCache::new(Duration::seconds(3));
        assert_eq!(cache.get_or_fetch("k", t(0), async { Err::<u32, _>("down") }).await, Err("down"));
        assert_eq!(cache.get_or_fetch("k", t(0), async { Ok::<_, &str>(4) }).await, Ok(4));

        assert_eq!(cache.get_or_fetch("k", t(3), async { Err::<u32, _>("down") }).await, Ok(4));
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch("k", t(4), async { Ok::<_, &str>(5) }).await, Ok(4), "the next caller retries");
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch("k", t(5), async { Ok::<_, &str>(6) }).await, Ok(5));

        let uncached = TtlCache::new(Duration::zero());
        let calls = Arc::new(AtomicU32::new(0));
        uncached.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();
        uncached.get_or_fetch("k", t(0), counted(&calls, 1)).await.unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn an_invalidated_cache_fetches_again_and_an_older_refresh_cannot_bring_the_old_value_back() {
        let cache = TtlCache::new(Duration::seconds(30));
        cache.get_or_fetch(1, t(0), async { Ok::<_, ()>("old") }).await.unwrap();
        cache.invalidate_all();
        assert_eq!(cache.get_or_fetch(1, t(1), async { Ok::<_, ()>("new") }).await, Ok("new"));

        // A refresh of a stale entry that finishes after an invalidation is dropped.
        let (release, released) = oneshot::channel::<&'static str>();
        assert_eq!(
            cache.get_or_fetch(1, t(40), async move { Ok::<_, ()>(released.await.unwrap_or("")) }).await,
            Ok("new")
        );
        cache.invalidate_all();
        assert_eq!(cache.get_or_fetch(1, t(41), async { Ok::<_, ()>("after the write") }).await, Ok("after the write"));
        release.send("read before the write").unwrap();
        let_refreshes_finish().await;
        assert_eq!(cache.get_or_fetch(1, t(42), async { Ok::<_, ()>("unused") }).await, Ok("after the write"));
    }
}
