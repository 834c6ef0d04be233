//! Operators keep a project's manual sponsor list (`project_manual_sponsors`,
//! shown instead of the sales' walls while the project's
//! `uses_manual_sponsors` is on): add, edit, delete and move entries
//! (`domain::manual_sponsor`). Logos go through the media pipeline like the
//! project images (checked by content, size and pixels, re-encoded); every
//! change is written to the audit log with the entry's name. The public walls
//! read the list through the catalog, whose cache holds it for at most a
//! second (`SUPPORT_SHOWS_WITHIN`).

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, UserId};
use domain::manual_sponsor::{
    can_move, check_manual_sponsor, manual_order, move_entry, Direction, Logo, ManualSponsor, ManualSponsorForm,
    MoveError, Rank, LOGO_EDGE, MAX_MANUAL_SPONSORS, MSG_TOO_MANY,
};
use domain::profile::detect_image;
use domain::project_content::ImageFit;
use domain::sponsor::ManualCourse;
use domain::time::tokyo_date;
use serde_json::{json, Value};

use super::audit::{changes, logged_file, logged_text, AdminActionKind, AuditLog, NewAdminAction};
use super::content::ContentError;
use crate::clock::Clock;
use crate::media::MediaStorage;
use crate::RepoError;

/// An entry as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualSponsorEntry {
    pub id: i64,
    pub sponsor: ManualSponsor,
    pub logo_src: Option<String>,
    pub position: i32,
}

impl ManualSponsorEntry {
    pub fn rank(&self) -> Rank {
        Rank {
            amount: self.sponsor.amount,
            latest_date: self.sponsor.latest_date,
            position: self.position,
            id: self.id,
        }
    }
}

/// A project's list with what the screen needs around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualSponsorList {
    pub project_id: ProjectId,
    pub title: String,
    pub slug: String,
    /// Off: the walls show the sales, and this list is not shown publicly.
    pub uses_manual_sponsors: bool,
    /// Course A, B, C, then supporters, each in the walls' order (after
    /// [`ManualSponsorList::in_wall_order`]).
    pub entries: Vec<ManualSponsorEntry>,
}

impl ManualSponsorList {
    /// The entries grouped by course (A, B, C, supporters), each course in
    /// the order the walls show it.
    pub fn in_wall_order(mut self) -> Self {
        self.entries
            .sort_by(|a, b| a.sponsor.course.cmp(&b.sponsor.course).then_with(|| manual_order(&a.rank(), &b.rank())));
        self
    }

    fn course(&self, course: ManualCourse) -> Vec<Rank> {
        self.entries.iter().filter(|e| e.sponsor.course == course).map(ManualSponsorEntry::rank).collect()
    }

    /// Whether the walls would show entry `id` one place up (or down) after a
    /// move: only past a neighbour of equal amount and date.
    pub fn can_move(&self, id: i64, direction: Direction) -> bool {
        let Some(entry) = self.entries.iter().find(|e| e.id == id) else { return false };
        let mut course = self.course(entry.sponsor.course);
        course.sort_by(manual_order);
        course.iter().position(|r| r.id == id).is_some_and(|i| can_move(&course, i, direction))
    }

    fn entry(&self, id: i64) -> Result<&ManualSponsorEntry, ContentError> {
        self.entries.iter().find(|e| e.id == id).ok_or(ContentError::NotFound)
    }
}

/// What happens to an entry's logo on an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogoChange {
    Keep,
    Set(String),
    Clear,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ManualSponsorRepository: Send + Sync {
    /// The project's title, slug, switch and every entry in any order. MUST
    /// return `NotFound` for an unknown project.
    async fn list(&self, project: ProjectId) -> Result<ManualSponsorList, RepoError>;

    /// Adds an entry at the end of its course (one past the course's largest
    /// position) and returns its id. MUST write nothing and return
    /// `Conflict("manual_sponsors_full")` when the project already holds
    /// `MAX_MANUAL_SPONSORS` (counted under the project's row lock), and
    /// `NotFound` for an unknown project.
    async fn create(
        &self,
        project: ProjectId,
        sponsor: &ManualSponsor,
        logo_src: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<i64, RepoError>;

    /// Writes an entry and its logo; an entry moved to another course goes to
    /// that course's end. MUST return `NotFound` when no entry of `project`
    /// has `id` (an entry of another project included).
    async fn update(
        &self,
        project: ProjectId,
        id: i64,
        sponsor: &ManualSponsor,
        logo: LogoChange,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;

    /// Deletes an entry. MUST return `NotFound` when no entry of `project` has `id`.
    async fn delete(&self, project: ProjectId, id: i64, now: DateTime<Utc>) -> Result<(), RepoError>;

    /// Stores `order` as the positions 0, 1, ... of `course`'s entries. MUST
    /// write nothing and return `Conflict("manual_sponsors_changed")` unless
    /// `order` holds exactly the course's entries now, each once; `NotFound`
    /// for an unknown project.
    async fn reorder(
        &self,
        project: ProjectId,
        course: ManualCourse,
        order: &[i64],
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}

/// The operators' sponsor-list screen, as the HTTP layer sees it. Every
/// answer is the project's whole list after the change, in wall order.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ManualSponsors: Send + Sync {
    /// `NotFound` for an unknown project.
    async fn list(&self, project: ProjectId) -> Result<ManualSponsorList, ContentError>;
    /// Checks the form (`check_manual_sponsor`), stores the logo, adds the entry.
    async fn create(
        &self,
        admin: UserId,
        project: ProjectId,
        form: ManualSponsorForm,
        logo: Option<Vec<u8>>,
    ) -> Result<ManualSponsorList, ContentError>;
    /// Like `create`, for an existing entry; without a file it keeps its logo
    /// (a supporter entry drops it).
    async fn update(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        form: ManualSponsorForm,
        logo: Option<Vec<u8>>,
    ) -> Result<ManualSponsorList, ContentError>;
    async fn delete(&self, admin: UserId, project: ProjectId, id: i64) -> Result<ManualSponsorList, ContentError>;
    /// Moves an entry one place within its course (`domain::manual_sponsor::move_entry`).
    async fn move_entry(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        direction: Direction,
    ) -> Result<ManualSponsorList, ContentError>;
}

pub struct ManualSponsorService<R, M, A, C> {
    repo: R,
    media: M,
    audit: A,
    clock: C,
}

impl<R, M, A, C> ManualSponsorService<R, M, A, C> {
    pub fn new(repo: R, media: M, audit: A, clock: C) -> Self {
        Self { repo, media, audit, clock }
    }
}

fn fields(sponsor: &ManualSponsor, logo: Option<&str>) -> Vec<(&'static str, Value)> {
    vec![
        ("course", json!(sponsor.course.code())),
        ("name", json!(sponsor.name)),
        ("link", sponsor.link.as_deref().map_or(Value::Null, logged_text)),
        ("amount", json!(sponsor.amount.map(|a| a.0))),
        ("latestDate", json!(sponsor.latest_date.map(|d| d.to_string()))),
        ("logo", json!(logo.map(logged_file))),
    ]
}

impl<R: ManualSponsorRepository, M: MediaStorage, A: AuditLog, C: Clock> ManualSponsorService<R, M, A, C> {
    async fn list_now(&self, project: ProjectId) -> Result<ManualSponsorList, ContentError> {
        Ok(self.repo.list(project).await?.in_wall_order())
    }

    /// `detail`: the entry's id and name (the log shows it by name) and the list's project title.
    async fn record(
        &self,
        admin: UserId,
        kind: AdminActionKind,
        list: &ManualSponsorList,
        mut detail: Value,
    ) -> Result<(), ContentError> {
        if let Value::Object(fields) = &mut detail {
            fields.insert("projectTitle".into(), json!(list.title));
        }
        let action = NewAdminAction { project_id: Some(list.project_id), detail, ..NewAdminAction::new(admin, kind) };
        self.audit.record(action).await?;
        Ok(())
    }

    /// Checks and stores a logo; the file is decoded only once the form passed.
    async fn store_logo(&self, project: ProjectId, bytes: Vec<u8>) -> Result<String, ContentError> {
        let kind = detect_image(&bytes, u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
        let prefix = format!("projects/{}/sponsors", project.0);
        let stored = self.media.store_image_fit(&prefix, kind, bytes, ImageFit::Within(LOGO_EDGE)).await?;
        Ok(stored.url)
    }

    fn check(&self, form: &ManualSponsorForm, logo: Logo) -> Result<ManualSponsor, ContentError> {
        check_manual_sponsor(form, logo, tokyo_date(self.clock.now())).map_err(ContentError::Invalid)
    }
}

#[async_trait::async_trait]
impl<R: ManualSponsorRepository, M: MediaStorage, A: AuditLog, C: Clock> ManualSponsors
    for ManualSponsorService<R, M, A, C>
{
    async fn list(&self, project: ProjectId) -> Result<ManualSponsorList, ContentError> {
        self.list_now(project).await
    }

    async fn create(
        &self,
        admin: UserId,
        project: ProjectId,
        form: ManualSponsorForm,
        logo: Option<Vec<u8>>,
    ) -> Result<ManualSponsorList, ContentError> {
        let before = self.list_now(project).await?;
        let sponsor = self.check(&form, if logo.is_some() { Logo::Uploaded } else { Logo::None })?;
        if before.entries.len() >= MAX_MANUAL_SPONSORS {
            return Err(ContentError::invalid("form", MSG_TOO_MANY));
        }
        let logo_src = match logo {
            Some(bytes) => Some(self.store_logo(project, bytes).await?),
            None => None,
        };
        let id = self.repo.create(project, &sponsor, logo_src.clone(), self.clock.now()).await?;
        let detail = json!({
            "sponsorId": id,
            "title": sponsor.name,
            "changes": changes(None, &fields(&sponsor, logo_src.as_deref())),
        });
        self.record(admin, AdminActionKind::ManualSponsorCreated, &before, detail).await?;
        self.list_now(project).await
    }

    async fn update(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        form: ManualSponsorForm,
        logo: Option<Vec<u8>>,
    ) -> Result<ManualSponsorList, ContentError> {
        let before = self.list_now(project).await?;
        let current = before.entry(id)?.clone();
        let state = match (&logo, &current.logo_src) {
            (Some(_), _) => Logo::Uploaded,
            (None, Some(_)) => Logo::Stored,
            (None, None) => Logo::None,
        };
        let sponsor = self.check(&form, state)?;
        let change = match logo {
            Some(bytes) => LogoChange::Set(self.store_logo(project, bytes).await?),
            // Supporters are listed by name only: a logo kept there would never show.
            None if !sponsor.course.shows_logo() && current.logo_src.is_some() => LogoChange::Clear,
            None => LogoChange::Keep,
        };
        let logo_after = match &change {
            LogoChange::Keep => current.logo_src.clone(),
            LogoChange::Set(url) => Some(url.clone()),
            LogoChange::Clear => None,
        };
        self.repo.update(project, id, &sponsor, change, self.clock.now()).await?;
        let old = fields(&current.sponsor, current.logo_src.as_deref());
        let detail = json!({
            "sponsorId": id,
            "title": sponsor.name,
            "changes": changes(Some(&old), &fields(&sponsor, logo_after.as_deref())),
        });
        self.record(admin, AdminActionKind::ManualSponsorUpdated, &before, detail).await?;
        self.list_now(project).await
    }

    async fn delete(&self, admin: UserId, project: ProjectId, id: i64) -> Result<ManualSponsorList, ContentError> {
        let before = self.list_now(project).await?;
        let current = before.entry(id)?.clone();
        self.repo.delete(project, id, self.clock.now()).await?;
        let detail = json!({
            "sponsorId": id,
            "title": current.sponsor.name,
            "course": current.sponsor.course.code(),
        });
        self.record(admin, AdminActionKind::ManualSponsorDeleted, &before, detail).await?;
        self.list_now(project).await
    }

    async fn move_entry(
        &self,
        admin: UserId,
        project: ProjectId,
        id: i64,
        direction: Direction,
    ) -> Result<ManualSponsorList, ContentError> {
        let before = self.list_now(project).await?;
        let course = before.entry(id)?.sponsor.course;
        let name = before.entry(id)?.sponsor.name.clone();
        let order = move_entry(&before.course(course), id, direction).map_err(|e| match e {
            MoveError::Unknown => ContentError::NotFound,
            MoveError::NotMovable => ContentError::invalid("direction", &e.to_string()),
        })?;
        self.repo.reorder(project, course, &order, self.clock.now()).await?;
        // The one entry it changed places with: the new order holds it where the moved one was.
        let index = order.iter().position(|i| *i == id).unwrap_or_default();
        let passed = match direction {
            Direction::Up => order.get(index + 1),
            Direction::Down => index.checked_sub(1).and_then(|i| order.get(i)),
        };
        let passed = passed.and_then(|p| before.entries.iter().find(|e| e.id == *p)).map(|e| e.sponsor.name.clone());
        let detail = json!({
            "sponsorId": id,
            "title": name,
            "course": course.code(),
            "direction": match direction { Direction::Up => "up", Direction::Down => "down" },
            "passed": passed,
        });
        self.record(admin, AdminActionKind::ManualSponsorsReordered, &before, detail).await?;
        self.list_now(project).await
    }
}

#[cfg(test)]
#[path = "sponsors_tests.rs"]
mod tests;
