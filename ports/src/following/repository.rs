//! What keeping projects needs from storage.

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, UserId};

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
