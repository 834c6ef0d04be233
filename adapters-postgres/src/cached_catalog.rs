//! `CachedCatalogRepository` wraps any `CatalogRepository` and answers the
//! public reads from a short-lived in-process cache (`cache::TtlCache`), so
//! the use case keeps only its rules. It lives beside the PostgreSQL adapter
//! because the aggregates it spares are this storage's cost, and because it
//! needs a Tokio runtime for its background refreshes, which `ports` must not
//! depend on.
//!
//! What may be stale, and for how long, is decided here (docs/decisions.md,
//! "Performance of the public reads"): everything a logged-out visitor reads,
//! for one TTL plus one query, except what a new support or an operator's
//! edit changes (paid totals, sponsor walls and manual sponsor lists, the supporter list, projects,
//! their returns and news), which is never more than `SUPPORT_SHOWS_WITHIN` old. Reads for a signed-in viewer and every write
//! go straight through.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::sponsor::SponsorSale;
use ports::accounts::UserId;
use ports::catalog::{
    CatalogRepository, CommentRecord, ManualSponsorRecord, NewsItem, PaidSum, ProjectRecord, PublicSaleRecord,
    ReturnRecord, Taxonomy,
};
use ports::clock::Clock;
use ports::RepoError;

use crate::cache::TtlCache;

type Shared<T> = Arc<Vec<T>>;

/// A paid support shows on the public pages within this time (issue #9):
/// the totals and walls are running totals, cheap enough to read this often.
pub const SUPPORT_SHOWS_WITHIN: Duration = Duration::seconds(1);
/// How long such an entry is served without a refresh; a refresh behind it
/// then has the rest of `SUPPORT_SHOWS_WITHIN` to finish before callers wait.
const SUPPORT_FRESH_FOR: Duration = Duration::milliseconds(500);

pub struct CachedCatalogRepository<R, C> {
    // Shared with the refreshes, which run as tasks of their own.
    inner: Arc<R>,
    clock: C,
    projects: TtlCache<(), Arc<Vec<ProjectRecord>>>,
    /// Every project as last read, with the catalog version read before
    /// them, kept while storage reports the same version.
    checked_projects: Arc<CheckedProjects>,
    caching: bool,
    taxonomy: TtlCache<(), Arc<Taxonomy>>,
    sums: TtlCache<(), Arc<HashMap<ProjectId, PaidSum>>>,
    sum_all: TtlCache<(), PaidSum>,
    sum_project: TtlCache<ProjectId, PaidSum>,
    sum_return: TtlCache<ReturnId, Option<PaidSum>>,
    returns: TtlCache<ProjectId, Shared<ReturnRecord>>,
    news: TtlCache<ProjectId, Shared<NewsItem>>,
    comments: TtlCache<ProjectId, Shared<CommentRecord>>,
    sponsors: TtlCache<Option<ProjectId>, Shared<SponsorSale>>,
    sales: TtlCache<(ProjectId, i64), Shared<PublicSaleRecord>>,
    manual: TtlCache<ProjectId, Shared<ManualSponsorRecord>>,
}

impl<R: CatalogRepository + 'static, C: Clock> CachedCatalogRepository<R, C> {
    /// A zero (or negative) `ttl` disables caching: every read goes to `inner`.
    pub fn new(inner: R, clock: C, ttl: Duration) -> Self {
        let ttl = ttl.max(Duration::zero());
        Self {
            inner: Arc::new(inner),
            clock,
            projects: support_cache(ttl),
            checked_projects: Arc::new(CheckedProjects::default()),
            caching: ttl > Duration::zero(),
            // Reference data, changed by migrations only.
            taxonomy: TtlCache::new(ttl),
            sums: support_cache(ttl),
            sum_all: support_cache(ttl),
            sum_project: support_cache(ttl),
            sum_return: support_cache(ttl),
            returns: support_cache(ttl),
            // An operator's publish, edit or delete shows within a second, as a project edit does.
            news: support_cache(ttl),
            comments: support_cache(ttl),
            sponsors: support_cache(ttl),
            sales: support_cache(ttl),
            // An operator's edit of the manual list shows within a second, as a content edit does.
            manual: support_cache(ttl),
        }
    }

    fn inner(&self) -> Arc<R> {
        Arc::clone(&self.inner)
    }
}

/// Every project as last read, the catalog version read before them, and
/// which callers that check may answer (see `projects_as_stored`).
#[derive(Default)]
struct CheckedProjects {
    /// Numbers handed to callers as they arrive.
    tickets: std::sync::atomic::AtomicU64,
    held: tokio::sync::Mutex<Option<Checked>>,
}

struct Checked {
    version: i64,
    projects: Arc<Vec<ProjectRecord>>,
    /// Every caller with a lower ticket arrived before this check read the version.
    answers_below: u64,
}

/// Every project exactly as storage holds them now: one small read of the
/// catalog version, and every project read again only when it changed.
/// Reading them all on every page view was most of an uncached read's time,
/// and with the cache on, reading them all at each refresh kept both cores
/// busy at 10,000 projects.
///
/// Callers that arrive while a check is running wait for the next one and
/// share it: a check that began after a caller arrived saw every write that
/// caller could have seen, so a burst of page views costs a few reads of the
/// version, not one each, and is never shown a list older than its arrival.
async fn projects_as_stored<R: CatalogRepository>(
    inner: &R,
    checked: &CheckedProjects,
) -> Result<Arc<Vec<ProjectRecord>>, RepoError> {
    use std::sync::atomic::Ordering::SeqCst;
    let ticket = checked.tickets.fetch_add(1, SeqCst);
    let mut held = checked.held.lock().await;
    if let Some(last) = held.as_ref().filter(|last| ticket < last.answers_below) {
        return Ok(Arc::clone(&last.projects));
    }
    let answers_below = checked.tickets.load(SeqCst);
    let version = inner.catalog_version().await?;
    let projects = match held.as_ref() {
        Some(last) if last.version == version => Arc::clone(&last.projects),
        // The version was read first: a change made while reading is seen by the next check.
        _ => inner.projects().await?,
    };
    *held = Some(Checked { version, projects: Arc::clone(&projects), answers_below });
    Ok(projects)
}

/// The cache of an entry that a new support or an operator's edit changes
/// (totals, walls, supporters; projects, their returns, news and comments).
fn support_cache<K, V>(ttl: Duration) -> TtlCache<K, V>
where
    K: Eq + std::hash::Hash + Clone + Send + 'static,
    V: Clone + Send + 'static,
{
    TtlCache::bounded(ttl.min(SUPPORT_FRESH_FOR), SUPPORT_SHOWS_WITHIN)
}

fn owned<T: Clone>(list: Shared<T>) -> Vec<T> {
    Arc::try_unwrap(list).unwrap_or_else(|shared| shared.as_ref().clone())
}

#[async_trait]
impl<R: CatalogRepository + 'static, C: Clock> CatalogRepository for CachedCatalogRepository<R, C> {
    async fn projects(&self) -> Result<Arc<Vec<ProjectRecord>>, RepoError> {
        if !self.caching {
            return projects_as_stored(self.inner.as_ref(), &self.checked_projects).await;
        }
        // Shared, not copied: every list and search reads the whole catalog. A refresh reads the version only,
        // and the projects when it changed.
        let (inner, held) = (self.inner(), Arc::clone(&self.checked_projects));
        let fetch = async move { projects_as_stored(inner.as_ref(), &held).await };
        self.projects.get_or_fetch((), self.clock.now(), fetch).await
    }

    async fn catalog_version(&self) -> Result<i64, RepoError> {
        self.inner.catalog_version().await
    }

    async fn taxonomy(&self) -> Result<Taxonomy, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.taxonomy().await.map(Arc::new) };
        self.taxonomy.get_or_fetch((), self.clock.now(), fetch).await.map(|t| t.as_ref().clone())
    }

    async fn paid_sums(&self) -> Result<Arc<HashMap<ProjectId, PaidSum>>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.paid_sums().await };
        self.sums.get_or_fetch((), self.clock.now(), fetch).await
    }

    async fn paid_sum_all(&self) -> Result<PaidSum, RepoError> {
        let inner = self.inner();
        self.sum_all.get_or_fetch((), self.clock.now(), async move { inner.paid_sum_all().await }).await
    }

    async fn paid_sum_project(&self, project_id: ProjectId) -> Result<PaidSum, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.paid_sum_project(project_id).await };
        self.sum_project.get_or_fetch(project_id, self.clock.now(), fetch).await
    }

    async fn paid_sums_of(&self, project_ids: Vec<ProjectId>) -> Result<HashMap<ProjectId, PaidSum>, RepoError> {
        if !self.caching {
            return self.inner.paid_sums_of(project_ids).await;
        }
        // Picked from the one entry of every total the list reads: one read at most, however many cards.
        let all = self.paid_sums().await?;
        Ok(project_ids.into_iter().filter_map(|id| all.get(&id).map(|sum| (id, *sum))).collect())
    }

    async fn paid_sum_return(&self, return_id: ReturnId) -> Result<Option<PaidSum>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.paid_sum_return(return_id).await };
        self.sum_return.get_or_fetch(return_id, self.clock.now(), fetch).await
    }

    async fn visible_returns(
        &self,
        project_id: ProjectId,
        viewer: Option<Email>,
    ) -> Result<Vec<ReturnRecord>, RepoError> {
        // Only the anonymous view is shared between callers.
        if viewer.is_some() {
            return self.inner.visible_returns(project_id, viewer).await;
        }
        let inner = self.inner();
        let fetch = async move { inner.visible_returns(project_id, None).await.map(Arc::new) };
        self.returns.get_or_fetch(project_id, self.clock.now(), fetch).await.map(owned)
    }

    async fn news(&self, project_id: ProjectId, now: DateTime<Utc>) -> Result<Vec<NewsItem>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.news(project_id, now).await.map(Arc::new) };
        self.news.get_or_fetch(project_id, now, fetch).await.map(owned)
    }

    async fn supported_returns(&self, project_id: ProjectId, user: UserId) -> Result<Vec<ReturnId>, RepoError> {
        // Per reader, and a new support must open a supporters-only item at once.
        self.inner.supported_returns(project_id, user).await
    }

    async fn comments(&self, project_id: ProjectId) -> Result<Vec<CommentRecord>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.comments(project_id).await.map(Arc::new) };
        self.comments.get_or_fetch(project_id, self.clock.now(), fetch).await.map(owned)
    }

    async fn sponsor_sales(&self, project_id: Option<ProjectId>) -> Result<Vec<SponsorSale>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.sponsor_sales(project_id).await.map(Arc::new) };
        self.sponsors.get_or_fetch(project_id, self.clock.now(), fetch).await.map(owned)
    }

    async fn public_sales(&self, project_id: ProjectId, limit: i64) -> Result<Vec<PublicSaleRecord>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.public_sales(project_id, limit).await.map(Arc::new) };
        self.sales.get_or_fetch((project_id, limit), self.clock.now(), fetch).await.map(owned)
    }

    async fn manual_sponsors(&self, project_id: ProjectId) -> Result<Vec<ManualSponsorRecord>, RepoError> {
        let inner = self.inner();
        let fetch = async move { inner.manual_sponsors(project_id).await.map(Arc::new) };
        self.manual.get_or_fetch(project_id, self.clock.now(), fetch).await.map(owned)
    }

    async fn comment_author(&self, comment_id: i64) -> Result<(UserId, ProjectId), RepoError> {
        // Read before a write: never stale.
        self.inner.comment_author(comment_id).await
    }

    async fn update_comment(
        &self,
        comment_id: i64,
        author: UserId,
        text: String,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let result = self.inner.update_comment(comment_id, author, text, now).await;
        // The author reloads the list right after saving. Edits are rare, so every
        // project's list is dropped rather than looking up which one it was.
        if result.is_ok() {
            self.comments.invalidate_all();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use domain::money::Yen;
    use ports::catalog::MockCatalogRepository;
    use ports::clock::MockClock;

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap());
        clock
    }

    /// A clock at a fixed start that the test moves on by setting the milliseconds elapsed.
    fn moving_clock() -> (MockClock, Arc<std::sync::atomic::AtomicI64>) {
        let start = Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap();
        let elapsed_ms = Arc::new(std::sync::atomic::AtomicI64::new(0));
        let read = Arc::clone(&elapsed_ms);
        let mut clock = MockClock::new();
        clock
            .expect_now()
            .returning(move || start + Duration::milliseconds(read.load(std::sync::atomic::Ordering::SeqCst)));
        (clock, elapsed_ms)
    }

    /// Storage reports these catalog versions, one per read, and no more reads; what is left is returned.
    fn versions_in_turn(repo: &mut MockCatalogRepository, versions: Vec<i64>) -> Arc<std::sync::Mutex<Vec<i64>>> {
        let reads = versions.len();
        let left = Arc::new(std::sync::Mutex::new(versions));
        let next = Arc::clone(&left);
        repo.expect_catalog_version().times(reads).returning(move || Ok(next.lock().unwrap().remove(0)));
        left
    }

    fn cached(repo: MockCatalogRepository) -> CachedCatalogRepository<MockCatalogRepository, MockClock> {
        CachedCatalogRepository::new(repo, clock(), Duration::seconds(3))
    }

    #[tokio::test]
    async fn the_site_total_is_served_from_memory_while_fresh() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_paid_sum_all().times(1).returning(|| Ok(PaidSum { amount: Yen(5_000), supports: 2 }));
        let repo = cached(repo);

        for _ in 0..3 {
            assert_eq!(repo.paid_sum_all().await.unwrap().amount, Yen(5_000));
        }
    }

    #[tokio::test]
    async fn a_zero_ttl_reads_storage_every_time() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_paid_sum_project().times(2).returning(|id| Ok(PaidSum { amount: Yen(id.0), supports: 1 }));
        let repo = CachedCatalogRepository::new(repo, clock(), Duration::zero());

        repo.paid_sum_project(ProjectId(1)).await.unwrap();
        repo.paid_sum_project(ProjectId(1)).await.unwrap();
    }

    #[tokio::test]
    async fn without_a_ttl_every_project_is_read_again_only_when_the_catalog_version_changes() {
        let mut repo = MockCatalogRepository::new();
        let versions = versions_in_turn(&mut repo, vec![7, 7, 8]);
        // Two reads of storage in all: the mock fails the test on a third.
        repo.expect_projects().times(2).returning(|| Ok(Arc::new(vec![])));
        let repo = CachedCatalogRepository::new(repo, clock(), Duration::zero());

        let first = repo.projects().await.unwrap();
        assert!(Arc::ptr_eq(&first, &repo.projects().await.unwrap()), "same version: the list held is answered");
        assert!(!Arc::ptr_eq(&first, &repo.projects().await.unwrap()), "an edit bumped the version: read again");
        assert!(versions.lock().unwrap().is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_readers_shares_checks_and_a_reader_arriving_later_checks_again() {
        let reads = Arc::new(std::sync::atomic::AtomicI64::new(0));
        let counted = Arc::clone(&reads);
        let mut repo = MockCatalogRepository::new();
        repo.expect_catalog_version().returning(move || {
            // A slow read, so that the burst arrives while it runs.
            std::thread::sleep(std::time::Duration::from_millis(50));
            Ok(counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1)
        });
        repo.expect_projects().returning(|| Ok(Arc::new(vec![])));
        let repo = Arc::new(CachedCatalogRepository::new(repo, clock(), Duration::zero()));

        let burst: Vec<_> = (0..20)
            .map(|_| {
                let repo = Arc::clone(&repo);
                tokio::spawn(async move { repo.projects().await.map(|_| ()) })
            })
            .collect();
        for reader in burst {
            reader.await.unwrap().unwrap();
        }
        let after_burst = reads.load(std::sync::atomic::Ordering::SeqCst);
        assert!((1..=2).contains(&after_burst), "20 readers at once read the version {after_burst} times");

        repo.projects().await.unwrap();
        assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), after_burst + 1, "a later reader checks again");
    }

    #[tokio::test]
    async fn with_a_ttl_a_stale_catalog_is_checked_by_version_and_read_again_only_after_a_change() {
        let (clock, elapsed_ms) = moving_clock();
        let mut repo = MockCatalogRepository::new();
        let versions = versions_in_turn(&mut repo, vec![7, 7, 8]);
        // Two reads of every project in all (the first, and after the change): the mock fails on a third.
        repo.expect_projects().times(2).returning(|| Ok(Arc::new(vec![])));
        let repo = CachedCatalogRepository::new(repo, clock, Duration::seconds(30));

        let first = repo.projects().await.unwrap();
        // Past SUPPORT_SHOWS_WITHIN each read waits for storage: the version is the same, the list held is kept.
        for (at, same) in [(1_100, true), (2_200, false)] {
            elapsed_ms.store(at, std::sync::atomic::Ordering::SeqCst);
            let now = repo.projects().await.unwrap();
            assert_eq!(Arc::ptr_eq(&first, &now), same, "at {at} ms");
        }
        assert!(versions.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn the_viewer_address_is_passed_to_storage_and_only_the_anonymous_view_is_cached() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_visible_returns().withf(|_, viewer| viewer.is_none()).times(1).returning(|_, _| Ok(vec![]));
        repo.expect_visible_returns()
            .withf(|_, viewer| viewer.as_ref().is_some_and(|e| e.as_str() == "a@example.jp"))
            .times(2)
            .returning(|_, _| Ok(vec![]));
        let repo = cached(repo);
        let viewer = || Some(Email::parse("a@example.jp").unwrap());

        for _ in 0..2 {
            repo.visible_returns(ProjectId(1), None).await.unwrap();
            repo.visible_returns(ProjectId(1), viewer()).await.unwrap();
        }
    }

    #[tokio::test]
    async fn errors_are_passed_on_and_not_kept() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_catalog_version().times(2).returning(|| Ok(1));
        let mut calls = 0;
        repo.expect_projects().times(2).returning(move || {
            calls += 1;
            if calls == 1 {
                Err(RepoError::Unexpected(anyhow::anyhow!("down")))
            } else {
                Ok(Arc::new(vec![]))
            }
        });
        let repo = cached(repo);

        assert!(matches!(repo.projects().await, Err(RepoError::Unexpected(_))));
        assert_eq!(*repo.projects().await.unwrap(), vec![]);
        assert_eq!(*repo.projects().await.unwrap(), vec![], "the answer after the failure is kept");
    }

    #[tokio::test]
    async fn after_the_author_edits_a_comment_the_next_list_is_read_again() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_update_comment().times(1).returning(|_, _, _, _| Ok(()));
        repo.expect_comments().times(2).returning(|_| Ok(vec![]));
        let repo = cached(repo);
        let now = Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap();

        repo.comments(ProjectId(1)).await.unwrap();
        repo.comments(ProjectId(1)).await.unwrap();
        repo.update_comment(5, UserId(7), "書き換えました".into(), now).await.unwrap();
        repo.comments(ProjectId(1)).await.unwrap();
    }

    #[tokio::test]
    async fn a_new_support_shows_in_totals_and_walls_within_a_second_even_with_a_long_ttl() {
        let (clock, elapsed_ms) = moving_clock();
        let mut repo = MockCatalogRepository::new();
        let mut supports = 0;
        repo.expect_paid_sum_project().times(2).returning(move |_| {
            supports += 1;
            Ok(PaidSum { amount: Yen(1_000 * supports), supports })
        });
        repo.expect_sponsor_sales().times(2).returning(|_| Ok(vec![]));
        let repo = CachedCatalogRepository::new(repo, clock, Duration::seconds(30));

        assert_eq!(repo.paid_sum_project(ProjectId(1)).await.unwrap().supports, 1);
        repo.sponsor_sales(Some(ProjectId(1))).await.unwrap();
        elapsed_ms.store(300, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(repo.paid_sum_project(ProjectId(1)).await.unwrap().supports, 1, "fresh for a moment");
        // A support paid meanwhile: a second later nobody is shown the old figure.
        elapsed_ms.store(1_000, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(repo.paid_sum_project(ProjectId(1)).await.unwrap().supports, 2);
        repo.sponsor_sales(Some(ProjectId(1))).await.unwrap();
    }

    #[tokio::test]
    async fn the_footer_and_a_projects_wall_are_kept_apart() {
        let mut repo = MockCatalogRepository::new();
        repo.expect_sponsor_sales().withf(|p| p.is_none()).times(1).returning(|_| Ok(vec![]));
        repo.expect_sponsor_sales().withf(|p| *p == Some(ProjectId(1))).times(1).returning(|_| Ok(vec![]));
        let repo = cached(repo);

        for _ in 0..2 {
            repo.sponsor_sales(None).await.unwrap();
            repo.sponsor_sales(Some(ProjectId(1))).await.unwrap();
        }
    }
}
