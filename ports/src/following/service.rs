//! The use cases behind my page's お気に入り and 支援したプロジェクト. Only
//! public projects can be kept, and only public projects are listed: a kept
//! project that goes back to being a draft drops out of the list (its row
//! stays, so it comes back if it is published again).

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::closing::CampaignState;
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::SaleStatus;

use super::repository::{FavouriteRepository, KeepOutcome};
use crate::accounts::{ProfileError, Profiles};
use crate::catalog::{Catalog, CatalogError, ProjectCard};
use crate::clock::Clock;
use crate::RepoError;

/// Most projects one member keeps: enough for anyone following a region, small enough that my page answers
/// the whole list at once.
pub const FAVOURITES_LIMIT: i64 = 500;

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

impl From<ProfileError> for FollowingError {
    fn from(error: ProfileError) -> Self {
        Self::Unexpected(anyhow::Error::new(error))
    }
}

/// A kept project as my page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FavouriteCard {
    pub card: ProjectCard,
    pub state: CampaignState,
    pub kept_at: DateTime<Utc>,
}

/// One return the member supports in a project, with the lots of every paid sale of it together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedReturn {
    pub title: String,
    pub lots: i64,
}

/// One project the member supports: every paid sale of it together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedProject {
    pub slug: String,
    pub title: String,
    /// `None` when the project is not public any more (it is listed, without a link).
    pub project: Option<ProjectId>,
    pub state: Option<CampaignState>,
    /// In the order first supported.
    pub returns: Vec<SupportedReturn>,
    /// The paid sales, newest first (each has a receipt).
    pub sales: Vec<SaleId>,
    /// What the member paid for it, tax included.
    pub paid: Yen,
    /// What has been paid back of that.
    pub refunded: Yen,
    pub last_supported_at: DateTime<Utc>,
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
    /// The projects the member has paid sales of, one per project, the latest support first.
    async fn supported(&self, user: UserId) -> Result<Vec<SupportedProject>, FollowingError>;
}

pub struct FollowingService<R, C> {
    repo: R,
    catalog: Arc<dyn Catalog>,
    profiles: Arc<dyn Profiles>,
    clock: C,
}

impl<R: FavouriteRepository, C: Clock> FollowingService<R, C> {
    pub fn new(repo: R, catalog: Arc<dyn Catalog>, profiles: Arc<dyn Profiles>, clock: C) -> Self {
        Self { repo, catalog, profiles, clock }
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
impl<R: FavouriteRepository, C: Clock> Following for FollowingService<R, C> {
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

    async fn supported(&self, user: UserId) -> Result<Vec<SupportedProject>, FollowingError> {
        let history = self.profiles.history(user).await?;
        let cards: HashMap<String, ProjectCard> =
            self.public_cards().await?.into_values().map(|card| (card.slug.clone(), card)).collect();
        // Oldest first, so returns come in the order first supported; lines are sorted by latest support below.
        let mut lines: Vec<SupportedProject> = Vec::new();
        for sale in history.into_iter().rev().filter(|s| s.status == SaleStatus::Succeeded) {
            let index = match lines.iter().position(|l| l.slug == sale.project_slug) {
                Some(index) => index,
                None => {
                    let card = cards.get(&sale.project_slug);
                    lines.push(SupportedProject {
                        slug: sale.project_slug.clone(),
                        title: card.map_or(sale.project_title.clone(), |c| c.title.clone()),
                        project: card.map(|c| c.id),
                        state: card.map(state_of),
                        returns: Vec::new(),
                        sales: Vec::new(),
                        paid: Yen(0),
                        refunded: Yen(0),
                        last_supported_at: sale.created_at,
                    });
                    lines.len() - 1
                }
            };
            let line = &mut lines[index];
            line.sales.insert(0, sale.id);
            line.last_supported_at = line.last_supported_at.max(sale.created_at);
            line.paid = Yen(line.paid.0 + sale.total);
            line.refunded = Yen(line.refunded.0 + sale.refunded.0);
            match line.returns.iter_mut().find(|r| r.title == sale.return_title) {
                Some(ret) => ret.lots += i64::from(sale.lot),
                None => line.returns.push(SupportedReturn { title: sale.return_title, lots: i64::from(sale.lot) }),
            }
        }
        lines.sort_by_key(|line| std::cmp::Reverse(line.last_supported_at));
        Ok(lines)
    }
}
