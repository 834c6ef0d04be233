//! The use cases behind my page's お気に入り and 支援したプロジェクト. Only
//! public projects can be kept, and only public projects are listed: a kept
//! project that goes back to being a draft drops out of the list (its row
//! stays, so it comes back if it is published again).

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::closing::CampaignState;
use domain::delivery::{held_lots, must_deliver, DeliveryState, HeldLots};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;

use super::repository::{FavouriteRepository, KeepOutcome, NewsHeadline, SupportedRecord, SupportedStore};
use crate::catalog::{Catalog, CatalogError, ProjectCard};
use crate::clock::Clock;
use crate::RepoError;

/// Most projects one member keeps: enough for anyone following a region, small enough that my page answers
/// the whole list at once.
pub const FAVOURITES_LIMIT: i64 = 500;

/// Supported projects on one page of my page's list: a phone screen or two; more come with もっと見る.
pub const SUPPORTS_PER_PAGE: u32 = 20;

#[derive(Debug, thiserror::Error)]
pub enum FollowingError {
    /// No public project has the id (unknown, a draft or not published yet).
    #[error("not found")]
    NotFound,
    /// The member keeps `FAVOURITES_LIMIT` projects already.
    #[error("お気に入りは{FAVOURITES_LIMIT}件まで登録できます。ほかのプロジェクトを外してから追加してください。")]
    Full,
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for FollowingError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Unexpected(other.into()),
        }
    }
}

impl From<CatalogError> for FollowingError {
    fn from(error: CatalogError) -> Self {
        match error {
            CatalogError::NotFound => Self::NotFound,
            CatalogError::Unexpected(e) => Self::Unexpected(e),
        }
    }
}

/// A kept project as my page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FavouriteCard {
    pub card: ProjectCard,
    pub state: CampaignState,
    pub kept_at: DateTime<Utc>,
}

/// One return the member holds in a project: the lots of every paid sale of it that must still be delivered
/// (`domain::delivery::must_deliver`), and where they stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedReturn {
    pub title: String,
    pub lots: i64,
    /// Per shipping day (newest first), then 未発送 (`domain::delivery::held_lots`).
    pub deliveries: Vec<HeldLots>,
}

/// One project the member supports: every paid sale of it together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedProject {
    pub slug: String,
    pub title: String,
    /// `None` when the project is not public any more (it is listed, without a link).
    pub project: Option<ProjectId>,
    pub state: Option<CampaignState>,
    /// In the order first supported; a return whose every sale was refunded in full is not held any more.
    pub returns: Vec<SupportedReturn>,
    /// The paid sales, newest first (each has a receipt).
    pub sales: Vec<SaleId>,
    /// What the member paid for it, tax included.
    pub paid: Yen,
    /// What has been paid back of that.
    pub refunded: Yen,
    pub last_supported_at: DateTime<Utc>,
    /// The newest news item the member may read; `None` when there is none or the project is not public.
    pub latest_news: Option<NewsHeadline>,
}

/// One page of my page's 支援したプロジェクト.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedList {
    pub projects: Vec<SupportedProject>,
    /// Supported projects on every page.
    pub total: u64,
    pub page: u32,
    pub per_page: u32,
}

/// Keeping projects and reading my page's lists, always for the calling member.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Following: Send + Sync {
    /// Keeps a public project; idempotent. `NotFound` for a project that is not public, `Full` at
    /// `FAVOURITES_LIMIT`.
    async fn keep(&self, user: UserId, project: ProjectId) -> Result<(), FollowingError>;
    /// Stops keeping a public project; idempotent. `NotFound` for a project that is not public.
    async fn remove(&self, user: UserId, project: ProjectId) -> Result<(), FollowingError>;
    /// The member's kept public projects, newest keep first.
    async fn favourites(&self, user: UserId) -> Result<Vec<FavouriteCard>, FollowingError>;
    /// Page `page` (from 1; beyond the last answers the last) of the projects the member has paid sales of,
    /// one per project, the latest support first, `SUPPORTS_PER_PAGE` a page.
    async fn supported(&self, user: UserId, page: u32) -> Result<SupportedList, FollowingError>;
}

pub struct FollowingService<R, S, C> {
    repo: R,
    supports: S,
    catalog: Arc<dyn Catalog>,
    clock: C,
}

impl<R: FavouriteRepository, S: SupportedStore, C: Clock> FollowingService<R, S, C> {
    pub fn new(repo: R, supports: S, catalog: Arc<dyn Catalog>, clock: C) -> Self {
        Self { repo, supports, catalog, clock }
    }

    /// The public projects' cards by id (the catalog's list: public projects only, possibly a second old).
    async fn public_cards(&self) -> Result<HashMap<ProjectId, ProjectCard>, FollowingError> {
        Ok(self.catalog.master().await?.into_iter().map(|card| (card.id, card)).collect())
    }

    async fn ensure_public(&self, project: ProjectId) -> Result<(), FollowingError> {
        if self.public_cards().await?.contains_key(&project) {
            Ok(())
        } else {
            Err(FollowingError::NotFound)
        }
    }
}

fn state_of(card: &ProjectCard) -> CampaignState {
    CampaignState::of(card.is_open, card.outcome)
}

#[async_trait::async_trait]
impl<R: FavouriteRepository, S: SupportedStore, C: Clock> Following for FollowingService<R, S, C> {
    async fn keep(&self, user: UserId, project: ProjectId) -> Result<(), FollowingError> {
        self.ensure_public(project).await?;
        match self.repo.keep(user, project, self.clock.now(), FAVOURITES_LIMIT).await? {
            KeepOutcome::Kept | KeepOutcome::AlreadyKept => Ok(()),
            KeepOutcome::Full => Err(FollowingError::Full),
        }
    }

    async fn remove(&self, user: UserId, project: ProjectId) -> Result<(), FollowingError> {
        self.ensure_public(project).await?;
        Ok(self.repo.remove(user, project).await?)
    }

    async fn favourites(&self, user: UserId) -> Result<Vec<FavouriteCard>, FollowingError> {
        let kept = self.repo.kept(user, FAVOURITES_LIMIT).await?;
        let mut cards = self.public_cards().await?;
        Ok(kept
            .into_iter()
            .filter_map(|k| {
                let card = cards.remove(&k.project)?;
                Some(FavouriteCard { state: state_of(&card), card, kept_at: k.kept_at })
            })
            .collect())
    }

    async fn supported(&self, user: UserId, page: u32) -> Result<SupportedList, FollowingError> {
        let found = self.supports.supported(user, page, SUPPORTS_PER_PAGE, self.clock.now()).await?;
        let cards = self.public_cards().await?;
        let projects = found
            .projects
            .into_iter()
            .map(|record| {
                let card = cards.get(&record.project);
                supported_line(record, card)
            })
            .collect();
        Ok(SupportedList { projects, total: found.total, page: found.page, per_page: SUPPORTS_PER_PAGE })
    }
}

/// A return's held sales while a line is put together: each sale's delivery state and lots.
struct HeldReturn {
    id: ReturnId,
    title: String,
    sales: Vec<(DeliveryState, i64)>,
}

/// One line from a project's paid sales (oldest first) and its public card, if it still has one.
fn supported_line(record: SupportedRecord, card: Option<&ProjectCard>) -> SupportedProject {
    let mut returns: Vec<HeldReturn> = Vec::new();
    let mut paid = 0;
    let mut refunded = 0;
    let mut last_supported_at = None;
    for sale in &record.sales {
        paid += sale.total.0;
        refunded += sale.refunded.0;
        last_supported_at = last_supported_at.max(Some(sale.created_at));
        if !must_deliver(sale.status, sale.total, sale.refunding) {
            continue;
        }
        let state = sale.shipped_on.map_or(DeliveryState::Unshipped, |on| DeliveryState::Shipped { on, note: None });
        let lots = i64::from(sale.lot);
        match returns.iter_mut().find(|held| held.id == sale.return_id) {
            Some(held) => held.sales.push((state, lots)),
            None => returns.push(HeldReturn {
                id: sale.return_id,
                title: sale.return_title.clone(),
                sales: vec![(state, lots)],
            }),
        }
    }
    SupportedProject {
        title: card.map_or(record.title, |c| c.title.clone()),
        slug: record.slug,
        project: card.map(|c| c.id),
        state: card.map(state_of),
        returns: returns
            .into_iter()
            .map(|held| SupportedReturn {
                lots: held.sales.iter().map(|(_, lots)| lots).sum(),
                deliveries: held_lots(held.sales.iter().map(|(state, lots)| (state, *lots))),
                title: held.title,
            })
            .collect(),
        sales: record.sales.iter().rev().map(|sale| sale.id).collect(),
        paid: Yen(paid),
        refunded: Yen(refunded),
        last_supported_at: last_supported_at.unwrap_or_default(),
        // A project that is not public has no page to read it on.
        latest_news: record.latest_news.filter(|_| card.is_some()),
    }
}
