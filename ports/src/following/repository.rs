//! What keeping projects needs from storage.

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;
use domain::payment::SaleStatus;

use crate::RepoError;

/// A project a member keeps, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptProject {
    pub project: ProjectId,
    pub kept_at: DateTime<Utc>,
}

/// What a keep did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepOutcome {
    /// The project is now kept.
    Kept,
    /// It was kept already; nothing changed (its time stays the first keep's).
    AlreadyKept,
    /// The member keeps `limit` projects already; nothing was written.
    Full,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait FavouriteRepository: Send + Sync {
    /// Keeps `project` for `user` at `now`. MUST answer `AlreadyKept` (and
    /// write nothing) when it is kept already, `Full` (and write nothing) when
    /// the member keeps `limit` projects or more, and `RepoError::NotFound`
    /// when no project has the id. Concurrent keeps of one member MUST never
    /// leave more than `limit` rows. Whether the project is public is the use
    /// case's business.
    async fn keep(
        &self,
        user: UserId,
        project: ProjectId,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<KeepOutcome, RepoError>;

    /// Stops keeping `project`. Idempotent: MUST answer `Ok(())` when it was not kept.
    async fn remove(&self, user: UserId, project: ProjectId) -> Result<(), RepoError>;

    /// The member's kept projects, newest keep first (ties by project id,
    /// descending), at most `limit`; empty when none. Public or not: the use
    /// case filters.
    async fn kept(&self, user: UserId, limit: i64) -> Result<Vec<KeptProject>, RepoError>;
}

/// One paid sale of a supported project, as my page groups it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedSale {
    pub id: SaleId,
    pub return_id: ReturnId,
    pub return_title: String,
    pub lot: i16,
    pub status: SaleStatus,
    pub total: Yen,
    /// Refunds started, paid out or not (`sales.refunded_amount`): what decides whether the return is still held.
    pub refunding: Yen,
    /// Refunds the provider has paid back.
    pub refunded: Yen,
    /// 発送済み on this day; `None` while 未発送.
    pub shipped_on: Option<NaiveDate>,
    pub created_at: DateTime<Utc>,
}

/// The newest news item of a project that the member may read in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsHeadline {
    pub id: i64,
    pub title: String,
    pub published_at: DateTime<Utc>,
}

/// One project the member has paid sales of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedRecord {
    pub project: ProjectId,
    pub slug: String,
    pub title: String,
    /// The member's paid sales of it (refunded or not), oldest first.
    pub sales: Vec<SupportedSale>,
    pub latest_news: Option<NewsHeadline>,
}

/// One page of the projects a member supports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedPage {
    /// Projects with a paid sale of the member, on every page.
    pub total: u64,
    /// The page answered: the one asked for, or the last one when it asked beyond the end.
    pub page: u32,
    pub projects: Vec<SupportedRecord>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SupportedStore: Send + Sync {
    /// Page `page` (from 1, `per_page` projects each) of the projects `user` has paid sales of (refunded or
    /// not), the latest paid sale first (ties by project id, descending), each with all of the member's paid
    /// sales of it and its newest news item published by `now` that the member may read
    /// (`domain::news::NewsAudience::admits` over the returns of the member's sales that count toward totals).
    /// A page beyond the last answers the last (an empty list when there is none). MUST read a fixed number of
    /// queries whatever the number of projects, and only `user`'s sales. Read-only.
    async fn supported(
        &self,
        user: UserId,
        page: u32,
        per_page: u32,
        now: DateTime<Utc>,
    ) -> Result<SupportedPage, RepoError>;
}
